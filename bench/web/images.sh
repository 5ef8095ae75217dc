#!/usr/bin/env bash
# Hostile images in the content view: the page with a 30000x30000 PNG (a ~110 KB decompression bomb) and 200 more
# images, opened in the real window under Xvfb, beside a page with the same text
# and no images, same run ("View site" on the place's zone notification, from python-dbusmock's notification
# server, opens it). Faro's main-loop stall probe (FARO_STALL_PROBE: a 2 ms timeout that records how late it
# comes) measures the main loop while the page opens; the driver (images.py) samples the peak resident memory
# (VmHWM). Goals: no stall over 50 ms, peak memory under 150 MB. Before the image limits, this page froze the
# window for 6.4 s and took 2.8 GB.
#
# Builds nothing: expects release binaries `faro` and `faro-backend` (FARO_BIN_DIR, as bench/web/run.sh).
# Environment: FARO_BIN_DIR; IMAGES_SECONDS (default 12: measured after a 4 s warm-up); BENCH_OUT (default bench-out).
# Prints key=value lines:
#   images_plain_stall_max_ms=… images_plain_peak_rss_kb=… (and p99, over_16ms, busy_max_ms, opened)
#   images_bomb_stall_max_ms=… images_bomb_peak_rss_kb=… …
#   images_bomb_goal_50ms=yes|no images_bomb_goal_150mb=yes|no
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
cd "$ROOT"
die() { echo "bench/web/images: $*" >&2; exit 1; }

# shellcheck source=bench/lib.sh
. "$ROOT/bench/lib.sh"
bench_locate_binaries web
FARO_BIN="$(cd "$(dirname "$FARO_BIN")" && pwd)/$(basename "$FARO_BIN")"
BACKEND_BIN="$(cd "$(dirname "$BACKEND_BIN")" && pwd)/$(basename "$BACKEND_BIN")"
for tool in Xvfb dbus-run-session xdpyinfo gdbus; do command -v "$tool" >/dev/null || die "$tool not found"; done
bench_python web

# Everything runs inside one private session bus (AT-SPI needs one); results go through a file.
if [ -z "${FARO_IMAGES_BENCH_RESULTS:-}" ]; then
    mkdir -p "${BENCH_OUT:-bench-out}"
    RESULTS="$(cd "${BENCH_OUT:-bench-out}" && pwd)/images-results.txt"
    rm -f "$RESULTS"
    status=0
    dbus-run-session -- env FARO_IMAGES_BENCH_RESULTS="$RESULTS" FARO_BIN_DIR="$(dirname "$FARO_BIN")" \
        bash "${BASH_SOURCE[0]}" >&2 || status=$?
    [ -f "$RESULTS" ] && cat "$RESULTS"
    exit "$status"
fi

SECONDS_MEASURED="${IMAGES_SECONDS:-12}"
WARMUP=4
bench_out images
TMP="$(mktemp -d)"
XVFB_PID=""
BACKEND_PID=""
MOCK_PID=""
cleanup() {
    [ -n "$BACKEND_PID" ] && kill "$BACKEND_PID" 2>/dev/null || true
    [ -n "$MOCK_PID" ] && kill "$MOCK_PID" 2>/dev/null || true
    [ -n "$XVFB_PID" ] && kill "$XVFB_PID" 2>/dev/null || true
    rm -rf "$TMP"
}
trap cleanup EXIT

# Two data folders with one catalogued place each: the hostile page, and the same text without images.
"$PY" - "$OUT" "$((WARMUP + SECONDS_MEASURED + 20))" <<'PYEOF'
import json, os, struct, sys, zlib
out, seconds = sys.argv[1], int(sys.argv[2])
uuid = "fa20de30-0b1e-4c5a-9b5e-d3a0be0c0de1"
def chunk(t, d):
    return struct.pack(">I", len(d)) + t + d + struct.pack(">I", zlib.crc32(t + d) & 0xffffffff)
def png(w, h, depth, ctype, row):
    z = zlib.compressobj(9)
    data = b"".join(z.compress(row) for _ in range(h)) + z.flush()
    return (b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", w, h, depth, ctype, 0, 0, 0))
            + chunk(b"IDAT", data) + chunk(b"IEND", b""))
text = "<h1>Oferta</h1>" + "".join("<p>Párrafo %d de la oferta de hoy.</p>" % i for i in range(40))
for name, images in (("plain", False), ("bomb", True)):
    site = os.path.join(out, name, "demo", "sites", "oferta")
    os.makedirs(site)
    body = text
    if images:
        open(os.path.join(site, "bomba.png"), "wb").write(png(30000, 30000, 1, 0, b"\x00" * (1 + 3750)))
        body += '<p><img src="bomba.png" alt="Bomba"></p>'
        for i in range(200):
            open(os.path.join(site, "i%03d.png" % i), "wb").write(
                png(96, 96, 8, 2, b"\x00" + bytes([i % 256, 80, 160]) * 96))
            body += '<img src="i%03d.png" alt="imagen %d">' % (i, i)
    html = '<!DOCTYPE html><html><head><meta charset="utf-8"><title>Oferta</title></head><body>%s</body></html>' % body
    open(os.path.join(site, "index.html"), "w").write(html)
    json.dump({"uuid": uuid, "beacons": [{"major": 100, "minor": 1, "slug": "oferta", "cliente": "Bombas y Más",
               "titulo": "Oferta"}]}, open(os.path.join(out, name, "demo", "beacons.json"), "w"))
