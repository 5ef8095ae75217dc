#!/usr/bin/env bash
# Part of `make test`: the Debian package builds (`make deb`, reusing scripts/check-meson.sh's release build), it
# installs at most 20 MB, lintian finds no error or warning in it, it installs with dpkg -i, and the installed Faro
# works started the ways users start it: from a home folder, with a clean environment, through PATH (`faro
# --version`, `faro scan --source demo`, `faro --demo`, the plain window), from the menu entry (its Exec line, and
# D-Bus activation), and from the autostart entry it writes (`--background`); man, the schema and the translations
# are in place; dpkg --purge leaves nothing behind. It installs into this machine, so it needs root (CI runs as
# root) or sudo without a password; elsewhere it says so and stops, and under CI=true that is a failure.
set -euo pipefail
cd "$(dirname "$0")/.."
fail() { echo "check-deb: FAIL $*" >&2; exit 1; }
if [ "$(id -u)" -eq 0 ]; then
  sudo=()
elif sudo -n true 2>/dev/null; then
  sudo=(sudo -n)
else
  [ "${CI:-}" = true ] && fail "needs root or password-less sudo to install the package"
  echo "check-deb: skipped: installing the package needs root or password-less sudo"
  exit 0
fi
tmp=$(mktemp -d)
installed=0
cleanup() {
  [ "$installed" = 1 ] && "${sudo[@]}" dpkg --purge faro >/dev/null 2>&1 || true
  rm -rf "$tmp"
}
trap cleanup EXIT

# dpkg -i / --purge, waiting while another dpkg or apt (on a shared machine) holds the lock.
dpkg_locked() {
  for _ in $(seq 1 60); do
    if "${sudo[@]}" dpkg "$@" >"$tmp/dpkg.log" 2>&1; then return 0; fi
    grep -q "lock" "$tmp/dpkg.log" || { cat "$tmp/dpkg.log" >&2; return 1; }
    sleep 2
  done
  cat "$tmp/dpkg.log" >&2
  return 1
}

version=$(dpkg-parsechangelog -S Version)
meson_version=$(sed -n "s/^project('faro', version: '\([^']*\)'.*/\1/p" meson.build)
[ "$version" = "$meson_version" ] || fail "debian/changelog says $version, meson.build $meson_version"

deb=$(FARO_DEB_XZ_LEVEL=1 bash scripts/make-deb.sh 2>"$tmp/build.log" | tail -n 1) \
  || { tail -n 40 "$tmp/build.log"; fail "make deb failed"; }
echo "check-deb: built $deb ($(du -h "$deb" | cut -f1))"

# The size of a desktop app: what the package installs (dpkg's Installed-Size, KiB) is at most 20 MB.
installed_size=$(dpkg-deb -f "$deb" Installed-Size)
echo "check-deb: Installed-Size $installed_size KiB ($((installed_size / 1024)) MB; at most 20480 KiB)"
[ "$installed_size" -le 20480 ] || fail "the package installs $installed_size KiB, more than 20480 KiB (20 MB)"

# lintian: no error, no warning (its informational findings are listed in README).
status=0
lintian --pedantic -I --fail-on error,warning "${deb%.deb}.changes" >"$tmp/lintian.log" 2>&1 || status=$?
grep -v "^running with root" "$tmp/lintian.log" | sed 's/^/check-deb: lintian: /' || true
case $status in
  0) ;;
  1) fail "lintian reports errors or warnings" ;;
  *) fail "lintian did not run (status $status)" ;;
esac

# The release faro, on the package's unstripped build, links only FoundationEssentials, not all of Foundation and
# ICU's 30 MB of data (what a Bundle.module accessor, or a String method resolved to Foundation's, would pull in).
# It is faro-backend too: the package installs faro-backend as a link to it.
binary=build/debian-meson/faro
[ -x "$binary" ] || fail "no release faro at $binary after make deb"
nm "$binary" >"$tmp/faro.nm" 2>/dev/null || fail "nm could not read $binary"
if grep -q ' \$s10Foundation' "$tmp/faro.nm"; then
  fail "$binary links all of Foundation (a module imports Foundation rather than FoundationEssentials?)"
fi
echo "check-deb: release faro (faro-backend included) links FoundationEssentials only"

dpkg_locked -i "$deb" || fail "dpkg -i $deb failed"
installed=1
dpkg-query -L faro | sort >"$tmp/files"

# From the installed files only, as a user starts Faro: from the home folder, no FARO_* variables, the system's
# PATH (the bare `faro`), a private profile, the system's schema folder.
mkdir -p "$tmp/home"
clean=(env -u FARO_DATA_DIR -u FARO_LOCALE_DIR -u FARO_BIN_DIR -u GSETTINGS_SCHEMA_DIR -u XDG_DATA_DIRS
       -u XDG_CONFIG_DIRS -u DBUS_SESSION_BUS_ADDRESS -u DISPLAY -u WAYLAND_DISPLAY
       PATH=/usr/local/bin:/usr/bin:/bin HOME="$tmp/home" XDG_CONFIG_HOME="$tmp/config" XDG_DATA_HOME="$tmp/data"
       XDG_CACHE_HOME="$tmp/cache" GSETTINGS_BACKEND=keyfile)
