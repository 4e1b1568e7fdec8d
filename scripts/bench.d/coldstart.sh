#!/usr/bin/env bash
# Cold start: the first fetch of one URL, and small batches, as whole processes against nginx on
# loopback, over plain http and over https (HTTP/2; the bench's certificate given to every tool
# with --cacert / --ca-certificate). One corpus JPEG fetched by `imgfetch get` into an existing
# cache (its entry purged before every run) and into a new cache directory, against `curl -s -o`
# and `wget -q -O`; 10 and 100 distinct images with `prefetch -j 8` against `curl --parallel
# --parallel-max 8` and `wget -i`. hyperfine runs each many times in one session; the medians are
# compared, and the 100-image batch's CPU (user + sys, hyperfine's means of the same runs). Beside
# the one-URL rows, libcurl's load alone (lib/curl-load.c), the part imgfetch and curl both pay.
# Targets: one URL, existing cache <= 1.25x curl over http, <= 1.10x over https; new cache
# <= 1.5x (http) and <= 1.25x (https) curl. 10 and 100 URLs <= 1.0x curl --parallel over http,
# <= 0.9x the faster of curl --parallel and wget -i over https; the 100-image batch's CPU
# <= 1.1x curl --parallel's. Beside that CPU row, where it goes (information, no target): the same
# batch with --no-disk-cache (fetch and validate, nothing stored) against curl --parallel writing
# to /dev/null, and what each stores: imgfetch's cache (the batch less --no-disk-cache) against
# curl's files (to files less to /dev/null).
# shellcheck source=lib/common.sh
source "$(dirname "$0")/lib/common.sh"
# shellcheck source=lib/nginx.sh
source "$BENCH_LIB/nginx.sh"

runs=40
! bench_quick || runs=15
corpus_list="$(bench_corpus "$(bench_corpus_count)")"
nginx_start "$BENCH_OUT/corpus"
jpeg="$(grep -m1 '\.jpg$' "$corpus_list")"
size_kb="$(( $(stat -c %s "$BENCH_OUT/corpus/$jpeg") / 1000 ))"
out="$(bench_fresh_dir coldstart-out)"

# Median seconds of command INDEX in hyperfine's JSON export FILE.
median_of() {
  python3 -c 'import json, sys
print("%.6f" % json.load(open(sys.argv[1]))["results"][int(sys.argv[2])]["median"])' "$1" "$2"
}

