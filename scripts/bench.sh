#!/usr/bin/env bash
# `make bench`: Faro's decoder, pipeline and memory measured side by side with their references, in one run.
#
#   bash scripts/bench.sh                      # release build in .build
#   SCRATCH=.build-bench bash scripts/bench.sh # own SwiftPM scratch path (no build lock with other builds)
#
# Environment:
#   SCRATCH       SwiftPM scratch path (default .build)
#   BENCH_ROUNDS  decode rounds, Swift and C alternating (default 3; the best median of each counts)
#   BENCH_REPEAT  repetitions inside each decode round (default 7; the round reports their median)
#   BT_LIMIT      corpus lines timed with beacontools (default 50000; it needs ~100 µs per advertisement)
#   BENCH_STRICT  1: exit with status 1 when a goal is missed (default: report only)
#   FARO_BIN      use this faro binary instead of building one (e.g. while another part of the tree is broken)
#
# Steps: release build; the fixed corpora (bench/make_corpus.py, 1,000,000 advertisements, seeded: raw AD data, and
# the same advertisements as HCI LE Advertising Report events) into bench-out/; the C reference
# (bench/c/ibeacon_decode.c, cc -O2); the beacontools virtualenv .venv-bench (created once); `faro-bench decode`
# (the production decode path every source calls, AdvertisementDecoder.forEachBeacon) against both, on both
# corpora (the Swift and C summary lines must be identical, else this fails);
# `faro-bench pipeline`, `faro-bench memory`, `faro-bench distance` (when the subcommand exists), and every
# executable bench/*/run.sh (their key=value lines are included verbatim). Ends with a Markdown table of the goals,
# also written to bench-out/results.md. Ratios come from this one run; no test asserts timings.
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$ROOT"

SCRATCH="${SCRATCH:-.build}"
OUT="bench-out"
ROUNDS="${BENCH_ROUNDS:-3}"
REPEAT="${BENCH_REPEAT:-7}"
BT_LIMIT="${BT_LIMIT:-50000}"
VENV=".venv-bench"
CORPUS="$OUT/corpus.txt"
HCI_CORPUS="$OUT/corpus-hci.txt"
SUBSET="$OUT/corpus-subset.txt"

die() { echo "bench: $*" >&2; exit 1; }
step() { echo "== $*" >&2; }
# Value of key $1 in the text on stdin (first occurrence), empty when absent.
kv() { grep -o "\(^\| \)$1=[^ ]*" | head -n 1 | sed 's/^ //; s/^[^=]*=//' || true; }
# Float arithmetic and comparisons: calc 'expression' prints the result; empty inputs give "n/a".
calc() { awk "BEGIN { printf \"%s\", ($1) }"; }

PY=/usr/bin/python3
[ -x "$PY" ] || PY="$(command -v python3)" || die "python3 not found"
if ! command -v swift >/dev/null 2>&1; then
    [ -x /opt/swift/usr/bin/swift ] && export PATH="/opt/swift/usr/bin:$PATH" || die "swift not found"
fi
command -v cc >/dev/null 2>&1 || die "cc not found"

mkdir -p "$OUT"

if [ -n "${FARO_BIN:-}" ]; then
    step "using $FARO_BIN (FARO_BIN set: no build)"
    BIN="$(cd "$(dirname "$FARO_BIN")" && pwd)/$(basename "$FARO_BIN")"
else
    step "release build (scratch path $SCRATCH)"
    # One retry: a source file edited during the build makes SwiftPM stop ("modified during the build").
    timeout 1800 swift build -c release --static-swift-stdlib --scratch-path "$SCRATCH" >&2 \
        || { sleep 5; timeout 1800 swift build -c release --static-swift-stdlib --scratch-path "$SCRATCH" >&2; } \
        || die "release build failed"
    BIN="$(timeout 300 swift build -c release --static-swift-stdlib --scratch-path "$SCRATCH" --show-bin-path)/faro"
fi
[ -x "$BIN" ] || die "no faro binary at $BIN"
BENCH_BIN="$(dirname "$BIN")/faro-bench"
[ -x "$BENCH_BIN" ] || die "no faro-bench beside $BIN"
# The settings schema an uninstalled faro reads (build/glib-2.0/schemas): without it, the window runs that name no
# backend (bench/window's stall probe) stop at "no backend configured". `make test` builds it too, but a fresh
# clone may run `make bench` first.
bash scripts/build-schemas.sh >&2 || die "the settings schema does not compile"

