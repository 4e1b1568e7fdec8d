#!/usr/bin/env bash
# Remote cache tier: the corpus split across 4 workers with `prefetch --shard i/4`, run at once,
# each with its own empty local cache, sharing nginx's WebDAV module as the remote tier; then a
# fresh worker (empty local cache) over the whole list from the tier, against the same fresh
# worker fetching from the origin nginx directly (no tier), several rounds in alternating order.
# Targets: origin requests across the 4 workers exactly the corpus count; the fresh worker from
# the tier <= 1.2x the fresh worker from the origin (the tier costs almost nothing).
# Then faults: a fresh worker with 2 % of tier requests answered 500 (a second nginx serving the
# same WebDAV folder, failing requests at random with split_clients: a Python proxy could not
# pass 280 MB a second) gets >= 95 % of the objects from the tier in <= 1.2x the origin's time;
# with the tier 10x slower than the origin (the tests' fault-injecting proxy,
# Tests/Server/faultproxy.py, adding the delay), <= 1.2x the origin's time. Each of these two
# sections alternates its rounds with rounds from the origin and compares with those: every round
# deletes the last one's cache, and on this machine's ext4 a section run after many such deletions
# is slower as a whole (in two runs, the origin's rounds took 0.58-1.10 s in the first section and
# 0.90-1.17 s in the last), which the first section's origin rounds would have charged to the tier.
# shellcheck source=lib/common.sh
source "$(dirname "$0")/lib/common.sh"
# shellcheck source=lib/nginx.sh
source "$BENCH_LIB/nginx.sh"

count="$(bench_corpus_count)"
rounds="$(bench_rounds)"
corpus_list="$(bench_corpus "$count")"
nginx_start "$BENCH_OUT/corpus"
list="$BENCH_OUT/lists/remote-$count.txt"
sed "s|^|$NGINX_URL/|" "$corpus_list" > "$list"
tier="$NGINX_DAV_URL/bench"
scenario="remote tier: $count images ($(bench_corpus_size "$corpus_list")), 4 sharded workers -j$BENCH_CONCURRENCY + nginx WebDAV"

# The help is read whole first: grep -q would close the pipe early, and pipefail take that as a failure.
help="$(bench_imgfetch_has prefetch && "$IMGFETCH_BIN" prefetch --help 2>&1 || true)"
if ! grep -q -- --remote-cache <<<"$help"; then
  bench_skip "$scenario" "fresh worker from the tier vs from the origin" "imgfetch prefetch --remote-cache not available"
  exit 0
fi

# Origin requests (not /dav/) logged after MARK.
origin_requests_since() { nginx_requests_since "$1" | grep -vc '^/dav/' || true; }

# The 4 workers at once, as a job engine would start them; fills the tier.
run_shards() {
  local i pids=() status=0
  for i in 0 1 2 3; do
    "$IMGFETCH_BIN" prefetch "$list" -j "$BENCH_CONCURRENCY" --shard "$i/4" --remote-cache "$tier" \
      --cache-dir "$(bench_fresh_dir "remote-shard-$i")" &
    pids+=($!)
  done
  for i in "${pids[@]}"; do wait "$i" || status=$?; done
  return "$status"
}
fresh_from_tier() { "$IMGFETCH_BIN" prefetch "$list" -j "$BENCH_CONCURRENCY" --remote-cache "$tier" --cache-dir "$(bench_fresh_dir remote-fresh)"; }
fresh_from_origin() { "$IMGFETCH_BIN" prefetch "$list" -j "$BENCH_CONCURRENCY" --cache-dir "$(bench_fresh_dir remote-origin)" -q; }

# One untimed pass, so every round finds the corpus in the page cache.
fresh_from_origin >>"$BENCH_LOG" 2>&1 || true

rm -rf "$BENCH_OUT/nginx/dav/bench"
mark="$(nginx_log_mark)"
shard_status=0
bench_time shard_time run_shards || shard_status=$?
shard_origin="$(origin_requests_since "$mark")"
stored="$(find "$BENCH_OUT/nginx/dav/bench" -type f 2>/dev/null | wc -l)"
log "4 sharded workers: $(bench_seconds "$shard_time"), $shard_origin origin requests, $stored objects on the tier"
verdict="$( [ "$shard_status" -eq 0 ] && [ "$shard_origin" -eq "$count" ] && [ "$stored" -eq "$count" ] && echo PASS || echo FAIL)"
bench_row "$scenario" "origin requests across the 4 workers ($stored objects stored, $(bench_seconds "$shard_time"))" \
  "$shard_origin" "$count URLs" "" "= $count" "$verdict"

# One untimed pass from the tier too, as the origin had one: the first run after the shards
# otherwise pays for their 560 MB of writes still settling (0.81 s against 0.45–0.65 s for the
# tier's later rounds, in the first run that logged each round).
mark="$(nginx_log_mark)"
fresh_from_tier >>"$BENCH_LOG" 2>&1 || true
tier_origin="$(origin_requests_since "$mark")"

