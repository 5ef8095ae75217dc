#!/usr/bin/env bash
# Background monitoring, idle cost: an hour of beacons (bench/monitoring/make_recording.py: 50 beacons coming and
# going, a 10-minute stretch with none) replayed at 100x into `faro --background` (no window) under Xvfb with a
# private session bus and a notification server (python-dbusmock), then left idle with nothing in range. The same
# app with monitoring paused is the baseline (monitoring turned off with no window quits Faro: nothing runs at all).
#
# Phases: the whole replay; the recording's empty 10 minutes while it plays (nothing changes: goal 0 wake-ups);
# idle after the last beacon left; paused. Measured from outside, per phase: CPU time (utime+stime of all threads, /proc/PID/stat) as % of one core, and
# wake-ups per second = voluntary + involuntary context switches (/proc/PID/task/*/status), for all threads and for
# the main (GTK) thread alone.
#
# Environment: FARO_BIN_DIR (faro and faro-backend; default .build/release), MON_SPEED (default 100),
# MON_IDLE (seconds measured idle, default 10). Prints key=value lines (scripts/bench.sh includes them).
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
BIN_DIR="${FARO_BIN_DIR:-$ROOT/.build/release}"
FARO="$BIN_DIR/faro"
BACKEND="$BIN_DIR/faro-backend"
SPEED="${MON_SPEED:-100}"
IDLE="${MON_IDLE:-10}"
PY=/usr/bin/python3
[ -x "$FARO" ] && [ -x "$BACKEND" ] || { echo "bench/monitoring: no faro/faro-backend in $BIN_DIR" >&2; exit 1; }

WORK="$(mktemp -d /tmp/faro-bench-mon.XXXXXX)"
PIDS=()
cleanup() {
    for pid in "${PIDS[@]}"; do kill "$pid" 2>/dev/null || true; done
    sleep 0.3
    for pid in "${PIDS[@]}"; do kill -9 "$pid" 2>/dev/null || true; done
    rm -rf "$WORK"
}
trap cleanup EXIT

RECORDING="$WORK/hour.jsonl"
STATS="$(timeout 120 "$PY" "$ROOT/bench/monitoring/make_recording.py" "$RECORDING")"
DURATION="$(awk "BEGIN { printf \"%.1f\", 3600 / $SPEED }")"

# Private X server and session bus.
display=""
for n in $(seq 170 220); do
    if [ ! -e "/tmp/.X11-unix/X$n" ] && [ ! -e "/tmp/.X$n-lock" ]; then display=":$n"; break; fi
done
[ -n "$display" ] || { echo "bench/monitoring: no free X display" >&2; exit 1; }
Xvfb "$display" -screen 0 1280x800x24 -nolisten tcp -noreset >/dev/null 2>&1 &
PIDS+=($!)
for _ in $(seq 1 100); do xdpyinfo -display "$display" >/dev/null 2>&1 && break; sleep 0.05; done
# shellcheck source=bench/lib.sh
. "$ROOT/bench/lib.sh"
BUS_ADDRESS=$(bench_private_bus "$WORK")
PIDS+=("$(sed -n 2p "$WORK/bus")")
mkdir -p "$WORK/runtime"
export DBUS_SESSION_BUS_ADDRESS="$BUS_ADDRESS" DBUS_SYSTEM_BUS_ADDRESS="$BUS_ADDRESS"
export DISPLAY="$display" GDK_BACKEND=x11 NO_AT_BRIDGE=1 XDG_RUNTIME_DIR="$WORK/runtime" LANG=C.UTF-8

"$PY" -m dbusmock --session --template notification_daemon \
    -p '{"capabilities": "body actions icon-static persistence"}' >/dev/null 2>&1 &
PIDS+=($!)
gdbus wait --session --timeout 10 org.freedesktop.Notifications
"$BACKEND" --port 0 --database "$WORK/backend.sqlite3" --data "$ROOT/data" > "$WORK/backend.out" 2>/dev/null &
PIDS+=($!)
URL="$(bench_backend_url "$WORK/backend.out")" || { echo "bench/monitoring: faro-backend did not start" >&2; exit 1; }

now() { date +%s.%N; }
# "cpu_ticks main_switches time tid:switches,tid:switches,…" of process $1 (context switches, voluntary and not).
sample() {
    local pid=$1 cpu main threads="" task n
    cpu="$(awk '{ print $14 + $15 }' "/proc/$pid/stat")"
    for task in /proc/"$pid"/task/*; do
        n="$(awk '/^(voluntary|nonvoluntary)_ctxt_switches/ { s += $2 } END { print s + 0 }' "$task/status" 2>/dev/null)" \
            || continue
        threads+="${task##*/}:$n,"
    done
    main="$(awk '/^(voluntary|nonvoluntary)_ctxt_switches/ { s += $2 } END { print s }' "/proc/$pid/status")"
    echo "$cpu $main $(now) ${threads%,}"
}
HZ="$(getconf CLK_TCK)"
# Prints "<prefix>_cpu_pct=… <prefix>_wakeups_per_s=… <prefix>_main_wakeups_per_s=…" between two samples. All
# threads: the switches of every thread alive at the end since the start (or since it was born); a thread that
# ended in between is not counted, so this is a lower bound when threads come and go (catalog look-ups).
rate() {
    local prefix=$1
    read -r c0 m0 t0 th0 <<< "$2"
    read -r c1 m1 t1 th1 <<< "$3"
    awk -v p="$prefix" -v c="$((c1 - c0))" -v m="$((m1 - m0))" -v t0="$t0" -v t1="$t1" -v hz="$HZ" \
        -v before="$th0" -v after="$th1" \
        'BEGIN {
            n = split(before, list, ","); for (i = 1; i <= n; i++) { split(list[i], kv, ":"); start[kv[1]] = kv[2] }
            n = split(after, list, ","); a = 0
            for (i = 1; i <= n; i++) { split(list[i], kv, ":"); a += kv[2] - ((kv[1] in start) ? start[kv[1]] : 0) }
            d = t1 - t0
            printf "%s_cpu_pct=%.2f %s_wakeups_per_s=%.1f %s_main_wakeups_per_s=%.1f %s_seconds=%.1f\n",
                   p, 100 * c / hz / d, p, a / d, p, m / d, p, d
        }'
}

