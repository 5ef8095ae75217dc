#!/usr/bin/env bash
# Runs one command on a private X server (Xvfb) and a private session bus (dbus-run-session, which also hosts the
# accessibility bus), printing "PID <n>" first: <n> is the command itself (it is exec'd), so a test can kill -9
# exactly that process. Every UI test starts the window through this script.
# Usage: with-display.sh COMMAND [ARGS...]
set -uo pipefail
if [ -z "${FARO_WITH_DISPLAY_INNER:-}" ]; then
  display=""
  for n in $(seq 90 240); do
    if [ ! -e "/tmp/.X11-unix/X$n" ] && [ ! -e "/tmp/.X$n-lock" ]; then display=":$n"; break; fi
  done
  [ -n "$display" ] || { echo "no free X display"; exit 1; }
  runtime=$(mktemp -d)
  Xvfb "$display" -screen 0 1280x800x24 -nolisten tcp -noreset >/dev/null 2>&1 &
  xvfb=$!
  trap 'kill $xvfb 2>/dev/null; sleep 0.2; kill -9 $xvfb 2>/dev/null; rm -rf "$runtime"' EXIT
  for _ in $(seq 1 100); do xdpyinfo -display "$display" >/dev/null 2>&1 && break; sleep 0.05; done
  unset NO_AT_BRIDGE
  DISPLAY="$display" GDK_BACKEND=x11 XDG_RUNTIME_DIR="$runtime" FARO_WITH_DISPLAY_INNER=1 \
    timeout 300 dbus-run-session -- "$0" "$@"
  exit $?
fi
echo "PID $$"
exec "$@"
