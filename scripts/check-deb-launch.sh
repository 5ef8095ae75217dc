#!/usr/bin/env bash
# Run by scripts/check-deb.sh inside Tests/UI/with-display.sh (an Xvfb display and a private session bus), from a
# home folder with a clean environment: starts the installed Faro one way a user starts it and checks what that
# shows. Prints "LAUNCH OK <what it saw>" on success, "LAUNCH FAIL <why>" (with Faro's output) otherwise.
# Usage: check-deb-launch.sh demo|window|menu-exec|menu-dbus|autostart LOG_PREFIX
set -uo pipefail
way=$1 log=$2
app=io.github.faro.Faro
desktop=/usr/share/applications/$app.desktop
started=()
finish() {
  for pid in "${started[@]}"; do kill -TERM "$pid" 2>/dev/null; done
  sleep 0.5
  for pid in "${started[@]}"; do kill -KILL "$pid" 2>/dev/null; done
}
trap finish EXIT
failed() {
  echo "LAUNCH FAIL $*"
  for f in "$log".*; do [ -f "$f" ] && { echo "--- $f"; grep -v 'libnotify-WARNING\|^$' "$f" | tail -n 30; }; done
  exit 1
}

# The X id of a window of class "Faro" that is mapped and viewable, or nothing (GTK keeps an unmapped leader).
faro_window() {
  local id
  for id in $(xwininfo -root -tree 2>/dev/null | awk '/ "Faro"\)/ { print $1 }'); do
    xwininfo -id "$id" 2>/dev/null | grep -q 'Map State: IsViewable' && { echo "$id"; return; }
  done
}
# Waits (up to 30 s) for the window; prints its id. Stops early when process $1 (if given) has exited.
wait_window() {
  local id
  for _ in $(seq 1 300); do
    id=$(faro_window)
    [ -n "$id" ] && { echo "$id"; return 0; }
    [ -n "${1:-}" ] && ! kill -0 "$1" 2>/dev/null && return 1
    sleep 0.1
  done
  return 1
}
window_pid() { xprop -id "$1" _NET_WM_PID 2>/dev/null | sed -n 's/.* = \([0-9]*\)$/\1/p'; }
cmdline() { tr '\0' ' ' <"/proc/$1/cmdline" 2>/dev/null | sed 's/ $//'; }
# The process that owns Faro's name on the session bus, or nothing.
bus_owner() {
  gdbus call --session --dest org.freedesktop.DBus --object-path /org/freedesktop/DBus \
    --method org.freedesktop.DBus.GetConnectionUnixProcessID "$app" 2>/dev/null | sed -n 's/^(uint32 \([0-9]*\),)$/\1/p'
}
wait_bus_owner() {
  local pid
  for _ in $(seq 1 300); do
    pid=$(bus_owner)
    [ -n "$pid" ] && { echo "$pid"; return 0; }
    sleep 0.1
  done
  return 1
}
# A window of process $1 that appears and belongs to it.
expect_window_of() {
  local id pid
  id=$(wait_window "$1") || failed "no Faro window appeared ($2)"
  pid=$(window_pid "$id")
  [ "$pid" = "$1" ] || failed "the Faro window belongs to process '$pid', not to $1 ($2)"
}

