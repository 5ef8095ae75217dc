#!/usr/bin/env bash
# Runs one command on a private X server (Xvfb) and a private session bus (dbus-run-session, which also hosts the
# accessibility bus), printing "PID <n>" first: <n> is the command itself (it is exec'd), so a test can kill -9
# exactly that process. Every UI test starts the window through this script.
# Usage: with-display.sh COMMAND [ARGS...]
set -uo pipefail
if [ -z "${FARO_WITH_DISPLAY_INNER:-}" ]; then
  runtime=$(mktemp -d)
  # Xvfb picks a free display itself and writes its number once it accepts clients: choosing a number here and
  # starting Xvfb on it races with UI tests running at the same time (two apps on one display, clicks landing in
  # the other's window).
  Xvfb -displayfd 3 -screen 0 1280x800x24 -nolisten tcp -noreset >/dev/null 2>&1 3>"$runtime/display" &
  xvfb=$!
  trap 'kill $xvfb 2>/dev/null; sleep 0.2; kill -9 $xvfb 2>/dev/null; rm -rf "$runtime"' EXIT
  for _ in $(seq 1 200); do [ -s "$runtime/display" ] && break; sleep 0.05; done
  display=":$(head -n 1 "$runtime/display")"
  [ "$display" != ":" ] || { echo "Xvfb did not start"; exit 1; }
  unset NO_AT_BRIDGE
  DISPLAY="$display" GDK_BACKEND=x11 XDG_RUNTIME_DIR="$runtime" FARO_WITH_DISPLAY_INNER=1 \
    timeout 300 dbus-run-session -- "$0" "$@"
  exit $?
fi
echo "PID $$"
exec "$@"
