#!/usr/bin/env bash
# Memory: peak RSS (/usr/bin/time -f %M) of `imgfetch prefetch` at 1k, 10k and 100k distinct URLs
# (--quick: 1k and 10k), each served by nginx as the same small PNG. Targets: <= 64 MiB at 100k,
# and every size within 10% of the 1k figure (memory must not grow with the list).
# shellcheck source=lib/common.sh
source "$(dirname "$0")/lib/common.sh"
# shellcheck source=lib/nginx.sh
source "$BENCH_LIB/nginx.sh"
# shellcheck source=lib/fetchers.sh
source "$BENCH_LIB/fetchers.sh"

sizes=(1000 10000 100000)
! bench_quick || sizes=(1000 10000)
scenario="memory: peak RSS of prefetch, small images, -j$BENCH_CONCURRENCY"

if ! bench_imgfetch_has prefetch; then
  for n in "${sizes[@]}"; do
    bench_skip "$scenario" "$((n / 1000))k URLs" "imgfetch prefetch not available" "" "≤ 1.10× the 1k figure"
  done
  exit 0
fi

bench_corpus "$(bench_corpus_count)" > /dev/null  # for tiny.png
nginx_start "$BENCH_OUT/corpus"

mib() { awk -v k="$1" 'BEGIN { printf "%.1f MiB", k / 1024 }'; }
base_kib=""
for n in "${sizes[@]}"; do
  list="$BENCH_OUT/lists/memory-$n.txt"
  seq 1 "$n" | sed "s|.*|$NGINX_URL/small/&.png|" > "$list"
  cache="$(bench_fresh_dir memory-cache)"
  sync
  rss_file="$BENCH_OUT/run/memory-rss" took=0
  if ! bench_time took /usr/bin/time -f %M -o "$rss_file" "$IMGFETCH_BIN" prefetch "$list" \
      -j "$BENCH_CONCURRENCY" --cache-dir "$cache" -q; then
    bench_skip "$scenario" "$((n / 1000))k URLs" "imgfetch prefetch failed (see $BENCH_LOG)" "" "≤ 1.10× the 1k figure"
    continue
  fi
  kib="$(tail -n 1 "$rss_file")"
  got="$(fetched_count "$cache")"
  log "$n URLs: peak RSS $(mib "$kib"), $(bench_seconds "$took"), $got images cached"
  shown="$(mib "$kib") ($got cached, $(bench_seconds "$took"))"
  if [ -z "$base_kib" ]; then
    base_kib="$kib"
    bench_row "$scenario" "1k URLs" "$shown" "" "" "the baseline" "info"
    continue
  fi
  ratio="$(bench_ratio "$kib" "$base_kib")"
  bench_row "$scenario" "$((n / 1000))k URLs vs 1k" "$shown" "$(mib "$base_kib")" "${ratio}×" "≤ 1.10×" "$(bench_verdict "$ratio" le 1.10)"
  if [ "$n" -eq 100000 ]; then
    bench_row "$scenario" "100k URLs vs 64 MiB" "$(mib "$kib")" "64.0 MiB" "$(bench_ratio "$kib" 65536)×" "≤ 64 MiB" "$(bench_verdict "$kib" le 65536)"
  fi
done
