#!/usr/bin/env bash
# Writes bench/window/startup-order.txt: the functions of `faro` that the window runs from launch until it has been
# showing its rows for a while, one symbol name a line, for ld.lld's --symbol-ordering-file (Package.swift,
# `faroReleaseLinking`). Laid out side by side, they fill a few hundred contiguous pages instead of being spread
# over the executable's 10 MB of text, most of which the kernel maps in 64 KB fault-around windows: resident
# memory and page faults at launch go down (bench/window/run.sh, bench/memory-steady/run.sh).
#
# How: the release `faro` runs as the launch benchmark runs it (its tray, a faro-backend naming the 8 demo beacons,
# a replay of them, a notification server and a StatusNotifierWatcher on a private session bus, Xvfb) under
# valgrind's callgrind for ORDER_SECONDS (default 40; under valgrind the first frame takes a few seconds), then
# quits on SIGTERM; then `faro --demo` runs the same way for ORDER_DEMO_SECONDS. Every function callgrind saw run
# in the executable is listed: the launch's sorted by name, then those only the demo ran. Run it again after
# changes to what the window does: a stale list costs only memory (the linker skips names that are gone; new
# functions go after the listed ones).
#
# Environment: FARO (release faro binary; default .build/release/faro, faro-backend beside it), ORDER_SECONDS,
# ORDER_DEMO_SECONDS (default 300: some functions run only now and then, and a list made from 120 s of the demo
# missed one that a 150 s run of the app then ran), ORDER_OUT (default bench/window/startup-order.txt). Needs
# valgrind, Xvfb, dbus-run-session, python3-dbusmock, binutils (strip, nm).
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
cd "$ROOT"
die() { echo "bench/window/startup-order: $*" >&2; exit 1; }
# shellcheck source=bench/lib.sh
. "$ROOT/bench/lib.sh"
PY=/usr/bin/python3
[ -x "$PY" ] || PY="$(command -v python3)" || die "python3 not found"

if [ -z "${FARO_ORDER_INNER:-}" ]; then
    FARO="${FARO:-.build/release/faro}"
    [ -x "$FARO" ] || die "no faro at $FARO (build with: swift build -c release --static-swift-stdlib)"
    FARO="$(cd "$(dirname "$FARO")" && pwd)/$(basename "$FARO")"
    for tool in valgrind Xvfb dbus-run-session strip xdpyinfo; do
        command -v "$tool" >/dev/null || die "$tool not found"
    done
    "$PY" -c 'import dbusmock' 2>/dev/null || die "python3-dbusmock not found"
    # Full Foundation (and ICU's 30 MB of data) gets linked when a String call resolves to one of its overloads
    # (FaroResources' generated accessor imports it): the list would then be made from the wrong executable.
    if nm "$FARO" 2>/dev/null | grep -q ' \$s10Foundation'; then
        die "$FARO links all of Foundation, not just FoundationEssentials (a String method resolved to Foundation's?)"
    fi
    exec dbus-run-session -- env FARO_ORDER_INNER=1 FARO="$FARO" bash "${BASH_SOURCE[0]}"
fi

SECONDS_RUN="${ORDER_SECONDS:-40}"
DEMO_SECONDS="${ORDER_DEMO_SECONDS:-300}"
OUT_FILE="${ORDER_OUT:-$ROOT/bench/window/startup-order.txt}"
TMP="$(mktemp -d /tmp/faro-startup-order.XXXXXX)"
# valgrind 3.19 cannot read the DWARF 5 debug information of Swift 6 binaries: it runs a copy without it, kept in
# the same folder (faro finds its GSettings schema and faro-backend from there).
COPY="$(dirname "$FARO")/faro-startup-order"
PIDS=()
cleanup() {
    for p in "${PIDS[@]}"; do kill "$p" 2>/dev/null || true; done
    rm -rf "$TMP" "$COPY"
}
trap cleanup EXIT
strip -g -o "$COPY" "$FARO"

bench_xvfb "$TMP/xvfb.log" || die "Xvfb did not start: $(cat "$TMP/xvfb.log")"
PIDS+=("$BENCH_XVFB_PID")
export GDK_BACKEND=x11 GSETTINGS_BACKEND=memory LANG=C.UTF-8
export HOME="$TMP/home" XDG_DATA_HOME="$TMP/home/.local/share" XDG_CONFIG_HOME="$TMP/home/.config"
export XDG_CACHE_HOME="$TMP/home/.cache" XDG_RUNTIME_DIR="$TMP/runtime"
mkdir -p "$XDG_DATA_HOME" "$XDG_CONFIG_HOME" "$XDG_CACHE_HOME"
mkdir -m 700 "$XDG_RUNTIME_DIR"
unset FARO_TIMINGS FARO_STALL_PROBE

bench_desktop_peers "$PY" || die "a desktop peer did not start"
PIDS+=("${BENCH_PEER_PIDS[@]}")
"$(dirname "$FARO")/faro-backend" --port 0 --database "$TMP/backend.sqlite3" --data data >"$TMP/backend.out" \
    2>"$TMP/backend.log" &
PIDS+=($!)
URL="$(bench_backend_url "$TMP/backend.out")" || die "faro-backend did not start: $(tail -n 3 "$TMP/backend.log")"
"$PY" bench/window/make_replay.py "$TMP/demo8.jsonl" --beacons 8 --seconds $((SECONDS_RUN + 30))

# First the launch benchmark's run (laid out first), then `faro --demo` for DEMO_SECONDS: what the window runs
# while it lives (zones, notifications, the outbox, the catalog's pulls), which the steady-memory benchmark measures.
record() {  # record NAME SECONDS ARGS...: callgrind's recording of faro ARGS, stopped with SIGTERM after SECONDS.
    local name="$1" seconds="$2"
    shift 2
    valgrind --tool=callgrind --demangle=no --dump-instr=no --callgrind-out-file="$TMP/$name.out" \
        "$COPY" "$@" >"$TMP/$name.log" 2>&1 &
    FARO_PID=$!
    PIDS+=("$FARO_PID")
    sleep "$seconds"
    kill -TERM "$FARO_PID" 2>/dev/null || true
    wait "$FARO_PID" || die "faro $* under callgrind failed: $(tail -n 5 "$TMP/$name.log")"
}
record launch "$SECONDS_RUN" --source replay "$TMP/demo8.jsonl" --backend "$URL"
record demo "$DEMO_SECONDS" --demo
"$PY" bench/window/startup_order.py "$(basename "$COPY")" "$TMP/launch.out" "$TMP/demo.out" >"$OUT_FILE.tmp"
[ -s "$OUT_FILE.tmp" ] || die "callgrind saw no function of faro run"
mv "$OUT_FILE.tmp" "$OUT_FILE"
echo "bench/window/startup-order: $(wc -l <"$OUT_FILE") functions written to $OUT_FILE" >&2
