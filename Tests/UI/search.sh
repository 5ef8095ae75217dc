#!/usr/bin/env bash
# Search in the Spanish window (docs/beacons.md, "Search"): two pages saved into Guardados with `faro save`, then the
# window with a replay of five demo beacons (one heard late) against a faro-backend naming them, driven by real key
# presses and read through AT-SPI (Tests/UI/faro_search.py). Usage: search.sh FARO SCHEMA_DIR BACKEND_URL
# Prints OK/FAIL lines.
set -uo pipefail
if [ -z "${FARO_SEARCH_INNER:-}" ]; then
  FARO_SEARCH_INNER=1 exec "$(dirname "$0")/with-display.sh" "$0" "$@"
fi
faro=$1 schemas=$2 backend=$3
command -v xdotool >/dev/null || { echo "FAIL xdotool is not installed (apt install xdotool)"; exit 1; }
export GSETTINGS_BACKEND=keyfile GSETTINGS_SCHEMA_DIR="$schemas"
for place in "libreria-el-pendulo:Librería El Péndulo" "taqueria-los-cocuyos:Taquería Los Cocuyos"; do
  "$faro" save "$backend/sitios/${place%%:*}/" --business "${place#*:}" >"$XDG_RUNTIME_DIR/save.log" 2>&1 \
    || { echo "FAIL faro save ${place%%:*}: $(cat "$XDG_RUNTIME_DIR/save.log")"; exit 1; }
done
echo "OK search-saved-two-pages"
FARO="$faro" FARO_BACKEND="$backend" /usr/bin/python3 "$(dirname "$0")/faro_search.py"
