#!/usr/bin/env bash
# Coalescing: a prefetch list in which every URL appears 10 times in a row (so the copies are in
# flight together at -j16). nginx's access log must show each URL exactly once.
# shellcheck source=lib/common.sh
source "$(dirname "$0")/lib/common.sh"
# shellcheck source=lib/nginx.sh
source "$BENCH_LIB/nginx.sh"
# shellcheck source=lib/fetchers.sh
source "$BENCH_LIB/fetchers.sh"

copies=10
count="$(bench_corpus_count)"
scenario="coalescing: $count URLs × $copies in one list, -j$BENCH_CONCURRENCY"

if ! bench_imgfetch_has prefetch; then
  bench_skip "$scenario" "requests nginx logged per URL" "imgfetch prefetch not available" "1 each" "each URL once"
  exit 0
fi

corpus_list="$(bench_corpus "$count")"
nginx_start "$BENCH_OUT/corpus"
list="$BENCH_OUT/lists/coalesce-$count.txt"
awk -v base="$NGINX_URL/" -v n="$copies" '{ for (i = 0; i < n; i++) print base $0 }' "$corpus_list" > "$list"

cache="$(bench_fresh_dir coalesce-cache)"
mark="$(nginx_log_mark)"
status=PASS took=0
if ! bench_time took fetch_imgfetch "$list" "$cache"; then
  log "imgfetch prefetch failed on the list with copies; counting what reached nginx anyway"
  status=FAIL
fi
counts="$BENCH_OUT/run/coalesce-counts"
nginx_requests_since "$mark" | sort | uniq -c | sort -rn > "$counts"
requests="$(awk '{ s += $1 } END { print s + 0 }' "$counts")"
urls="$(wc -l < "$counts")"
most="$(awk 'NR == 1 { print $1 + 0 }' "$counts")"
cached="$(fetched_count "$cache")"
{ [ "$requests" -eq "$count" ] && [ "$urls" -eq "$count" ] && [ "$cached" -eq "$count" ]; } || status=FAIL
bench_row "$scenario" "requests nginx logged per URL" \
  "$requests requests for $urls URLs (at most ${most:-0} per URL), $cached cached, $(bench_seconds "$took")" \
  "$count requests" "" "each URL once" "$status"
