#!/usr/bin/env bash
# Every feature from the keyboard (docs/keyboard.md): the Spanish window on a private profile with the demo source
# and a faro-backend naming the places, under a window manager (openbox, unless FARO_WINDOW_MANAGER names another)
# so the keyboard focus follows the active window as on a desktop; then Tests/UI/keyboard_walk.py drives it with
# real key presses (xdotool) and reads it through AT-SPI. Usage: keyboard-walk.sh FARO SCHEMA_DIR BACKEND_URL
set -uo pipefail
if [ -z "${FARO_KEYS_INNER:-}" ]; then
  FARO_WINDOW_MANAGER=${FARO_WINDOW_MANAGER:-openbox} FARO_KEYS_INNER=1 exec "$(dirname "$0")/with-display.sh" "$0" "$@"
fi
faro=$1 schemas=$2 backend=$3
command -v xdotool >/dev/null || { echo "FAIL xdotool is not installed (apt install xdotool)"; exit 1; }
export GSETTINGS_BACKEND=keyfile GSETTINGS_SCHEMA_DIR="$schemas" FARO="$faro"
"$faro" --source demo --backend "$backend" --no-tray >"$XDG_RUNTIME_DIR/faro.log" 2>&1 &
app=$!
/usr/bin/python3 "$(dirname "$0")/keyboard_walk.py"
status=$?
[ $status -eq 0 ] || tail -20 "$XDG_RUNTIME_DIR/faro.log"
kill -TERM $app
wait $app
exit $status
