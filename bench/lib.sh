# Shared by the bench/*/run.sh scripts (sourced, not run).

# Sets FARO_BIN and BACKEND_BIN from FARO_BIN_DIR, else the folder of $FARO, else $SCRATCH/release, else
# .build/release; dies with the build command when one is missing. $1 names the bench in messages.
bench_locate_binaries() {
    local name=$1
    if [ -z "${FARO_BIN_DIR:-}" ]; then
        if [ -n "${FARO:-}" ]; then FARO_BIN_DIR="$(dirname "$FARO")"
        elif [ -n "${SCRATCH:-}" ]; then FARO_BIN_DIR="$SCRATCH/release"
        else FARO_BIN_DIR=".build/release"; fi
    fi
    FARO_BIN="$FARO_BIN_DIR/faro"
    BACKEND_BIN="$FARO_BIN_DIR/faro-backend"
    [ -x "$FARO_BIN" ] || { echo "bench/$name: no faro in $FARO_BIN_DIR (build with: swift build -c release)" >&2; exit 1; }
    [ -x "$BACKEND_BIN" ] || { echo "bench/$name: no faro-backend in $FARO_BIN_DIR (build with: swift build -c release)" >&2; exit 1; }
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
