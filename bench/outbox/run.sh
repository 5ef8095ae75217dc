#!/usr/bin/env bash
# Outbox benchmark: flush 10,000 queued rows to faro-backend with `faro outbox flush`, against a loop of `curl`
# commands posting the same rows (one process per row, as a shell script would); then catalog lookup latency.
#
# Builds nothing: expects release binaries `faro` and `faro-backend` in FARO_BIN_DIR (default: the folder of
# $FARO when scripts/bench.sh sets it, else $SCRATCH/release, else .build/release).
#
# Environment:
#   FARO_BIN_DIR   folder holding faro and faro-backend
#   OUTBOX_ROWS    rows queued and flushed (default 10000)
#   CURL_ROWS      rows posted by the curl loop (default 2000, the first of the same rows: one process per row
#                  takes ~20 ms, so all 10,000 would add minutes; the comparison is rows/s either way)
#   LOOKUPS        catalog lookups timed (default 2000)
#   BENCH_OUT      scratch folder (default bench-out)
#
# Prints key=value lines:
#   outbox_rows=… outbox_flush_s=… outbox_flush_rows_per_s=…
#   curl_loop_rows=… curl_loop_s=… curl_loop_rows_per_s=… outbox_vs_curl=…
#   catalog_lookups=… catalog_p50_ms=… catalog_p99_ms=…
# Catalog lookups are `GET /tables/beacons?$filter=(major eq M) and (minor eq N)` exactly as Faro sends them,
# over one kept-alive connection, timed per request by curl (time_total).
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
cd "$ROOT"
die() { echo "bench/outbox: $*" >&2; exit 1; }

# shellcheck source=bench/lib.sh
. "$ROOT/bench/lib.sh"
bench_locate_binaries outbox
command -v curl >/dev/null || die "curl not found"
bench_python outbox

ROWS="${OUTBOX_ROWS:-10000}"
CURL_ROWS="${CURL_ROWS:-2000}"
LOOKUPS="${LOOKUPS:-2000}"
bench_out outbox

PIDS=()
cleanup() { for p in "${PIDS[@]}"; do kill "$p" 2>/dev/null || true; done; }
trap cleanup EXIT

# Starts a faro-backend on a free port; sets URL.
start_backend() {
    local log="$OUT/backend-$1.log"
    "$BACKEND_BIN" --port 0 --data "$ROOT/data" >"$log" 2>&1 &
    PIDS+=("$!")
    for _ in $(seq 1 100); do
        URL="$(grep -o 'http://127.0.0.1:[0-9]*' "$log" | head -n 1 || true)"
        [ -n "$URL" ] && return 0
        sleep 0.05
    done
    die "faro-backend did not start: $(cat "$log")"
}

now() { date +%s.%N; }
calc() { awk "BEGIN { printf \"%s\", ($1) }"; }

# 1. Queue the rows: the outbox schema comes from faro itself (it creates and migrates the database), then the
#    rows are inserted as `faro register` would, in one transaction so queueing does not count.
export XDG_DATA_HOME="$OUT/data" XDG_CONFIG_HOME="$OUT/config" HOME="$OUT/home"
"$FARO_BIN" outbox >/dev/null
DB="$XDG_DATA_HOME/faro/faro.sqlite3"
"$PY" - "$DB" "$ROWS" "$OUT/rows.tsv" <<'PYEOF'
import json, sqlite3, sys, time, uuid
db, n, tsv = sys.argv[1], int(sys.argv[2]), sys.argv[3]
con = sqlite3.connect(db)
now = time.time()
tables = ["interested", "contactame", "rateme"]
with open(tsv, "w") as out, con:
    for i in range(n):
        t = tables[i % 3]
        rid = str(uuid.uuid4())
        if t == "interested":
            body = {"id": rid, "nombre": f"Negocio {i}", "email": f"n{i}@ejemplo.mx", "telefono": "5512345678"}
        elif t == "contactame":
            body = {"id": rid, "cliente": "Café La Parroquia", "titulo": "Café de olla", "fechahora": "2026-11-29T14:03:07.123Z",
                    "nombrecontacto": "Ana", "email": "ana@ejemplo.mx", "telefono": "5512345678", "empresa": "ACME",
                    "comentario": f"Comentario {i}"}
        else:
            body = {"id": rid, "cliente": "Cine Tonalá", "titulo": "Cartelera", "fechahora": "2026-11-29T14:03:07.123Z",
                    "imei": "35-209900-176148-1", "calificacion": i % 6}
        text = json.dumps(body, ensure_ascii=False, separators=(",", ":"))
        con.execute("INSERT INTO outbox (id, table_name, body, state, attempts, next_attempt_at, created_at, updated_at) "
                    "VALUES (?, ?, ?, 'pending', 0, ?, ?, ?)", (rid, t, text, now, now, now))
        out.write(f"{t}\t{text}\n")