step "corpus"
if [ ! -s "$CORPUS" ] || [ bench/make_corpus.py -nt "$CORPUS" ]; then
    timeout 300 "$PY" bench/make_corpus.py "$CORPUS.tmp" || die "corpus generation failed"
    mv "$CORPUS.tmp" "$CORPUS"
fi
if [ ! -s "$HCI_CORPUS" ] || [ bench/make_corpus.py -nt "$HCI_CORPUS" ]; then
    timeout 300 "$PY" bench/make_corpus.py "$HCI_CORPUS.tmp" --hci || die "HCI corpus generation failed"
    mv "$HCI_CORPUS.tmp" "$HCI_CORPUS"
fi
CORPUS_LINES="$(wc -l < "$CORPUS" | tr -d ' ')"
head -n "$BT_LIMIT" "$CORPUS" > "$SUBSET"

step "C reference (cc -O2)"
timeout 120 cc -O2 -o "$OUT/ibeacon_decode" bench/c/ibeacon_decode.c || die "C reference does not compile"

step "beacontools virtualenv ($VENV)"
BT_READY=0
if [ -x "$VENV/bin/python" ] && timeout 60 "$VENV/bin/python" -c 'import beacontools' 2>/dev/null; then
    BT_READY=1
else
    rm -rf "$VENV"
    if timeout 300 "$PY" -m venv "$VENV" >&2 \
        && timeout 600 "$VENV/bin/python" -m pip install --quiet --disable-pip-version-check beacontools >&2; then
        BT_READY=1
    else
        echo "bench: could not set up beacontools in $VENV; its row is reported as not measured" >&2
    fi
fi

# Decode: Swift and C alternate, so that a busy neighbour slows both alike; the best round of each counts.
# decode_rounds KIND FILE sets SWIFT_NS, C_NS, SWIFT_RATE, C_RATE, SWIFT_SUMMARY and C_SUMMARY.
decode_rounds() {
    local kind=$1 file=$2 round c_out s_out c_ns s_ns
    SWIFT_NS="" C_NS="" SWIFT_SUMMARY="" C_SUMMARY="" SWIFT_RATE="" C_RATE=""
    step "decode ($kind): faro vs C, $ROUNDS rounds of $REPEAT repetitions on $(wc -l < "$file" | tr -d ' ') advertisements"
    for round in $(seq 1 "$ROUNDS"); do
        c_out="$(timeout 600 "$OUT/ibeacon_decode" "$file" --kind "$kind" --repeat "$REPEAT")" || die "C decode failed"
        s_out="$(timeout 600 "$BENCH_BIN" decode --kind "$kind" "$file" --repeat "$REPEAT")" \
            || die "faro-bench decode failed"
        echo "round $round C:     $(echo "$c_out" | head -n 1)" >&2
        echo "round $round Swift: $(echo "$s_out" | head -n 1)" >&2
        C_SUMMARY="$(echo "$c_out" | sed -n 2p)"
        SWIFT_SUMMARY="$(echo "$s_out" | sed -n 2p)"
        [ -n "$C_SUMMARY" ] && [ "$C_SUMMARY" = "$SWIFT_SUMMARY" ] || {
            echo "C:     $C_SUMMARY" >&2
            echo "Swift: $SWIFT_SUMMARY" >&2
            die "DECODERS DISAGREE ($kind): the Swift and C summary lines differ (same corpus, same rules expected)"
        }
        c_ns="$(echo "$c_out" | kv ns_per_advert)"
        s_ns="$(echo "$s_out" | kv ns_per_advert)"
        if [ -z "$C_NS" ] || [ "$(calc "$c_ns < $C_NS")" = 1 ]; then C_NS="$c_ns"; C_RATE="$(echo "$c_out" | kv adverts_per_s)"; fi
        if [ -z "$SWIFT_NS" ] || [ "$(calc "$s_ns < $SWIFT_NS")" = 1 ]; then
            SWIFT_NS="$s_ns"; SWIFT_RATE="$(echo "$s_out" | kv adverts_per_s)"
        fi
    done
}
decode_rounds hci "$HCI_CORPUS"
HCI_SWIFT_NS="$SWIFT_NS" HCI_C_NS="$C_NS" HCI_SWIFT_RATE="$SWIFT_RATE" HCI_C_RATE="$C_RATE"
HCI_SWIFT_SUMMARY="$SWIFT_SUMMARY" HCI_C_SUMMARY="$C_SUMMARY"
decode_rounds ad "$CORPUS"

