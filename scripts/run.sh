#!/usr/bin/env bash
# `make run`: build and start the demo. The window arrives with the GUI; until then, and on machines without a
# display, this runs the terminal demo: the demo beacons replayed live in the ranging table.
set -euo pipefail
cd "$(dirname "$0")/.."
export PATH="$PATH:/opt/swift/usr/bin"
swift build 2>&1 | grep -v "prohibited flag(s): -pthread" || true
faro=.build/debug/faro
if [ -z "${DISPLAY:-}${WAYLAND_DISPLAY:-}" ]; then
  echo "No display found: running the terminal demo (simulated beacons replayed from data/demo). Ctrl-C stops it."
else
  echo "This build has no window yet: running the terminal demo (simulated beacons from data/demo). Ctrl-C stops it."
fi
exec "$faro" scan --source demo
