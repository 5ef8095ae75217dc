#!/usr/bin/env bash
# "Lugares visitados" from a walk: starts the window on a private profile with the demo walk at 10x speed and a
# faro-backend naming its places, waits until the walk is over, then lists the visits with `faro visits --json`
# while the window still runs.
# Then the "Lugares visitados" page is driven through AT-SPI (Tests/UI/faro_visits.py): listed, opened, cleared.
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
# The page in the window: listed under Hoy, a click opens the site, Borrar historial empties the store.
/usr/bin/python3 "$(dirname "$0")/faro_visits.py" || tail -20 "$XDG_RUNTIME_DIR/faro.log"
[ "$("$faro" visits | grep -c .)" -eq 0 ] && echo "OK visits-page-clear-reached-the-store" || echo "FAIL visits remain after Borrar historial"
kill -TERM $app
wait $app
