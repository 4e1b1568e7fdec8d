#!/usr/bin/env bash
# Decode: imgfetch's decoder registry (`imgfetch info --decode`, which sniffs, probes, validates
# and decodes every pixel, keeping none: DecoderRegistry.verifyDecoding) against each library's own command-line decoder on the same
# multi-megapixel file, in the same run: djpeg (libjpeg-turbo), pngtopam (libpng via netpbm),
# dwebp (libwebp), gif2rgb (giflib), avifdec (libavif), heif-convert (libheif), djxl (libjxl),
# tiffcp (libtiff). avifdec, heif-convert and djxl write to a symlink to /dev/null named for the
# output format they pick by extension: y4m for avifdec and heif-convert (raw YUV, no RGB
# conversion, as imgfetch's verification does not convert either), 8-bit PPM for djxl. tiffcp
# cannot write its directory to /dev/null, so it writes an uncompressed copy to a file. Both sides are whole processes, run alternately, started
# without a shell, writing to /dev/null. Target: imgfetch ≤ 1.15× the tool in CPU time (user +
# system; wall time is shown too, but on a shared machine it mostly measures the neighbours).
#
# Environment: IMGFETCH_BIN (release binary; built when unset), BENCH_OUT (default bench-out),
# BENCH_QUICK=1 for fewer runs, BENCH_RESULTS (a TSV the rows are also appended to, if set).
set -euo pipefail
root="$(cd "$(dirname "$0")/../.." && pwd)"
out="${BENCH_OUT:-$root/bench-out}/decode"
mkdir -p "$out"
target=1.15
if [ "${BENCH_QUICK:-0}" = 1 ]; then runs=5; else runs=20; fi

if [ -z "${IMGFETCH_BIN:-}" ]; then
  IMGFETCH_BIN="$("$root/scripts/build-release")"
fi

# The images: one 4000×3000 (12 MP) photo-like picture (plasma fractal plus a little noise, so it
# compresses like a photograph), encoded by each library's own encoder. Made once, then reused.
width=4000 height=3000
if [ ! -s "$out/base.ppm" ]; then
  echo "bench decode: making the ${width}×${height} test images" >&2
  convert -seed 7 -size "${width}x${height}" plasma:fractal -attenuate 0.3 +noise Gaussian -depth 8 ppm:"$out/base.ppm.tmp"
  mv "$out/base.ppm.tmp" "$out/base.ppm"
fi
[ -s "$out/image.jpg" ] || cjpeg -quality 90 -outfile "$out/image.jpg" "$out/base.ppm"
[ -s "$out/image.png" ] || pnmtopng "$out/base.ppm" > "$out/image.png" 2>/dev/null
[ -s "$out/image.webp" ] || cwebp -quiet -q 90 "$out/base.ppm" -o "$out/image.webp" 2>/dev/null \
  || { convert "$out/base.ppm" "$out/base.png" && cwebp -quiet -q 90 "$out/base.png" -o "$out/image.webp"; }
[ -s "$out/image.gif" ] || convert "$out/base.ppm" -dither None -colors 256 "$out/image.gif"
[ -s "$out/base.png" ] || convert "$out/base.ppm" "$out/base.png"
[ -s "$out/image.avif" ] || avifenc -s 8 -j all --min 20 --max 30 "$out/base.png" "$out/image.avif" >/dev/null
[ -s "$out/image.heic" ] || heif-enc -q 80 "$out/base.png" -o "$out/image.heic" >/dev/null
[ -s "$out/image.jxl" ] || cjxl -d 1 "$out/base.png" "$out/image.jxl" 2>/dev/null
[ -s "$out/image.tif" ] || convert "$out/base.ppm" -compress LZW "$out/image.tif"
for ext in y4m ppm; do ln -sf /dev/null "$out/null.$ext"; done

