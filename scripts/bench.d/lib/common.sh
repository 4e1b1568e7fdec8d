# Shared by the scripts/bench.d modes (source it): paths, the imgfetch binary, timing, medians,
# result rows, and cleanup that runs on every exit, Ctrl-C included.
#
# Environment (set by scripts/bench, defaults for a mode run on its own):
#   BENCH_OUT      scratch and cache directory, reused across runs (default: <repo>/bench-out)
#   BENCH_QUICK    1 for the smaller run of `scripts/bench --quick`
#   BENCH_RESULTS  TSV file the result rows are appended to (scripts/bench prints it as one table)
#   IMGFETCH_BIN   the release imgfetch binary (built here, once, when unset)
#   BENCH_RUN_FS   host: the tools write to bench-out/run where it is, not to the bench's own ext4
set -euo pipefail

BENCH_LIB="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
BENCH_ROOT="$(cd "$BENCH_LIB/../../.." && pwd)"
BENCH_OUT="${BENCH_OUT:-$BENCH_ROOT/bench-out}"
BENCH_QUICK="${BENCH_QUICK:-0}"
BENCH_RESULTS="${BENCH_RESULTS:-$BENCH_OUT/results.tsv}"
BENCH_MODE="${BENCH_MODE:-$(basename "$0" .sh)}"
BENCH_LOG="$BENCH_OUT/logs/$BENCH_MODE.log"
mkdir -p "$BENCH_OUT/logs" "$BENCH_OUT/run" "$BENCH_OUT/lists"
: > "$BENCH_LOG"

# The mode's own stderr, kept apart so that messages reach the terminal even from a trap that runs
# while a timed command's output is redirected to the log.
exec {BENCH_STDERR}>&2
log() { echo "bench $BENCH_MODE: $*" >&"$BENCH_STDERR"; }

