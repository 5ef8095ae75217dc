#!/usr/bin/env bash
# The soak (`make soak`): Faro's window for SOAK_MINUTES (default 15) on BlueZ, logind, a notification server, a tray
# host and faro-backend, with a crowd of beacons and the faults of bench/soak/soak.py, under libfaketime. Prints
# soak_* key=value lines and PASS/FAIL per goal; exits 1 when a goal fails. Method and figures: bench/README.md.
#
# Environment: FARO_BIN_DIR / FARO (release binaries, as the other benches; default .build/release), SOAK_MINUTES,
# BENCH_OUT (default bench-out; the logs and samples go to BENCH_OUT/soak).
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
# shellcheck source=bench/lib.sh
. "$ROOT/bench/lib.sh"
die() { echo "bench/soak: $*" >&2; exit 1; }
bench_locate_binaries soak
bench_python soak
for tool in Xvfb dbus-run-session dbus-daemon gdbus faketime pgrep; do
    command -v "$tool" >/dev/null || die "$tool not found (make deps installs it)"
done
"$PY" -c 'import dbusmock, pyatspi' 2>/dev/null || die "python3-dbusmock or python3-pyatspi not found"
FAKETIME_LIB=""
for candidate in /usr/lib/*/faketime/libfaketime.so.1 /usr/lib/faketime/libfaketime.so.1; do
    [ -e "$candidate" ] && { FAKETIME_LIB="$candidate"; break; }
done
[ -n "$FAKETIME_LIB" ] || die "libfaketime not found (the faketime package)"
bench_out soak
# The settings schema, where an uninstalled faro finds it (GSettings with a keyfile back end, as a desktop has).
bash "$ROOT/scripts/build-schemas.sh" >/dev/null || die "the settings schema did not compile"
export GSETTINGS_SCHEMA_DIR="$ROOT/build/glib-2.0/schemas"
bench_xvfb "$OUT/xvfb.log" || die "Xvfb did not start: $(cat "$OUT/xvfb.log")"
trap 'kill "$BENCH_XVFB_PID" 2>/dev/null || true' EXIT
export FARO_BIN_DIR="$(cd "$FARO_BIN_DIR" && pwd)" SOAK_OUT="$OUT" SOAK_FAKETIME_LIB="$FAKETIME_LIB"
export SOAK_MINUTES="${SOAK_MINUTES:-15}" GDK_BACKEND=x11
unset NO_AT_BRIDGE
echo "bench/soak: $SOAK_MINUTES minutes, display $DISPLAY, logs in $OUT" >&2
timeout $(( ${SOAK_MINUTES%.*} * 60 + 600 )) dbus-run-session -- "$PY" "$ROOT/bench/soak/soak.py"