# "OURS_WALL OURS_CPU TOOL_WALL TOOL_CPU" in seconds: the two commands run alternately, $runs
# times each after 2 warm-ups of each, so both see the same load on a shared machine; wall is the
# median, CPU (user + system) the median too. Both are started the same way (fork + exec, no
# shell), with stdout and stderr on /dev/null.
timing() {
  python3 - "$runs" "$1" "$2" <<'PY'
import os, shlex, statistics, subprocess, sys, time
runs, commands = int(sys.argv[1]), [shlex.split(c) for c in sys.argv[2:]]
def once(argv):
    start = time.perf_counter()
    child = subprocess.Popen(argv, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    _, status, usage = os.wait4(child.pid, 0)  # this child's own rusage, in microseconds
    wall = time.perf_counter() - start
    child.returncode = os.waitstatus_to_exitcode(status)
    if child.returncode != 0:
        raise SystemExit(f"{argv[0]} exited with {child.returncode}")
    return wall, usage.ru_utime + usage.ru_stime
for _ in range(2):
    for argv in commands: once(argv)
samples = [[], []]
for _ in range(runs):
    for i, argv in enumerate(commands): samples[i].append(once(argv))
print(" ".join(f"{statistics.median(w for w, _ in s)} {statistics.median(c for _, c in s)}" for s in samples))
PY
}

rows=()
measure() {  # measure FORMAT FILE TOOL-NAME TOOL-COMMAND
  local format="$1" file="$2" tool="$3" command="$4" times row failure
  # A failed run is measured once more from the start; a second failure skips the row, naming the
  # command (the row once read only "a command failed": avifdec had exited 1 because /dev/null
  # was a regular file, which it cannot name an output format for).
  if ! times="$(timing "$IMGFETCH_BIN info --decode $file" "$command" 2>"$out/timing.err")"; then
    failure="$(tail -n 1 "$out/timing.err")"
    echo "bench decode: $format: ${failure:-a command failed}; measured again" >&2
    if ! times="$(timing "$IMGFETCH_BIN info --decode $file" "$command" 2>"$out/timing.err")"; then
      failure="$(tail -n 1 "$out/timing.err")"
      rows+=("$format	$tool	-	-	-	-	-	-	SKIP: ${failure:-a command failed}")
      return
    fi
  fi
  # The verdict is on CPU time (user + system): both sides are single-threaded and CPU-bound, so on
  # an idle machine CPU and wall agree, while on a shared one other work swings wall time by half.
  row="$(python3 - "$times" "$target" <<'PY'
import sys
ow, oc, tw, tc = map(float, sys.argv[1].split())
target = float(sys.argv[2])
print(f"{oc*1000:.1f}\t{tc*1000:.1f}\t{oc/tc:.2f}\t{ow*1000:.1f}\t{tw*1000:.1f}\t{ow/tw:.2f}\t{'PASS' if oc / tc <= target else 'FAIL'}")
PY
)"
  rows+=("$format	$tool	$row")
  if [ -n "${BENCH_RESULTS:-}" ]; then
    IFS='	' read -r oc tc ratio _ _ _ verdict <<<"$row"
    printf 'decode (%s MP, CPU)\t%s vs %s\t%s ms\t%s ms\t%s\t≤ %s\t%s\n' "$((width * height / 1000000))" \
      "$format" "$tool" "$oc" "$tc" "$ratio" "$target" "$verdict" >> "$BENCH_RESULTS"
  fi
}

echo "bench decode: timing $runs runs each" >&2
measure JPEG "$out/image.jpg" djpeg "djpeg -outfile /dev/null $out/image.jpg"
measure PNG "$out/image.png" pngtopam "pngtopam $out/image.png"
measure WebP "$out/image.webp" dwebp "dwebp -quiet -pam $out/image.webp -o /dev/null"
measure GIF "$out/image.gif" gif2rgb "gif2rgb -1 -o /dev/null $out/image.gif"
measure AVIF "$out/image.avif" avifdec "avifdec $out/image.avif $out/null.y4m"
measure HEIC "$out/image.heic" heif-convert "heif-convert --quiet $out/image.heic $out/null.y4m"
measure JXL "$out/image.jxl" djxl "djxl $out/image.jxl $out/null.ppm --quiet"
measure TIFF "$out/image.tif" tiffcp "tiffcp -c none $out/image.tif $out/tiffcp-copy.tif"

echo
echo "decode, ${width}×${height} images: medians of $runs alternating runs; target: imgfetch CPU time ≤ ${target}× the tool's"
{
  echo "format	tool	imgfetch cpu ms	tool cpu ms	cpu ratio	imgfetch wall ms	tool wall ms	wall ratio	result"
  printf '%s\n' "${rows[@]}"
} | column -t -s '	'
