#!/usr/bin/env bash
# Reader benchmark: how much of real pages Faro shows, beside w3m and lynx on the same bytes, and how fast it reads.
#
#   1. The corpus (Tests/ReaderCorpus: 13 pages, 8 languages, 8 encodings, see its README) is served over loopback
#      HTTP with the Content-Type each page would be served with (manifest.tsv), and read by `faro page` (the
#      content view's fetch and reader), `w3m -dump` and `lynx -dump` (given the same bytes and the same HTTP
#      charset). bench/reader/score.py counts, per page, the share of its paragraphs each dump shows whole (words in
#      order, none run together). Goals for Faro: >= 0.99 over the corpus, no page under 0.5.
#   2. Reading speed: bench/web's "1 MB HTML page to text" (faro page --timing: parse + render) beside
#      `xmllint --html` on the same file, run here with WEB_ONLY_READ=1 (reported beside the 2.82x measured before
#      this reader; xmllint's whole-millisecond timing makes that ratio move by a tenth between runs). With
#      READER_BEFORE_BIN=/path/to/an/older/faro, that binary against this one on the same 1 MB page, alternating,
#      15 rounds each, medians of parse + render. Goal: within 10 % of the older binary.
#
# Builds nothing: expects release binaries `faro` and `faro-backend` in FARO_BIN_DIR (bench/lib.sh).
# Environment: FARO_BIN_DIR; BENCH_OUT (default bench-out); READER_SPEED=0 skips part 2; READER_BEFORE_BIN.
# Prints the per-page table, then key=value lines:
#   reader_pages=… reader_faro_share=… reader_faro_min_page=… (and the same for w3m and lynx)
#   reader_goal_share_0_99=yes|no reader_goal_min_page_0_5=yes|no
#   web_read_1mb_… (bench/web's line) reader_speed_ratio=… reader_speed_ratio_before=2.82
#   reader_1mb_before_ms=… reader_1mb_after_ms=… reader_1mb_after_over_before=… reader_1mb_goal_10pct=yes|no
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
cd "$ROOT"
die() { echo "bench/reader: $*" >&2; exit 1; }
# shellcheck source=bench/lib.sh
. "$ROOT/bench/lib.sh"
bench_locate_binaries reader
for tool in w3m lynx; do command -v "$tool" >/dev/null || die "$tool not found (apt-get install $tool)"; done
bench_python reader

CORPUS="$ROOT/Tests/ReaderCorpus"
bench_out reader
mkdir -p "$OUT/faro" "$OUT/w3m" "$OUT/lynx"

SERVER_PID=""
BACKEND_PID=""
cleanup() {
    [ -n "$SERVER_PID" ] && kill "$SERVER_PID" 2>/dev/null
    [ -n "$BACKEND_PID" ] && kill "$BACKEND_PID" 2>/dev/null
    true
}
trap cleanup EXIT

# A loopback server that sends each page with the Content-Type of manifest.tsv (charset only where it says one).
"$PY" - "$CORPUS" >"$OUT/server.log" 2>&1 <<'PYEOF' &
import http.server, os, sys
corpus = sys.argv[1]
charsets = {}
for line in open(os.path.join(corpus, "manifest.tsv"), encoding="utf-8"):
    if not line.startswith("#"):
        fields = line.rstrip("\n").split("\t")
        charsets[fields[0]] = fields[1]
class Handler(http.server.BaseHTTPRequestHandler):
    def do_GET(self):
        name = self.path.split("?")[0].lstrip("/")
        if name not in charsets:
            self.send_error(404)
            return
        body = open(os.path.join(corpus, "pages", name), "rb").read()
        self.send_response(200)
        charset = charsets[name]
        self.send_header("Content-Type", "text/html" + ("" if charset == "-" else "; charset=" + charset))
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)
    def log_message(self, *args):
        pass
server = http.server.HTTPServer(("127.0.0.1", 0), Handler)
print("listening on http://127.0.0.1:%d" % server.server_port, flush=True)
server.serve_forever()
PYEOF
SERVER_PID=$!
URL=""
for _ in $(seq 1 100); do
    URL="$(grep -o 'http://127.0.0.1:[0-9]*' "$OUT/server.log" | head -n 1 || true)"
    [ -n "$URL" ] && break
    sleep 0.05
done
[ -n "$URL" ] || die "the corpus server did not start: $(cat "$OUT/server.log")"

