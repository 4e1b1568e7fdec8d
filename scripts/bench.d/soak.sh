#!/usr/bin/env bash
# Soak: `imgfetch prefetch -j16` of 1,000,000 distinct URLs (--quick: 100,000; BENCH_SOAK_URLS=N
# for another count) into one fresh cache, served by nginx on 127.0.0.1 from 500 distinct small
# PNGs, each behind many names (/many/K/N.png serves small-set/K.png), so the server's disk holds
# 250 KB. They average 500 bytes, so a million stay under the cache's default 1 GiB limit (past
# it, a store would evict half the cache). While the prefetch runs, its peak RSS and open file
# descriptors are sampled from /proc and taken as the count of requests passes 10k, 100k and 1M.
# Targets: every URL cached and none failed, and peak RSS and most open descriptors within 10% of
# their 10k figures. Then, on the full cache, each timed once: `cache ls | head` (to its first
# line, and to its exit at the closed pipe; target: the first line within a second), the whole
# `cache ls` with its peak RSS, `cache info`, `cache trim --max-size` to half the bytes (which
# trims to a quarter, as documented), and `cache verify` of what is left.
# Not in the default mode list: the full run takes about 15 minutes and writes 1M files (about
# 4 GB of blocks) under bench-out/run/, removed at the end unless BENCH_SOAK_KEEP=1.
# shellcheck source=lib/common.sh
source "$(dirname "$0")/lib/common.sh"
# shellcheck source=lib/nginx.sh
source "$BENCH_LIB/nginx.sh"

total="${BENCH_SOAK_URLS:-$(bench_quick && echo 100000 || echo 1000000)}"
distinct=500
checkpoints=()
for n in 10000 100000 1000000; do [ "$n" -gt "$total" ] || checkpoints+=("$n"); done
[ "${checkpoints[${#checkpoints[@]}-1]:-0}" -eq "$total" ] || checkpoints+=("$total")
label() { awk -v n="$1" 'BEGIN { if (n >= 1e6 && n % 1e6 == 0) printf "%dM", n / 1e6; else if (n >= 1e3 && n % 1e3 == 0) printf "%dk", n / 1e3; else print n }'; }
scenario="soak: prefetch -j$BENCH_CONCURRENCY of $(label "$total") URLs ($distinct small PNGs behind distinct names)"
on_cache="soak: the $(label "$total")-entry cache"

if ! bench_imgfetch_has prefetch || ! bench_imgfetch_has cache; then
  bench_skip "$scenario" "peak RSS and open descriptors" "imgfetch prefetch or cache not available"
  exit 0
fi

python3 "$BENCH_LIB/corpus.py" "$BENCH_OUT/corpus" --small-set "$distinct"
nginx_start "$BENCH_OUT/corpus"
list="$BENCH_OUT/lists/soak-$total.txt"
seq 0 $((total - 1)) | awk -v base="$NGINX_URL" -v k="$distinct" '{ printf "%s/many/%d/%d.png\n", base, $1 % k, $1 }' > "$list"
cache="$(bench_fresh_dir soak-cache)"
[ "${BENCH_SOAK_KEEP:-0}" = 1 ] || bench_on_exit "rm -rf '$cache'"
mib() { awk -v k="$1" 'BEGIN { printf "%.1f MiB", k / 1024 }'; }

# --- the prefetch, watched ---
samples="$BENCH_OUT/run/soak-samples"
rss_file="$BENCH_OUT/run/soak-rss"
mark="$(nginx_log_mark)"
log "prefetch of $total URLs into $cache"
start=$EPOCHREALTIME
/usr/bin/time -f '%M %U %S' -o "$rss_file" "$IMGFETCH_BIN" prefetch "$list" -j "$BENCH_CONCURRENCY" --cache-dir "$cache" \
  >>"$BENCH_LOG" 2>&1 &
timer=$!
worker=""
for _ in $(seq 1 100); do
  worker="$(pgrep -P "$timer" -x imgfetch || true)"
  [ -z "$worker" ] || break
  sleep 0.02
done
if [ -z "$worker" ]; then
  wait "$timer" || true
  bench_skip "$scenario" "peak RSS and open descriptors" "could not find the prefetch process (see $BENCH_LOG)"
  exit 0
fi
python3 "$BENCH_LIB/procwatch.py" "$worker" "$NGINX_ACCESS_LOG" "$mark" "${checkpoints[@]}" > "$samples"
status=0
wait "$timer" || status=$?
took="$(awk -v a="$start" -v b="$EPOCHREALTIME" 'BEGIN { printf "%.1f", b - a }')"
cat "$samples" >>"$BENCH_LOG"
read -r final_kib user system < <(tail -n 1 "$rss_file")
cpu="$(awk -v u="$user" -v s="$system" 'BEGIN { printf "%.1f s CPU", u + s }')"
info_json="$("$IMGFETCH_BIN" cache info --json --cache-dir "$cache" 2>>"$BENCH_LOG" || true)"
entries="$(python3 -c 'import json, sys; print(json.loads(sys.stdin.read() or "{}").get("entries", 0))' <<<"$info_json")"
bytes="$(python3 -c 'import json, sys; print(json.loads(sys.stdin.read() or "{}").get("bytes", 0))' <<<"$info_json")"
failed="$(grep -o '[0-9]* failed' "$BENCH_LOG" | tail -n 1 | cut -d' ' -f1)"
log "prefetch: exit $status in $took s, $entries entries, ${failed:-?} failed, peak RSS $(mib "$final_kib")"
verdict="$( [ "$status" -eq 0 ] && [ "$entries" -eq "$total" ] && [ "${failed:-1}" -eq 0 ] && echo PASS || echo FAIL)"
bench_row "$scenario" "URLs cached, failed (exit $status, $took s, $cpu)" "$entries cached, ${failed:-?} failed" "$total URLs" "" \
  "all cached, none failed" "$verdict"