# Mean CPU seconds (user + system) of command INDEX in hyperfine's JSON export FILE.
cpu_of() {
  python3 -c 'import json, sys
r = json.load(open(sys.argv[1]))["results"][int(sys.argv[2])]
print("%.6f" % (r["user"] + r["system"]))' "$1" "$2"
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

# libcurl's load alone, as imgfetch loads it (lib/curl-load.c): the part of a one-URL fetch that
# imgfetch and curl share, timed in the same session as both. Left out if no C compiler builds it.
curl_load="$BENCH_OUT/floor/curl-load"
if [ ! -x "$curl_load" ]; then
  mkdir -p "$BENCH_OUT/floor"
  compiler="$(command -v cc || command -v clang || true)"
  [ -z "$compiler" ] || "$compiler" -O2 "$BENCH_LIB/curl-load.c" -o "$curl_load" -ldl >>"$BENCH_LOG" 2>&1 || true
fi
[ -x "$curl_load" ] && "$curl_load" || curl_load=""

# one_url SCHEME BASE EXISTING-LIMIT NEW-LIMIT [CACERT]
one_url() {
  local scheme="$1" base="$2" limit_existing="$3" limit_new="$4" ca="${5:-}"
  local url="$base/$jpeg" own_ca="" curl_ca="" wget_ca=""
  [ -z "$ca" ] || { own_ca="--cacert $ca" curl_ca="--cacert $ca" wget_ca="--ca-certificate=$ca"; }
  local scenario="cold start over $scheme: one ${size_kb} KB JPEG, whole process, median of $runs"
  local existing fresh="$BENCH_OUT/run/coldstart-new-$scheme" json="$BENCH_OUT/run/coldstart-one-$scheme.json"
  existing="$(bench_fresh_dir "coldstart-existing-$scheme")"
  local load_command=()
  [ -z "$curl_load" ] || load_command=(--prepare true "$curl_load")
  # shellcheck disable=SC2086  # the CA words split on purpose
  "$IMGFETCH_BIN" get -q $own_ca "$url" --cache-dir "$existing" >>"$BENCH_LOG" 2>&1
  if ! hyperfine -N --warmup 3 --runs "$runs" --export-json "$json" \
    --prepare "$IMGFETCH_BIN cache purge --all -q --cache-dir $existing" "$IMGFETCH_BIN get -q $own_ca $url --cache-dir $existing" \
    --prepare "rm -rf $fresh" "$IMGFETCH_BIN get -q $own_ca $url --cache-dir $fresh" \
    --prepare "rm -f $out/curl.jpg" "curl -s $curl_ca -o $out/curl.jpg $url" \
    --prepare "rm -f $out/wget.jpg" "wget -q $wget_ca -O $out/wget.jpg $url" \
    "${load_command[@]}" >>"$BENCH_LOG" 2>&1; then
    bench_skip "$scenario" "vs curl -s -o" "hyperfine failed (see $BENCH_LOG)" "" "≤ $limit_existing×"
    return
  fi
  local own_existing own_new curl_one wget_one load
  own_existing="$(median_of "$json" 0)" own_new="$(median_of "$json" 1)"
  curl_one="$(median_of "$json" 2)" wget_one="$(median_of "$json" 3)"
  compare "$scenario" "existing cache vs curl -s -o" "$own_existing" "$curl_one" "$limit_existing"
  compare "$scenario" "existing cache vs wget -q -O" "$own_existing" "$wget_one" ""
  compare "$scenario" "new cache directory vs curl -s -o" "$own_new" "$curl_one" "$limit_new"
  if [ -n "$curl_load" ]; then
    load="$(median_of "$json" 4)"
    compare "$scenario" "libcurl's load alone (C, dlopen + curl_global_init) vs curl -s -o" "$load" "$curl_one" ""
    compare "$scenario" "existing cache vs libcurl's load alone" "$own_existing" "$load" ""
  fi
}

# batch SCHEME BASE N LIMIT [CACERT]: the faster of curl --parallel and wget -i is the reference
# over https; curl --parallel over http (wget's time is printed).
batch() {
  local scheme="$1" base="$2" n="$3" limit="$4" ca="${5:-}"
  local own_ca="" curl_ca="" wget_ca=""
  [ -z "$ca" ] || { own_ca="--cacert $ca" curl_ca="--cacert $ca" wget_ca="--ca-certificate=$ca"; }
  local scenario="cold start over $scheme: $n images, -j 8, whole process, median of $runs"
  local list="$BENCH_OUT/lists/coldstart-$scheme-$n.txt" config="$BENCH_OUT/lists/coldstart-$scheme-$n.curl"
  head -n "$n" "$corpus_list" | sed "s|^|$base/|" > "$list"
  head -n "$n" "$corpus_list" | awk -v base="$base" -v dir="$out/batch" \
    '{ printf "url = \"%s/%s\"\noutput = \"%s/%d\"\n", base, $0, dir, NR }' > "$config"
  local cache json="$BENCH_OUT/run/coldstart-$scheme-$n.json"
  cache="$(bench_fresh_dir "coldstart-batch-$scheme-$n")"
  # shellcheck disable=SC2086
  "$IMGFETCH_BIN" prefetch -q -j 8 $own_ca "$list" --cache-dir "$cache" >>"$BENCH_LOG" 2>&1
  # At 100 images, where the CPU goes: nothing stored by either tool (commands 3 and 4).
  local split=()
  if [ "$n" = 100 ]; then
    sed 's|^output = .*|output = "/dev/null"|' "$config" > "$config.null"
    split=(--prepare true "$IMGFETCH_BIN prefetch -q -j 8 --no-disk-cache $own_ca $list --cache-dir $cache"
      --prepare true "curl -s $curl_ca --parallel --parallel-max 8 -K $config.null")
  fi
  if ! hyperfine -N --warmup 3 --runs "$runs" --export-json "$json" \
    --prepare "$IMGFETCH_BIN cache purge --all -q --cache-dir $cache" "$IMGFETCH_BIN prefetch -q -j 8 $own_ca $list --cache-dir $cache" \
    --prepare "rm -rf $out/batch" "curl -s $curl_ca --create-dirs --parallel --parallel-max 8 -K $config" \
    --prepare "rm -rf $out/wget" "wget -q $wget_ca -i $list -P $out/wget" "${split[@]}" >>"$BENCH_LOG" 2>&1; then
    bench_skip "$scenario" "vs curl --parallel" "hyperfine failed (see $BENCH_LOG)" "" "≤ $limit×"
    return
  fi
  local own curl_t wget_t reference name
  own="$(median_of "$json" 0)" curl_t="$(median_of "$json" 1)" wget_t="$(median_of "$json" 2)"
  if [ "$scheme" = https ]; then
    reference="$curl_t" name="curl --parallel --parallel-max 8 (the faster)"
    if [ "$(bench_verdict "$wget_t" lt "$curl_t")" = PASS ]; then reference="$wget_t" name="wget -i (the faster)"; fi
    compare "$scenario" "vs $name" "$own" "$reference" "$limit"
    if [ "$reference" = "$curl_t" ]; then
      compare "$scenario" "vs wget -i" "$own" "$wget_t" ""
    else
      compare "$scenario" "vs curl --parallel --parallel-max 8" "$own" "$curl_t" ""
    fi
  else
    compare "$scenario" "vs curl --parallel --parallel-max 8" "$own" "$curl_t" "$limit"
    compare "$scenario" "vs wget -i" "$own" "$wget_t" ""
  fi
  if [ "$n" = 100 ]; then
    local own_cpu curl_cpu ratio
    own_cpu="$(cpu_of "$json" 0)" curl_cpu="$(cpu_of "$json" 1)"
    ratio="$(bench_ratio "$own_cpu" "$curl_cpu")"
    bench_row "$scenario" "CPU (user + sys) vs curl --parallel's" "$(bench_seconds "$own_cpu")" \
      "$(bench_seconds "$curl_cpu")" "${ratio}×" "≤ 1.10×" "$(bench_verdict "$ratio" le 1.1)"
    local fetch_cpu null_cpu
    fetch_cpu="$(cpu_of "$json" 3)" null_cpu="$(cpu_of "$json" 4)"
    bench_row "$scenario" "CPU with --no-disk-cache (fetch and validate) vs curl --parallel's to /dev/null" \
      "$(bench_seconds "$fetch_cpu")" "$(bench_seconds "$null_cpu")" "$(bench_ratio "$fetch_cpu" "$null_cpu")×" "—" "info"
    # Differences of two means of noisy runs: a side can come out at nothing (over https curl's
    # runs to files and to /dev/null once averaged the same), and then no ratio is printed.
    local stores writes split_ratio
    stores="$(python3 -c "print('%.6f' % max(0.0, $own_cpu - $fetch_cpu))")"
    writes="$(python3 -c "print('%.6f' % max(0.0, $curl_cpu - $null_cpu))")"
    split_ratio="$(bench_ratio "$stores" "$writes")"
    [ "$split_ratio" = inf ] && split_ratio="—" || split_ratio="${split_ratio}×"
    bench_row "$scenario" "CPU of storing: the cache (less --no-disk-cache) vs curl's files (less /dev/null)" \
      "$(bench_seconds "$stores")" "$(bench_seconds "$writes")" "$split_ratio" "—" "info"
  fi
}

one_url http "$NGINX_URL" 1.25 1.5
one_url https "$NGINX_TLS_URL" 1.10 1.25 "$BENCH_CACERT"
for n in 10 100; do
  batch http "$NGINX_URL" "$n" 1.0
  batch https "$NGINX_TLS_URL" "$n" 0.9 "$BENCH_CACERT"
done
