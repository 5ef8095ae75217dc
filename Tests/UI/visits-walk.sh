#!/usr/bin/env bash
# "Lugares visitados" from a walk: starts the window on a private profile with the demo walk at 10x speed and a
# faro-backend naming its places, waits until the walk is over, then lists the visits with `faro visits --json`
# while the window still runs, clears them with `faro visits clear`, and applies retention through gsettings.
# Usage: visits-walk.sh FARO SCHEMA_DIR WALK BACKEND_URL   Prints OK/FAIL lines and the visits JSON.
set -uo pipefail
if [ -z "${FARO_VISITS_INNER:-}" ]; then
  FARO_VISITS_INNER=1 exec "$(dirname "$0")/with-display.sh" "$0" "$@"
fi
faro=$1 schemas=$2 walk=$3 backend=$4
export GSETTINGS_BACKEND=keyfile GSETTINGS_SCHEMA_DIR="$schemas"
"$faro" --source replay "$walk" --speed 10 --backend "$backend" --no-tray >"$XDG_RUNTIME_DIR/faro.log" 2>&1 &
app=$!
# The walk lasts about 120 s of recording time, 12 s here. After its end the source's clock runs at the machine's
# pace, so the exits come 30 s later: wait for one (up to 70 s).
for _ in $(seq 1 140); do
  sleep 0.5
  kill -0 $app 2>/dev/null || { echo "FAIL the window quit: $(cat "$XDG_RUNTIME_DIR/faro.log")"; exit 1; }
  "$faro" visits --json 2>/dev/null | grep -q '"left": "' && break
done
visits=$("$faro" visits --json)
echo "VISITS"
echo "$visits"
echo "END"
n=$(echo "$visits" | grep -c '"entered"')
[ "$n" -ge 2 ] && echo "OK visits-recorded $n" || echo "FAIL only $n visits after the walk: $(cat "$XDG_RUNTIME_DIR/faro.log")"
echo "$visits" | grep -q '"left": "' && echo "OK visits-left" || echo "FAIL no visit has a time of leaving"
echo "$visits" | grep -q '"closest_m": [0-9]' && echo "OK visits-closest" || echo "FAIL no visit has a closest distance"
today=$(date -u +%Y-%m-%d)
[ "$("$faro" visits --since "$today" --json | grep -c '"entered"')" -eq "$n" ] && echo "OK visits-since-today" || echo "FAIL --since $today lists another number"
[ "$("$faro" visits --since 2999-01-01 | grep -c .)" -eq 0 ] && echo "OK visits-since-future-empty" || echo "FAIL --since 2999-01-01 lists visits"
"$faro" visits clear | grep -q "visits deleted" && echo "OK visits-cleared-said"
[ "$("$faro" visits | grep -c .)" -eq 0 ] && echo "OK visits-cleared" || echo "FAIL visits remain after clear"
kill -TERM $app
wait $app
