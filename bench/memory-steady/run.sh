#!/usr/bin/env bash
# Steady-state memory: what a tray app lives at all day. Resident memory after MEM_SECONDS (default 600, ten
# minutes) of `faro --demo` (the demo walk replayed in a loop, a private faro-backend serving the demo catalog,
# zone notifications to a python-dbusmock notification server, the tray item registered with a
# StatusNotifierWatcher), once with the window open and once in `--background`, beside the plain C GTK3 window of
# the launch benchmark (bench/window/cwindow.c, the same eight rows) left open just as long.
#
# Every program runs in its own dbus-run-session (a private session bus that also hosts the accessibility bus, as
# a desktop session does), all at the same time, in two display conditions:
#   warm   one Xvfb shared by the three, on which a throwaway GTK window ran first. The first GTK 3 process on an X
#          display probes OpenGL to choose visuals and caches them on the root window (GDK_VISUALS); later ones
#          read the cache. This is a desktop where some GTK 3 program has already run, and the goal's figure.
#   fresh  each program the first GTK 3 process on a display of its own: Faro started by the autostart entry at
#          login. Without FaroUI's DisplaySetup (GDK_GL=disable) the probe keeps Mesa's libLLVM and swrast driver
#          resident, ~48 MB; the C window, which calls plain gtk_init, still pays it.
# Figures from outside: VmRSS and VmHWM from /proc/PID/status at the end, RSS 2 s after the start (the first
# frame is drawn by then), and the end's /proc/PID/smaps summed per mapped file into the groups printed below.
#
# Environment: FARO_BIN_DIR / FARO (release binaries, as the other benches); MEM_SECONDS (default 600; shorter for
# a quick look, the README's figures are 600); BENCH_OUT (default bench-out). Needs Xvfb, dbus-run-session, gdbus,
# python3-dbusmock, cc and gtk+-3.0. Prints key=value lines:
#   memsteady_seconds=… memsteady_c_kb=… memsteady_faro_window_kb=… memsteady_faro_background_kb=…
#   memsteady_window_ratio=… memsteady_background_ratio=… memsteady_goal_1_5x=yes|no
#   memsteady_fresh_c_kb=… memsteady_fresh_faro_window_kb=… memsteady_fresh_faro_background_kb=…
#   memsteady_faro_gl_driver_kb=… (libLLVM + swrast resident in Faro on a fresh display; 0 is the goal)
#   memsteady_<run>_first_kb=… memsteady_<run>_hwm_kb=… memsteady_<run>_libs=… and per-group kB for Faro's window
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
SELF="$ROOT/bench/memory-steady/run.sh"
PY=/usr/bin/python3
[ -x "$PY" ] || PY="$(command -v python3)"

