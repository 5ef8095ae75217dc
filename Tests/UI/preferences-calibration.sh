#!/usr/bin/env bash
# Preferences and "Calibrar a 1 m" on the real window, in Spanish: a private X server and bus (with-display.sh),
# bluetoothd played by python-dbusmock (Tests/FaroBluetoothTests/Templates/bluez_faro.py) on the same bus, one
# iBeacon advertising twice a second at about -65 dBm, and the window driven through AT-SPI by
# Tests/UI/faro_prefs.py. Prints OK/FAIL lines.
# Usage: preferences-calibration.sh FARO SCHEMA_DIR BACKEND_URL REFUSING_URL
set -uo pipefail
if [ -z "${FARO_PREFS_INNER:-}" ]; then
  FARO_PREFS_INNER=1 exec "$(dirname "$0")/with-display.sh" "$0" "$@"
fi
here=$(cd "$(dirname "$0")" && pwd)
faro=$1 schemas=$2 backend=$3 refusing=$4
export GSETTINGS_BACKEND=keyfile GSETTINGS_SCHEMA_DIR="$schemas"
export DBUS_SYSTEM_BUS_ADDRESS="$DBUS_SESSION_BUS_ADDRESS"
uuid=fa20de300b1e4c5a9b5ed3a0be0c0de1
/usr/bin/python3 -m dbusmock --system --template "$here/../FaroBluetoothTests/Templates/bluez_faro.py" \
  >"$XDG_RUNTIME_DIR/bluez.log" 2>&1 &
mock=$!
gdbus wait --system --timeout 10 org.bluez || { echo "FAIL the BlueZ mock did not start: $(cat "$XDG_RUNTIME_DIR/bluez.log")"; exit 1; }
call() { gdbus call --system --dest org.bluez --object-path / --method "org.bluez.Mock.$1" "${@:2}" >/dev/null; }
call AddAdapter hci0 faro-test
call AddBeacon hci0 C0:FF:EE:00:00:01 $uuid 100 1 197 -- -65
# A beacon no catalog names: a click on its row opens its page.
stranger=0123456789abcdef0123456789abcdef
call AddBeacon hci0 C0:FF:EE:00:00:09 $stranger 7 7 197 -- -80
(
  n=0
  while kill -0 $mock 2>/dev/null; do
    rssi=$(( -66 + n % 3 ))
    call Advertise hci0 C0:FF:EE:00:00:01 $uuid 100 1 197 -- $rssi 2>/dev/null
    [ $((n % 4)) -eq 0 ] && call Advertise hci0 C0:FF:EE:00:00:09 $stranger 7 7 197 -- -80 2>/dev/null
    n=$((n + 1))
    sleep 0.5
  done
) &
advertiser=$!
"$faro" --source bluez --backend "$backend" --no-tray >"$XDG_RUNTIME_DIR/faro.log" 2>&1 &
app=$!
FARO_BACKEND_URL="$backend" FARO_REFUSING_URL="$refusing" FARO_BIN="$faro" \
  /usr/bin/python3 "$here/faro_prefs.py"
status=$?
[ $status -eq 0 ] || cat "$XDG_RUNTIME_DIR/faro.log"
kill -TERM $app 2>/dev/null
wait $app 2>/dev/null
kill $advertiser $mock 2>/dev/null
exit $status