# Starts faro in the background with its own data folder ($1); sets $pid. Its settings go to a GSettings keyfile:
# this private bus has no dconf service, a write to dconf then fails, and GSettings puts the key back as it was
# (a pause was undone within a second, and the "paused" baseline measured a Faro that was scanning).
start_faro() {
    local home="$WORK/$1"
    mkdir -p "$home/home"
    GSETTINGS_BACKEND=keyfile XDG_DATA_HOME="$home/data" XDG_CONFIG_HOME="$home/config" XDG_CACHE_HOME="$home/cache" HOME="$home/home" \
        "$FARO" --background --no-tray --source replay "$RECORDING" --speed "$SPEED" --backend "$URL" \
        > "$home.log" 2>&1 &
    pid=$!
    PIDS+=("$pid")
}
# Stops faro ($1) and waits (bounded) until it is gone, so the next one is the primary instance again.
stop_faro() {
    kill -TERM "$1" 2>/dev/null || true
    for _ in $(seq 1 100); do kill -0 "$1" 2>/dev/null || return 0; sleep 0.1; done
    kill -9 "$1" 2>/dev/null || true
    wait "$1" 2>/dev/null || true
}
app_call() { gdbus call --session --dest io.github.faro.Faro --object-path /io/github/faro/Faro "$@" >/dev/null; }
notifications() {
    gdbus call --session --dest org.freedesktop.Notifications --object-path /org/freedesktop/Notifications \
        --method org.freedesktop.DBus.Mock.GetMethodCalls Notify | grep -o "'You are near" | wc -l
}

# Monitoring on: the hour at $SPEED x, then idle once every beacon has left (exit period 30 s).
start_faro on
gdbus wait --session --timeout 20 io.github.faro.Faro
sleep 1
s0="$(sample "$pid")"
# Minutes 25-35 of the recording hold no beacon; the replay's clock starts at the first record.
FIRST="$(head -n 1 "$RECORDING" | sed 's/^{"t": \([0-9.]*\).*/\1/')"
QUIET_FROM="$(awk "BEGIN { print (1500 - $FIRST) / $SPEED + 0.5 }")"
QUIET_TO="$(awk "BEGIN { print (2100 - $FIRST) / $SPEED - 0.3 }")"
sleep "$(awk "BEGIN { print $QUIET_FROM - 1 }")"
q0="$(sample "$pid")"
sleep "$(awk "BEGIN { print $QUIET_TO - $QUIET_FROM }")"
q1="$(sample "$pid")"
sleep "$(awk "BEGIN { print (3600 - $FIRST) / $SPEED - $QUIET_TO }")"
s1="$(sample "$pid")"
sleep 35
s2="$(sample "$pid")"
sleep "$IDLE"
s3="$(sample "$pid")"
rss_on="$(awk '/^VmRSS/ { print $2 }' "/proc/$pid/status")"
zone="$(notifications)"
stop_faro "$pid"

# Paused (monitoring not running, app alive without a window): the baseline.
start_faro paused
gdbus wait --session --timeout 20 io.github.faro.Faro
app_call --method org.gtk.Actions.Activate pause-hour [] {}
sleep 2
p0="$(sample "$pid")"
sleep "$IDLE"
p1="$(sample "$pid")"
stop_faro "$pid"

# Off: with no window, `faro --background` has nothing to do and leaves. The two runs share a GSettings keyfile
# (when the compiled schema is found, the setting is kept in GSettings; on this private bus dconf's writes would
# not reach the second run).
home="$WORK/off"
mkdir -p "$home/home"
off_start="$(now)"
off_status=0
GSETTINGS_BACKEND=keyfile XDG_DATA_HOME="$home/data" XDG_CONFIG_HOME="$home/config" XDG_CACHE_HOME="$home/cache" \
    HOME="$home/home" timeout 20 "$FARO" --source replay "$RECORDING" --backend "$URL" --no-tray > "$home.log" 2>&1 &
offpid=$!
PIDS+=("$offpid")
gdbus wait --session --timeout 20 io.github.faro.Faro
app_call --method org.gtk.Actions.SetState monitoring '<false>' {}
stop_faro "$offpid"
GSETTINGS_BACKEND=keyfile XDG_DATA_HOME="$home/data" XDG_CONFIG_HOME="$home/config" XDG_CACHE_HOME="$home/cache" \
    HOME="$home/home" timeout 20 "$FARO" --background --source replay "$RECORDING" --backend "$URL" --no-tray >> "$home.log" 2>&1 \
    || off_status=$?
off_seconds="$(awk -v a="$off_start" -v b="$(now)" 'BEGIN { printf "%.1f", b - a }')"

echo "monitoring_recording $STATS speed=${SPEED}x replay_seconds=$DURATION"
rate monitoring_on_replay "$s0" "$s1"
rate monitoring_on_quiet_stretch "$q0" "$q1"
rate monitoring_on_idle "$s2" "$s3"
rate monitoring_paused_idle "$p0" "$p1"
echo "monitoring_on_notify_calls=$zone monitoring_on_rss_kb=$rss_on"
echo "monitoring_off_background_exit_status=$off_status monitoring_off_background_seconds=$off_seconds"