# Inner part: one program in its own session bus (run under dbus-run-session by the outer part).
#   run.sh --inner KIND DISPLAY OUTFILE   (KIND: c | window | background)
if [ "${1:-}" = "--inner" ]; then
    kind=$2 display=$3 out=$4
    work="$(dirname "$out")/$kind-$(basename "$out" .txt)"
    mkdir -p "$work/home" "$work/runtime"
    chmod 700 "$work/runtime"
    export DISPLAY="$display" GDK_BACKEND=x11 LANG=C.UTF-8 HOME="$work/home" XDG_RUNTIME_DIR="$work/runtime"
    export XDG_DATA_HOME="$work/home/data" XDG_CONFIG_HOME="$work/home/config" XDG_CACHE_HOME="$work/home/cache"
    unset NO_AT_BRIDGE GDK_GL
    pids=()
    finish() { for p in "${pids[@]}"; do kill "$p" 2>/dev/null || true; done; }
    trap finish EXIT
    # shellcheck source=bench/lib.sh
    . "$ROOT/bench/lib.sh"
    bench_desktop_peers "$PY" || { echo "bench/memory-steady: a desktop peer did not start" >&2; exit 1; }
    pids+=("${BENCH_PEER_PIDS[@]}")
    case $kind in
        c) "$CWINDOW" --stay >"$work/program.log" 2>&1 & ;;
        c_curl)
            # The fair reference for the window: the same C window, which also pulls the catalog page with libcurl.
            "$(dirname "$FARO")/faro-backend" --port 0 --data "$ROOT/data" >"$work/backend.out" 2>"$work/backend.log" &
            pids+=($!)
            url="$(bench_backend_url "$work/backend.out")" || { echo "bench/memory-steady: no faro-backend" >&2; exit 1; }
            "$CWINDOW_CURL" --stay --pull "$url/tables/beacons?\$top=50&__includeDeleted=true" >"$work/program.log" 2>&1 &
            ;;
        window) "$FARO" --demo >"$work/program.log" 2>&1 & ;;
        background) "$FARO" --demo --background >"$work/program.log" 2>&1 & ;;
    esac
    pid=$!
    pids+=("$pid")
    status_kb() { awk -v k="$1:" '$1 == k { print $2 }' "/proc/$pid/status"; }
    sleep 2
    kill -0 "$pid" 2>/dev/null || { echo "bench/memory-steady: $kind exited early: $(tail -n 3 "$work/program.log")" >&2; exit 1; }
    first="$(status_kb VmRSS)"
    sleep "$((SECONDS_TOTAL - 2))"
    kill -0 "$pid" 2>/dev/null || { echo "bench/memory-steady: $kind exited: $(tail -n 3 "$work/program.log")" >&2; exit 1; }
    cp "/proc/$pid/smaps" "$work/smaps"  # kept for a closer look (bench/README.md)
    # Resident kB per mapped file, summed into groups (a mapping counts in the first group whose pattern matches).
    awk '
        /^[0-9a-f]+-[0-9a-f]+ / { name = $6 }
        /^Rss:/ {
            g = "other"
            if (name ~ /libLLVM|swrast_dri|libGLX_mesa|libglapi/) g = "gl_driver"
            else if (name ~ /\/faro$/) g = "faro_binary"
            else if (name ~ /libcurl|libssl|libcrypto|libgnutls|libnettle|libhogweed|libgmp|libp11-kit|libtasn1|libidn2|libunistring|librtmp|libssh2|libpsl|libnghttp2|libgssapi|libkrb5|libk5crypto|libldap|liblber|libsasl|libbrotli|libcom_err|libkeyutils/) g = "curl_tls_stack"
            else if (name ~ /libxml2|libicu|liblzma/) g = "xml_icu"
            else if (name ~ /libsqlite/) g = "sqlite"
            else if (name ~ /appindicator|dbusmenu|ido3|libayatana/) g = "tray"
            else if (name ~ /libgtk|libgdk|libcairo|libpango|libharfbuzz|libfreetype|libfontconfig|libpixman|libX|libxcb|libatk|libatspi|libepoxy|\.ttf$|\.cache$/) g = "gtk_stack"
            else if (name == "" || name ~ /^\[/) g = "anonymous"
            kb[g] += $2
        }
        END { for (g in kb) printf "%s_kb=%d ", g, kb[g] }' "$work/smaps" > "$work/groups"
    libs="$(awk '$6 ~ /\.so/ { print $6 }' "/proc/$pid/maps" | sort -u | wc -l)"
    echo "rss_kb=$(status_kb VmRSS) hwm_kb=$(status_kb VmHWM) first_kb=$first libs=$libs $(cat "$work/groups")" > "$out"
    exit 0
fi

die() { echo "bench/memory-steady: $*" >&2; exit 1; }
. "$ROOT/bench/lib.sh"
bench_locate_binaries memory-steady
for tool in Xvfb dbus-run-session gdbus cc pkg-config; do command -v "$tool" >/dev/null || die "$tool not found"; done
"$PY" -c 'import dbusmock' 2>/dev/null || die "python3-dbusmock not found"
SECONDS_TOTAL="${MEM_SECONDS:-600}"
[ "$SECONDS_TOTAL" -ge 5 ] || die "MEM_SECONDS must be at least 5"
bench_out memory-steady
CWINDOW="$OUT/cwindow"
# shellcheck disable=SC2046
cc -O2 "$ROOT/bench/window/cwindow.c" -o "$CWINDOW" $(pkg-config --cflags --libs gtk+-3.0 2>/dev/null) \
    || die "could not build bench/window/cwindow.c"
CWINDOW_CURL="$OUT/cwindow-curl"
# shellcheck disable=SC2046
cc -O2 -DCWINDOW_CURL "$ROOT/bench/window/cwindow.c" -o "$CWINDOW_CURL" \
    $(pkg-config --cflags --libs gtk+-3.0 libcurl 2>/dev/null) || die "could not build cwindow.c with libcurl"

XVFBS=()
RUNS=()
cleanup() {
    for p in "${RUNS[@]}"; do kill "$p" 2>/dev/null || true; done
    for p in "${XVFBS[@]}"; do kill "$p" 2>/dev/null || true; done
}
trap cleanup EXIT
# new_display: starts an Xvfb on a free display number and sets DISPLAY_NAME.
new_display() {
    local file
    file="$(mktemp "$OUT/display.XXXXXX")"
    Xvfb -displayfd 3 -screen 0 1280x800x24 -nolisten tcp -noreset >/dev/null 2>&1 3>"$file" &
    XVFBS+=($!)
    for _ in $(seq 1 200); do [ -s "$file" ] && break; sleep 0.05; done
    DISPLAY_NAME=":$(head -n 1 "$file" | tr -dc 0-9)"
    [ "$DISPLAY_NAME" != ":" ] || die "Xvfb did not start"
}

new_display
WARM="$DISPLAY_NAME"
# The throwaway first GTK window on the warm display (it quits after its first frame).
DISPLAY="$WARM" GDK_BACKEND=x11 HOME="$OUT" timeout 60 dbus-run-session -- "$CWINDOW" >/dev/null 2>&1 \
    || die "the warm-up window failed"
export FARO="$FARO_BIN" CWINDOW CWINDOW_CURL SECONDS_TOTAL
echo "bench/memory-steady: $SECONDS_TOTAL s, 8 programs at once (warm display $WARM, four fresh displays)" >&2
for kind in c c_curl window background; do
    timeout $((SECONDS_TOTAL + 120)) dbus-run-session -- bash "$SELF" --inner "$kind" "$WARM" "$OUT/warm-$kind.txt" \
        >/dev/null 2>"$OUT/warm-$kind.log" &
    RUNS+=($!)
    new_display
    timeout $((SECONDS_TOTAL + 120)) dbus-run-session -- bash "$SELF" --inner "$kind" "$DISPLAY_NAME" \
        "$OUT/fresh-$kind.txt" >/dev/null 2>"$OUT/fresh-$kind.log" &
    RUNS+=($!)
done
failed=0
for p in "${RUNS[@]}"; do wait "$p" || failed=1; done
RUNS=()
[ "$failed" = 0 ] || die "a run failed: $(cat "$OUT"/*.log | grep -v '^dbus-daemon' | tail -n 5)"

get() { sed -n "s/.*\(^\| \)$2=\([0-9]*\).*/\2/p" "$OUT/$1.txt"; }
ratio() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.2f", a / b }'; }
c="$(get warm-c rss_kb)" cc="$(get warm-c_curl rss_kb)" w="$(get warm-window rss_kb)" b="$(get warm-background rss_kb)"
# The window against the C window that also pulls with libcurl; --background against the plain C window.
wr="$(ratio "$w" "$cc")" br="$(ratio "$b" "$c")"
goal="$(awk -v w="$wr" -v b="$br" 'BEGIN { print (w <= 1.4 && b <= 1.4) ? "yes" : "no" }')"
gl="$(( $(get fresh-window gl_driver_kb || true) + 0 ))"
echo "memsteady_seconds=$SECONDS_TOTAL memsteady_c_kb=$c memsteady_c_curl_kb=$cc memsteady_faro_window_kb=$w" \
    "memsteady_faro_background_kb=$b memsteady_window_ratio=$wr memsteady_background_ratio=$br" \
    "memsteady_goal_1_4x=$goal"
echo "memsteady_fresh_c_kb=$(get fresh-c rss_kb) memsteady_fresh_faro_window_kb=$(get fresh-window rss_kb)" \
    "memsteady_fresh_faro_background_kb=$(get fresh-background rss_kb) memsteady_faro_gl_driver_kb=$gl" \
    "memsteady_fresh_c_gl_driver_kb=$(( $(get fresh-c gl_driver_kb || true) + 0 ))"
for run in warm-c warm-window warm-background; do
    key="memsteady_${run#warm-}"
    echo "${key}_first_kb=$(get "$run" first_kb) ${key}_hwm_kb=$(get "$run" hwm_kb) ${key}_libs=$(get "$run" libs)"
done
echo "memsteady_window_groups: $(sed 's/.*libs=[0-9]* //' "$OUT/warm-window.txt")"
echo "memsteady_c_groups: $(sed 's/.*libs=[0-9]* //' "$OUT/warm-c.txt")"
