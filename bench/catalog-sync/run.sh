#!/usr/bin/env bash
# Catalog sync over tables protocol 3.0.0 (bench/README.md, "catalog-sync/run.sh"): faro-backend --protocol 3 serves
# the rows in pages of its cap (100), and `faro catalog sync --protocol 3` follows its nextLinks. Each sync, from a
# fresh profile, is set beside `curl` fetching the very requests faro made (faro-backend's --request-log of that
# sync, replayed in one process over one connection). Rounds alternate faro and curl; the best of each counts.
#   1. 10,000 rows: the sync against curl (goal 1.5x).
#   2. 100,000 rows: the first sync against curl (goal 1.5x), its peak RSS (goal 60 MB), then lookups in the synced
#      catalog (`faro-bench catalog-lookup`, goal p99 1 ms).
#   3. 10 rows changed among the 100,000: the next sync's requests (goal 2) and rows transferred (goal 50).
#   4. The window's main loop while its first pull brings the 100,000 rows (FARO_STALL_PROBE, bench/catalog-sync/
#      stall.sh, under Xvfb and a private session bus), beside the same window on the synced profile: no goal of
#      its own; the window benchmark's frame budget is 16 ms.
#
# Builds nothing: expects release binaries faro, faro-backend and faro-bench in FARO_BIN_DIR (default: the folder of
# $FARO when scripts/bench.sh sets it, else $SCRATCH/release, else .build/release).
#
# Environment: FARO_BIN_DIR; SYNC_ROUNDS (default 3); SYNC_LARGE_ROWS (default 100000); SYNC_STALL_SECONDS (default 4;
# 0 skips part 4); SYNC_STALL_ROUNDS (default 2); BENCH_OUT (default bench-out).
# Prints key=value lines:
#   sync10k_rows=… sync10k_pages=… sync10k_bytes=… sync10k_s=… sync10k_curl_s=… sync10k_vs_curl=… sync10k_goal_1_5x=…
#   sync100k_rows=… sync100k_pages=… sync100k_s=… sync100k_curl_s=… sync100k_vs_curl=… sync100k_goal_1_5x=…
#   sync100k_peak_rss_kb=… sync100k_goal_60mb=… catalog_lookup_…=… lookup_goal_1ms=…
#   delta_changed=10 delta_requests=… delta_rows=… delta_goal=yes|no
#   window_sync100k_stall_p99_ms=… window_sync100k_stall_max_ms=… window_sync100k_stall_over_16ms=…
#   window_sync100k_pages_by_probe_end=… window_synced_stall_p99_ms=… window_synced_stall_max_ms=… …
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
cd "$ROOT"
die() { echo "bench/catalog-sync: $*" >&2; exit 1; }

# shellcheck source=bench/lib.sh
. "$ROOT/bench/lib.sh"
# shellcheck source=bench/catalog/lib.sh
. "$ROOT/bench/catalog/lib.sh"
bench_locate_binaries catalog-sync
BENCH_BIN="$FARO_BIN_DIR/faro-bench"
[ -x "$BENCH_BIN" ] || die "no faro-bench in $FARO_BIN_DIR (build with: swift build -c release)"
command -v curl >/dev/null || die "curl not found"
[ -x "$CATALOG_PY" ] || die "python3 not found"

ROUNDS="${SYNC_ROUNDS:-3}"
LARGE="${SYNC_LARGE_ROWS:-100000}"
OUT="${BENCH_OUT:-bench-out}/catalog-sync"
rm -rf "$OUT"
mkdir -p "$OUT"
OUT="$(cd "$OUT" && pwd)"

PIDS=()
cleanup() { for p in "${PIDS[@]}"; do kill "$p" 2>/dev/null || true; done; }
trap cleanup EXIT

# faro with a profile of its own (folder $1), the rows in table `catalogo`, speaking 3.0.0.
faro_in() {
    local profile=$1
    shift
    XDG_DATA_HOME="$profile/data" XDG_CONFIG_HOME="$profile/config" HOME="$profile" FARO_TABLE_BEACONS=catalogo \
        GSETTINGS_BACKEND=memory "$@"
}