hexid = uuid.replace("-", "")
with open(os.path.join(out, "one-place.jsonl"), "w") as f:
    t = 0.2
    while t < seconds:
        f.write(json.dumps({"t": round(t, 3), "address": "C0:FF:EE:00:00:01", "rssi": -60, "kind": "ad",
                            "data": "0201061aff4c000215" + hexid + "00640001c5"}) + "\n")
        t += 0.25
PYEOF
ls -la "$OUT/bomb/demo/sites/oferta/bomba.png" >&2

# A private X server.
bench_xvfb "$OUT/xvfb.log" || die "Xvfb did not start: $(cat "$OUT/xvfb.log")"
XVFB_PID=$BENCH_XVFB_PID
export GDK_BACKEND=x11 GSETTINGS_BACKEND=memory LANG=C.UTF-8 GTK_A11Y=atspi
xdpyinfo >/dev/null 2>&1 || die "Xvfb on $DISPLAY does not answer"

for page in plain bomb; do
    export HOME="$TMP/$page/home" XDG_DATA_HOME="$TMP/$page/data" XDG_CONFIG_HOME="$TMP/$page/config"
    export XDG_CACHE_HOME="$TMP/$page/cache" XDG_RUNTIME_DIR="$TMP/$page/runtime"
    mkdir -p "$HOME" "$XDG_DATA_HOME" "$XDG_CONFIG_HOME" "$XDG_CACHE_HOME"
    mkdir -m 700 "$XDG_RUNTIME_DIR"
    # A fresh notification server (python-dbusmock) per run: "View site" on notification 1 opens the page.
    "$PY" -m dbusmock --session --template notification_daemon \
        -p '{"capabilities": "body actions icon-static persistence"}' >"$OUT/$page-notifications.log" 2>&1 &
    MOCK_PID=$!
    gdbus wait --session --timeout 20 org.freedesktop.Notifications || die "the notification mock did not start"
    : >"$OUT/$page-backend.txt"
    "$BACKEND_BIN" --port 0 --data "$OUT/$page" >"$OUT/$page-backend.txt" 2>"$OUT/$page-backend.log" &
    BACKEND_PID=$!
    url=""
    for _ in $(seq 1 100); do
        url="$(sed -n 's/^listening on //p' "$OUT/$page-backend.txt")"
        [ -n "$url" ] && break
        sleep 0.05
    done
    [ -n "$url" ] || die "faro-backend did not start: $(cat "$OUT/$page-backend.log")"
    FARO_STALL_PROBE="$SECONDS_MEASURED" FARO_STALL_WARMUP="$WARMUP" \
        "$PY" bench/web/images.py "$page" -- "$FARO_BIN" --source replay "$OUT/one-place.jsonl" \
        --backend "$url" --no-tray >>"$FARO_IMAGES_BENCH_RESULTS" 2>"$OUT/$page-faro.log" \
        || die "the $page run failed: $(tail -n 5 "$OUT/$page-faro.log")"
    kill "$BACKEND_PID" "$MOCK_PID" 2>/dev/null || true
    wait "$BACKEND_PID" "$MOCK_PID" 2>/dev/null || true
    BACKEND_PID=""
    MOCK_PID=""
    # The name is released once the mock is gone: the next run waits for its own.
    for _ in $(seq 1 100); do
        gdbus call --session --dest org.freedesktop.DBus --object-path /org/freedesktop/DBus \
            --method org.freedesktop.DBus.NameHasOwner org.freedesktop.Notifications 2>/dev/null | grep -q false && break
        sleep 0.05
    done
done

line="$(grep '^images_bomb_' "$FARO_IMAGES_BENCH_RESULTS" | tail -n 1)"
kv() { echo "$line" | tr ' ' '\n' | sed -n "s/^$1=//p"; }
max="$(kv images_bomb_stall_max_ms)"
peak="$(kv images_bomb_peak_rss_kb)"
echo "images_bomb_goal_50ms=$(awk -v m="$max" 'BEGIN { print (m + 0 <= 50 ? "yes" : "no") }')" \
    "images_bomb_goal_150mb=$(awk -v p="$peak" 'BEGIN { print (p + 0 < 150 * 1024 ? "yes" : "no") }')" \
    >>"$FARO_IMAGES_BENCH_RESULTS"