BT_NS="" BT_SUMMARY="" BT_INFO="" SUBSET_SUMMARY=""
if [ "$BT_READY" = 1 ]; then
    step "decode: beacontools on the first $BT_LIMIT advertisements"
    SUBSET_SUMMARY="$(timeout 600 "$OUT/ibeacon_decode" "$SUBSET" --repeat 1 | sed -n 2p)" || die "C decode (subset) failed"
    if bt_out="$(timeout 900 "$VENV/bin/python" bench/beacontools_decode.py "$CORPUS" --limit "$BT_LIMIT" --repeat 1)"; then
        BT_NS="$(echo "$bt_out" | kv ns_per_advert)"
        BT_SUMMARY="$(echo "$bt_out" | sed -n 2p)"
        BT_INFO="$(echo "$bt_out" | sed -n 3p)"
    else
        echo "bench: beacontools run failed or timed out" >&2
    fi
fi

step "pipeline"
PIPELINE_OUT="$(timeout 600 "$BENCH_BIN" pipeline)" || die "faro-bench pipeline failed"
step "memory"
MEMORY_OUT="$(timeout 600 "$BENCH_BIN" memory)" || die "faro-bench memory failed"
step "distance"
DISTANCE_OUT=""
if DISTANCE_OUT="$(timeout 600 "$BENCH_BIN" distance 2>"$OUT/distance.err")"; then
    :
else
    status=$?
    DISTANCE_OUT=""
    echo "bench: 'faro-bench distance' exited with $status, skipped: $(head -n 1 "$OUT/distance.err")" >&2
fi

