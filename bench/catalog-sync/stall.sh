#!/usr/bin/env bash
# Part 4 of bench/catalog-sync/run.sh (bench/README.md): the window's main loop while it pulls a 100,000-row
# catalog, beside the same window whose profile already holds that catalog (its pull finds nothing). Run inside a
# private session bus (dbus-run-session) by run.sh; starts its own Xvfb.
# Usage: stall.sh FARO URL OUT SECONDS SYNCED_PROFILE REQUEST_LOG ROUNDS RESULTS
# Appends one key=value line to RESULTS.
set -euo pipefail
FARO=$1 URL=$2 OUT=$3 SECONDS_=$4 SYNCED=$5 LOG=$6 ROUNDS=$7 RESULTS=$8
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
# shellcheck source=bench/lib.sh
. "$ROOT/bench/lib.sh"
die() { echo "bench/catalog-sync/stall.sh: $*" >&2; exit 1; }

XVFB_PID="" FARO_PID=""
cleanup() {
    [ -n "$FARO_PID" ] && kill "$FARO_PID" 2>/dev/null || true
    [ -n "$XVFB_PID" ] && kill "$XVFB_PID" 2>/dev/null || true
}
trap cleanup EXIT
bench_xvfb "$OUT/stall-xvfb.log" || die "Xvfb did not start"
XVFB_PID=$BENCH_XVFB_PID
export GDK_BACKEND=x11 LANG=C.UTF-8
export XDG_RUNTIME_DIR="$OUT/stall-runtime"
mkdir -p -m 700 "$XDG_RUNTIME_DIR"

# One window with the probe on profile $1 (name $2); prints the probe's line, then "pages=N": requests the backend
# answered from the window's start to the probe's end.
probe() {
    local profile=$1 name=$2 before after
    before=$(wc -l <"$LOG")
    XDG_DATA_HOME="$profile/data" XDG_CONFIG_HOME="$profile/config" HOME="$profile" FARO_TABLE_BEACONS=catalogo \
        GSETTINGS_BACKEND=memory FARO_STALL_PROBE="$SECONDS_" FARO_STALL_WARMUP=0.5 \
        "$FARO" --source replay "$OUT/stall-replay.jsonl" --backend "$URL" --no-tray \
        >"$OUT/stall-$name.txt" 2>"$OUT/stall-$name.log" &
    FARO_PID=$!
    for _ in $(seq 1 $(((SECONDS_ + 60) * 20))); do
        kill -0 "$FARO_PID" 2>/dev/null || break
        grep -q '^stall_' "$OUT/stall-$name.txt" 2>/dev/null && break
        sleep 0.05
    done
    after=$(wc -l <"$LOG")
    kill -TERM "$FARO_PID" 2>/dev/null || true
    wait "$FARO_PID" 2>/dev/null || true
    FARO_PID=""
    grep '^stall_' "$OUT/stall-$name.txt" | tail -n 1 || die "no probe line from the $name window: $(tail -n 3 "$OUT/stall-$name.log")"
    echo "pages=$((after - before))"
}
kv() { echo "$1" | tr ' ' '\n' | sed -n "s/^$2=//p"; }
worst() { awk -v a="$1" -v b="$2" 'BEGIN { if (b == "" || a + 0 > b + 0) print a; else print b }'; }

# The worst p99, max and busy max over the rounds, and the callbacks over 16 ms summed, by window ("sync" or
# "synced").
declare -A W=()
fold() {
    local window=$1 line=$2 figure
    for figure in p99 max busy_max; do
        W[${window}_$figure]="$(worst "$(kv "$line" "stall_${figure}_ms")" "${W[${window}_$figure]:-}")"
    done
    W[${window}_over]=$((${W[${window}_over]:-0} + $(kv "$line" stall_over_16ms)))
}

PAGES=""
for round in $(seq 1 "$ROUNDS"); do
    fresh="$OUT/stall-profile"
    rm -rf "$fresh"
    mkdir -p "$fresh"
    out="$(probe "$fresh" "sync$round")"
    fold sync "$(echo "$out" | grep '^stall_')"
    pages="$(echo "$out" | sed -n 's/^pages=//p')"
    PAGES="${PAGES:+$PAGES,}$pages"
    fold synced "$(probe "$SYNCED" "synced$round" | grep '^stall_')"
    echo "stall round $round: pulling p99 ${W[sync_p99]} max ${W[sync_max]} ms (pages $pages);" \
        "synced p99 ${W[synced_p99]} max ${W[synced_max]} ms" >&2
done
echo "window_sync100k_stall_p99_ms=${W[sync_p99]} window_sync100k_stall_max_ms=${W[sync_max]}" \
    "window_sync100k_busy_max_ms=${W[sync_busy_max]} window_sync100k_stall_over_16ms=${W[sync_over]}" \
    "window_sync100k_pages_by_probe_end=$PAGES" \
    "window_synced_stall_p99_ms=${W[synced_p99]} window_synced_stall_max_ms=${W[synced_max]}" \
    "window_synced_busy_max_ms=${W[synced_busy_max]} window_synced_stall_over_16ms=${W[synced_over]}" \
    "window_stall_seconds=$SECONDS_" >>"$RESULTS"