case $way in
  demo)
    # The bare name through PATH, as in a terminal: the demo window, with /usr/bin/faro-backend serving
    # /usr/share/faro.
    faro --demo --no-tray >"$log.faro" 2>&1 &
    faro=$!
    started+=("$faro")
    expect_window_of "$faro" "faro --demo"
    backend=""
    for child in $(pgrep -P "$faro"); do backend+="$(cmdline "$child")"; done
    [[ $backend == "/usr/bin/faro-backend "*"--data /usr/share/faro"* ]] \
      || failed "faro --demo runs no /usr/bin/faro-backend on /usr/share/faro (children: '$backend')"
    grep -q "^faro: demo on a private profile in " "$log.faro" || failed "faro --demo did not open its demo profile"
    kill -TERM "$faro"
    wait "$faro"
    status=$?
    [ "$status" = 0 ] || failed "faro --demo exited with status $status after SIGTERM"
    echo "LAUNCH OK faro --demo: window mapped, $backend, exit 0 on SIGTERM"
    ;;
  window)
    faro >"$log.faro" 2>&1 &
    faro=$!
    started+=("$faro")
    expect_window_of "$faro" "faro"
    owner=$(wait_bus_owner) || failed "the window does not own $app on the session bus"
    [ "$owner" = "$faro" ] || failed "$app on the bus is process $owner, not the window's $faro"
    echo "LAUNCH OK faro: window mapped, $app on the session bus"
    ;;
  menu-exec)
    # A launcher without D-Bus activation runs the Exec line (GIO's launch of the installed entry without its
    # DBusActivatable line).
    mkdir -p "$log.apps"
    grep -v '^DBusActivatable=' "$desktop" >"$log.apps/$app.desktop"
    exec_line=$(sed -n 's/^Exec=//p' "$desktop")
    gio launch "$log.apps/$app.desktop" >"$log.gio" 2>&1 || failed "gio launch (Exec=$exec_line) failed"
    id=$(wait_window) || failed "no Faro window after gio launch of Exec=$exec_line"
    pid=$(window_pid "$id")
    [ -n "$pid" ] || failed "the window has no _NET_WM_PID"
    started+=("$pid")
    command=$(cmdline "$pid")
    [[ $command != *--gapplication-service* ]] || failed "'$command' was started by D-Bus, not by the Exec line"
    echo "LAUNCH OK menu entry, Exec=$exec_line: window mapped ($command)"
    ;;
  menu-dbus)
    # The installed menu entry by its desktop id, as GNOME's menu starts it (gtk-launch, like the shell, loads it
    # from the XDG data folders): D-Bus activation through /usr/share/dbus-1/services, which runs
    # /usr/bin/faro --gapplication-service. (`gio launch FILE` runs the Exec line instead.)
    grep -qx 'DBusActivatable=true' "$desktop" || failed "$desktop is not D-Bus activatable"
    gtk-launch $app >"$log.launch" 2>&1 || failed "gtk-launch $app failed"
    owner=$(wait_bus_owner) || failed "D-Bus activation started nothing that owns $app"
    started+=("$owner")
    command=$(cmdline "$owner")
    [ "$command" = "/usr/bin/faro --gapplication-service" ] || failed "D-Bus activation started '$command'"
    expect_window_of "$owner" "D-Bus activation"
    echo "LAUNCH OK menu entry, D-Bus activation: window mapped ($command)"
    ;;
  autostart)
    # "Start at login" (here set as the preference, which the running app follows) writes the XDG autostart
    # entry; the session starts its Exec at login: monitoring with no window, reachable on the bus, and the menu
    # entry then opens that process's window.
    entry=${XDG_CONFIG_HOME:-$HOME/.config}/autostart/$app.desktop
    faro --background >"$log.first" 2>&1 &
    first=$!
    started+=("$first")
    owner=$(wait_bus_owner) || failed "faro --background does not own $app on the session bus"
    [ "$owner" = "$first" ] || failed "$app on the bus is process $owner, not faro --background ($first)"
    sleep 2
    [ -z "$(faro_window)" ] || failed "faro --background opened a window"
    gsettings set $app start-at-login true || failed "gsettings could not set start-at-login"
    for _ in $(seq 1 100); do [ -f "$entry" ] && break; sleep 0.1; done
    [ -f "$entry" ] || failed "turning start-at-login on wrote no $entry"
    exec_line=$(sed -n 's/^Exec=//p' "$entry")
    [ "$exec_line" = "/usr/bin/faro --background" ] || failed "the autostart entry's Exec is '$exec_line'"
    kill -TERM "$first"
    wait "$first"
    for _ in $(seq 1 50); do [ -z "$(bus_owner)" ] && break; sleep 0.1; done
    cp "$entry" "$log.autostart.desktop"
    # As the session manager does: the entry's Exec, from the autostart file.
    gio launch "$entry" >"$log.gio" 2>&1 || failed "gio launch $entry failed: $(cat "$log.gio")"
    pid=$(wait_bus_owner) || failed "the autostart entry started nothing that owns $app"
    started+=("$pid")
    command=$(cmdline "$pid")
    [ "$command" = "/usr/bin/faro --background" ] || failed "the autostart entry started '$command'"
    sleep 3
    kill -0 "$pid" 2>/dev/null || failed "'$command' did not stay up"
    [ -z "$(faro_window)" ] || failed "'$command' opened a window"
    gtk-launch $app >"$log.launch" 2>&1 || failed "gtk-launch $app failed while in the background"
    expect_window_of "$pid" "the menu entry while '$command' runs"
    echo "LAUNCH OK autostart entry, Exec=$exec_line: up with no window for 3 s, owns $app; the menu entry" \
      "then showed its window"
    ;;
  *)
    failed "unknown way '$way'"
    ;;
esac
