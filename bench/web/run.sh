#!/usr/bin/env bash
# Web benchmarks (microsite view, Guardados): three measurements against a private faro-backend, each beside its
# reference from the same run.
#
#   1. A fresh page fetch: Faro's libcurl transfer (`faro page --timing`: libcurl's own CURLINFO_TOTAL_TIME_T)
#      against the `curl` command fetching the same URL with the same request options Faro's page loads set (the
#      no-cache headers, Accept-Encoding, an in-memory cookie engine, http/https only; its -w time_total: the same
#      clock over the same span), interleaved, medians. Goal: Faro within 1.1x of curl. Also reported: Faro's
#      perform (curl_easy_perform's per-call set-up and reading the answer added), its fetch with the handle
#      set-up, and both whole-process times (faro's includes loading GTK and the rest of the app).
#   2. Saving a page with 30 resources (1 stylesheet, 29 images) from a server that delays every microsite answer by
#      50 ms (FARO_BACKEND_SITE_LATENCY_MS): `faro save --timing` against one request's latency (curl, same server).
#      Goal: within 3x one request's latency.
#   3. Reading a 1 MB HTML page to text: Faro's libxml2 parse + readable-document build (`faro page --timing`)
#      against libxml2's own `xmllint --html --noout --timing` parse of the same file (reported, no goal).
#
# Builds nothing: expects release binaries `faro` and `faro-backend` in FARO_BIN_DIR (default: the folder of
# $FARO when scripts/bench.sh sets it, else $SCRATCH/release, else .build/release).
#
#   4. The content view opening a page with a 30000x30000 PNG and 200 more images (bench/web/images.sh, its own
#      lines): no main-loop stall over 50 ms, peak memory under 150 MB.
#
# Environment: FARO_BIN_DIR; WEB_IMAGES=0 skips part 4; WEB_ONLY_READ=1 runs part 3 alone (bench/reader uses it); WEB_ROUNDS (default 15: fetch rounds, 5 for save and the 1 MB read);
#              BENCH_OUT (default bench-out).
# Prints key=value lines:
#   web_fetch_faro_ms=… web_fetch_curl_ms=… web_fetch_ratio=… web_fetch_goal_1_1x=yes|no
#   web_fetch_faro_perform_ms=… web_fetch_faro_with_setup_ms=… web_fetch_faro_process_ms=… web_fetch_curl_process_ms=…
#   web_save_resources=30 web_save_ms=… web_one_request_ms=… web_save_ratio=… web_save_goal_3x=yes|no
#   web_read_1mb_bytes=… web_read_1mb_faro_parse_ms=… web_read_1mb_faro_total_ms=… web_read_1mb_xmllint_ms=… web_read_1mb_ratio=…
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
cd "$ROOT"
die() { echo "bench/web: $*" >&2; exit 1; }

# shellcheck source=bench/lib.sh
. "$ROOT/bench/lib.sh"
bench_locate_binaries web
command -v curl >/dev/null || die "curl not found"
bench_python web
ROUNDS="${WEB_ROUNDS:-15}"
SMALL_ROUNDS=5
DEVICE_ID=356938035643809

bench_out web

PIDS=()
cleanup() { for p in "${PIDS[@]}"; do kill -9 "$p" 2>/dev/null || true; done; }
trap cleanup EXIT

# The bench's own data folder: the demo microsite, a page with 30 resources, and a 1 MB page.
"$PY" - "$OUT/data" "$ROOT/data/demo/sites/cafe-la-parroquia" <<'PYEOF'
import os, shutil, struct, sys, zlib, random
data, demo = sys.argv[1], sys.argv[2]
sites = os.path.join(data, "demo", "sites")
os.makedirs(sites)
open(os.path.join(data, "demo", "beacons.json"), "w").write('{"uuid": "fa20de30-0b1e-4c5a-9b5e-d3a0be0c0de1", "beacons": []}')
shutil.copytree(demo, os.path.join(sites, "cafe"))
def png(w, h, rgb):
    raw = b"".join(b"\x00" + bytes(rgb) * w for _ in range(h))
    chunk = lambda t, d: struct.pack(">I", len(d)) + t + d + struct.pack(">I", zlib.crc32(t + d) & 0xffffffff)
    return b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", w, h, 8, 2, 0, 0, 0)) + chunk(b"IDAT", zlib.compress(raw)) + chunk(b"IEND", b"")
