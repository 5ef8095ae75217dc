#!/usr/bin/env bash
# Preferences and "Calibrar a 1 m" on the real window, in Spanish: a private X server and bus (with-display.sh),
# bluetoothd played by python-dbusmock with a catalogued iBeacon at about -65 dBm and one no catalog names
# (Tests/UI/bluez-beacons.sh), and the window driven through AT-SPI by Tests/UI/faro_prefs.py. Prints OK/FAIL lines.
# Usage: preferences-calibration.sh FARO SCHEMA_DIR BACKEND_URL REFUSING_URL
set -uo pipefail
if [ -z "${FARO_PREFS_INNER:-}" ]; then
  FARO_PREFS_INNER=1 exec "$(dirname "$0")/with-display.sh" "$0" "$@"
fi
here=$(cd "$(dirname "$0")" && pwd)
faro=$1 schemas=$2 backend=$3 refusing=$4
export GSETTINGS_BACKEND=keyfile GSETTINGS_SCHEMA_DIR="$schemas"
# shellcheck source=Tests/UI/bluez-beacons.sh
. "$here/bluez-beacons.sh"
bluez_beacons_run "$faro" "$backend" \
  env FARO_BACKEND_URL="$backend" FARO_REFUSING_URL="$refusing" FARO_BIN="$faro" /usr/bin/python3 "$here/faro_prefs.py"