base_kib="" base_fds=""
while read -r checkpoint count peak fds seconds; do
  [ "$checkpoint" != end ] || continue
  # The last checkpoint's memory is the exact peak /usr/bin/time saw; the others are sampled.
  [ "$checkpoint" -ne "$total" ] || peak="$final_kib"
  shown="$(mib "$peak"), $fds fds (at $count requests, $seconds s)"
  if [ -z "$base_kib" ]; then
    base_kib="$peak" base_fds="$fds"
    bench_row "$scenario" "peak RSS and most open descriptors at $(label "$checkpoint")" "$shown" "" "" "the baseline" "info"
    continue
  fi
  ratio="$(bench_ratio "$peak" "$base_kib")"
  fd_ratio="$(bench_ratio "$fds" "$base_fds")"
  both="$( [ "$(bench_verdict "$ratio" le 1.10)" = PASS ] && [ "$(bench_verdict "$fd_ratio" le 1.10)" = PASS ] && echo PASS || echo FAIL)"
  bench_row "$scenario" "peak RSS, descriptors at $(label "$checkpoint") vs $(label "${checkpoints[0]}")" "$shown" \
    "$(mib "$base_kib"), $base_fds fds" "${ratio}×, ${fd_ratio}×" "≤ 1.10× both" "$both"
done < "$samples"
[ -n "$base_kib" ] || bench_skip "$scenario" "peak RSS and open descriptors" "no sample reached $(label "${checkpoints[0]}") (see $BENCH_LOG)"

if [ "$entries" -eq 0 ]; then
  bench_skip "$on_cache" "cache commands" "the prefetch cached nothing (see $BENCH_LOG)"
  exit 0
fi

# --- the cache commands, each once, with its peak RSS ---
# timed_rss NAME CMD...: runs CMD (output to the log), sets TOOK (wall), CPU ("user + system"
# seconds: on a shared machine the wall time also counts the waits for a core) and KIB.
timed_rss() {
  local name="$1" status=0
  shift
  sync
  bench_time TOOK /usr/bin/time -f '%M %U %S' -o "$BENCH_OUT/run/soak-cmd-rss" "$@" || status=$?
  read -r KIB user system < <(tail -n 1 "$BENCH_OUT/run/soak-cmd-rss")
  CPU="$(awk -v u="$user" -v s="$system" 'BEGIN { printf "%.1f s CPU", u + s }')"
  log "$name: exit $status, $(bench_seconds "$TOOK") ($CPU), peak RSS $(mib "$KIB")"
  return "$status"
}

read -r first until_exit head_status lines < <(python3 "$BENCH_LIB/firstline.py" 10 \
  "$IMGFETCH_BIN" cache ls --cache-dir "$cache")
log "cache ls | head: first line in $first s, exit $head_status after $until_exit s, $lines lines read"
verdict="$( [ "$lines" -eq 10 ] && [ "$head_status" -eq 141 ] && bench_verdict "$first" le 1.0 || echo FAIL)"
bench_row "$on_cache" "cache ls | head: to the first line" "$(bench_seconds "$first")" "" "" "≤ 1 s" "$verdict"
bench_row "$on_cache" "cache ls | head: to its exit at the closed pipe (status $head_status)" "$(bench_seconds "$until_exit")" "" "" "exit 141" \
  "$( [ "$head_status" -eq 141 ] && echo info || echo FAIL)"

# The whole listing goes to /dev/null (the log would get 1M lines); exec keeps one process to measure.
timed_rss "cache ls (all)" bash -c 'exec "$0" cache ls --cache-dir "$1" > /dev/null' "$IMGFETCH_BIN" "$cache" &&
  bench_row "$on_cache" "cache ls, every line (to /dev/null): time, peak RSS" "$(bench_seconds "$TOOK") ($CPU), $(mib "$KIB")" "" "" "" "info" ||
  bench_skip "$on_cache" "cache ls, every line" "it failed (see $BENCH_LOG)"

timed_rss "cache info" "$IMGFETCH_BIN" cache info --cache-dir "$cache" &&
  bench_row "$on_cache" "cache info: time, peak RSS" "$(bench_seconds "$TOOK") ($CPU), $(mib "$KIB")" "" "" "" "info" ||
  bench_skip "$on_cache" "cache info" "it failed (see $BENCH_LOG)"

half=$((bytes / 2))
if timed_rss "cache trim --max-size $half" "$IMGFETCH_BIN" cache trim --max-size "$half" --cache-dir "$cache"; then
  left="$("$IMGFETCH_BIN" cache info --json --cache-dir "$cache" | python3 -c 'import json, sys; print(json.load(sys.stdin)["entries"])')"
  bench_row "$on_cache" "cache trim --max-size $((half / 1000000)) MB (half): time, peak RSS, entries left" \
    "$(bench_seconds "$TOOK") ($CPU), $(mib "$KIB"), $left of $entries left" "" "" "" "info"
else
  left="$entries"
  bench_skip "$on_cache" "cache trim --max-size (half)" "it failed (see $BENCH_LOG)"
fi

if timed_rss "cache verify" "$IMGFETCH_BIN" cache verify --cache-dir "$cache"; then
  bench_row "$on_cache" "cache verify of the $left entries left: time, peak RSS" "$(bench_seconds "$TOOK") ($CPU), $(mib "$KIB")" "" "" \
    "exit 0" "info"
else
  bench_row "$on_cache" "cache verify of the $left entries left" "failed (see $BENCH_LOG)" "" "" "exit 0" "FAIL"
fi
