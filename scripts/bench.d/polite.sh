#!/usr/bin/env bash
# Politeness: 1000 corpus URLs over 50 hosts (nginx on 127.0.0.2 … 127.0.0.51, each address a host
# of its own; /slow/ sends 1 MB/s a connection, so a request takes a while), one host holding a
# fifth of them, fetched with `--per-host 2 -j 32`. From nginx's log: no host ever had more than 2
# requests in flight, and the run took <= 1.15x the ideal, which is the busiest host's request
# time summed / 2 (it can go no faster two at a time) or, when larger, all request time / 32.
# shellcheck source=lib/common.sh
source "$(dirname "$0")/lib/common.sh"
# shellcheck source=lib/nginx.sh
source "$BENCH_LIB/nginx.sh"

count=1000 hosts=50 busiest_share=5
scenario="polite: $count URLs over $hosts hosts (one has 1/$busiest_share), --per-host 2 -j 32"
if ! bench_imgfetch_has prefetch; then
  bench_skip "$scenario" "most requests in flight to one host" "imgfetch prefetch not available" "" "≤ 2"
  exit 0
fi

corpus_list="$(bench_corpus "$count")"
NGINX_HOSTS="$hosts" nginx_start "$BENCH_OUT/corpus"
port="${NGINX_URL##*:}"
list="$BENCH_OUT/lists/polite-$count.txt"
# Every 5th URL goes to the busiest host, the rest round the other 49.
awk -v port="$port" -v hosts="$hosts" -v share="$busiest_share" '{
    i = NR - 1
    host = (i % share == 0) ? 2 : 3 + (i % (hosts - 1))
    print "http://127.0.0." host ":" port "/slow/" $0
  }' "$corpus_list" > "$list"

cache="$(bench_fresh_dir polite-cache)"
mark="$(nginx_log_mark)"
took=0 status=0
bench_time took "$IMGFETCH_BIN" prefetch -q -j 32 --per-host 2 --cache-dir "$cache" "$list" || status=$?
# Per host: the most requests in flight at once (start = end - length, from nginx's log; a start
# within a millisecond of an end counts as after it, the log's resolution) and summed request time.
read -r most busiest_sum total_sum requests < <(tail -c +"$((mark + 1))" "$NGINX_ACCESS_LOG" | python3 -c '
import sys, collections
spans = collections.defaultdict(list)
for line in sys.stdin:
    fields = line.split()
    if len(fields) < 6: continue
    end, length = float(fields[4]), float(fields[5])
    spans[fields[3]].append((end - length, end))
most, sums = 0, {}
for host, items in spans.items():
    events = sorted([(s + 0.001, 1) for s, e in items] + [(e, -1) for s, e in items], key=lambda x: (x[0], x[1]))
    now = 0
    for _, step in events:
        now += step
        most = max(most, now)
    sums[host] = sum(e - s for s, e in items)
print(most, max(sums.values() or [0]), sum(sums.values()), sum(len(v) for v in spans.values()))')
ideal="$(awk -v b="$busiest_sum" -v t="$total_sum" 'BEGIN { i = b / 2; if (t / 32 > i) i = t / 32; printf "%.4f", i }')"
shown="$requests requests, exit $status"
if [ "$status" -ne 0 ] || [ "$requests" -ne "$count" ]; then
  bench_row "$scenario" "most requests in flight to one host" "$shown, most $most" "" "" "≤ 2" "FAIL"
  bench_row "$scenario" "vs the busiest host's time ÷ 2" "$(bench_seconds "$took")" "$(bench_seconds "$ideal")" "" "≤ 1.15×" "FAIL"
  exit 0
fi
bench_row "$scenario" "most requests in flight to one host" "$most ($shown)" "" "" "≤ 2" "$(bench_verdict "$most" le 2)"
ratio="$(bench_ratio "$took" "$ideal")"
bench_row "$scenario" "vs the busiest host's time ÷ 2" "$(bench_seconds "$took")" "$(bench_seconds "$ideal")" "${ratio}×" "≤ 1.15×" "$(bench_verdict "$ratio" le 1.15)"
