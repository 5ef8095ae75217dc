# Sourced by the UI scripts that need beacons on BlueZ (inside with-display.sh): bluetoothd played by
# python-dbusmock (Tests/FaroBluetoothTests/Templates/bluez_faro.py) on the private bus, adapter hci0 with two
# iBeacons: BEACON_UUID 100/1 (the demo catalog's Café La Parroquia), advertising twice a second at -66..-64 dBm, and
# STRANGER_UUID 7/7, which no catalog names, every two seconds at -80 dBm.
# `bluez_beacons_start` starts them (FAIL and status 1 if the mock does not come up); `bluez_beacons_stop` ends them;
# `bluez_beacons_run` runs Faro and a driver between the two.
BEACON_UUID=fa20de300b1e4c5a9b5ed3a0be0c0de1
STRANGER_UUID=0123456789abcdef0123456789abcdef
export DBUS_SYSTEM_BUS_ADDRESS="$DBUS_SESSION_BUS_ADDRESS"

bluez_call() { gdbus call --system --dest org.bluez --object-path / --method "org.bluez.Mock.$1" "${@:2}" >/dev/null; }

bluez_beacons_start() {
  local here
  here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
  /usr/bin/python3 -m dbusmock --system --template "$here/../FaroBluetoothTests/Templates/bluez_faro.py" \
    >"$XDG_RUNTIME_DIR/bluez.log" 2>&1 &
  BLUEZ_MOCK_PID=$!
  gdbus wait --system --timeout 10 org.bluez \
    || { echo "FAIL the BlueZ mock did not start: $(cat "$XDG_RUNTIME_DIR/bluez.log")"; return 1; }
  bluez_call AddAdapter hci0 faro-test
  bluez_call AddBeacon hci0 C0:FF:EE:00:00:01 $BEACON_UUID 100 1 197 -- -65
  bluez_call AddBeacon hci0 C0:FF:EE:00:00:09 $STRANGER_UUID 7 7 197 -- -80
  (
    n=0
    while kill -0 $BLUEZ_MOCK_PID 2>/dev/null; do
      rssi=$(( -66 + n % 3 ))
      bluez_call Advertise hci0 C0:FF:EE:00:00:01 $BEACON_UUID 100 1 197 -- $rssi 2>/dev/null
      [ $((n % 4)) -eq 0 ] && bluez_call Advertise hci0 C0:FF:EE:00:00:09 $STRANGER_UUID 7 7 197 -- -80 2>/dev/null
      n=$((n + 1))
      sleep 0.5
    done
  ) &
  BLUEZ_ADVERTISER_PID=$!
}

bluez_beacons_stop() { kill "$BLUEZ_ADVERTISER_PID" "$BLUEZ_MOCK_PID" 2>/dev/null; }

# Starts the beacons and `faro --source bluez --backend URL` ($1, $2), runs the driver command after them (its
# status is the function's; faro's log is printed when it fails), then ends faro and the beacons.
bluez_beacons_run() {
  local faro=$1 backend=$2 app status
  shift 2
  bluez_beacons_start || return 1
  "$faro" --source bluez --backend "$backend" --no-tray >"$XDG_RUNTIME_DIR/faro.log" 2>&1 &
  app=$!
  "$@"
  status=$?
  [ $status -eq 0 ] || cat "$XDG_RUNTIME_DIR/faro.log"
  kill -TERM $app 2>/dev/null
  wait $app 2>/dev/null
  bluez_beacons_stop
  return $status
}
