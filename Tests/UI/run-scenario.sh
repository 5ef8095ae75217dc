#!/usr/bin/env bash
# Runs one UI scenario of Tests/UI/faro_ui.py against the real Faro window: a private X server (Xvfb), a private
# session bus (dbus-run-session, which also hosts the accessibility bus), then the dogtail driver.
# Usage: run-scenario.sh SCENARIO [driver options...]   (env: FARO, FARO_BACKEND, SHOTS, LANG)
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
display=""
for n in $(seq 90 140); do
  if [ ! -e "/tmp/.X11-unix/X$n" ] && [ ! -e "/tmp/.X$n-lock" ]; then display=":$n"; break; fi
done
[ -n "$display" ] || { echo "no free X display number"; exit 1; }
runtime=$(mktemp -d)
export XDG_RUNTIME_DIR="$runtime"
Xvfb "$display" -screen 0 1280x800x24 -nolisten tcp -noreset >/dev/null 2>&1 &
xvfb=$!
trap 'kill $xvfb 2>/dev/null || true; sleep 0.2; kill -9 $xvfb 2>/dev/null || true; rm -rf "$runtime"' EXIT
for _ in $(seq 1 100); do
  xdpyinfo -display "$display" >/dev/null 2>&1 && break
  sleep 0.05
done
export DISPLAY="$display" GDK_BACKEND=x11 GTK_A11Y=atspi NO_AT_BRIDGE=
unset NO_AT_BRIDGE
timeout 180 dbus-run-session -- /usr/bin/python3 "$here/faro_ui.py" "$@"
