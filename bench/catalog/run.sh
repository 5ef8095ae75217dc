#!/usr/bin/env bash
# Catalog sync benchmark: a full sync of 10,000 catalog rows from faro-backend (`faro catalog sync`, a fresh
# profile each round: 200 pages of 50 rows and the empty page that ends the pull, each page written to SQLite with
# its delta token) against `curl` fetching the same 201 pages in one process over one connection (its --config
# file holds the very URLs Faro asks for, worked out from the same rows). Also the sync's peak memory.
# Goal: the sync within 1.5x of the curl run. Rounds alternate faro and curl; the best of each counts.
#
# Builds nothing: expects release binaries `faro` and `faro-backend` in FARO_BIN_DIR (default: the folder of
# $FARO when scripts/bench.sh sets it, else $SCRATCH/release, else .build/release).
#
# Environment: FARO_BIN_DIR; CATALOG_ROWS (default 10000); CATALOG_ROUNDS (default 5); BENCH_OUT (default bench-out).
# Prints key=value lines:
#   catalog_rows=… catalog_pages=… catalog_bytes=… catalog_sync_s=… catalog_sync_peak_rss_kb=…
#   catalog_curl_pages=… catalog_curl_bytes=… catalog_curl_s=… catalog_vs_curl=… catalog_goal_1_5x=yes|no
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
cd "$ROOT"
die() { echo "bench/catalog: $*" >&2; exit 1; }

# shellcheck source=bench/lib.sh
. "$ROOT/bench/lib.sh"
bench_locate_binaries catalog
command -v curl >/dev/null || die "curl not found"
bench_python catalog

ROWS="${CATALOG_ROWS:-10000}"
ROUNDS="${CATALOG_ROUNDS:-5}"
bench_out catalog

PIDS=()
cleanup() { for p in "${PIDS[@]}"; do kill "$p" 2>/dev/null || true; done; }
trap cleanup EXIT

