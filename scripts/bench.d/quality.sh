#!/usr/bin/env bash
# Quality: the pixels a resize makes, not its speed. A photo-like JPEG and a zone plate (a JPEG of
# concentric rings whose frequency rises to Nyquist at the corners) through `imgfetch get --resize W
# --format png` and `vipsthumbnail -s W` at reductions of 1.5×, 2×, 3×, 4×, 8× and 12×; each output
# compared with Pillow's Lanczos reduction of the full-size decode (PSNR over RGB). For the zone
# plate also the aliasing: the RMS distance from mid-grey where the rings are finer than the
# output can show (the ideal there is flat grey; what remains is moiré).
# Targets: imgfetch's PSNR >= vipsthumbnail's - 0.5 dB at every factor; the zone plate's aliasing
# <= vipsthumbnail's. Also printed (info): the zone plate through vipsthumbnail with VIPS_NOVECTOR=1,
# libvips' C path, whose Lanczos coefficients have 12 bits in both passes: its default vector path
# gives the vertical pass 6-bit ones (reducev's 2.6 fixed point), which damp the passband by a few
# per cent, lowering the aliasing measured here and moving 9-10 dB away from Pillow's Lanczos.
# shellcheck source=lib/common.sh
source "$(dirname "$0")/lib/common.sh"
# shellcheck source=lib/nginx.sh
source "$BENCH_LIB/nginx.sh"

dir="$BENCH_OUT/quality"
mkdir -p "$dir/served"
pillow=/usr/bin/python3
factors=(1.5 2 3 4 8 12)
target_psnr="≥ vips − 0.5 dB" target_alias="≤ vips"
if ! bench_imgfetch_has get || ! command -v vipsthumbnail >/dev/null; then
  bench_skip "quality: resize vs Pillow's Lanczos" "PSNR vs vipsthumbnail" "imgfetch get or vipsthumbnail not available" "" "$target_psnr"
  exit 0
fi
if [ ! -s "$dir/served/photo.jpg" ]; then
  log "making the 2400×1600 photo"
  convert -seed 11 -size 2400x1600 plasma:fractal -blur 0x1 -attenuate 0.15 +noise Gaussian -depth 8 ppm:- |
    cjpeg -quality 95 -outfile "$dir/served/photo.jpg"
fi
if [ ! -s "$dir/served/zoneplate.jpg" ]; then
  log "making the 2048×2048 zone plate"
  $pillow - "$dir/served/zoneplate.png" <<'PY'
import math, sys
from PIL import Image
n = 2048
k = 0.5 * math.pi / (math.sqrt(2) * n / 2)  # local frequency k·r/π reaches 0.5 cycles/px at the corners
c = (n - 1) / 2
rows = bytearray()
for y in range(n):
    dy2 = (y - c) ** 2
    rows += bytes(int(127.5 + 127 * math.cos(k * ((x - c) ** 2 + dy2))) for x in range(n))
Image.frombytes('L', (n, n), bytes(rows)).convert('RGB').save(sys.argv[1])
PY
  convert "$dir/served/zoneplate.png" -quality 95 "$dir/served/zoneplate.jpg"
  rm -f "$dir/served/zoneplate.png"
fi

nginx_start "$dir/served"
cache="$(bench_fresh_dir quality-cache)"
out="$(bench_fresh_dir quality-out)"

# measure SOURCE OUTPUT [zone]: "PSNR" (against Pillow's Lanczos from the full decode, at the
# output's size), and with `zone` also the aliasing RMS.
measure() {
  $pillow - "$@" <<'PY'
import math, sys
from PIL import Image, ImageChops, ImageStat
source, output = Image.open(sys.argv[1]).convert('RGB'), Image.open(sys.argv[2]).convert('RGB')
reference = source.resize(output.size, Image.LANCZOS)
sum2 = sum(ImageStat.Stat(ImageChops.difference(output, reference)).sum2)
mse = sum2 / (3 * output.size[0] * output.size[1])
psnr = float('inf') if mse == 0 else 10 * math.log10(255 ** 2 / mse)
result = ['%.2f' % psnr]
if len(sys.argv) > 3:
    w, h = output.size
    scale = source.size[0] / w
    corner = math.hypot(source.size[0], source.size[1]) / 2
    # Rings finer than the output's Nyquist (with a margin for the filter's transition band).
    limit = 1.25 * corner / scale
    gray = output.convert('L').load()
    total = count = 0
    for y in range(h):
        for x in range(w):
            r = math.hypot((x + 0.5) * scale - source.size[0] / 2, (y + 0.5) * scale - source.size[1] / 2)
            if r > limit:
                total += (gray[x, y] - 127.5) ** 2
                count += 1
    result.append('%.2f' % math.sqrt(total / count) if count else 'n/a')
print(' '.join(result))
PY
}

for name in photo zoneplate; do
  source_file="$dir/served/$name.jpg"
  width="$(identify -format %w "$source_file")"
  "$IMGFETCH_BIN" get -q --cache-dir "$cache" "$NGINX_URL/$name.jpg" >>"$BENCH_LOG" 2>&1
  for factor in "${factors[@]}"; do
    target="$(awk -v w="$width" -v f="$factor" 'BEGIN { printf "%d", w / f + 0.5 }')"
    scenario="quality: $name ${width} px to $target px (${factor}×), PNG output, vs Pillow's Lanczos from the full decode"
    own_file="$("$IMGFETCH_BIN" get --cache-dir "$cache" --resize "${target}x" --format png "$NGINX_URL/$name.jpg" 2>>"$BENCH_LOG")" || {
      bench_skip "$scenario" "PSNR vs vipsthumbnail" "imgfetch get failed (see $BENCH_LOG)" "" "$target_psnr"
      continue
    }
    vipsthumbnail "$source_file" -s "${target}x" -o "$out/$name-$factor.png" >>"$BENCH_LOG" 2>&1
    zone=()
    [ "$name" != zoneplate ] || zone=(zone)
    read -r own_psnr own_alias <<<"$(measure "$source_file" "$own_file" "${zone[@]}")"
    read -r vips_psnr vips_alias <<<"$(measure "$source_file" "$out/$name-$factor.png" "${zone[@]}")"
    delta="$(awk -v a="$own_psnr" -v b="$vips_psnr" 'BEGIN { printf "%+.2f dB", a - b }')"
    verdict="$(awk -v a="$own_psnr" -v b="$vips_psnr" 'BEGIN { print (a >= b - 0.5) ? "PASS" : "FAIL" }')"
    bench_row "$scenario" "PSNR vs vipsthumbnail -s ${target}x" "$own_psnr dB" "$vips_psnr dB" "$delta" "$target_psnr" "$verdict"
    if [ "$name" = zoneplate ]; then
      verdict="$(awk -v a="$own_alias" -v b="$vips_alias" 'BEGIN { print (a <= b) ? "PASS" : "FAIL" }')"
      bench_row "$scenario" "aliasing RMS vs vipsthumbnail" "$own_alias" "$vips_alias" "" "$target_alias" "$verdict"
      VIPS_NOVECTOR=1 vipsthumbnail "$source_file" -s "${target}x" -o "$out/$name-$factor-novector.png" >>"$BENCH_LOG" 2>&1
      read -r exact_psnr exact_alias <<<"$(measure "$source_file" "$out/$name-$factor-novector.png" zone)"
      bench_row "$scenario" "aliasing RMS vs vipsthumbnail, VIPS_NOVECTOR=1 (PSNR $exact_psnr dB)" "$own_alias" "$exact_alias" "" "—" "info"
    fi
  done
done
