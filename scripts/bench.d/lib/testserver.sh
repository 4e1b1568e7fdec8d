# The project's own test HTTP server (Tests/Server/testserver.py) for the scenarios that need a
# fault nginx cannot make, such as a fixed time to first byte (`?delay_ms=20`). Source it after
# common.sh. The server lives as long as we hold its stdin open: testserver_stop closes it, and so
# does the mode's exit, Ctrl-C included.
#
# After testserver_start ROOT: TESTSERVER_URL is http://127.0.0.1:PORT, serving ROOT, and
# TESTSERVER_CONTROL_URL the plain-http port of its control endpoints (/_stats, /_reset).

TESTSERVER_SCRIPT="${TESTSERVER_SCRIPT:-$BENCH_ROOT/Tests/Server/testserver.py}"

testserver_available() { [ -f "$TESTSERVER_SCRIPT" ]; }

testserver_start() {
  local line
  coproc TESTSERVER { exec python3 "$TESTSERVER_SCRIPT" "$1"; }
  TESTSERVER_CHILD="$TESTSERVER_PID"
  bench_on_exit testserver_stop
  if ! read -r -t 10 -u "${TESTSERVER[0]}" line || [ "${line%% *}" != PORT ]; then
    log "the test server did not start (it said: ${line:-nothing})"
    return 1
  fi
  # The first line reads "PORT <n> CONTROL <m>".
  line="${line#PORT }"
  TESTSERVER_URL="http://127.0.0.1:${line%% *}"
  TESTSERVER_CONTROL_URL="http://127.0.0.1:${line##* }"
  log "test server serving $1 at $TESTSERVER_URL"
}

testserver_stop() {
  [ -n "${TESTSERVER_CHILD:-}" ] || return 0
  # Closing its stdin is how the server is told to end.
  exec {TESTSERVER[1]}>&- 2>/dev/null || true
  wait "$TESTSERVER_CHILD" 2>/dev/null || true
  TESTSERVER_CHILD=""
}
