# Shared by the bench/*/run.sh scripts (sourced, not run).
BENCH_LIB_ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"

# Sets FARO_BIN_DIR when it is unset: the folder of $FARO, else $SCRATCH/release, else .build/release.
bench_bin_dir() {
    if [ -z "${FARO_BIN_DIR:-}" ]; then
        if [ -n "${FARO:-}" ]; then FARO_BIN_DIR="$(dirname "$FARO")"
        elif [ -n "${SCRATCH:-}" ]; then FARO_BIN_DIR="$SCRATCH/release"
        else FARO_BIN_DIR=".build/release"; fi
    fi
}

# Exits, naming the bench ($1) and the build command, unless each program named after it is in FARO_BIN_DIR.
bench_require_binaries() {
    local name=$1 bin
    shift
    for bin in "$@"; do
        [ -x "$FARO_BIN_DIR/$bin" ] \
            || { echo "bench/$name: no $bin in $FARO_BIN_DIR (build with: swift build -c release)" >&2; exit 1; }
    done
}

# Sets FARO_BIN and BACKEND_BIN (bench_bin_dir), exiting when one is missing. $1 names the bench in messages.
bench_locate_binaries() {
    bench_bin_dir
    bench_require_binaries "$1" faro faro-backend
    FARO_BIN="$FARO_BIN_DIR/faro"
    BACKEND_BIN="$FARO_BIN_DIR/faro-backend"
}

# Starts a private dbus-daemon listening in folder $1 (extra <busconfig> lines in $2, e.g. <limit …/>), writes its
# address and pid to $1/bus (two lines), and prints the address.
bench_private_bus() {
    local dir=$1 extra=${2:-}
    cat > "$dir/bus.conf" <<CONF
<!DOCTYPE busconfig PUBLIC "-//freedesktop//DTD D-Bus Bus Configuration 1.0//EN"
 "http://www.freedesktop.org/standards/dbus/1.0/busconfig.dtd">
<busconfig>
  <type>session</type>
  <listen>unix:dir=$dir</listen>
  <auth>EXTERNAL</auth>
  <policy context="default">
    <allow send_destination="*" eavesdrop="true"/>
    <allow eavesdrop="true"/>
    <allow own="*"/>
  </policy>
  $extra
</busconfig>
CONF
    dbus-daemon --config-file="$dir/bus.conf" --fork --print-address=1 --print-pid=1 > "$dir/bus"
    sed -n 1p "$dir/bus"
}

# Starts Xvfb (1280x800x24) on a free display, its output in log file $1; sets BENCH_XVFB_PID and exports DISPLAY.
# Returns 1 (the log says why) when no display came up within 5 s.
bench_xvfb() {
    local log=$1 numbers number
    numbers="$(mktemp)"
    Xvfb -displayfd 3 -screen 0 1280x800x24 -nolisten tcp -noreset 3>"$numbers" >"$log" 2>&1 &
    BENCH_XVFB_PID=$!
    for _ in $(seq 1 100); do
        [ -s "$numbers" ] && break
        sleep 0.05
    done
    number="$(head -n 1 "$numbers" | tr -dc 0-9)"
    rm -f "$numbers"
    [ -n "$number" ] || return 1
    export DISPLAY=":$number"
}

# Prints the URL a faro-backend started with --port 0 announces ("listening on URL") in file $1, waiting up to
# 10 s; returns 1 when none came.
bench_backend_url() {
    local file=$1 url=""
    for _ in $(seq 1 100); do
        url="$(sed -n 's/^listening on \(http[^ ]*\).*/\1/p' "$file" 2>/dev/null | head -n 1)"
        [ -n "$url" ] && break
        sleep 0.1
    done
    [ -n "$url" ] || return 1
    echo "$url"
}

# Starts the desktop peers Faro's window talks to on the current session bus, as python-dbusmock services: a
# notification server and a StatusNotifierWatcher (the tray host). Sets BENCH_PEER_PIDS; returns 1 (saying which)
# when one does not appear within 20 s. $1 is the python to run.
bench_desktop_peers() {
    local py=$1
    BENCH_PEER_PIDS=()
    "$py" -m dbusmock --session --template notification_daemon \
        -p '{"capabilities": "body actions icon-static persistence"}' >/dev/null 2>&1 &
    BENCH_PEER_PIDS+=($!)
    "$py" -m dbusmock --session --template "$BENCH_LIB_ROOT/Tests/UI/status_notifier_watcher.py" >/dev/null 2>&1 &
    BENCH_PEER_PIDS+=($!)
    gdbus wait --session --timeout 20 org.freedesktop.Notifications || { echo "no notification server" >&2; return 1; }
    gdbus wait --session --timeout 20 org.kde.StatusNotifierWatcher || { echo "no StatusNotifierWatcher" >&2; return 1; }
}

# Sets PY to the system python3 (the one python3-dbusmock is installed for), else the first one on PATH; exits,
# naming the bench ($1), when there is none.
bench_python() {
    PY=/usr/bin/python3
    [ -x "$PY" ] || PY="$(command -v python3)" || { echo "bench/$1: python3 not found" >&2; exit 1; }
}

# Sets OUT to a fresh, absolute folder $1 under $BENCH_OUT (default: bench-out at the top of the repository).
bench_out() {
    OUT="${BENCH_OUT:-$BENCH_LIB_ROOT/bench-out}/$1"
    rm -rf "$OUT"
    mkdir -p "$OUT"
    OUT="$(cd "$OUT" && pwd)"
}
