#!/usr/bin/env bash
# BlueZ background-monitoring benchmark.
#
# A producer (producer.c) plays bluetoothd on a private bus and emits PropertiesChanged with RSSI and
# ManufacturerData for 100 beacons x 10 Hz for 60 s. Three consumers receive the same stream at the same time:
#   faro      `faro scan --source bluez` (Faro's BlueZ scanner and the beacon engine, release build)
#   c_gio     consumer.c, a plain C GIO client that subscribes and decodes the same way
#   dbus_monitor  `dbus-monitor --profile` on the same match rule
# Each one's CPU time (user + sys, from /proc) over the wall time of the stream is reported, with the signals each
# received and Faro's resident memory near the start and at the end. Goal: Faro within 1.25x of the C consumer,
# every signal received, memory flat.
#
# Environment: FARO (a faro binary) or FARO_BIN_DIR (its folder, default .build/release);
# BLUEZ_BENCH_BEACONS/RATE/SECONDS (default 100/10/60).
# Output: key=value lines on stdout; progress on stderr.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
bin=${FARO_BIN_DIR:-$root/.build/release}
faro=${FARO:-$bin/faro} # scripts/bench.sh passes the binary it built as FARO
beacons=${BLUEZ_BENCH_BEACONS:-100}
rate=${BLUEZ_BENCH_RATE:-10}
seconds=${BLUEZ_BENCH_SECONDS:-60}
if [ ! -x "$faro" ]; then
  echo "bench/bluez: $faro is missing; build it with 'swift build -c release', or set FARO_BIN_DIR or FARO" >&2
  exit 1
fi

work=$(mktemp -d)
pids=()
cleanup() {
  for p in "${pids[@]}"; do kill -KILL "$p" 2>/dev/null || true; done
  rm -rf "$work"
}
trap cleanup EXIT
log() { echo "bench/bluez: $*" >&2; }

gio=$(pkg-config --cflags --libs gio-2.0 gio-unix-2.0)
# shellcheck disable=SC2086
cc -O2 -o "$work/producer" "$here/producer.c" $gio
# shellcheck disable=SC2086
cc -O2 -o "$work/consumer" "$here/consumer.c" $gio

# shellcheck source=bench/lib.sh
. "$here/../lib.sh"
address=$(bench_private_bus "$work" '<limit name="max_incoming_bytes">1000000000</limit>
  <limit name="max_outgoing_bytes">1000000000</limit>')
pids+=("$(sed -n 2p "$work/bus")")
bus_pid=$(sed -n 2p "$work/bus")
export DBUS_SYSTEM_BUS_ADDRESS="$address"

wait_for() { # file text seconds
  local deadline=$((SECONDS + $3))
  until grep -q "$2" "$1" 2>/dev/null; do
    if [ $SECONDS -ge $deadline ]; then log "timed out waiting for '$2' in $(basename "$1")"; cat "$1" >&2; exit 1; fi
    sleep 0.05
  done
}

"$work/producer" "$beacons" "$rate" "$seconds" > "$work/producer.out" 2> "$work/producer.err" &
producer=$!; pids+=("$producer")
wait_for "$work/producer.out" ready 10

rule="type='signal',sender='org.bluez',interface='org.freedesktop.DBus.Properties',member='PropertiesChanged'"
"$faro" scan --source bluez --json --stats > "$work/faro.out" 2> "$work/faro.err" &
faro_pid=$!; pids+=("$faro_pid")
"$work/consumer" > "$work/consumer.out" 2>&1 &
consumer=$!; pids+=("$consumer")
dbus-monitor --address "$address" --profile "$rule" > "$work/monitor.out" 2>&1 &
monitor=$!; pids+=("$monitor")
wait_for "$work/faro.err" "scanning with hci0" 15
sleep 1

hz=$(getconf CLK_TCK)
cpu_ticks() { awk '{print $14 + $15}' "/proc/$1/stat"; }
rss_kb() { awk '/^VmRSS:/ {print $2}' "/proc/$1/status"; }
now() { date +%s.%N; }

log "streaming $beacons beacons x $rate Hz for $seconds s"
t0=$(now)
f0=$(cpu_ticks "$faro_pid"); c0=$(cpu_ticks "$consumer"); m0=$(cpu_ticks "$monitor"); d0=$(cpu_ticks "$bus_pid")
kill -USR1 "$producer"
sleep 5
rss_start=$(rss_kb "$faro_pid")
if ! timeout $((seconds + 30)) tail --pid="$producer" -f /dev/null; then log "the producer did not finish"; exit 1; fi
sleep 1 # let every consumer drain what the bus still holds
t1=$(now)
f1=$(cpu_ticks "$faro_pid"); c1=$(cpu_ticks "$consumer"); m1=$(cpu_ticks "$monitor"); d1=$(cpu_ticks "$bus_pid")
rss_end=$(rss_kb "$faro_pid")

for p in "$faro_pid" "$consumer" "$monitor"; do kill -TERM "$p" 2>/dev/null || true; done
for p in "$faro_pid" "$consumer"; do
  timeout 10 tail --pid="$p" -f /dev/null || kill -KILL "$p" 2>/dev/null || true
done
sleep 0.2

expected=$(sed -n 's/^emitted=//p' "$work/producer.out")
faro_signals=$(sed -n 's/.*bluez statistics: signals=\([0-9]*\).*/\1/p' "$work/faro.err")
faro_sightings=$(sed -n 's/.*bluez statistics: .*sightings=\([0-9]*\).*/\1/p' "$work/faro.err")
c_signals=$(sed -n 's/^signals=\([0-9]*\).*/\1/p' "$work/consumer.out")
monitor_signals=$(grep -c "PropertiesChanged" "$work/monitor.out" || true)

ratio() { awk -v a="$1" -v b="$2" -v w="$3" -v hz="$hz" 'BEGIN { printf "%.4f", (b - a) / hz / w }'; }
wall=$(awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%.3f", b - a }')
cpu_faro=$(ratio "$f0" "$f1" "$wall")
cpu_c=$(ratio "$c0" "$c1" "$wall")
cpu_monitor=$(ratio "$m0" "$m1" "$wall")
cpu_bus=$(ratio "$d0" "$d1" "$wall")
relative=$(awk -v f="$cpu_faro" -v c="$cpu_c" 'BEGIN { if (c > 0) printf "%.2f", f / c; else print "inf" }')
met=no
if awk -v r="$relative" 'BEGIN { exit !(r <= 1.25) }' && [ "${faro_signals:-0}" = "$expected" ] &&
   awk -v s="$rss_start" -v e="$rss_end" 'BEGIN { exit !(e <= s * 1.10 + 1024) }'; then
  met=yes
fi

echo "bluez_wall_s=$wall"
echo "bluez_signals_expected=$expected"
echo "bluez_signals_faro=${faro_signals:-0}"
echo "bluez_sightings_faro=${faro_sightings:-0}"
echo "bluez_signals_c_gio=${c_signals:-0}"
echo "bluez_signals_dbus_monitor=$monitor_signals"
echo "bluez_cpu_faro=$cpu_faro"
echo "bluez_cpu_c_gio=$cpu_c"
echo "bluez_cpu_dbus_monitor=$cpu_monitor"
echo "bluez_cpu_dbus_daemon=$cpu_bus"
echo "bluez_faro_vs_c_gio=$relative"
echo "bluez_rss_start_kb=$rss_start"
echo "bluez_rss_end_kb=$rss_end"
echo "bluez_goal_met=$met"