# Starts faro-backend --protocol 3 on rows file $1 with request log $2; sets URL.
start_backend() {
    "$BACKEND_BIN" --port 0 --protocol 3 --database "$OUT/backend-$3.sqlite3" --load "$1" --request-log "$2" \
        >"$OUT/backend-$3.log" 2>&1 &
    PIDS+=("$!")
    URL="$(bench_backend_url "$OUT/backend-$3.log")" || die "faro-backend did not start: $(cat "$OUT/backend-$3.log")"
}

# Syncs $1 rows from a fresh profile in each of $ROUNDS rounds, each beside curl replaying the sync's requests.
# Sets BEST_FARO BEST_CURL PEAK_KB PAGES BYTES and leaves the last round's profile in $OUT/profile-$2.
compare_with_curl() {
    local rows=$1 name=$2 log="$OUT/requests-$2.log"
    BEST_FARO="" BEST_CURL="" PEAK_KB=0
    for round in $(seq 1 "$ROUNDS"); do
        local profile="$OUT/profile-$name"
        rm -rf "$profile"
        mkdir -p "$profile"
        local before
        before=$(($(wc -l <"$log") + 1))
        local out s kb
        out="$(faro_in "$profile" catalog_measure "$FARO_BIN" catalog sync --backend "$URL" --protocol 3)" \
            || die "faro catalog sync failed"
        local line
        line="$(echo "$out" | grep '^added: ')"
        [ "$(echo "$line" | sed 's/^added: \([0-9]*\).*/\1/')" = "$rows" ] || die "faro synced: $line (expected $rows rows)"
        echo "$out" | grep -q '^protocol: 3.0.0' || die "faro did not speak 3.0.0: $out"
        PAGES="$(echo "$line" | sed 's/.*pages: \([0-9]*\).*/\1/')"
        BYTES="$(echo "$line" | sed 's/.*bytes: \([0-9]*\).*/\1/')"
        read -r s kb <<<"$(echo "$out" | grep '^MEASURE' | cut -d' ' -f2-)"
        [ -z "$BEST_FARO" ] || [ "$(awk "BEGIN { print ($s < $BEST_FARO) }")" = 1 ] && BEST_FARO="$s"
        [ "$kb" -gt "$PEAK_KB" ] && PEAK_KB="$kb"

        catalog_curl_config "$log" "$before" "$URL" >"$OUT/curl-$name.conf"
        out="$(catalog_measure curl -s -H 'ZUMO-API-VERSION: 3.0.0' -H 'Accept: application/json' \
            -w '%{http_code} %{size_download} %{num_connects}\n' -K "$OUT/curl-$name.conf")" || die "curl failed"
        read -r s _ <<<"$(echo "$out" | grep '^MEASURE' | cut -d' ' -f2-)"
        [ -z "$BEST_CURL" ] || [ "$(awk "BEGIN { print ($s < $BEST_CURL) }")" = 1 ] && BEST_CURL="$s"
        local pages bytes connects
        pages="$(echo "$out" | grep -c '^200 ')"
        bytes="$(echo "$out" | awk '/^200 / { b += $2 } END { print b }')"
        connects="$(echo "$out" | awk '/^200 / { c += $3 } END { print c }')"
        [ "$connects" = 1 ] || die "curl opened $connects connections (expected one, kept alive)"
        [ "$pages" = "$PAGES" ] && [ "$bytes" = "$BYTES" ] \
            || die "faro and curl fetched different pages: faro $PAGES pages $BYTES bytes, curl $pages pages $bytes bytes"
        echo "$name round $round: faro ${BEST_FARO}s best, curl ${BEST_CURL}s best, faro peak ${PEAK_KB} kB" >&2
    done
}

ratio() { awk "BEGIN { printf \"%.2f\", $1 / $2 }"; }
goal() { awk "BEGIN { print ($1) ? \"yes\" : \"no\" }"; }

# 1. 10,000 rows.
catalog_make_rows 10000 "$OUT/rows-10k.json"
start_backend "$OUT/rows-10k.json" "$OUT/requests-10k.log" 10k
compare_with_curl 10000 10k
R="$(ratio "$BEST_FARO" "$BEST_CURL")"
echo "sync10k_rows=10000 sync10k_pages=$PAGES sync10k_bytes=$BYTES sync10k_s=$BEST_FARO sync10k_curl_s=$BEST_CURL sync10k_vs_curl=$R sync10k_goal_1_5x=$(goal "$R <= 1.5")"

