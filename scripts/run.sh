#!/usr/bin/env bash
# `make run`: build and start the demo: the window on a desktop (`faro --demo`: replayed demo beacons and a
# private faro-backend on loopback, so every feature works offline), the terminal demo without a display.
set -euo pipefail
cd "$(dirname "$0")/.."
export PATH="$PATH:/opt/swift/usr/bin"
# The build's output without one harmless linker note; a failed build stops here with its error
# (grep's own status is ignored: it is 1 when every line was filtered out).
set +e
swift build 2>&1 | grep -v "prohibited flag(s): -pthread"
build_status=${PIPESTATUS[0]}
set -e
if [ "$build_status" -ne 0 ]; then
  echo "make run: the build failed (status $build_status); not starting an old binary." >&2
  exit "$build_status"
fi
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
