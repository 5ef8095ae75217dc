#!/usr/bin/env bash
# `make run`: build and start the demo: the window on a desktop (`faro --demo`: replayed demo beacons and a
# private faro-backend on loopback, so every feature works offline), the terminal demo without a display.
set -euo pipefail
cd "$(dirname "$0")/.."
export PATH="$PATH:/opt/swift/usr/bin"
swift build 2>&1 | grep -v "prohibited flag(s): -pthread" || true
bash scripts/build-translations.sh
bash scripts/build-schemas.sh
faro=.build/debug/faro
if [ -z "${DISPLAY:-}${WAYLAND_DISPLAY:-}" ]; then
  echo "No display found: running the terminal demo instead (simulated beacons replayed from data/demo)."
  echo "Ctrl-C stops it. On a desktop, \`make run\` opens the window."
  exec "$faro" scan --source demo
fi
echo "Starting the Faro demo: simulated beacons from data/demo and a private faro-backend on loopback."
exec "$faro" --demo
