#!/usr/bin/env bash
# Runs UI scenarios of Tests/UI/faro_ui.py (the dogtail driver) against the real Faro window, on a private X
# server and session bus. Usage: run-scenario.sh SCENARIO... (env: FARO, FARO_ARGS, SHOTS, FARO_LANG, …)
here=$(cd "$(dirname "$0")" && pwd)
exec "$here/with-display.sh" /usr/bin/python3 "$here/faro_ui.py" "$@"
