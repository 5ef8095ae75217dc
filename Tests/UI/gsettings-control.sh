#!/usr/bin/env bash
# "gsettings controls a running Faro": starts the window on a private profile (keyfile settings backend, the
# source tree's compiled schema), turns monitoring off with `gsettings set` from outside, and waits for the app's
# exported `monitoring` action (what the window menu and the tray show) to follow; then on again. The same for
# `start-at-login`: the exported `autostart` action and the XDG autostart entry follow.
# Usage: gsettings-control.sh FARO SCHEMA_DIR [faro arguments...]   Prints OK/FAIL lines. Runs inside
# with-display.sh (a private X server and session bus).
set -uo pipefail
if [ -z "${FARO_GSETTINGS_INNER:-}" ]; then
  FARO_GSETTINGS_INNER=1 exec "$(dirname "$0")/with-display.sh" "$0" "$@"
fi
faro=$1 schemas=$2
shift 2
export GSETTINGS_BACKEND=keyfile GSETTINGS_SCHEMA_DIR="$schemas"
"$faro" "$@" >"$XDG_RUNTIME_DIR/faro.log" 2>&1 &
app=$!
state() {
  gdbus call --session --dest io.github.faro.Faro --object-path /io/github/faro/Faro \
    --method org.gtk.Actions.Describe "${2:-monitoring}" 2>/dev/null
}
# Waits (up to 20 s) for the action's state ($2, default monitoring) to read $1 ("true" or "false").
await() {
  for _ in $(seq 1 200); do
    state "$1" "${2:-monitoring}" | grep -q "\[<$1>\]" && return 0
    kill -0 $app 2>/dev/null || return 1
    sleep 0.1
  done
  return 1
}
await true && echo "OK monitoring-starts-on" || { echo "FAIL the app never exported monitoring=true: $(state)"; cat "$XDG_RUNTIME_DIR/faro.log"; kill $app; exit 1; }
gsettings set io.github.faro.Faro monitoring false
await false && echo "OK gsettings-turns-monitoring-off" || echo "FAIL monitoring stayed $(state) after gsettings set … false"
gsettings set io.github.faro.Faro monitoring true
await true && echo "OK gsettings-turns-monitoring-on" || echo "FAIL monitoring stayed $(state) after gsettings set … true"
entry="$XDG_CONFIG_HOME/autostart/io.github.faro.Faro.desktop"
gsettings set io.github.faro.Faro start-at-login true
await true autostart && [ -f "$entry" ] && echo "OK gsettings-turns-start-at-login-on" \
  || echo "FAIL start at login did not follow gsettings (action $(state true autostart), entry: $(ls "$entry" 2>&1))"
gsettings set io.github.faro.Faro start-at-login false
await false autostart && [ ! -f "$entry" ] && echo "OK gsettings-turns-start-at-login-off" \
  || echo "FAIL start at login did not follow gsettings off (action $(state false autostart))"
kill -TERM $app
wait $app
