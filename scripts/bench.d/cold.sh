#!/usr/bin/env bash
# Cold batch: `imgfetch prefetch` against aria2c -i, curl --parallel, wget -i and xargs -P curl on
# the same list of corpus images from nginx on loopback, concurrency 16, a fresh cache / output
# directory every run, several rounds in alternating order; the median wall time of each. Over
# plain http, then over https (HTTP/2, the bench's own certificate given to every tool).
# Targets: over http imgfetch <= 0.90x curl --parallel; over https <= 0.85x the fastest peer,
# whichever it is (with HTTP/2 curl --parallel multiplexes on one connection and is not the
# fastest). Also reports what `--verify decode` (decoding every pixel) adds, which has no target.
# shellcheck source=lib/common.sh
source "$(dirname "$0")/lib/common.sh"
# shellcheck source=lib/nginx.sh
source "$BENCH_LIB/nginx.sh"
# shellcheck source=lib/fetchers.sh
source "$BENCH_LIB/fetchers.sh"

count="$(bench_corpus_count)"
rounds="$(bench_rounds)"
corpus_list="$(bench_corpus "$count")"
nginx_start "$BENCH_OUT/corpus"
size="$(bench_corpus_size "$corpus_list")"

peers=(curl_parallel aria2c wget xargs_curl)
has_prefetch=0
if bench_imgfetch_has prefetch; then
  has_prefetch=1
else
  log "imgfetch prefetch not available: timing the other tools only"
fi

# cold_batch SCHEME BASE TARGET-PEERS LIMIT: one scenario's rows. TARGET-PEERS is a space-separated
# list: the fastest of them is the reference the LIMIT applies to.
cold_batch() {
  local scheme="$1" base="$2" targets="$3" limit="$4" list f fastest="" own peer reference target verdict ratio
  list="$BENCH_OUT/lists/cold-$scheme-$count.txt"
  sed "s|^|$base/|" "$corpus_list" > "$list"
  local scenario="cold batch over $scheme: $count images ($size), -j$BENCH_CONCURRENCY, median of $rounds"
  local fetchers=("${peers[@]}")
  [ "$has_prefetch" = 0 ] || fetchers=(imgfetch imgfetch_verify "${peers[@]}")
  BATCH_MEDIAN=() BATCH_FAILED=()
  # One untimed pass first, so every round finds the corpus in the page cache.
  fetch_curl_parallel "$list" "$(bench_fresh_dir warmup)" >>"$BENCH_LOG" 2>&1 || true
  batch_rounds "$list" "$count" "$rounds" "${fetchers[@]}"

  for f in $targets; do
    [ -n "${BATCH_MEDIAN[$f]:-}" ] || continue
    if [ -z "$fastest" ] || [ "$(bench_verdict "${BATCH_MEDIAN[$f]}" lt "${BATCH_MEDIAN[$fastest]}")" = PASS ]; then
      fastest="$f"
    fi
  done
  local which="fastest of $(for f in $targets; do printf '%s, ' "$(fetcher_name "$f")"; done)"
  which="${which%, }"
  [ "$(wc -w <<<"$targets")" -gt 1 ] || which="$(fetcher_name "$targets")"

  own="${BATCH_MEDIAN[imgfetch]:-}"
  for f in "${peers[@]}"; do
    peer="${BATCH_MEDIAN[$f]:-}"
    reference="$(bench_seconds "${peer:-0}")"
    [ -n "$peer" ] || reference="failed: ${BATCH_FAILED[$f]:-no time}"
    target="—" verdict="info"
    [ "$f" != "$fastest" ] || target="≤ $(printf '%.2f' "$limit")× ($which)"
    if [ "$has_prefetch" = 0 ]; then
      bench_skip "$scenario" "vs $(fetcher_name "$f")" "imgfetch prefetch not available" "$reference" "$target"
    elif [ -z "$own" ]; then
      bench_skip "$scenario" "vs $(fetcher_name "$f")" "${BATCH_FAILED[imgfetch]:-no time}" "$reference" "$target"
    elif [ -z "$peer" ]; then
      bench_row "$scenario" "vs $(fetcher_name "$f")" "$(bench_seconds "$own")" "$reference" "" "$target" "info"
    else
      ratio="$(bench_ratio "$own" "$peer")"
      [ "$f" != "$fastest" ] || verdict="$(bench_verdict "$ratio" le "$limit")"
      bench_row "$scenario" "vs $(fetcher_name "$f")" "$(bench_seconds "$own")" "$reference" "${ratio}×" "$target" "$verdict"
    fi
  done

  if [ -n "$own" ] && [ -n "${BATCH_MEDIAN[imgfetch_verify]:-}" ]; then
    local verify="${BATCH_MEDIAN[imgfetch_verify]}"
    bench_row "$scenario" "--verify decode vs plain prefetch" "$(bench_seconds "$verify")" \
      "$(bench_seconds "$own")" "$(bench_ratio "$verify" "$own")×" "no target yet" "info"
  elif [ "$has_prefetch" = 1 ]; then
    bench_skip "$scenario" "--verify decode vs plain prefetch" "${BATCH_FAILED[imgfetch_verify]:-no time}"
  fi
}

FETCH_CACERT="" cold_batch http "$NGINX_URL" "curl_parallel" 0.90
FETCH_CACERT="$BENCH_CACERT" cold_batch https "$NGINX_TLS_URL" "curl_parallel aria2c wget xargs_curl" 0.85