in_home() { (cd "$tmp/home" && "${clean[@]}" "$@"); }
[ "$(readlink /usr/bin/faro-backend)" = faro ] || fail "/usr/bin/faro-backend is not a link to faro"
out=$(in_home faro --version 2>&1) || fail "faro --version failed: $out"
[ "$out" = "faro $meson_version" ] || fail "faro --version printed '$out', not 'faro $meson_version'"
out=$(in_home faro-backend --version 2>&1) || fail "faro-backend --version failed: $out"
[ "$out" = "faro-backend $meson_version" ] || fail "faro-backend --version printed '$out'"
echo "check-deb: from the home folder through PATH: faro --version, faro-backend --version"
decoded=$(in_home faro decode 4c000215e2c56db5dffb48d2b060d0f5a71096e000010002c5)
[ "$decoded" = '{"uuid": "e2c56db5-dffb-48d2-b060-d0f5a71096e0", "major": 1, "minor": 2, "tx_power": -59}' ] \
  || fail "faro decode printed $decoded"
# The demo replay at its own pace: a line per second, each beacon a row with its signal and distance.
in_home timeout 60 faro scan --source demo --duration 3 >"$tmp/scan.out" 2>"$tmp/scan.err" \
  || { cat "$tmp/scan.out" "$tmp/scan.err" >&2; fail "faro scan --source demo failed"; }
rows=$(grep -cE '^  [0-9a-f-]{36}  [0-9]+/[0-9]+ .* dBm ' "$tmp/scan.out" || true)
grep -q "^Demo: replaying simulated beacons from /usr/share/faro/demo/" "$tmp/scan.out" && [ "$rows" -gt 0 ] \
  || { cat "$tmp/scan.out" "$tmp/scan.err" >&2; fail "faro scan --source demo printed no beacon rows"; }
echo "check-deb: faro scan --source demo --duration 3: $rows beacon rows from /usr/share/faro/demo"
for f in /usr/share/applications/io.github.faro.Faro.desktop /usr/share/icons/hicolor/scalable/apps/io.github.faro.Faro.svg \
         /usr/share/glib-2.0/schemas/io.github.faro.Faro.gschema.xml /usr/share/locale/es/LC_MESSAGES/faro.mo \
         /usr/share/metainfo/io.github.faro.Faro.metainfo.xml /usr/share/dbus-1/services/io.github.faro.Faro.service \
         /usr/share/man/man1/faro.1.gz /usr/share/man/man1/faro-backend.1.gz /usr/share/faro/demo/walk.jsonl \
         /usr/share/bash-completion/completions/faro; do
  [ -f "$f" ] || fail "the package did not install $f"
done
grep -q '^Comment\[es\]=' /usr/share/applications/io.github.faro.Faro.desktop || fail "the desktop file is not translated"
grep -q '^Exec=/usr/bin/faro --gapplication-service' /usr/share/dbus-1/services/io.github.faro.Faro.service \
  || fail "the D-Bus service does not start /usr/bin/faro"
# The schema is compiled by GLib's trigger: gsettings (and faro) find it without any schema folder given.
in_home gsettings get io.github.faro.Faro exit-period | grep -qx 'uint32 30' \
  || fail "gsettings does not know io.github.faro.Faro after installing"
# (Whole outputs first: with pipefail, grep -q ending early would fail the pipe.)
manual=$(man -P cat faro 2>/dev/null)
grep -q 'faro register --nombre N' <<<"$manual" || fail "'man faro' does not show faro(1)"
catalog=$(msgunfmt /usr/share/locale/es/LC_MESSAGES/faro.mo)
grep -q 'msgstr "Registrar mi negocio"' <<<"$catalog" || fail "the installed Spanish catalog lacks 'Registrar mi negocio'"

# The window, started each way a user starts it, each on its own X display (Xvfb) and private session bus
# (dbus-run-session, which activates services from /usr/share/dbus-1/services): scripts/check-deb-launch.sh says
# what each way must show, and why it failed.
for way in demo window menu-exec menu-dbus autostart; do
  in_home timeout 180 "$PWD/Tests/UI/with-display.sh" \
    bash "$PWD/scripts/check-deb-launch.sh" "$way" "$tmp/launch-$way" >"$tmp/$way.out" 2>&1 || true
  if ! grep -q "^LAUNCH OK " "$tmp/$way.out"; then
    sed 's/^/check-deb: | /' "$tmp/$way.out" >&2
    fail "started as '$way', the installed Faro did not do what it should (above)"
  fi
  grep "^LAUNCH OK " "$tmp/$way.out" | sed 's/^LAUNCH OK /check-deb: /'
done

# Purge: every file the package installed is gone, and so is the compiled schema entry.
dpkg_locked --purge faro || fail "dpkg --purge faro failed"
installed=0
left=$(while read -r f; do [ -f "$f" ] || [ -L "$f" ] && echo "$f"; done <"$tmp/files"; true)
[ -z "$left" ] || fail "left after purging: $left"
[ ! -e /usr/share/faro ] || fail "/usr/share/faro is left after purging"
if in_home gsettings list-schemas | grep -qx io.github.faro.Faro; then fail "the schema is still compiled in"; fi
dpkg-query -W -f='${Status}' faro 2>/dev/null | grep -q "installed" && fail "dpkg still lists faro"
echo "check-deb: $(basename "$deb"): $installed_size KiB installed; lintian clean of errors and warnings;" \
  "installed, started from a home folder through PATH (--version, decode, scan, --demo, the window), from the" \
  "menu (Exec and D-Bus) and from its autostart entry; icon, schema, man, translations;" \
  "purged with nothing left ($(wc -l <"$tmp/files") paths)"
