#!/usr/bin/env bash
# The demo's desk beacon through its page under a real window manager (openbox, unless FARO_WINDOW_MANAGER names
# another), on the real Spanish window: `faro --demo` (the demo recording and its private faro-backend, on a private
# profile made under $TMPDIR, here the display's runtime folder) driven with a real pointer by
# Tests/UI/beacon_page_desk.py, which reads the profile's calibrations with `faro calibrate --list --json` while the
# demo runs (the profile is removed when it quits). Prints OK/FAIL lines.
# Usage: beacon-page-desk.sh FARO SCHEMA_DIR
set -uo pipefail
if [ -z "${FARO_DESK_INNER:-}" ]; then
  FARO_WINDOW_MANAGER=${FARO_WINDOW_MANAGER:-openbox} FARO_DESK_INNER=1 exec "$(dirname "$0")/with-display.sh" "$0" "$@"
fi
here=$(cd "$(dirname "$0")" && pwd)
faro=$1 schemas=$2
command -v xdotool >/dev/null || { echo "FAIL xdotool is not installed (apt install xdotool)"; exit 1; }
export GSETTINGS_SCHEMA_DIR="$schemas" TMPDIR="$XDG_RUNTIME_DIR"
"$faro" --demo --no-tray >"$XDG_RUNTIME_DIR/faro.log" 2>&1 &
app=$!
profile=
for _ in $(seq 1 300); do
  profile=$(sed -n 's/^faro: demo on a private profile in \([^ ]*\) .*/\1/p' "$XDG_RUNTIME_DIR/faro.log")
  [ -n "$profile" ] && break
  kill -0 $app 2>/dev/null || break
  sleep 0.1
done
if [ -z "$profile" ]; then
  echo "FAIL faro --demo did not say where its profile is: $(cat "$XDG_RUNTIME_DIR/faro.log")"
  kill -TERM $app 2>/dev/null
  exit 1
fi
FARO_BIN="$faro" FARO_PROFILE="$profile" /usr/bin/python3 "$here/beacon_page_desk.py"
status=$?
[ $status -eq 0 ] || cat "$XDG_RUNTIME_DIR/faro.log"
kill -TERM $app 2>/dev/null
wait $app 2>/dev/null
[ -d "$profile" ] && { echo "FAIL the demo's profile $profile was left behind"; status=1; }
exit $status
