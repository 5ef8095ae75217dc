#!/usr/bin/env bash
# Runs one command on a private X server (Xvfb) and a private session bus (dbus-run-session, which also hosts the
# accessibility bus), printing "PID <n>" first: <n> is the command itself (it is exec'd), so a test can kill -9
# exactly that process. Every UI test starts the window through this script.
# FARO_WINDOW_MANAGER=openbox (or xfwm4, mutter) runs that window manager on the display first, and the command
# starts once it has claimed the screen (`_NET_SUPPORTING_WM_CHECK` on the root window): then transient parents,
# stacking and focus behave as on a desktop. Without it there is no window manager.
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
  if [ -n "${FARO_WINDOW_MANAGER:-}" ]; then
    case "$FARO_WINDOW_MANAGER" in
      openbox) wm=(openbox --sm-disable) ;;
      xfwm4) wm=(xfwm4 --replace --sm-client-disable) ;;
      mutter) wm=(mutter --x11 --replace --sm-disable) ;;
      *) echo "FAIL unknown FARO_WINDOW_MANAGER $FARO_WINDOW_MANAGER (openbox, xfwm4 or mutter)"; exit 1 ;;
    esac
    command -v "${wm[0]}" >/dev/null || { echo "FAIL ${wm[0]} is not installed (scripts/install-deps.sh)"; exit 1; }
    DISPLAY="$display" "${wm[@]}" >"$runtime/wm.log" 2>&1 &
    wm_pid=$!
    trap 'kill $wm_pid $xvfb 2>/dev/null; sleep 0.2; kill -9 $xvfb 2>/dev/null; rm -rf "$runtime"' EXIT
    for _ in $(seq 1 200); do
      xprop -display "$display" -root _NET_SUPPORTING_WM_CHECK 2>/dev/null | grep -q "window id" && break
      kill -0 $wm_pid 2>/dev/null || break
      sleep 0.05
    done
    xprop -display "$display" -root _NET_SUPPORTING_WM_CHECK 2>/dev/null | grep -q "window id" \
      || { echo "FAIL the window manager $FARO_WINDOW_MANAGER did not start: $(cat "$runtime/wm.log")"; exit 1; }
  fi
  unset NO_AT_BRIDGE
  DISPLAY="$display" GDK_BACKEND=x11 XDG_RUNTIME_DIR="$runtime" FARO_WITH_DISPLAY_INNER=1 \
    timeout 300 dbus-run-session -- "$0" "$@"
  exit $?
fi
echo "PID $$"
exec "$@"