# --- cleanup: a stack of commands run in reverse order when the mode exits, however it exits ---
_bench_cleanups=()
bench_on_exit() { _bench_cleanups+=("$1"); }
_bench_run_cleanups() {
  local i
  for ((i = ${#_bench_cleanups[@]} - 1; i >= 0; i--)); do eval "${_bench_cleanups[i]}" || true; done
  _bench_cleanups=()
}
trap _bench_run_cleanups EXIT
trap 'log "interrupted"; exit 130' INT TERM

# --- where the tools write: an ext4 with a journal, as a user's disk (see runfs.sh) ---
# scripts/bench mounts it for the whole run; a mode run on its own mounts it for itself.
# shellcheck source=runfs.sh
source "$BENCH_LIB/runfs.sh"
if runfs_mount 2>>"$BENCH_LOG"; then bench_on_exit runfs_unmount; fi

# --- sizes of the run ---
bench_quick() { [ "$BENCH_QUICK" = 1 ]; }
bench_rounds() { if bench_quick; then echo 1; else echo "${BENCH_ROUNDS:-5}"; fi; }
bench_corpus_count() { if bench_quick; then echo 200; else echo 1000; fi; }
BENCH_CONCURRENCY=16

# --- the imgfetch binary ---
# shellcheck source=imgfetch.sh
source "$BENCH_LIB/imgfetch.sh"
# Sets IMGFETCH_BIN to the release build, installed in $BENCH_OUT/bin, building it when nobody has
# yet; returns 1 when the build fails (the modes then skip imgfetch's rows and say why).
bench_imgfetch() {
  if [ -n "${IMGFETCH_BIN:-}" ] && [ -x "$IMGFETCH_BIN" ]; then return 0; fi
  [ -z "${IMGFETCH_BUILD_FAILED:-}" ] || return 1
  log "building imgfetch (release)"
  if ! bench_build_imgfetch "$BENCH_ROOT" "$BENCH_OUT/bin/imgfetch" "$BENCH_LOG"; then
    log "release build failed (see $BENCH_LOG)"
    export IMGFETCH_BUILD_FAILED=1
    return 1
  fi
  export IMGFETCH_BIN="$BENCH_OUT/bin/imgfetch"
}

# True when the built imgfetch has the subcommand $1 (e.g. prefetch, get). The root command answers
# `X --help` with its own help for an unknown X, so the usage line is what tells. The help is read
# whole first: `| grep -q` would close the pipe at the match, imgfetch exit 141 on the closed
# stdout, and pipefail take the pipeline for a failure (it skipped whole modes).
bench_imgfetch_has() {
  local help
  bench_imgfetch >/dev/null 2>&1 || return 1
  help="$("$IMGFETCH_BIN" "$1" --help 2>&1 || true)"
  grep -q "USAGE: imgfetch $1" <<<"$help"
}

# --- the corpus ---
# Makes (or reuses) the first N corpus images under $BENCH_OUT/corpus and writes their paths,
# relative to it, to $BENCH_OUT/lists/corpus-N.txt; prints that file's name.
bench_corpus() {
  local n="$1" list="$BENCH_OUT/lists/corpus-$1.txt"
  python3 "$BENCH_LIB/corpus.py" "$BENCH_OUT/corpus" "$n" > "$list.tmp"
  mv "$list.tmp" "$list"
  [ -f "$BENCH_OUT/corpus/tiny.png" ] || python3 "$BENCH_LIB/corpus.py" "$BENCH_OUT/corpus" --tiny
  echo "$list"
}

# N distinct URLs' worth of one tiny PNG under $BENCH_OUT/corpus/tiny (hard links); writes their
# paths, relative to the corpus, to $BENCH_OUT/lists/tiny-N.txt and prints that file's name.
bench_tiny_corpus() {
  local list="$BENCH_OUT/lists/tiny-$1.txt"
  python3 "$BENCH_LIB/corpus.py" "$BENCH_OUT/corpus" --tiny-copies "$1" > "$list.tmp"
  mv "$list.tmp" "$list"
  echo "$list"
}

# "N MB, K KB average" for the corpus images named in LIST.
bench_corpus_size() {
  (cd "$BENCH_OUT/corpus" && xargs stat -c %s < "$1") |
    awk '{ s += $1 } END { printf "%.0f MB, %.0f KB average", s / 1e6, s / NR / 1e3 }'
}

# A fresh, empty directory under $BENCH_OUT/run; prints its path.
bench_fresh_dir() {
  local dir="$BENCH_OUT/run/$1"
  rm -rf "$dir"
  mkdir -p "$dir"
  echo "$dir"
}

# --- timing ---
# bench_time VAR CMD... runs CMD (its output goes to the mode's log) and stores its wall time in
# seconds in VAR. Returns CMD's status, so a failed run is never taken for a fast one.
bench_time() {
  local __var="$1" start end status=0
  shift
  echo "+ $*" >>"$BENCH_LOG"
  start=$EPOCHREALTIME
  "$@" >>"$BENCH_LOG" 2>&1 || status=$?
  end=$EPOCHREALTIME
  printf -v "$__var" '%s' "$(awk -v a="$start" -v b="$end" 'BEGIN { printf "%.4f", b - a }')"
  [ "$status" -eq 0 ] || log "exit $status from: $* (see $BENCH_LOG)"
  return "$status"
}

# Median of the numbers given as arguments.
bench_median() {
  printf '%s\n' "$@" | sort -g | awk '{ v[NR] = $1 } END {
    if (NR == 0) exit 1
    if (NR % 2) printf "%.4f", v[(NR + 1) / 2]; else printf "%.4f", (v[NR / 2] + v[NR / 2 + 1]) / 2 }'
}

# bench_ratio A B: A / B with two decimals.
bench_ratio() { awk -v a="$1" -v b="$2" 'BEGIN { if (b == 0) print "inf"; else printf "%.2f", a / b }'; }

# bench_verdict VALUE OP LIMIT (OP: le, lt, ge): PASS or FAIL.
bench_verdict() {
  awk -v v="$1" -v op="$2" -v l="$3" 'BEGIN {
    ok = (op == "le") ? v <= l : (op == "lt") ? v < l : (op == "ge") ? v >= l : 0
    print (ok ? "PASS" : "FAIL") }'
}

# Seconds shown the way the table shows them.
bench_seconds() { awk -v s="$1" 'BEGIN { if (s < 0.1) printf "%.1f ms", s * 1000; else printf "%.3f s", s }'; }

# --- results ---
# bench_row SCENARIO COMPARISON IMGFETCH REFERENCE RATIO TARGET RESULT: one row of the final table
# (RESULT: PASS, FAIL, info or SKIP). Also echoed to stderr as the mode goes.
bench_row() {
  printf '%s\t%s\t%s\t%s\t%s\t%s\t%s\n' "$@" >>"$BENCH_RESULTS"
  log "$(printf '%s | %s | %s | %s | %s | %s | %s' "$@")"
}

# A row saying why imgfetch could not be measured, instead of a number.
bench_skip() { bench_row "$1" "$2" "n/a" "${4:-}" "" "${5:-}" "SKIP: $3"; }

# --- ports ---
bench_free_port() {
  python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'
}
