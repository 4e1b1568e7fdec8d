#!/usr/bin/env bash
# Resize batch: the corpus (fresh caches, nginx on loopback) fetched and turned into 256-pixel
# thumbnails (aspect ratio kept) by `imgfetch prefetch --resize 256x256 -j16`, against img2dataset
# (PyPI) doing the same with `--image_size 256 --resize_mode keep_ratio --processes_count 2
# --thread_count 16 --output_format files`, and against imgfetch's own plain prefetch of the list;
# several rounds in alternating order, medians compared. Then the peak RSS of the resize batch at
# 1k and 10k URLs (10 URLs per corpus image, told apart by a query string nginx ignores).
# Targets: imgfetch <= 0.25x img2dataset's wall time; peak RSS flat (10k <= 1.10x 1k) and <= 128 MiB.
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
list="$BENCH_OUT/lists/resize-$count.txt"
sed "s|^|$NGINX_URL/|" "$corpus_list" > "$list"
scenario="resize batch: $count images ($(bench_corpus_size "$corpus_list")) to 256 px, keep ratio, -j$BENCH_CONCURRENCY, median of $rounds"
if ! bench_imgfetch_has prefetch || ! [[ "$("$IMGFETCH_BIN" prefetch --help 2>&1)" == *--resize* ]]; then
  bench_skip "$scenario" "vs img2dataset" "imgfetch prefetch --resize not available" "" "≤ 0.25×"
  exit 0
fi

# img2dataset is installed from PyPI (not packaged by Debian) into the python3 on PATH.
export NO_ALBUMENTATIONS_UPDATE=1 WANDB_MODE=disabled
if ! command -v img2dataset >/dev/null 2>&1; then
  log "installing img2dataset (pip)"
  python3 -m pip install --quiet img2dataset >>"$BENCH_LOG" 2>&1 \
    || python3 -m pip install --quiet --break-system-packages img2dataset >>"$BENCH_LOG" 2>&1 || true
fi

fetch_imgfetch_resize() { "$IMGFETCH_BIN" prefetch "$1" -j "$BENCH_CONCURRENCY" --cache-dir "$2" -q --resize 256x256; }
fetch_img2dataset() {
  img2dataset --url_list "$1" --input_format txt --output_folder "$2/out" --output_format files \
    --image_size 256 --resize_mode keep_ratio --processes_count 2 --thread_count 16 --timeout 10 \
    --retries 0 --enable_wandb False
}
fetcher_label() {
  case "$1" in
    imgfetch_resize) echo "imgfetch prefetch --resize 256x256" ;;
    img2dataset) echo "img2dataset" ;;
    imgfetch) echo "imgfetch prefetch" ;;
  esac
}

# Images each tool left: imgfetch keeps the original of each URL and its variant, except for an
# image already within 256×256, whose answer is the original itself (no variant is stored), so the
# URLs with an entry are counted; img2dataset writes NNNNN.jpg thumbnails beside its metadata.
images_made() {
  case "$1" in
    imgfetch_resize)
      "$IMGFETCH_BIN" cache ls --json --cache-dir "$2" |
        python3 -c 'import json, sys; print(len({json.loads(line)["url"] for line in sys.stdin if line.strip()}))' ;;
    img2dataset) find "$2/out" -type f -name '*.jpg' | wc -l ;;
    imgfetch) fetched_count "$2" ;;
  esac
}