# 2. 100,000 rows: the first sync, its memory, then lookups in what it stored.
catalog_make_rows "$LARGE" "$OUT/rows-large.json"
start_backend "$OUT/rows-large.json" "$OUT/requests-large.log" large
compare_with_curl "$LARGE" large
R="$(ratio "$BEST_FARO" "$BEST_CURL")"
echo "sync100k_rows=$LARGE sync100k_pages=$PAGES sync100k_bytes=$BYTES sync100k_s=$BEST_FARO sync100k_curl_s=$BEST_CURL sync100k_vs_curl=$R sync100k_goal_1_5x=$(goal "$R <= 1.5") sync100k_peak_rss_kb=$PEAK_KB sync100k_goal_60mb=$(goal "$PEAK_KB <= 61440")"
PROFILE="$OUT/profile-large"
LOOKUP="$("$BENCH_BIN" catalog-lookup --database "$PROFILE/data/faro/faro.sqlite3" --source "$URL/tables/catalogo")" \
    || die "faro-bench catalog-lookup failed"
P99="$(echo "$LOOKUP" | sed -n 's/.*catalog_lookup_p99_us=\([0-9.]*\).*/\1/p')"
echo "$LOOKUP" | tr '\n' ' '
echo "lookup_goal_1ms=$(goal "$P99 <= 1000")"

# 3. Ten rows change on the server; the same profile syncs again.
"$CATALOG_PY" - "$LARGE" "$OUT/changes.json" <<'PYEOF'
import json, sys
n = int(sys.argv[1])
json.dump({"catalogo": [{"id": "b%06d" % (i * (n // 10) + 7), "titulo": "Cambiado %d" % i} for i in range(10)]},
          open(sys.argv[2], "w"))
PYEOF
"$BACKEND_BIN" --database "$OUT/backend-large.sqlite3" --load "$OUT/changes.json" --load-only >/dev/null \
    || die "could not change the rows"
before=$(($(wc -l <"$OUT/requests-large.log") + 1))
out="$(faro_in "$PROFILE" "$FARO_BIN" catalog sync --backend "$URL" --protocol 3)" || die "delta sync failed"
echo "$out" | grep -q '^added: 0  updated: 10  deleted: 0 ' || die "the delta sync did not update 10 rows: $out"
catalog_curl_config "$OUT/requests-large.log" "$before" "$URL" >"$OUT/curl-delta.conf"
REQUESTS="$(grep -c '^url' "$OUT/curl-delta.conf")"
ROWS="$(grep '^url' "$OUT/curl-delta.conf" | curl -s -H 'ZUMO-API-VERSION: 3.0.0' -K - | "$CATALOG_PY" -c '
import json, sys
text = sys.stdin.read()
decoder, i, rows = json.JSONDecoder(), 0, 0
while i < len(text):
    value, i = decoder.raw_decode(text, i)
    rows += len(value["items"])
print(rows)')"
echo "delta_changed=10 delta_requests=$REQUESTS delta_rows=$ROWS delta_goal=$(goal "$REQUESTS <= 2 && $ROWS <= 50")"

# 4. The window's main loop during the 100,000-row first sync, beside the same window on the synced profile.
STALL="${SYNC_STALL_SECONDS:-4}"
[ "$STALL" -gt 0 ] || exit 0
command -v Xvfb >/dev/null && command -v dbus-run-session >/dev/null || die "part 4 needs Xvfb and dbus-run-session"
"$CATALOG_PY" bench/window/make_replay.py "$OUT/stall-replay.jsonl" --beacons 100 --seconds $((STALL + 40)) \
    || die "could not write the replay"
rm -f "$OUT/stall-results.txt"
dbus-run-session -- bash bench/catalog-sync/stall.sh "$FARO_BIN" "$URL" "$OUT" "$STALL" "$PROFILE" \
    "$OUT/requests-large.log" "${SYNC_STALL_ROUNDS:-2}" "$OUT/stall-results.txt" >"$OUT/stall.out" 2>"$OUT/stall.err" \
    || die "the stall probe failed: $(tail -n 3 "$OUT/stall.err")"
cat "$OUT/stall-results.txt"
