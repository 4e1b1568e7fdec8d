#!/usr/bin/env bash
# Warm batch: `imgfetch prefetch` of a list whose images are all in the cache already, against
# `cat` of every cached image file (the floor: reading the bytes once) and against the cold
# prefetch that filled the cache. Targets: <= 3x cat, and >= 20x faster than cold.
# shellcheck source=lib/common.sh
source "$(dirname "$0")/lib/common.sh"
# shellcheck source=lib/nginx.sh
source "$BENCH_LIB/nginx.sh"
# shellcheck source=lib/fetchers.sh
source "$BENCH_LIB/fetchers.sh"

count="$(bench_corpus_count)"
rounds="$(bench_rounds)"
scenario="warm batch: $count images already cached, -j$BENCH_CONCURRENCY, median of $rounds"

if ! bench_imgfetch_has prefetch; then
  bench_skip "$scenario" "vs cat of the cached files" "imgfetch prefetch not available" "" "≤ 3.00×"
  bench_skip "$scenario" "vs the cold prefetch" "imgfetch prefetch not available" "" "≥ 20× faster"
  exit 0
fi

corpus_list="$(bench_corpus "$count")"
nginx_start "$BENCH_OUT/corpus"
list="$BENCH_OUT/lists/warm-$count.txt"
sed "s|^|$NGINX_URL/|" "$corpus_list" > "$list"

cat_files() { xargs -0 cat < "$1" > /dev/null; }

colds=() warms=() cats=() requests=0
for ((r = 1; r <= rounds; r++)); do
  cache="$(bench_fresh_dir warm-cache)"
  sync
  if ! bench_time cold fetch_imgfetch "$list" "$cache"; then
    bench_skip "$scenario" "vs the cold prefetch" "the cold prefetch failed (see $BENCH_LOG)" "" "≥ 20× faster"
    exit 0
  fi
  sync
  mark="$(nginx_log_mark)"
  if ! bench_time warm fetch_imgfetch "$list" "$cache"; then
    bench_skip "$scenario" "vs cat of the cached files" "the warm prefetch failed (see $BENCH_LOG)" "" "≤ 3.00×"
    exit 0
  fi
  # A warm run must not touch the network at all; say so if it did.
  requests=$((requests + $(nginx_requests_since "$mark" | wc -l)))
  find "$cache" -type f \( -name '*.jpg' -o -name '*.jpeg' -o -name '*.png' -o -name '*.webp' \
    -o -name '*.gif' \) -print0 > "$BENCH_OUT/run/warm-files"
  bench_time floor cat_files "$BENCH_OUT/run/warm-files"
  colds+=("$cold") warms+=("$warm") cats+=("$floor")
  log "round $r/$rounds: cold $(bench_seconds "$cold"), warm $(bench_seconds "$warm"), cat $(bench_seconds "$floor")"
done

cold="$(bench_median "${colds[@]}")" warm="$(bench_median "${warms[@]}")" floor="$(bench_median "${cats[@]}")"
files="$(tr -cd '\0' < "$BENCH_OUT/run/warm-files" | wc -c)"
note=""
[ "$requests" -eq 0 ] || note=" ($requests requests reached nginx on warm runs)"
ratio="$(bench_ratio "$warm" "$floor")"
bench_row "$scenario" "vs cat of the $files cached files$note" "$(bench_seconds "$warm")" "$(bench_seconds "$floor")" "${ratio}×" "≤ 3.00×" "$(bench_verdict "$ratio" le 3.0)"
speedup="$(bench_ratio "$cold" "$warm")"
bench_row "$scenario" "vs the cold prefetch$note" "$(bench_seconds "$warm")" "$(bench_seconds "$cold")" "${speedup}× faster" "≥ 20× faster" "$(bench_verdict "$speedup" ge 20)"