many = os.path.join(sites, "muchos")
os.makedirs(many)
imgs = "".join('<img src="img%02d.png" alt="imagen %d">' % (i, i) for i in range(29))
open(os.path.join(many, "index.html"), "w").write('<!DOCTYPE html><html><head><meta charset="utf-8"><title>Treinta recursos</title>'
    '<link rel="stylesheet" href="style.css"></head><body><h1>Galería</h1><p>Una página con 30 recursos.</p>' + imgs + '</body></html>')
open(os.path.join(many, "style.css"), "w").write("body { font-family: sans-serif; } img { width: 64px; }\n")
for i in range(29):
    open(os.path.join(many, "img%02d.png" % i), "wb").write(png(64, 64, (i * 8, 100, 200)))
big = os.path.join(sites, "grande")
os.makedirs(big)
rnd = random.Random(7)
words = "café olla pan dulce concha oreja librería péndulo farmacia galería mercado artesanías cine taquería faro".split()
parts = ['<!DOCTYPE html><html><head><meta charset="utf-8"><title>Página de un mega</title></head><body>']
size = 0
n = 0
while size < 1_000_000:
    n += 1
    text = " ".join(rnd.choice(words) for _ in range(40))
    block = ('<h2 id="s%d">Sección %d</h2><p>%s <a href="p%d.html">enlace</a> <em>énfasis</em></p>'
             '<ul><li>%s</li><li>%s</li></ul><table><tr><td>a</td><td>b</td></tr></table>\n') % (n, n, text, n, rnd.choice(words), rnd.choice(words))
    parts.append(block)
    size += len(block.encode())
parts.append("</body></html>")
open(os.path.join(big, "index.html"), "w").write("".join(parts))
PYEOF

# Starts a faro-backend (extra environment in $2) on a free port; sets URL.
start_backend() {
    local log="$OUT/backend-$1.log"
    env $2 "$BACKEND_BIN" --port 0 --data "$OUT/data" >"$log" 2>&1 &
    PIDS+=("$!")
    for _ in $(seq 1 100); do
        URL="$(grep -o 'http://127.0.0.1:[0-9]*' "$log" | head -n 1 || true)"
        [ -n "$URL" ] && return 0
        sleep 0.05
    done
    die "faro-backend did not start: $(cat "$log")"
}