tier_times=() origin_times=()
for ((round = 1; round <= rounds; round++)); do
  for which in tier origin; do
    # Alternate which goes first, so neither always runs on a warmer machine.
    if ((round % 2 == 0)); then which=$([ "$which" = tier ] && echo origin || echo tier); fi
    if [ "$which" = tier ]; then
      mark="$(nginx_log_mark)"
      bench_time t fresh_from_tier && tier_times+=("$t") && log "round $round: from the tier $t s"
      tier_origin=$((tier_origin + $(origin_requests_since "$mark")))
    else
      bench_time t fresh_from_origin && origin_times+=("$t") && log "round $round: from the origin $t s"
    fi
  done
done

if [ "${#tier_times[@]}" -eq 0 ] || [ "${#origin_times[@]}" -eq 0 ]; then
  bench_skip "$scenario" "fresh worker from the tier vs from the origin" "a run failed (see $BENCH_LOG)" "" "≤ 1.20×"
  exit 0
fi
from_tier="$(bench_median "${tier_times[@]}")"
from_origin="$(bench_median "${origin_times[@]}")"
ratio="$(bench_ratio "$from_tier" "$from_origin")"
verdict="$(bench_verdict "$ratio" le 1.2)"
[ "$tier_origin" -eq 0 ] || verdict=FAIL
bench_row "$scenario" "fresh worker from the tier ($tier_origin origin requests) vs from the origin, median of $rounds" \
  "$(bench_seconds "$from_tier")" "$(bench_seconds "$from_origin")" "${ratio}×" "≤ 1.20×, 0 origin requests" "$verdict"

# The fleet's second pass: 4 fresh sharded workers at once against the filled tier. Every object
# is there, so each origin request is a load that skipped the tier (the start-up crowd makes the
# first reads slow: the speed rule times the origin, 16 loads a worker, and checks a slow verdict
# with one more read before it skips the tier). Printed, with no target.
mark="$(nginx_log_mark)"
run_shards >>"$BENCH_LOG" 2>&1 || true
herd_origin="$(origin_requests_since "$mark")"
log "4 fresh sharded workers from the filled tier: $herd_origin origin requests"
bench_row "$scenario" "4 fresh sharded workers at once from the filled tier: origin requests" \
  "$herd_origin" "$count URLs" "" "—" "info"

# --- the tier behind the fault-injecting proxy ---
# proxy_start ARGS...: the proxy in front of nginx, on a port of its own; sets PROXY_TIER. Its
# standard input is a FIFO this script holds open: the proxy exits when proxy_stop closes it.
proxy_start() {
  local out="$BENCH_OUT/logs/faultproxy.port" fifo="$BENCH_OUT/logs/faultproxy.fifo"
  : >"$out"
  rm -f "$fifo" && mkfifo "$fifo"
  python3 "$BENCH_ROOT/Tests/Server/faultproxy.py" "${NGINX_URL##*:}" "$@" <"$fifo" >"$out" 2>>"$BENCH_LOG" &
  PROXY_PID=$!
  exec {PROXY_FD}>"$fifo"
  bench_on_exit "kill $PROXY_PID 2>/dev/null"
  for _ in $(seq 200); do grep -q '^PORT ' "$out" && break; sleep 0.05; done
  PROXY_TIER="http://127.0.0.1:$(awk '{ print $2 }' "$out")/dav/bench"
}
proxy_stop() {
  if [ -n "${PROXY_FD:-}" ]; then exec {PROXY_FD}>&-; PROXY_FD=""; else kill "$PROXY_PID" 2>/dev/null; fi
  wait "$PROXY_PID" 2>/dev/null || true
}
# A fresh worker through the proxy; its --summary-json in $BENCH_OUT/logs/remote-proxy.json.
fresh_through_proxy() {
  "$IMGFETCH_BIN" prefetch "$list" -j "$BENCH_CONCURRENCY" --remote-cache "$PROXY_TIER" \
    --cache-dir "$(bench_fresh_dir remote-proxy)" --summary-json "$BENCH_OUT/logs/remote-proxy.json"
}
from_tier_count() { python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["loaded"]["remote"])' "$BENCH_OUT/logs/remote-proxy.json"; }

if ! grep -q -- --summary-json <<<"$help"; then
  bench_skip "$scenario" "fresh worker, 2 % of tier requests failing" "imgfetch prefetch --summary-json not available"
  exit 0
fi

