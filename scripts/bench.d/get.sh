#!/usr/bin/env bash
# One `imgfetch get URL` cache hit as a whole process, against `curl -s -o` of the same image from
# nginx on loopback and against the start of a minimal Swift binary (hello world, built here).
# hyperfine runs each many times; the median is compared. Targets: <= 1.5x the Swift binary start,
# and faster than curl.
# shellcheck source=lib/common.sh
source "$(dirname "$0")/lib/common.sh"
# shellcheck source=lib/nginx.sh
source "$BENCH_LIB/nginx.sh"

runs=50
! bench_quick || runs=20
scenario="get cache hit, whole process, median of $runs"

# The smallest Swift program that prints a line, built by the same toolchain with the Swift
# runtime linked statically as `swiftc -static-stdlib` links it (lld with packed relative
# relocations, see Package.swift) and installed the same way (a copy, see lib/imgfetch.sh): the
# start of a Swift program as the toolchain makes one, the target's reference. A second build
# links libstdc++ and libgcc in as well, as scripts/build-release links imgfetch, so imgfetch's
# own work shows beside it (printed, no target): a Swift start without them costs less too.
hello="$BENCH_OUT/hello/hello-lld-relr"
hello_cxx="$BENCH_OUT/hello/hello-lld-relr-static-libstdcxx"
build_hello() {
  local dest="$1"
  shift
  [ ! -x "$dest" ] || return 0
  mkdir -p "$BENCH_OUT/hello"
  echo 'print("hello")' > "$BENCH_OUT/hello/main.swift"
  if swiftc -O -static-stdlib -use-ld=lld -Xlinker -z -Xlinker pack-relative-relocs "$@" \
    "$BENCH_OUT/hello/main.swift" -o "$dest.linked" >>"$BENCH_LOG" 2>&1; then
    install -m 0755 "$dest.linked" "$dest"
  else
    log "could not build $dest"
  fi
}
build_hello "$hello"
cxx_dir="$("$BENCH_ROOT/scripts/build-release" --static-libstdcxx-dir)"
[ -z "$cxx_dir" ] || build_hello "$hello_cxx" -L "$cxx_dir" -Xclang-linker -static-libgcc

corpus_list="$(bench_corpus "$(bench_corpus_count)")"
nginx_start "$BENCH_OUT/corpus"
# A typical image: the first JPEG of the corpus.
url="$NGINX_URL/$(grep -m1 '\.jpg$' "$corpus_list")"
out="$(bench_fresh_dir get-curl)/image"

# The commands hyperfine times, in this order; imgfetch's only when it can take a cache hit.
names=(curl) commands=("curl -s -o $out $url")
[ ! -x "$hello" ] || { names+=(hello); commands+=("$hello"); }
[ ! -x "$hello_cxx" ] || { names+=(hello_cxx); commands+=("$hello_cxx"); }
why=""
if ! bench_imgfetch_has get; then
  why="imgfetch get not available"
else
  cache="$(bench_fresh_dir get-cache)"
  if ! path="$("$IMGFETCH_BIN" get "$url" --cache-dir "$cache" 2>>"$BENCH_LOG")" || [ ! -f "$path" ]; then
    why="the first imgfetch get failed (see $BENCH_LOG)"
  else
    names+=(imgfetch)
    commands+=("$IMGFETCH_BIN get $url --cache-dir $cache")
  fi
fi

json="$BENCH_OUT/run/get.json"
mark="$(nginx_log_mark)"
if ! hyperfine -N --warmup 3 --runs "$runs" --export-json "$json" "${commands[@]}" >>"$BENCH_LOG" 2>&1; then
  bench_skip "$scenario" "vs a minimal Swift binary start" "hyperfine failed (see $BENCH_LOG)" "" "≤ 1.50×"
  exit 0
fi
declare -A median=()
for i in "${!names[@]}"; do
  median[${names[i]}]="$(python3 -c 'import json, sys
print("%.6f" % json.load(open(sys.argv[1]))["results"][int(sys.argv[2])]["median"])' "$json" "$i")"
done
# Only curl may have reached nginx during the timed runs: imgfetch's were cache hits.
hits="$(nginx_requests_since "$mark" | wc -l)"
note=""
[ "$hits" -eq $((runs + 3)) ] || note=" (nginx saw $hits requests, curl made $((runs + 3)))"

shown() { if [ -n "${median[$1]:-}" ]; then bench_seconds "${median[$1]}"; else echo "not built"; fi; }
if [ -n "$why" ]; then
  bench_skip "$scenario" "vs a minimal Swift binary start" "$why" "$(shown hello)" "≤ 1.50×"
  bench_skip "$scenario" "vs curl -s -o from loopback nginx" "$why" "$(shown curl)" "< 1.00×"
  exit 0
fi
own="${median[imgfetch]}"
if [ -n "${median[hello]:-}" ]; then
  ratio="$(bench_ratio "$own" "${median[hello]}")"
  bench_row "$scenario" "vs a minimal Swift binary start$note" "$(shown imgfetch)" "$(shown hello)" "${ratio}×" "≤ 1.50×" "$(bench_verdict "$ratio" le 1.5)"
else
  bench_skip "$scenario" "vs a minimal Swift binary start" "swiftc could not build the hello binary" "" "≤ 1.50×"
fi
if [ -n "${median[hello_cxx]:-}" ]; then
  bench_row "$scenario" "vs the same Swift start with libstdc++ and libgcc linked in, as imgfetch links them" "$(shown imgfetch)" \
    "$(shown hello_cxx)" "$(bench_ratio "$own" "${median[hello_cxx]}")×" "—" "info"
fi
ratio="$(bench_ratio "$own" "${median[curl]}")"
bench_row "$scenario" "vs curl -s -o from loopback nginx$note" "$(shown imgfetch)" "$(shown curl)" "${ratio}×" "< 1.00×" "$(bench_verdict "$ratio" lt 1.0)"