# 1. The rows (groups of 73 share one updatedAt, so groups straddle page boundaries) and the URLs of the pages a
#    full pull asks for, in Faro's own spelling of the cursor filter.
"$PY" - "$ROWS" "$OUT/rows.json" "$OUT/pages.txt" <<'PYEOF'
import json, sys, urllib.parse
n, rows_path, pages_path = int(sys.argv[1]), sys.argv[2], sys.argv[3]
rows = []
for i in range(n):
    g = i // 73
    rows.append({"id": "b%05d" % i, "uuid": "fa20de30-0b1e-4c5a-9b5e-d3a0be0c0de1", "major": 1000 + i // 1000,
                 "minor": i % 1000, "cliente": "Cliente %d" % i, "titulo": "Título del sitio %d" % i,
                 "url": "https://sitios.example/%d/" % i,
                 "updatedAt": "2020-01-%02dT%02d:%02d:00.000Z" % (1 + g // 1440, (g // 60) % 24, g % 60)})
json.dump({"catalogo": rows}, open(rows_path, "w"), ensure_ascii=False)
q = lambda s: urllib.parse.quote(s, safe="")
tail = "$orderby=" + q("updatedAt,id") + "&$top=50&__includeDeleted=true"
ordered = sorted(rows, key=lambda r: (r["updatedAt"], r["id"]))
with open(pages_path, "w") as f:
    f.write("?" + tail + "\n")
    for k in range(50, len(ordered) + 1, 50):
        last = ordered[k - 1]
        t = "datetimeoffset'%s'" % last["updatedAt"]
        flt = "(updatedAt gt %s) or ((updatedAt eq %s) and (id gt '%s'))" % (t, t, last["id"])
        f.write("?$filter=" + q(flt) + "&" + tail + "\n")
    if len(ordered) % 50:
        raise SystemExit("CATALOG_ROWS must be a multiple of 50")
PYEOF

# 2. The backend, in a database file; the rows go to their own table (`catalogo`, FARO_TABLE_BEACONS for faro), away
#    from the demo catalog it may also serve.
"$BACKEND_BIN" --port 0 --database "$OUT/backend.sqlite3" --load "$OUT/rows.json" >"$OUT/backend.log" 2>&1 &
PIDS+=("$!")
URL="$(bench_backend_url "$OUT/backend.log")" || die "faro-backend did not start: $(cat "$OUT/backend.log")"
sed "s|^|url = \"$URL/tables/catalogo|; s|\$|\"\noutput = \"/dev/null\"|" "$OUT/pages.txt" >"$OUT/curl.conf"

# shellcheck source=bench/catalog/lib.sh
. "$ROOT/bench/catalog/lib.sh"
measure() { catalog_measure "$@"; }

BEST_FARO="" BEST_CURL="" PEAK_KB=0 FARO_LINE="" CURL_PAGES="" CURL_BYTES=""
for round in $(seq 1 "$ROUNDS"); do
    profile="$OUT/profile-$round"
    mkdir -p "$profile"
    out="$(XDG_DATA_HOME="$profile/data" XDG_CONFIG_HOME="$profile/config" HOME="$profile" FARO_TABLE_BEACONS=catalogo \
        measure "$FARO_BIN" catalog sync --backend "$URL")" || die "faro catalog sync failed"
    FARO_LINE="$(echo "$out" | grep '^added: ')"
    read -r s kb <<<"$(echo "$out" | grep '^MEASURE' | cut -d' ' -f2-)"
    [ -z "$BEST_FARO" ] || [ "$(awk "BEGIN { print ($s < $BEST_FARO) }")" = 1 ] && BEST_FARO="$s"
    [ "$kb" -gt "$PEAK_KB" ] && PEAK_KB="$kb"
    rm -rf "$profile"

    out="$(measure curl -s -H 'ZUMO-API-VERSION: 2.0.0' -H 'Accept: application/json' \
        -w '%{http_code} %{size_download} %{num_connects}\n' -K "$OUT/curl.conf")" || die "curl failed"
    read -r s _ <<<"$(echo "$out" | grep '^MEASURE' | cut -d' ' -f2-)"
    [ -z "$BEST_CURL" ] || [ "$(awk "BEGIN { print ($s < $BEST_CURL) }")" = 1 ] && BEST_CURL="$s"
    CURL_PAGES="$(echo "$out" | grep -c '^200 ')"
    CURL_BYTES="$(echo "$out" | awk '/^200 / { b += $2 } END { print b }')"
    connects="$(echo "$out" | awk '/^200 / { c += $3 } END { print c }')"
    [ "$connects" = 1 ] || die "curl opened $connects connections (expected one, kept alive)"
    echo "round $round: faro ${BEST_FARO}s best, curl ${BEST_CURL}s best" >&2
done

FARO_PAGES="$(echo "$FARO_LINE" | sed 's/.*pages: \([0-9]*\).*/\1/')"
FARO_BYTES="$(echo "$FARO_LINE" | sed 's/.*bytes: \([0-9]*\).*/\1/')"
ADDED="$(echo "$FARO_LINE" | sed 's/^added: \([0-9]*\).*/\1/')"
[ "$ADDED" = "$ROWS" ] || die "faro added $ADDED rows, expected $ROWS: $FARO_LINE"
[ "$FARO_PAGES" = "$CURL_PAGES" ] && [ "$FARO_BYTES" = "$CURL_BYTES" ] \
    || die "faro and curl fetched different pages: faro $FARO_PAGES pages $FARO_BYTES bytes, curl $CURL_PAGES pages $CURL_BYTES bytes"
RATIO="$(awk "BEGIN { printf \"%.2f\", $BEST_FARO / $BEST_CURL }")"
GOAL="$(awk "BEGIN { print ($BEST_FARO / $BEST_CURL <= 1.5) ? \"yes\" : \"no\" }")"
echo "catalog_rows=$ROWS catalog_pages=$FARO_PAGES catalog_bytes=$FARO_BYTES catalog_sync_s=$BEST_FARO catalog_sync_peak_rss_kb=$PEAK_KB"
echo "catalog_curl_pages=$CURL_PAGES catalog_curl_bytes=$CURL_BYTES catalog_curl_s=$BEST_CURL catalog_vs_curl=$RATIO catalog_goal_1_5x=$GOAL"
