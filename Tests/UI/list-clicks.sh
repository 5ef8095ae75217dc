#!/usr/bin/env bash
# A list that holds still under the pointer (docs/beacon-page.md): the window on a private profile with the demo
# recording looped (the list re-sorts as the walk goes on) and a faro-backend naming the places; then ten real
# pointer clicks (Tests/UI/list_clicks.py, xdotool). Usage: list-clicks.sh FARO SCHEMA_DIR BACKEND_URL
set -uo pipefail
if [ -z "${FARO_CLICKS_INNER:-}" ]; then
  FARO_CLICKS_INNER=1 exec "$(dirname "$0")/with-display.sh" "$0" "$@"
fi
faro=$1 schemas=$2 backend=$3
command -v xdotool >/dev/null || { echo "FAIL xdotool is not installed (apt install xdotool)"; exit 1; }
export GSETTINGS_BACKEND=keyfile GSETTINGS_SCHEMA_DIR="$schemas"
"$faro" --source demo --speed 2 --backend "$backend" --no-tray >"$XDG_RUNTIME_DIR/faro.log" 2>&1 &
app=$!
/usr/bin/python3 "$(dirname "$0")/list_clicks.py"
status=$?
kill -TERM $app
wait $app
exit $status