declare -A times=() failed=()
tools=(imgfetch_resize img2dataset imgfetch)
fetch_curl_parallel "$list" "$(bench_fresh_dir warmup)" >>"$BENCH_LOG" 2>&1 || true
for ((r = 0; r < rounds; r++)); do
  for ((i = 0; i < ${#tools[@]}; i++)); do
    f="${tools[(i + r) % ${#tools[@]}]}"
    [ -z "${failed[$f]:-}" ] || continue
    out="$(bench_fresh_dir "resize-$f")"
    sync
    if ! bench_time t "fetch_$f" "$list" "$out"; then
      failed[$f]="$(fetcher_label "$f") exited with an error (see $BENCH_LOG)"
      continue
    fi
    got="$(images_made "$f" "$out")"
    if [ "$got" -lt "$count" ]; then
      failed[$f]="$(fetcher_label "$f") made $got of $count images"
      continue
    fi
    times[$f]+="$t "
    log "round $((r + 1))/$rounds: $(fetcher_label "$f") $(bench_seconds "$t")"
  done
done
# shellcheck disable=SC2086  # the times are one word each
median() { [ -z "${times[$1]:-}" ] || bench_median ${times[$1]}; }
own="$(median imgfetch_resize)" peer="$(median img2dataset)" plain="$(median imgfetch)"
if [ -z "$own" ]; then
  bench_skip "$scenario" "vs img2dataset" "${failed[imgfetch_resize]:-no time}" "" "≤ 0.25×"
elif [ -z "$peer" ]; then
  bench_row "$scenario" "vs img2dataset" "$(bench_seconds "$own")" "failed: ${failed[img2dataset]:-no time}" "" "≤ 0.25×" "SKIP: img2dataset did not run"
else
  ratio="$(bench_ratio "$own" "$peer")"
  bench_row "$scenario" "vs img2dataset" "$(bench_seconds "$own")" "$(bench_seconds "$peer")" "${ratio}×" "≤ 0.25×" "$(bench_verdict "$ratio" le 0.25)"
fi
if [ -n "$own" ] && [ -n "$plain" ]; then
  bench_row "$scenario" "vs plain prefetch of the same list" "$(bench_seconds "$own")" "$(bench_seconds "$plain")" \
    "$(bench_ratio "$own" "$plain")×" "—" "info"
fi

# --- peak RSS at 1k and 10k URLs ---
scenario="memory: peak RSS of prefetch --resize 256x256, corpus images, -j$BENCH_CONCURRENCY"
mib() { awk -v k="$1" 'BEGIN { printf "%.1f MiB", k / 1024 }'; }
sizes=(1000 10000)
! bench_quick || sizes=(200 2000)
base_kib=""
for n in "${sizes[@]}"; do
  many="$BENCH_OUT/lists/resize-memory-$n.txt"
  awk -v n="$n" '{ urls[NR] = $0 } END { for (i = 0; i < n; i++) printf "%s?r=%d\n", urls[i % NR + 1], int(i / NR) }' "$list" > "$many"
  cache="$(bench_fresh_dir resize-memory)"
  sync
  rss_file="$BENCH_OUT/run/resize-rss"
  if ! bench_time took /usr/bin/time -f %M -o "$rss_file" "$IMGFETCH_BIN" prefetch "$many" -j "$BENCH_CONCURRENCY" \
      --cache-dir "$cache" -q --resize 256x256; then
    bench_skip "$scenario" "$((n / 1000))k URLs" "imgfetch prefetch --resize failed (see $BENCH_LOG)" "" "≤ 128 MiB"
    continue
  fi
  kib="$(tail -n 1 "$rss_file")"
  shown="$(mib "$kib") ($(bench_seconds "$took"))"
  log "$n URLs: peak RSS $(mib "$kib") in $(bench_seconds "$took")"
  bench_row "$scenario" "$n URLs vs 128 MiB" "$shown" "128.0 MiB" "$(bench_ratio "$kib" 131072)×" "≤ 128 MiB" "$(bench_verdict "$kib" le 131072)"
  if [ -z "$base_kib" ]; then
    base_kib="$kib"
  else
    ratio="$(bench_ratio "$kib" "$base_kib")"
    bench_row "$scenario" "$n URLs vs ${sizes[0]}" "$(mib "$kib")" "$(mib "$base_kib")" "${ratio}×" "≤ 1.10×" "$(bench_verdict "$ratio" le 1.10)"
  fi
done
