#!/usr/bin/env bash
# Cold start: the first fetch of one URL, and small batches, as whole processes against nginx on
# loopback. One corpus JPEG fetched by `imgfetch get` into an existing cache (its entry purged
# before every run) and into a new cache directory, against `curl -s -o` and `wget -q -O`; 10 and
# 100 distinct images with `prefetch -j 8` against `curl --parallel --parallel-max 8`. hyperfine
# runs each many times in one session; the medians are compared.
# Targets: one URL, existing cache <= 1.0x curl; new cache <= 1.5x curl; 10 and 100 URLs
# <= 1.0x curl --parallel. wget's one-URL time is reported as the floor to aim for.
# shellcheck source=lib/common.sh
source "$(dirname "$0")/lib/common.sh"
# shellcheck source=lib/nginx.sh
source "$BENCH_LIB/nginx.sh"

runs=40
! bench_quick || runs=15
corpus_list="$(bench_corpus "$(bench_corpus_count)")"
nginx_start "$BENCH_OUT/corpus"
jpeg="$(grep -m1 '\.jpg$' "$corpus_list")"
url="$NGINX_URL/$jpeg"
size_kb="$(( $(stat -c %s "$BENCH_OUT/corpus/$jpeg") / 1000 ))"
out="$(bench_fresh_dir coldstart-out)"

# Median seconds of command INDEX in hyperfine's JSON export FILE.
median_of() {
  python3 -c 'import json, sys
print("%.6f" % json.load(open(sys.argv[1]))["results"][int(sys.argv[2])]["median"])' "$1" "$2"
}

# Rows comparing imgfetch's median with one reference: SCENARIO COMPARISON OWN REFERENCE LIMIT.
compare() {
  local ratio
  ratio="$(bench_ratio "$3" "$4")"
  if [ -n "$5" ]; then
    bench_row "$1" "$2" "$(bench_seconds "$3")" "$(bench_seconds "$4")" "${ratio}×" "≤ $(printf '%.2f' "$5")×" "$(bench_verdict "$ratio" le "$5")"
  else
    bench_row "$1" "$2" "$(bench_seconds "$3")" "$(bench_seconds "$4")" "${ratio}×" "—" "info"
  fi
}

if ! bench_imgfetch_has get; then
  bench_skip "cold start: one URL" "vs curl -s -o" "imgfetch get not available" "" "≤ 1.00×"
  exit 0
fi

# --- one URL ---
scenario="cold start: one ${size_kb} KB JPEG, whole process, median of $runs"
existing="$(bench_fresh_dir coldstart-existing)"
fresh="$BENCH_OUT/run/coldstart-new"
"$IMGFETCH_BIN" get -q "$url" --cache-dir "$existing" >>"$BENCH_LOG" 2>&1
json="$BENCH_OUT/run/coldstart-one.json"
if ! hyperfine -N --warmup 3 --runs "$runs" --export-json "$json" \
  --prepare "$IMGFETCH_BIN cache purge --all -q --cache-dir $existing" "$IMGFETCH_BIN get -q $url --cache-dir $existing" \
  --prepare "rm -rf $fresh" "$IMGFETCH_BIN get -q $url --cache-dir $fresh" \
  --prepare "rm -f $out/curl.jpg" "curl -s -o $out/curl.jpg $url" \
  --prepare "rm -f $out/wget.jpg" "wget -q -O $out/wget.jpg $url" >>"$BENCH_LOG" 2>&1; then
  bench_skip "$scenario" "vs curl -s -o" "hyperfine failed (see $BENCH_LOG)" "" "≤ 1.00×"
else
  own_existing="$(median_of "$json" 0)" own_new="$(median_of "$json" 1)"
  curl_one="$(median_of "$json" 2)" wget_one="$(median_of "$json" 3)"
  compare "$scenario" "existing cache vs curl -s -o" "$own_existing" "$curl_one" 1.0
  compare "$scenario" "existing cache vs wget -q -O (the floor)" "$own_existing" "$wget_one" ""
  compare "$scenario" "new cache directory vs curl -s -o" "$own_new" "$curl_one" 1.5
fi

# --- small batches ---
for n in 10 100; do
  scenario="cold start: $n images, -j 8, whole process, median of $runs"
  list="$BENCH_OUT/lists/coldstart-$n.txt" config="$BENCH_OUT/lists/coldstart-$n.curl"
  head -n "$n" "$corpus_list" | sed "s|^|$NGINX_URL/|" > "$list"
  head -n "$n" "$corpus_list" | awk -v base="$NGINX_URL" -v dir="$out/batch" \
    '{ printf "url = \"%s/%s\"\noutput = \"%s/%d\"\n", base, $0, dir, NR }' > "$config"
  cache="$(bench_fresh_dir "coldstart-batch-$n")"
  "$IMGFETCH_BIN" prefetch -q -j 8 "$list" --cache-dir "$cache" >>"$BENCH_LOG" 2>&1
  json="$BENCH_OUT/run/coldstart-$n.json"
  if ! hyperfine -N --warmup 3 --runs "$runs" --export-json "$json" \
    --prepare "$IMGFETCH_BIN cache purge --all -q --cache-dir $cache" "$IMGFETCH_BIN prefetch -q -j 8 $list --cache-dir $cache" \
    --prepare "rm -rf $out/batch" "curl -s --create-dirs --parallel --parallel-max 8 -K $config" >>"$BENCH_LOG" 2>&1; then
    bench_skip "$scenario" "vs curl --parallel" "hyperfine failed (see $BENCH_LOG)" "" "≤ 1.00×"
    continue
  fi
  compare "$scenario" "vs curl --parallel --parallel-max 8" "$(median_of "$json" 0)" "$(median_of "$json" 1)" 1.0
done