# 1. The corpus through each reader.
grep -v '^#' "$CORPUS/manifest.tsv" | while IFS=$'\t' read -r name charset _; do
    page="$CORPUS/pages/$name"
    "$FARO_BIN" page "$URL/$name" --device-id 356938035643809 >"$OUT/faro/$name.txt" 2>"$OUT/faro/$name.err" || true
    w3m_charset=()
    lynx_charset=()
    if [ "$charset" != "-" ]; then
        w3m_charset=(-I "$charset")
        lynx_charset=("-assume_charset=$charset")
    fi
    w3m -dump -T text/html "${w3m_charset[@]}" -O UTF-8 -cols 1000 "$page" >"$OUT/w3m/$name.txt" 2>/dev/null || true
    lynx -dump -nolist -nonumbers -width=1024 -display_charset=utf-8 "${lynx_charset[@]}" "$page" \
        >"$OUT/lynx/$name.txt" 2>/dev/null || true
done
"$PY" "$ROOT/bench/reader/score.py" "$CORPUS/manifest.tsv" "$CORPUS/pages" "$OUT" faro w3m lynx | tee "$OUT/score.txt"
share="$(grep -o 'reader_faro_share=[0-9.]*' "$OUT/score.txt" | cut -d= -f2)"
worst="$(grep -o 'reader_faro_min_page=[0-9.]*' "$OUT/score.txt" | cut -d= -f2)"
echo "reader_goal_share_0_99=$(awk -v s="$share" 'BEGIN { print (s >= 0.99 ? "yes" : "no") }')" \
    "reader_goal_min_page_0_5=$(awk -v s="$worst" 'BEGIN { print (s >= 0.5 ? "yes" : "no") }')"

# 2. Reading speed: bench/web's 1 MB page, beside xmllint.
if [ "${READER_SPEED:-1}" != 0 ]; then
    line="$(FARO_BIN_DIR="$FARO_BIN_DIR" BENCH_OUT="$OUT" WEB_ONLY_READ=1 bash "$ROOT/bench/web/run.sh" | grep '^web_read_1mb')"
    echo "$line"
    ratio="$(echo "$line" | grep -o 'web_read_1mb_ratio=[0-9.]*' | cut -d= -f2)"
    echo "reader_speed_ratio=$ratio reader_speed_ratio_before=2.82"
    if [ -n "${READER_BEFORE_BIN:-}" ]; then
        [ -x "$READER_BEFORE_BIN" ] || die "READER_BEFORE_BIN is not an executable: $READER_BEFORE_BIN"
        "$BACKEND_BIN" --port 0 --data "$OUT/web/data" >"$OUT/backend.log" 2>&1 &
        BACKEND_PID=$!
        BIG=""
        for _ in $(seq 1 100); do
            BIG="$(grep -o 'http://127.0.0.1:[0-9]*' "$OUT/backend.log" | head -n 1 || true)"
            [ -n "$BIG" ] && break
            sleep 0.05
        done
        [ -n "$BIG" ] || die "faro-backend did not start: $(cat "$OUT/backend.log")"
        # parse + render of one run's --timing line, in ms.
        read_ms() {
            "$1" page "$BIG/sitios/grande/" --device-id 356938035643809 --timing 2>&1 >/dev/null \
                | awk '{ for (i = 1; i <= NF; i++) if ($(i - 1) == "parse" || $(i - 1) == "render") s += $i } END { printf "%.3f\n", s }'
        }
        median() { sort -g | awk '{ v[NR] = $1 } END { printf "%.2f", (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }
        : >"$OUT/before.txt"
        : >"$OUT/after.txt"
        for _ in $(seq 1 15); do
            read_ms "$READER_BEFORE_BIN" >>"$OUT/before.txt"
            read_ms "$FARO_BIN" >>"$OUT/after.txt"
        done
        before="$(median <"$OUT/before.txt")"
        after="$(median <"$OUT/after.txt")"
        over="$(awk -v a="$after" -v b="$before" 'BEGIN { printf "%.3f", a / b }')"
        echo "reader_1mb_before_ms=$before reader_1mb_after_ms=$after reader_1mb_after_over_before=$over" \
            "reader_1mb_goal_10pct=$(awk -v r="$over" 'BEGIN { print (r <= 1.1 ? "yes" : "no") }')"
    fi
fi