median() { sort -g | awk '{ v[NR] = $1 } END { if (NR == 0) print "n/a"; else if (NR % 2) printf "%.2f", v[(NR + 1) / 2]; else printf "%.2f", (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }
now_ms() { date +%s%N | awk '{ printf "%.3f", $1 / 1e6 }'; }
# The value after "$1 " in a --timing line, in ms.
timing() { grep -o "$1 [0-9.]* ms" | head -n 1 | awk '{ print $2 }'; }

# 1. Fresh fetch.
start_backend fetch ""
PAGE="$URL/sitios/cafe/"
if [ "${WEB_ONLY_READ:-0}" != 1 ]; then
: >"$OUT/faro-fetch.txt"; : >"$OUT/faro-perform.txt"; : >"$OUT/faro-setup.txt"; : >"$OUT/curl-fetch.txt"; : >"$OUT/faro-process.txt"; : >"$OUT/curl-process.txt"
curl -s -o /dev/null "$PAGE?imei=$DEVICE_ID"  # warm up the server
for _ in $(seq 1 "$ROUNDS"); do
    t0="$(now_ms)"
    "$FARO_BIN" page "$PAGE" --device-id "$DEVICE_ID" --timing 2>"$OUT/faro-timing.txt" >/dev/null
    t1="$(now_ms)"
    timing transfer <"$OUT/faro-timing.txt" >>"$OUT/faro-fetch.txt"
    timing perform <"$OUT/faro-timing.txt" >>"$OUT/faro-perform.txt"
    timing fetch <"$OUT/faro-timing.txt" >>"$OUT/faro-setup.txt"
    awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%.3f\n", b - a }' >>"$OUT/faro-process.txt"
    t0="$(now_ms)"
    curl -s -o /dev/null -H "Cache-Control: no-cache" -H "Pragma: no-cache" --compressed -b /dev/null \
        --proto =http,https --proto-redir =http,https -w '%{time_total}\n' "$PAGE?imei=$DEVICE_ID" \
        | awk '{ printf "%.3f\n", $1 * 1000 }' >>"$OUT/curl-fetch.txt"
    t1="$(now_ms)"
    awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%.3f\n", b - a }' >>"$OUT/curl-process.txt"
done
faro_fetch="$(median <"$OUT/faro-fetch.txt")"
curl_fetch="$(median <"$OUT/curl-fetch.txt")"
fetch_ratio="$(awk -v a="$faro_fetch" -v b="$curl_fetch" 'BEGIN { printf "%.2f", a / b }')"
echo "web_fetch_faro_ms=$faro_fetch web_fetch_curl_ms=$curl_fetch web_fetch_ratio=$fetch_ratio" \
    "web_fetch_goal_1_1x=$(awk -v r="$fetch_ratio" 'BEGIN { print (r <= 1.1 ? "yes" : "no") }')"
echo "web_fetch_faro_perform_ms=$(median <"$OUT/faro-perform.txt")" \
    "web_fetch_faro_with_setup_ms=$(median <"$OUT/faro-setup.txt") web_fetch_faro_process_ms=$(median <"$OUT/faro-process.txt")" \
    "web_fetch_curl_process_ms=$(median <"$OUT/curl-process.txt")"
fi

# 3. The 1 MB page (same fast server).
BIG_FILE="$OUT/data/demo/sites/grande/index.html"
: >"$OUT/faro-parse.txt"; : >"$OUT/faro-read.txt"; : >"$OUT/xmllint.txt"
for _ in $(seq 1 "$SMALL_ROUNDS"); do
    "$FARO_BIN" page "$URL/sitios/grande/" --device-id "$DEVICE_ID" --timing 2>"$OUT/faro-timing.txt" >/dev/null
    timing parse <"$OUT/faro-timing.txt" >>"$OUT/faro-parse.txt"
    awk '{ for (i = 1; i <= NF; i++) if ($(i + 1) == "ms," || $(i + 1) == "ms") { if ($(i - 1) == "parse" || $(i - 1) == "render") s += $i } } END { printf "%.3f\n", s }' \
        "$OUT/faro-timing.txt" >>"$OUT/faro-read.txt"
    if command -v xmllint >/dev/null; then
        xmllint --html --noout --timing "$BIG_FILE" 2>&1 | grep -o "Parsing took [0-9.]* ms" | awk '{ print $3 }' >>"$OUT/xmllint.txt" || true
    fi
done
faro_parse="$(median <"$OUT/faro-parse.txt")"
faro_read="$(median <"$OUT/faro-read.txt")"
xmllint_ms="$(median <"$OUT/xmllint.txt")"
read_ratio="$(awk -v a="$faro_read" -v b="$xmllint_ms" 'BEGIN { if (b + 0 > 0) printf "%.2f", a / b; else print "n/a" }')"
echo "web_read_1mb_bytes=$(wc -c <"$BIG_FILE") web_read_1mb_faro_parse_ms=$faro_parse web_read_1mb_faro_total_ms=$faro_read" \
    "web_read_1mb_xmllint_ms=$xmllint_ms web_read_1mb_ratio=$read_ratio"

[ "${WEB_ONLY_READ:-0}" = 1 ] && exit 0

# 2. Save with 30 resources from a server that adds 50 ms to every request.
start_backend slow "FARO_BACKEND_SITE_LATENCY_MS=50"
: >"$OUT/one.txt"; : >"$OUT/save.txt"
for _ in $(seq 1 "$SMALL_ROUNDS"); do
    curl -s -o /dev/null -w '%{time_total}\n' "$URL/sitios/muchos/img00.png" | awk '{ printf "%.3f\n", $1 * 1000 }' >>"$OUT/one.txt"
    XDG_DATA_HOME="$OUT/xdg" "$FARO_BIN" save "$URL/sitios/muchos/" -o "$OUT/muchos.mht" --device-id "$DEVICE_ID" --timing 2>"$OUT/save-timing.txt" >"$OUT/save-out.txt"
    timing save <"$OUT/save-timing.txt" >>"$OUT/save.txt"
done
resources="$(grep -o 'with [0-9]* resource' "$OUT/save-out.txt" | awk '{ print $2 }')"
one_ms="$(median <"$OUT/one.txt")"
save_ms="$(median <"$OUT/save.txt")"
save_ratio="$(awk -v a="$save_ms" -v b="$one_ms" 'BEGIN { printf "%.2f", a / b }')"
echo "web_save_resources=$resources web_save_ms=$save_ms web_one_request_ms=$one_ms web_save_ratio=$save_ratio" \
    "web_save_goal_3x=$(awk -v r="$save_ratio" 'BEGIN { print (r <= 3 ? "yes" : "no") }')"

# 4. Hostile images in the content view (the 30000x30000 PNG page): bench/web/images.sh, its key=value lines.
if [ "${WEB_IMAGES:-1}" != 0 ]; then
    FARO_BIN_DIR="$FARO_BIN_DIR" BENCH_OUT="${BENCH_OUT:-bench-out}" bash "$ROOT/bench/web/images.sh"
fi
