#!/usr/bin/env bash
# Cold batch behind a 20 ms time to first byte per request (the project's test server, `delay_ms=`):
# imgfetch prefetch against curl --parallel at the same concurrency, and against the latency floor
# URLs x 20 ms / concurrency. Targets: <= 1.0x curl --parallel and <= 1.25x the floor.
# shellcheck source=lib/common.sh
source "$(dirname "$0")/lib/common.sh"
# shellcheck source=lib/testserver.sh
source "$BENCH_LIB/testserver.sh"
# shellcheck source=lib/fetchers.sh
source "$BENCH_LIB/fetchers.sh"

delay_ms=20
count="$(bench_corpus_count)"
rounds="$(bench_rounds)"
scenario="cold batch, ${delay_ms} ms to first byte: $count images, -j$BENCH_CONCURRENCY, median of $rounds"
floor="$(awk -v n="$count" -v d="$delay_ms" -v j="$BENCH_CONCURRENCY" 'BEGIN { printf "%.4f", n * d / 1000 / j }')"
floor_name="floor $count×${delay_ms} ms÷$BENCH_CONCURRENCY"

if ! testserver_available; then
  bench_skip "$scenario" "vs curl --parallel" "the project's test server ($TESTSERVER_SCRIPT) is not there yet" "" "≤ 1.00×"
  bench_skip "$scenario" "vs $floor_name" "the project's test server is not there yet" "$(bench_seconds "$floor")" "≤ 1.25×"
  exit 0
fi

corpus_list="$(bench_corpus "$count")"
testserver_start "$BENCH_OUT/corpus"
list="$BENCH_OUT/lists/latency-$count.txt"
sed "s|.*|$TESTSERVER_URL/&?delay_ms=$delay_ms|" "$corpus_list" > "$list"

fetchers=(curl_parallel)
has_prefetch=0
if bench_imgfetch_has prefetch; then
  has_prefetch=1
  fetchers=(imgfetch curl_parallel)
else
  log "imgfetch prefetch not available: timing curl --parallel only"
fi
batch_rounds "$list" "$count" "$rounds" "${fetchers[@]}"

curl_time="${BATCH_MEDIAN[curl_parallel]:-}"
own="${BATCH_MEDIAN[imgfetch]:-}"
curl_shown="$(bench_seconds "${curl_time:-0}")"
[ -n "$curl_time" ] || curl_shown="failed: ${BATCH_FAILED[curl_parallel]:-no time}"

if [ "$has_prefetch" = 0 ] || [ -z "$own" ]; then
  why="imgfetch prefetch not available"
  [ "$has_prefetch" = 0 ] || why="${BATCH_FAILED[imgfetch]:-no time}"
  bench_skip "$scenario" "vs curl --parallel" "$why" "$curl_shown" "≤ 1.00×"
  bench_skip "$scenario" "vs $floor_name" "$why" "$(bench_seconds "$floor")" "≤ 1.25×"
else
  if [ -n "$curl_time" ]; then
    ratio="$(bench_ratio "$own" "$curl_time")"
    bench_row "$scenario" "vs curl --parallel" "$(bench_seconds "$own")" "$curl_shown" "${ratio}×" "≤ 1.00×" "$(bench_verdict "$ratio" le 1.0)"
  else
    bench_row "$scenario" "vs curl --parallel" "$(bench_seconds "$own")" "$curl_shown" "" "≤ 1.00×" "info"
  fi
  ratio="$(bench_ratio "$own" "$floor")"
  bench_row "$scenario" "vs $floor_name" "$(bench_seconds "$own")" "$(bench_seconds "$floor")" "${ratio}×" "≤ 1.25×" "$(bench_verdict "$ratio" le 1.25)"
fi
# How close the reference itself gets to the floor tells whether the server, not the client, limits.
if [ -n "$curl_time" ]; then
  bench_row "$scenario" "curl --parallel vs $floor_name" "" "$(bench_seconds "$floor")" "$(bench_ratio "$curl_time" "$floor")×" "—" "info"
fi
