#!/usr/bin/env bash
# The ways into a beacon's page ("Detalles") besides the row's right click, on the real Spanish window: a long press
# on a row with a real pointer (xdotool), and the "Detalles" button in the header of a site opened from a row.
# bluetoothd is played by python-dbusmock (Tests/UI/bluez-beacons.sh), the catalog by faro-backend; the window is
# driven by Tests/UI/beacon_page_entries.py. Prints OK/FAIL lines.
# Usage: beacon-page-entries.sh FARO SCHEMA_DIR BACKEND_URL
set -uo pipefail
if [ -z "${FARO_ENTRIES_INNER:-}" ]; then
  FARO_ENTRIES_INNER=1 exec "$(dirname "$0")/with-display.sh" "$0" "$@"
fi
here=$(cd "$(dirname "$0")" && pwd)
faro=$1 schemas=$2 backend=$3
command -v xdotool >/dev/null || { echo "FAIL xdotool is not installed (apt install xdotool)"; exit 1; }
export GSETTINGS_BACKEND=keyfile GSETTINGS_SCHEMA_DIR="$schemas"
# shellcheck source=Tests/UI/bluez-beacons.sh
. "$here/bluez-beacons.sh"
bluez_beacons_run "$faro" "$backend" /usr/bin/python3 "$here/beacon_page_entries.py"
