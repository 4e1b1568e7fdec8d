#!/usr/bin/env bash
# Thumbnail: one 12-megapixel JPEG to a 256-pixel thumbnail as whole processes, the original
# already in imgfetch's cache (its variants purged before every run, untimed), against
# `vipsthumbnail -s 256` (libvips' shrink-on-load thumbnailer), ImageMagick's `convert -thumbnail`,
# Pillow's `thumbnail()` and the floor: `djpeg` at the scale imgfetch's shrink-on-load picks
# (1/4 here: no less than twice the target, as libvips picks, so the Lanczos step has pixels to
# filter), the decoding no thumbnailer of that quality can skip; `djpeg -scale 1/8` is printed
# too. hyperfine runs each many times in one session; the medians are compared. Then the same JPEG
# to a 1024-pixel AVIF (libavif with libaom at sharp's quality 50, effort 4) against
# `vipsthumbnail -s 1024 -o x.avif` (libheif with libaom, libvips' defaults: Q 50, effort 4),
# fewer runs, since AV1 encoding takes seconds.
# Targets: imgfetch <= 0.5x vipsthumbnail and <= 1.3x djpeg -scale 1/4; AVIF <= 1.0x vipsthumbnail.
# shellcheck source=lib/common.sh
source "$(dirname "$0")/lib/common.sh"
# shellcheck source=lib/nginx.sh
source "$BENCH_LIB/nginx.sh"

runs=30
! bench_quick || runs=10
dir="$BENCH_OUT/thumbnail"
mkdir -p "$dir/served"
jpeg="$dir/served/photo.jpg"
# The same 4000×3000 photo-like picture as the decode mode (plasma fractal plus noise), at the
# quality cameras and CDNs use.
if [ ! -s "$jpeg" ]; then
  log "making the 4000×3000 JPEG"
  convert -seed 7 -size 4000x3000 plasma:fractal -attenuate 0.3 +noise Gaussian -depth 8 ppm:"$dir/base.ppm"
  cjpeg -quality 90 -outfile "$jpeg.tmp" "$dir/base.ppm" && mv "$jpeg.tmp" "$jpeg"
  rm -f "$dir/base.ppm"
fi
scenario="thumbnail: one 12 MP JPEG ($(( $(stat -c %s "$jpeg") / 1000 )) KB) to 256 px, whole process, original cached, median of $runs"
target_vips="≤ 0.50×" target_floor="≤ 1.30×"
if ! bench_imgfetch_has get || ! [[ "$("$IMGFETCH_BIN" get --help 2>&1)" == *--resize* ]]; then
  bench_skip "$scenario" "vs vipsthumbnail -s 256" "imgfetch get --resize not available" "" "$target_vips"
  exit 0
fi

nginx_start "$dir/served"
url="$NGINX_URL/photo.jpg"
cache="$(bench_fresh_dir thumbnail-cache)"
out="$(bench_fresh_dir thumbnail-out)"
"$IMGFETCH_BIN" get -q "$url" --cache-dir "$cache" >>"$BENCH_LOG" 2>&1

median_of() {
  python3 -c 'import json, sys
print("%.6f" % json.load(open(sys.argv[1]))["results"][int(sys.argv[2])]["median"])' "$1" "$2"
}
pillow="from PIL import Image; i = Image.open('$jpeg'); i.thumbnail((256, 256)); i.save('$out/pillow.jpg')"
json="$BENCH_OUT/run/thumbnail.json"
if ! hyperfine -N --warmup 3 --runs "$runs" --export-json "$json" \
  --prepare "$IMGFETCH_BIN cache purge --variants -q --cache-dir $cache $url" \
  "$IMGFETCH_BIN get -q --resize 256x256 --cache-dir $cache $url" \
  --prepare "rm -f $out/vips.jpg" "vipsthumbnail -s 256 $jpeg -o $out/vips.jpg" \
  --prepare "rm -f $out/djpeg.ppm" "djpeg -scale 1/8 -outfile $out/djpeg.ppm $jpeg" \
  --prepare "rm -f $out/convert.jpg" "convert $jpeg -thumbnail 256x256 $out/convert.jpg" \
  --prepare "rm -f $out/pillow.jpg" "/usr/bin/python3 -c \"$pillow\"" \
  --prepare "rm -f $out/djpeg4.ppm" "djpeg -scale 1/4 -outfile $out/djpeg4.ppm $jpeg" >>"$BENCH_LOG" 2>&1; then
  bench_skip "$scenario" "vs vipsthumbnail -s 256" "hyperfine failed (see $BENCH_LOG)" "" "$target_vips"
  exit 0
fi
own="$(median_of "$json" 0)"
row() {  # COMPARISON REFERENCE_SECONDS TARGET_LIMIT (empty: info)
  local ratio
  ratio="$(bench_ratio "$own" "$2")"
  if [ -n "$3" ]; then
    bench_row "$scenario" "$1" "$(bench_seconds "$own")" "$(bench_seconds "$2")" "${ratio}×" "≤ $3×" "$(bench_verdict "$ratio" le "$3")"
  else
    bench_row "$scenario" "$1" "$(bench_seconds "$own")" "$(bench_seconds "$2")" "${ratio}×" "—" "info"
  fi
}
row "vs vipsthumbnail -s 256" "$(median_of "$json" 1)" 0.50
row "vs djpeg -scale 1/4 (the floor at the scale shrink-on-load picks)" "$(median_of "$json" 5)" 1.30
row "vs djpeg -scale 1/8" "$(median_of "$json" 2)" ""
row "vs ImageMagick convert -thumbnail" "$(median_of "$json" 3)" ""
row "vs Pillow thumbnail()" "$(median_of "$json" 4)" ""

# The AVIF row: encoding dominates, so a handful of runs gives a steady median.
avif_runs=5
! bench_quick || avif_runs=3
avif_scenario="thumbnail: one 12 MP JPEG to a 1024 px AVIF, whole process, original cached, median of $avif_runs"
avif_json="$BENCH_OUT/run/thumbnail-avif.json"
if ! hyperfine -N --warmup 1 --runs "$avif_runs" --export-json "$avif_json" \
  --prepare "$IMGFETCH_BIN cache purge --variants -q --cache-dir $cache $url" \
  "$IMGFETCH_BIN get -q --resize 1024x1024 --format avif --cache-dir $cache $url" \
  --prepare "rm -f $out/vips.avif" "vipsthumbnail -s 1024 $jpeg -o $out/vips.avif" >>"$BENCH_LOG" 2>&1; then
  bench_skip "$avif_scenario" "vs vipsthumbnail -s 1024 -o x.avif" "hyperfine failed (see $BENCH_LOG)" "" "≤ 1.00×"
  exit 0
fi
own="$(median_of "$avif_json" 0)"
scenario="$avif_scenario"
row "vs vipsthumbnail -s 1024 -o x.avif" "$(median_of "$avif_json" 1)" 1.00
