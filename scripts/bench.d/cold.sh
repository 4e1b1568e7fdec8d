#!/usr/bin/env bash
# Cold batch: `imgfetch prefetch` against aria2c -i, curl --parallel, wget -i and xargs -P curl on
# the same list of corpus images from nginx on loopback, concurrency 16, a fresh cache / output
# directory every run, several rounds in alternating order; the median wall time of each.
# Target: imgfetch <= 1.0x the faster of aria2c and curl --parallel. Also reports what
# `--verify decode` (decoding every pixel) adds, which has no target yet.
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
list="$BENCH_OUT/lists/cold-$count.txt"
sed "s|^|$NGINX_URL/|" "$corpus_list" > "$list"
scenario="cold batch: $count images ($(bench_corpus_size "$corpus_list")), -j$BENCH_CONCURRENCY, median of $rounds"

fetchers=(curl_parallel aria2c wget xargs_curl)
has_prefetch=0
if bench_imgfetch_has prefetch; then
  has_prefetch=1
  fetchers=(imgfetch imgfetch_verify "${fetchers[@]}")
else
  log "imgfetch prefetch not available: timing the other tools only"
fi

# One untimed pass first, so every round finds the corpus in the page cache.
fetch_curl_parallel "$list" "$(bench_fresh_dir warmup)" >>"$BENCH_LOG" 2>&1 || true
batch_rounds "$list" "$count" "$rounds" "${fetchers[@]}"

# The faster of aria2c and curl --parallel is the target.
fastest=""
for f in curl_parallel aria2c; do
  [ -n "${BATCH_MEDIAN[$f]:-}" ] || continue
  if [ -z "$fastest" ] || [ "$(bench_verdict "${BATCH_MEDIAN[$f]}" lt "${BATCH_MEDIAN[$fastest]}")" = PASS ]; then
    fastest="$f"
  fi
done

own="${BATCH_MEDIAN[imgfetch]:-}"
for f in curl_parallel aria2c wget xargs_curl; do
  peer="${BATCH_MEDIAN[$f]:-}"
  reference="$(bench_seconds "${peer:-0}")"
  [ -n "$peer" ] || reference="failed: ${BATCH_FAILED[$f]:-no time}"
  target="—" verdict="info"
  [ "$f" != "$fastest" ] || target="≤ 1.00× (fastest of aria2c, curl --parallel)"
  if [ "$has_prefetch" = 0 ]; then
    bench_skip "$scenario" "vs $(fetcher_name "$f")" "imgfetch prefetch not available" "$reference" "$target"
  elif [ -z "$own" ]; then
    bench_skip "$scenario" "vs $(fetcher_name "$f")" "${BATCH_FAILED[imgfetch]:-no time}" "$reference" "$target"
  elif [ -z "$peer" ]; then
    bench_row "$scenario" "vs $(fetcher_name "$f")" "$(bench_seconds "$own")" "$reference" "" "$target" "info"
  else
    ratio="$(bench_ratio "$own" "$peer")"
    [ "$f" != "$fastest" ] || verdict="$(bench_verdict "$ratio" le 1.0)"
    bench_row "$scenario" "vs $(fetcher_name "$f")" "$(bench_seconds "$own")" "$reference" "${ratio}×" "$target" "$verdict"
  fi
done

if [ -n "$own" ] && [ -n "${BATCH_MEDIAN[imgfetch_verify]:-}" ]; then
  verify="${BATCH_MEDIAN[imgfetch_verify]}"
  bench_row "$scenario" "--verify decode vs plain prefetch" "$(bench_seconds "$verify")" \
    "$(bench_seconds "$own")" "$(bench_ratio "$verify" "$own")×" "no target yet" "info"
elif [ "$has_prefetch" = 1 ]; then
  bench_skip "$scenario" "--verify decode vs plain prefetch" "${BATCH_FAILED[imgfetch_verify]:-no time}"
fi