# faulty_nginx_start PERCENT: a second nginx on the same WebDAV folder that answers PERCENT % of
# requests 500, chosen at random per request; sets PROXY_TIER and PROXY_PID.
faulty_nginx_start() {
  local prefix="$BENCH_OUT/nginx-faults" port user_line=""
  mkdir -p "$prefix/tmp"
  port="$(bench_free_port)"
  [ "$(id -u)" -ne 0 ] || user_line="user root;"
  cat >"$prefix/nginx.conf" <<EOF
$user_line
daemon off;
worker_processes auto;
pid $prefix/nginx.pid;
error_log $prefix/error.log warn;
events { worker_connections 4096; }
http {
  access_log off;
  # Served as the healthy tier is (lib/nginx.sh), so the rows measure the faults alone.
  sendfile on;
  tcp_nopush on;
  tcp_nodelay on;
  keepalive_requests 1000000;
  client_body_temp_path $prefix/tmp/body;
  split_clients "\${request_id}" \$fault { $1% 1; * ""; }
  server {
    listen 127.0.0.1:$port;
    location /dav/ {
      if (\$fault) { return 500; }
      alias $BENCH_OUT/nginx/dav/;
      dav_methods PUT DELETE;
      create_full_put_path on;
      client_max_body_size 0;
    }
  }
}
EOF
  nginx -p "$prefix" -c "$prefix/nginx.conf" -e "$prefix/error.log" &
  PROXY_PID=$!
  bench_on_exit "kill $PROXY_PID 2>/dev/null"
  for _ in $(seq 200); do [ "$(curl -s -o /dev/null -w '%{http_code}' "http://127.0.0.1:$port/")" != 000 ] && break; sleep 0.05; done
  PROXY_TIER="http://127.0.0.1:$port/dav/bench"
}

# faulty_rounds LABEL: `rounds` rounds of fresh_through_proxy alternating with fresh_from_origin
# (which goes first alternates too); sets times, fractions (of objects from the tier) and
# section_origin (the origin's rounds of this section), and logs each round.
faulty_rounds() {
  local which t
  times=() fractions=() section_origin=()
  for ((round = 1; round <= rounds; round++)); do
    for which in tier origin; do
      if ((round % 2 == 0)); then which=$([ "$which" = tier ] && echo origin || echo tier); fi
      if [ "$which" = origin ]; then
        bench_time t fresh_from_origin && section_origin+=("$t") && log "round $round: from the origin $t s"
      elif bench_time t fresh_through_proxy; then
        times+=("$t")
        fractions+=("$(awk -v n="$(from_tier_count)" -v c="$count" 'BEGIN { printf "%.3f", n / c }')")
        log "round $round: $1: $t s, ${fractions[-1]} from the tier"
      fi
    done
  done
}
# The median of this section's origin rounds, or the first section's if none ran.
section_reference() {
  if [ "${#section_origin[@]}" -gt 0 ]; then bench_median "${section_origin[@]}"; else echo "$from_origin"; fi
}

faulty_nginx_start 2
faulty_rounds "2 % failing"
proxy_stop
if [ "${#times[@]}" -eq 0 ]; then
  bench_skip "$scenario" "fresh worker, 2 % of tier requests failing" "a run failed (see $BENCH_LOG)"
else
  failing="$(bench_median "${times[@]}")"
  fraction="$(printf '%s\n' "${fractions[@]}" | sort -g | head -1)"
  reference="$(section_reference)"
  ratio="$(bench_ratio "$failing" "$reference")"
  verdict="$(bench_verdict "$ratio" le 1.2)"
  [ "$(bench_verdict "$fraction" ge 0.95)" = PASS ] || verdict=FAIL
  bench_row "$scenario" "fresh worker, 2 % of tier requests answered 500 (least from the tier: $fraction) vs from the origin in alternate rounds, median of ${#times[@]}" \
    "$(bench_seconds "$failing")" "$(bench_seconds "$reference")" "${ratio}×" "≤ 1.20×, ≥ 0.95 from the tier" "$verdict"
fi

# 10x the origin's time per request: its wall time over the requests, times the loads in flight.
delay_ms="$(awk -v t="$from_origin" -v c="$count" -v j="$BENCH_CONCURRENCY" 'BEGIN { printf "%d", 10 * 1000 * t * j / c + 0.5 }')"
proxy_start --delay-ms "$delay_ms"
faulty_rounds "tier $delay_ms ms slow"
proxy_stop
if [ "${#times[@]}" -eq 0 ]; then
  bench_skip "$scenario" "fresh worker, the tier 10× slower than the origin" "a run failed (see $BENCH_LOG)"
else
  slow="$(bench_median "${times[@]}")"
  reference="$(section_reference)"
  ratio="$(bench_ratio "$slow" "$reference")"
  bench_row "$scenario" "fresh worker, the tier 10× slower than the origin ($delay_ms ms a request) vs from the origin in alternate rounds, median of ${#times[@]}" \
    "$(bench_seconds "$slow")" "$(bench_seconds "$reference")" "${ratio}×" "≤ 1.20×" "$(bench_verdict "$ratio" le 1.2)"
fi