PYEOF

# 2. Flush them.
start_backend flush
FLUSH_URL="$URL"
t0="$(now)"
"$FARO_BIN" outbox flush --backend "$FLUSH_URL" --timeout 600 >"$OUT/flush.out" 2>"$OUT/flush.err" \
    || die "faro outbox flush failed: $(cat "$OUT/flush.err")"
t1="$(now)"
FLUSH_S="$(calc "$t1 - $t0")"
held="$(curl -s -H 'ZUMO-API-VERSION: 2.0.0' "$FLUSH_URL/tables/interested?\$top=0&\$inlinecount=allpages" | "$PY" -c 'import json,sys; print(json.load(sys.stdin)["count"])')"
expected_interested="$(( (ROWS + 2) / 3 ))"
[ "$held" = "$expected_interested" ] || die "backend holds $held interested rows, expected $expected_interested"
echo "outbox_rows=$ROWS outbox_flush_s=$(calc "int($FLUSH_S * 1000) / 1000") outbox_flush_rows_per_s=$(calc "int($ROWS / $FLUSH_S)")"

# 3. The same rows with one curl process per row, to a fresh backend.
start_backend curl
CURL_URL="$URL"
head -n "$CURL_ROWS" "$OUT/rows.tsv" >"$OUT/curl-rows.tsv"
t0="$(now)"
while IFS=$'\t' read -r table body; do
    curl -s -o /dev/null --fail -X POST -H 'ZUMO-API-VERSION: 2.0.0' -H 'Accept: application/json' \
        -H 'Content-Type: application/json' --data-binary "$body" "$CURL_URL/tables/$table" \
        || die "curl post failed"
done <"$OUT/curl-rows.tsv"
t1="$(now)"
CURL_S="$(calc "$t1 - $t0")"
FLUSH_RATE="$(calc "$ROWS / $FLUSH_S")"
CURL_RATE="$(calc "$CURL_ROWS / $CURL_S")"
echo "curl_loop_rows=$CURL_ROWS curl_loop_s=$(calc "int($CURL_S * 1000) / 1000") curl_loop_rows_per_s=$(calc "int($CURL_RATE)") outbox_vs_curl=$(calc "int($FLUSH_RATE / $CURL_RATE * 100) / 100")"

# 4. Catalog lookups by major/minor over one kept-alive connection.
"$PY" - "$FLUSH_URL" "$LOOKUPS" "$OUT/lookups.curl" <<'PYEOF'
import sys, urllib.parse
url, n, path = sys.argv[1], int(sys.argv[2]), sys.argv[3]
pairs = [(100, 1), (100, 2), (100, 3), (100, 4), (200, 1), (200, 2), (200, 3), (300, 1), (7, 42)]
with open(path, "w") as f:
    for i in range(n):
        major, minor = pairs[i % len(pairs)]
        q = urllib.parse.quote(f"(major eq {major}) and (minor eq {minor})", safe="")
        f.write(f'url = "{url}/tables/beacons?$filter={q}"\noutput = "/dev/null"\n')
PYEOF
curl -s -H 'ZUMO-API-VERSION: 2.0.0' -H 'Accept: application/json' -w '%{time_total}\n' -K "$OUT/lookups.curl" >"$OUT/lookups.times"
"$PY" - "$OUT/lookups.times" <<'PYEOF'
import sys
t = sorted(float(x) * 1000 for x in open(sys.argv[1]) if x.strip())
def pct(p): return t[min(len(t) - 1, int(round(p / 100 * (len(t) - 1))))]
print(f"catalog_lookups={len(t)} catalog_p50_ms={pct(50):.3f} catalog_p99_ms={pct(99):.3f}")
PYEOF
