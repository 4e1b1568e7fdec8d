#!/usr/bin/env bash
# Resume: a 50 MB image whose first transfer the server cuts at 90 % (the project's test server,
# `cut_at=`, with an ETag and ranges). The second run must ask only for the rest: the bytes it
# transfers (from the Range it sent) <= 15 % of the image. Its time is printed beside a whole
# refetch of the same image (`--no-resume`, a new cache) and curl's.
# shellcheck source=lib/common.sh
source "$(dirname "$0")/lib/common.sh"
# shellcheck source=lib/testserver.sh
source "$BENCH_LIB/testserver.sh"

scenario="resume: a 50 MB PNG cut at 90 %, then fetched again"
if [ -z "${IMGFETCH_BIN:-}" ] || ! testserver_available; then
  bench_skip "$scenario" "second run's bytes ÷ image" "imgfetch or the test server is not available" "" "≤ 0.15"
  exit 0
fi

root="$BENCH_OUT/resume"
image="$root/big.png"
mkdir -p "$root"
if [ ! -s "$image" ]; then
  # Random pixels do not compress: 4100 × 4100 × 3 bytes, about 50 MB.
  python3 - "$image" <<'PY'
import random, struct, sys, zlib
def chunk(kind, data): return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))
side, rows = 4100, random.Random(1)
raw = b"".join(b"\0" + rows.randbytes(side * 3) for _ in range(side))
header = struct.pack(">IIBBBBB", side, side, 8, 2, 0, 0, 0)
open(sys.argv[1], "wb").write(b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", header) + chunk(b"IDAT", zlib.compress(raw, 0)) + chunk(b"IEND", b""))
PY
fi
size="$(stat -c %s "$image")"
cut=$((size * 9 / 10))
testserver_start "$root" || { bench_skip "$scenario" "second run's bytes ÷ image" "the test server did not start" "" "≤ 0.15"; exit 0; }

url="$TESTSERVER_URL/big.png?etag=1&ranges=1&cut_at=$cut"
cache="$(bench_fresh_dir resume-cache)"
curl -s -X POST "$TESTSERVER_CONTROL_URL/_reset" >/dev/null
first=0 second=0 second_time=0
"$IMGFETCH_BIN" get -q --cache-dir "$cache" "$url" >>"$BENCH_LOG" 2>&1 || first=$?
bench_time second_time "$IMGFETCH_BIN" get -q --cache-dir "$cache" "$url" || second=$?
# The Range of the second request says where it started; what it transferred is the rest.
start="$(curl -s "$TESTSERVER_CONTROL_URL/_stats" | python3 -c '
import json, sys
arrivals = json.load(sys.stdin)["arrivals"]
ranges = [a["range"] for a in arrivals[1:]]
print(ranges[0][6:-1] if len(ranges) == 1 and ranges[0] and ranges[0].startswith("bytes=") else "")')"
cached="$(find "$cache" -name '*.png' -size "${size}c" | wc -l)"

whole_time=0 curl_time=0
bench_time whole_time "$IMGFETCH_BIN" get -q --no-resume --cache-dir "$(bench_fresh_dir resume-whole)" "$TESTSERVER_URL/big.png?etag=1&ranges=1&n=whole" || true
bench_time curl_time curl -s -o "$(bench_fresh_dir resume-curl)/big.png" "$TESTSERVER_URL/big.png?etag=1&ranges=1&n=curl" || true

shown="first run exit $first, second exit $second"
if [ "$first" -ne 3 ] || [ "$second" -ne 0 ] || [ -z "$start" ] || [ "$cached" -ne 1 ]; then
  bench_row "$scenario" "second run's bytes ÷ image" "$shown, Range start '${start}', $cached whole entries" "$size B" "" "≤ 0.15" "FAIL"
else
  sent=$((size - start))
  ratio="$(awk -v a="$sent" -v b="$size" 'BEGIN { printf "%.3f", a / b }')"
  bench_row "$scenario" "second run's bytes ÷ image" "$sent B in $(bench_seconds "$second_time")" "$size B" "$ratio" "≤ 0.15" "$(bench_verdict "$ratio" le 0.15)"
fi
bench_row "$scenario" "second run vs a whole refetch (--no-resume)" "$(bench_seconds "$second_time")" "$(bench_seconds "$whole_time")" "$(bench_ratio "$second_time" "$whole_time")×" "—" "info"
bench_row "$scenario" "whole refetch vs curl -s -o" "$(bench_seconds "$whole_time")" "$(bench_seconds "$curl_time")" "$(bench_ratio "$whole_time" "$curl_time")×" "—" "info"