EXTRA_OUT=""
for run in bench/*/run.sh; do
    [ -x "$run" ] || continue
    step "$run"
    if out="$(FARO="$BIN" FARO_BIN_DIR="$(dirname "$BIN")" BENCH_OUT="$ROOT/$OUT" SCRATCH="$SCRATCH" timeout 900 "$run")"; then
        EXTRA_OUT+="# $run"$'\n'"$out"$'\n'
    else
        EXTRA_OUT+="# $run: FAILED (exit $?)"$'\n'
    fi
done

PIPE_RATE="$(echo "$PIPELINE_OUT" | kv pipeline_cpu_adverts_per_s)"
PIPE_BEACONS="$(echo "$PIPELINE_OUT" | kv beacons)"
MEM_DELTA="$(echo "$MEMORY_OUT" | kv delta_mb)"
MEM_BEACONS="$(echo "$MEMORY_OUT" | kv memory_beacons)"
CAT_S="$(echo "$EXTRA_OUT" | kv catalog_sync_s)"
CAT_CURL_S="$(echo "$EXTRA_OUT" | kv catalog_curl_s)"
CAT_RATIO="$(echo "$EXTRA_OUT" | kv catalog_vs_curl)"
CAT_RSS="$(echo "$EXTRA_OUT" | kv catalog_sync_peak_rss_kb)"
CAT_ROWS="$(echo "$EXTRA_OUT" | kv catalog_rows)"
CAT_PAGES="$(echo "$EXTRA_OUT" | kv catalog_pages)"

verdict() { if [ "$1" = 1 ]; then echo PASS; else echo MISS; fi; }

C_RATIO="$(calc "$SWIFT_NS / $C_NS")"
C_RATIO_FMT="$(awk "BEGIN { printf \"%.2f\", $C_RATIO }")"
C_VERDICT="$(verdict "$(calc "$C_RATIO <= 1.2")")"
HCI_RATIO="$(calc "$HCI_SWIFT_NS / $HCI_C_NS")"
HCI_RATIO_FMT="$(awk "BEGIN { printf \"%.2f\", $HCI_RATIO }")"
HCI_VERDICT="$(verdict "$(calc "$HCI_RATIO <= 1.2")")"
if [ -n "$BT_NS" ]; then
    BT_SPEEDUP_FMT="$(awk "BEGIN { printf \"%.0f\", $BT_NS / $SWIFT_NS }")"
    BT_VERDICT="$(verdict "$(calc "$BT_NS / $SWIFT_NS >= 1000")")"
    BT_CELL="$(awk "BEGIN { printf \"%.0f\", $BT_NS }") ns/advert (first $BT_LIMIT)"
else
    BT_SPEEDUP_FMT="n/a"; BT_VERDICT="NOT MEASURED"; BT_CELL="not measured"
fi
PIPE_VERDICT="$(verdict "$(calc "$PIPE_RATE >= 3000000")")"
MEM_VERDICT="$(verdict "$(calc "$MEM_DELTA < 20")")"
if [ -n "$CAT_RATIO" ]; then CAT_VERDICT="$(verdict "$(calc "$CAT_RATIO <= 1.5")")"; else CAT_VERDICT="NOT MEASURED"; fi

fmt_ns() { awk "BEGIN { printf \"%.2f\", $1 }"; }
fmt_rate() { awk "BEGIN { printf \"%.2f M\", $1 / 1e6 }"; }

TABLE="| Measure | Faro | Reference | Result | Goal | Status |
|---|---|---|---|---|---|
| Decode vs C, AD data (${CORPUS_LINES} adverts, production path) | $(fmt_ns "$SWIFT_NS") ns/advert ($(fmt_rate "$SWIFT_RATE") adverts/s) | C -O2: $(fmt_ns "$C_NS") ns/advert ($(fmt_rate "$C_RATE") adverts/s) | C_time_ratio = ${C_RATIO_FMT} | ≤ 1.2 | ${C_VERDICT} |
| Decode vs C, HCI events (${CORPUS_LINES} events, production path) | $(fmt_ns "$HCI_SWIFT_NS") ns/event ($(fmt_rate "$HCI_SWIFT_RATE") events/s) | C -O2: $(fmt_ns "$HCI_C_NS") ns/event ($(fmt_rate "$HCI_C_RATE") events/s) | C_time_ratio = ${HCI_RATIO_FMT} | ≤ 1.2 | ${HCI_VERDICT} |
| Decode vs beacontools | $(fmt_ns "$SWIFT_NS") ns/advert | beacontools: ${BT_CELL} | speedup = ${BT_SPEEDUP_FMT}x | ≥ 1000x | ${BT_VERDICT} |
| Pipeline (${PIPE_BEACONS} beacons) | $(fmt_rate "$PIPE_RATE") adverts/s | | | ≥ 3 M adverts/s | ${PIPE_VERDICT} |
| Memory (${MEM_BEACONS} beacons) | ${MEM_DELTA} MB above baseline | | | < 20 MB | ${MEM_VERDICT} |
| Catalog sync (${CAT_ROWS:-?} rows, ${CAT_PAGES:-?} pages) | ${CAT_S:-not measured} s, peak RSS ${CAT_RSS:-?} kB | curl, same pages, one connection: ${CAT_CURL_S:-?} s | ratio = ${CAT_RATIO:-n/a} | ≤ 1.5 | ${CAT_VERDICT} |"

RAW="faro decode:        $SWIFT_SUMMARY
C decode:           $C_SUMMARY (identical: yes)
faro decode (HCI):  $HCI_SWIFT_SUMMARY
C decode (HCI):     $HCI_C_SUMMARY (identical: yes)
C on first $BT_LIMIT:  ${SUBSET_SUMMARY:-not run}
beacontools:        ${BT_SUMMARY:-not run}${BT_INFO:+ ($BT_INFO)}
$PIPELINE_OUT
$MEMORY_OUT${DISTANCE_OUT:+
$DISTANCE_OUT}${EXTRA_OUT:+
$EXTRA_OUT}"

NOTE="Decode: best of $ROUNDS alternating rounds, each the median of $REPEAT timed passes over the corpus (parsing the \
hex is not timed). beacontools accepts different frames (its valid count covers its first $BT_LIMIT lines only)."

{
    echo "# make bench results"
    echo
    echo "$TABLE"
    echo
    echo "$NOTE"
    echo
    echo '```'
    echo "${RAW%$'\n'}"
    echo '```'
} > "$OUT/results.md"

echo
echo "${RAW%$'\n'}"
echo
echo "$TABLE"
echo
echo "$NOTE"
echo "(written to $OUT/results.md)"

if [ "${BENCH_STRICT:-0}" = 1 ] && { [ "$C_VERDICT" != PASS ] || [ "$HCI_VERDICT" != PASS ] || [ "$BT_VERDICT" != PASS ] \
    || [ "$PIPE_VERDICT" != PASS ] || [ "$MEM_VERDICT" != PASS ]; }; then
    exit 1
fi
exit 0
