#!/usr/bin/env bash
# Single instance and clean exit, on a private X server and session bus: a second `faro` hands over to the first
# (GApplication's uniqueness) and exits; SIGTERM ends the first cleanly (status 0).
# Usage: app-lifecycle.sh FARO [faro arguments...]   Prints OK/FAIL lines.
set -uo pipefail
if [ -z "${FARO_LIFECYCLE_INNER:-}" ]; then
  FARO_LIFECYCLE_INNER=1 exec "$(dirname "$0")/with-display.sh" "$0" "$@"
fi
faro=$1
shift
"$faro" "$@" >/dev/null 2>&1 &
first=$!
for _ in $(seq 1 200); do
  gdbus call --session --dest org.freedesktop.DBus --object-path /org/freedesktop/DBus \
    --method org.freedesktop.DBus.NameHasOwner io.github.faro.Faro 2>/dev/null | grep -q true && break
  sleep 0.05
done
gdbus call --session --dest org.freedesktop.DBus --object-path /org/freedesktop/DBus \
  --method org.freedesktop.DBus.NameHasOwner io.github.faro.Faro | grep -q true \
  && echo "OK first-instance-owns-the-name" || { echo "FAIL the first instance never owned io.github.faro.Faro"; exit 1; }
timeout 20 "$faro" "$@" >/dev/null 2>&1
second=$?
[ "$second" = 0 ] && echo "OK second-launch-exits status=$second" || echo "FAIL second launch status=$second"
kill -0 $first 2>/dev/null && echo "OK first-still-running" || echo "FAIL the first instance died"
kill -TERM $first
for _ in $(seq 1 100); do kill -0 $first 2>/dev/null || break; sleep 0.05; done
if kill -0 $first 2>/dev/null; then
  echo "FAIL still running 5 s after SIGTERM"
  kill -9 $first
else
  wait $first
  status=$?
  [ "$status" = 0 ] && echo "OK sigterm-exit status=$status" || echo "FAIL SIGTERM exit status=$status"
fi
