#!/usr/bin/env bash
# Cold batch behind a 20 ms time to first byte per request (the project's test server, `delay_ms=`):
# imgfetch prefetch against curl --parallel at the same concurrency, and against the latency floor
# URLs x 20 ms / concurrency. Twice: with the corpus images, and with bodies of 165 bytes, where the
# time to first byte is all there is to wait for, so only there is the floor a fair target.
# Targets: <= 1.0x curl --parallel, and <= 1.25x the floor (small bodies).
# shellcheck source=lib/common.sh
source "$(dirname "$0")/lib/common.sh"
# shellcheck source=lib/testserver.sh
source "$BENCH_LIB/testserver.sh"
# shellcheck source=lib/fetchers.sh
source "$BENCH_LIB/fetchers.sh"

delay_ms=20
count="$(bench_corpus_count)"
rounds="$(bench_rounds)"
floor="$(awk -v n="$count" -v d="$delay_ms" -v j="$BENCH_CONCURRENCY" 'BEGIN { printf "%.4f", n * d / 1000 / j }')"
floor_name="floor $count×${delay_ms} ms÷$BENCH_CONCURRENCY"
has_prefetch=0
! bench_imgfetch_has prefetch || has_prefetch=1

# latency_case SCENARIO LIST FLOOR_TARGET: times imgfetch and curl --parallel on LIST (URLs of the
# test server) and writes the rows; FLOOR_TARGET is "≤ 1.25×" or "" for an info row.
latency_case() {
  local scenario="$1" list="$2" floor_target="$3" fetchers=(curl_parallel) own curl_time curl_shown why ratio
  [ "$has_prefetch" = 0 ] || fetchers=(imgfetch curl_parallel)
  BATCH_MEDIAN=() BATCH_FAILED=()
  batch_rounds "$list" "$count" "$rounds" "${fetchers[@]}"
  curl_time="${BATCH_MEDIAN[curl_parallel]:-}"
  own="${BATCH_MEDIAN[imgfetch]:-}"
  curl_shown="$(bench_seconds "${curl_time:-0}")"
  [ -n "$curl_time" ] || curl_shown="failed: ${BATCH_FAILED[curl_parallel]:-no time}"

  if [ -z "$own" ]; then
    why="imgfetch prefetch not available"
    [ "$has_prefetch" = 0 ] || why="${BATCH_FAILED[imgfetch]:-no time}"
    bench_skip "$scenario" "vs curl --parallel" "$why" "$curl_shown" "≤ 1.00×"
    [ -z "$floor_target" ] || bench_skip "$scenario" "vs $floor_name" "$why" "$(bench_seconds "$floor")" "$floor_target"
  else
    if [ -n "$curl_time" ]; then
      ratio="$(bench_ratio "$own" "$curl_time")"
      bench_row "$scenario" "vs curl --parallel" "$(bench_seconds "$own")" "$curl_shown" "${ratio}×" "≤ 1.00×" "$(bench_verdict "$ratio" le 1.0)"
    else
      bench_row "$scenario" "vs curl --parallel" "$(bench_seconds "$own")" "$curl_shown" "" "≤ 1.00×" "info"
    fi
    ratio="$(bench_ratio "$own" "$floor")"
    if [ -n "$floor_target" ]; then
      bench_row "$scenario" "vs $floor_name" "$(bench_seconds "$own")" "$(bench_seconds "$floor")" "${ratio}×" "$floor_target" "$(bench_verdict "$ratio" le 1.25)"
    else
      bench_row "$scenario" "vs $floor_name (bodies add transfer time)" "$(bench_seconds "$own")" "$(bench_seconds "$floor")" "${ratio}×" "—" "info"
    fi
  fi
  # How close the reference gets to the floor tells whether the server, not the client, limits.
  [ -z "$curl_time" ] || bench_row "$scenario" "curl --parallel vs $floor_name" "" "$(bench_seconds "$floor")" "$(bench_ratio "$curl_time" "$floor")×" "—" "info"
}

corpus_label="cold batch, ${delay_ms} ms to first byte: $count corpus images, -j$BENCH_CONCURRENCY, median of $rounds"
tiny_label="cold batch, ${delay_ms} ms to first byte: $count URLs of a 165-byte PNG, -j$BENCH_CONCURRENCY, median of $rounds"
if ! testserver_available; then
  why="the project's test server ($TESTSERVER_SCRIPT) is not there"
  bench_skip "$corpus_label" "vs curl --parallel" "$why" "" "≤ 1.00×"
  bench_skip "$tiny_label" "vs curl --parallel" "$why" "" "≤ 1.00×"
  bench_skip "$tiny_label" "vs $floor_name" "$why" "$(bench_seconds "$floor")" "≤ 1.25×"
  exit 0
fi
[ "$has_prefetch" = 1 ] || log "imgfetch prefetch not available: timing curl --parallel only"

corpus_list="$(bench_corpus "$count")"
tiny_list="$(bench_tiny_corpus "$count")"
testserver_start "$BENCH_OUT/corpus"
list="$BENCH_OUT/lists/latency-$count.txt"
sed "s|.*|$TESTSERVER_URL/&?delay_ms=$delay_ms|" "$corpus_list" > "$list"
latency_case "$corpus_label" "$list" ""
list="$BENCH_OUT/lists/latency-tiny-$count.txt"
sed "s|.*|$TESTSERVER_URL/&?delay_ms=$delay_ms|" "$tiny_list" > "$list"
latency_case "$tiny_label" "$list" "≤ 1.25×"
