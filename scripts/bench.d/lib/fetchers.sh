# The fetchers compared in the batch scenarios (source it after common.sh). Each takes a URL list
# (one URL a line) and an empty output directory, fetches every URL at $BENCH_CONCURRENCY at once
# (wget has no such option: it fetches one after the other) and fails when any transfer fails.
# For an https list, set FETCH_CACERT to the certificate every tool is to trust (BENCH_CACERT).

# Each tool's words for "trust this certificate", empty for plain http.
fetch_ca() {
  [ -n "${FETCH_CACERT:-}" ] || return 0
  case "$1" in
    imgfetch | curl) printf '%s\n' --cacert "$FETCH_CACERT" ;;
    aria2c | wget) printf '%s\n' "--ca-certificate=$FETCH_CACERT" ;;
  esac
}

fetch_imgfetch() { "$IMGFETCH_BIN" prefetch "$1" -j "$BENCH_CONCURRENCY" --cache-dir "$2" -q $(fetch_ca imgfetch); }

fetch_imgfetch_verify() {
  "$IMGFETCH_BIN" prefetch "$1" -j "$BENCH_CONCURRENCY" --cache-dir "$2" -q --verify decode $(fetch_ca imgfetch)
}

fetch_curl_parallel() {
  # A config file rather than arguments, so a 100k-URL list fits; one "url" line per URL.
  sed 's/.*/url = "&"/' "$1" > "$2.curlrc"
  # -s alone leaves the parallel progress meter on (curl 7.88); --no-progress-meter silences it.
  curl --parallel --parallel-max "$BENCH_CONCURRENCY" -s --no-progress-meter -f --remote-name-all --output-dir "$2" \
    $(fetch_ca curl) -K "$2.curlrc"
}

fetch_aria2c() {
  aria2c -i "$1" -d "$2" -j "$BENCH_CONCURRENCY" -q --file-allocation=none \
    --auto-file-renaming=false --allow-overwrite=true --console-log-level=error --summary-interval=0 $(fetch_ca aria2c)
}

fetch_wget() { wget -q -i "$1" -P "$2" $(fetch_ca wget); }

fetch_xargs_curl() { xargs -P "$BENCH_CONCURRENCY" -n 1 curl -s -f -O --output-dir "$2" $(fetch_ca curl) < "$1"; }

# Human names of the fetchers, as the table shows them.
fetcher_name() {
  case "$1" in
    imgfetch) echo "imgfetch prefetch" ;;
    imgfetch_verify) echo "imgfetch prefetch --verify decode" ;;
    curl_parallel) echo "curl --parallel" ;;
    aria2c) echo "aria2c -i" ;;
    wget) echo "wget -i (sequential)" ;;
    xargs_curl) echo "xargs -P$BENCH_CONCURRENCY curl" ;;
  esac
}

# Files a fetcher left in DIR (imgfetch's cache holds an index beside the images: count images).
fetched_count() {
  find "$1" -type f \( -name '*.jpg' -o -name '*.jpeg' -o -name '*.png' -o -name '*.webp' \
    -o -name '*.gif' \) | wc -l
}

# batch_rounds LIST EXPECTED ROUNDS FETCHER...: runs each fetcher ROUNDS times on LIST, in a new
# order every round (so no tool always runs after the same neighbour), each time into a fresh
# directory. Sets BATCH_MEDIAN[fetcher] to the median wall time in seconds, or BATCH_FAILED[fetcher]
# to why it has none (a run that fails or leaves fewer than EXPECTED images is not timed).
declare -A BATCH_MEDIAN=() BATCH_FAILED=()
batch_rounds() {
  local list="$1" expected="$2" rounds="$3" r i f dir t got
  shift 3
  local fetchers=("$@") n="$#"
  local -A times=()
  for ((r = 0; r < rounds; r++)); do
    for ((i = 0; i < n; i++)); do
      f="${fetchers[(i + r) % n]}"
      [ -z "${BATCH_FAILED[$f]:-}" ] || continue
      dir="$(bench_fresh_dir "$f")"
      sync  # earlier rounds' writes must not be flushed on this round's time
      if ! bench_time t "fetch_$f" "$list" "$dir"; then
        BATCH_FAILED[$f]="$(fetcher_name "$f") exited with an error (see $BENCH_LOG)"
        continue
      fi
      got="$(fetched_count "$dir")"
      if [ "$got" -ne "$expected" ]; then
        BATCH_FAILED[$f]="$(fetcher_name "$f") left $got of $expected images"
        continue
      fi
      times[$f]+="$t "
      log "round $((r + 1))/$rounds: $(fetcher_name "$f") $(bench_seconds "$t")"
    done
  done
  for f in "${fetchers[@]}"; do
    # shellcheck disable=SC2086  # the times are one word each
    [ -z "${times[$f]:-}" ] || BATCH_MEDIAN[$f]="$(bench_median ${times[$f]})"
  done
}
