#!/usr/bin/env bash
# Part of `make test`: the Debian package builds (`make deb`, reusing scripts/check-meson.sh's release build),
# lintian finds no error or warning in it, it installs with dpkg -i, the installed files work (faro --version,
# faro decode, faro --demo under Xvfb from /usr/share/faro, man, the schema, the translations), and dpkg --purge
# leaves nothing behind. It installs into this machine, so it needs root (CI runs as root) or sudo without a
# password; elsewhere it says so and stops, and under CI=true that is a failure.
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
binary=build/debian-meson/faro
[ -x "$binary" ] || fail "no release faro at $binary after make deb"
nm "$binary" >"$tmp/faro.nm" 2>/dev/null || fail "nm could not read $binary"
if grep -q ' \$s10Foundation' "$tmp/faro.nm"; then
  fail "$binary links all of Foundation (a module imports Foundation rather than FoundationEssentials?)"
fi
echo "check-deb: release faro links FoundationEssentials only"

dpkg_locked -i "$deb" || fail "dpkg -i $deb failed"
installed=1
dpkg-query -L faro | sort >"$tmp/files"

# From the installed files only: no FARO_* variables, a private profile, the system's schema folder.
clean=(env -u FARO_DATA_DIR -u FARO_LOCALE_DIR -u FARO_BIN_DIR -u GSETTINGS_SCHEMA_DIR -u XDG_DATA_DIRS
       HOME="$tmp/home" XDG_CONFIG_HOME="$tmp/config" XDG_DATA_HOME="$tmp/data" GSETTINGS_BACKEND=keyfile)
mkdir -p "$tmp/home"
[ "$("${clean[@]}" /usr/bin/faro --version)" = "faro $meson_version" ] || fail "/usr/bin/faro --version"
[ "$("${clean[@]}" /usr/bin/faro-backend --version)" = "faro-backend $meson_version" ] || fail "faro-backend --version"
decoded=$("${clean[@]}" /usr/bin/faro decode 4c000215e2c56db5dffb48d2b060d0f5a71096e000010002c5)
[ "$decoded" = '{"uuid": "e2c56db5-dffb-48d2-b060-d0f5a71096e0", "major": 1, "minor": 2, "tx_power": -59}' ] \
  || fail "faro decode printed $decoded"
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
"${clean[@]}" gsettings get io.github.faro.Faro exit-period | grep -qx 'uint32 30' \
  || fail "gsettings does not know io.github.faro.Faro after installing"
# (Whole outputs first: with pipefail, grep -q ending early would fail the pipe.)
manual=$(man -P cat faro 2>/dev/null)
grep -q 'faro register --nombre N' <<<"$manual" || fail "'man faro' does not show faro(1)"
catalog=$(msgunfmt /usr/share/locale/es/LC_MESSAGES/faro.mo)
grep -q 'msgstr "Registrar mi negocio"' <<<"$catalog" || fail "the installed Spanish catalog lacks 'Registrar mi negocio'"

# faro --demo from the installed files, briefly, under Xvfb: the window maps, and its private faro-backend is
# /usr/bin/faro-backend serving /usr/share/faro.
cat >"$tmp/demo.sh" <<'DEMO'
set -u
/usr/bin/faro --demo --no-tray >"$1/demo.log" 2>&1 &
faro=$!
for _ in $(seq 1 300); do
  xwininfo -root -tree 2>/dev/null | grep -q '"Faro"' && break
  kill -0 "$faro" 2>/dev/null || break
  sleep 0.1
done
xwininfo -root -tree 2>/dev/null | grep -q '"Faro"' && echo "DEMO window mapped" || echo "DEMO no window"
for child in $(pgrep -P "$faro"); do echo "DEMO child $(tr '\0' ' ' </proc/$child/cmdline)"; done
kill -TERM "$faro"
wait "$faro"
echo "DEMO exit $?"
DEMO
"${clean[@]}" timeout 120 Tests/UI/with-display.sh bash "$tmp/demo.sh" "$tmp" >"$tmp/demo.out" 2>&1 || true
grep -q "DEMO window mapped" "$tmp/demo.out" || { cat "$tmp/demo.out" "$tmp/demo.log" >&2; fail "faro --demo showed no window"; }
grep -q "DEMO child /usr/bin/faro-backend .*--data /usr/share/faro" "$tmp/demo.out" \
  || { cat "$tmp/demo.out" >&2; fail "faro --demo did not run /usr/bin/faro-backend on /usr/share/faro"; }
grep -q "DEMO exit 0" "$tmp/demo.out" || { cat "$tmp/demo.out" "$tmp/demo.log" >&2; fail "faro --demo did not exit cleanly"; }

# Purge: every file the package installed is gone, and so is the compiled schema entry.
dpkg_locked --purge faro || fail "dpkg --purge faro failed"
installed=0
left=$(while read -r f; do [ -f "$f" ] || [ -L "$f" ] && echo "$f"; done <"$tmp/files"; true)
[ -z "$left" ] || fail "left after purging: $left"
[ ! -e /usr/share/faro ] || fail "/usr/share/faro is left after purging"
if "${clean[@]}" gsettings list-schemas | grep -qx io.github.faro.Faro; then fail "the schema is still compiled in"; fi
dpkg-query -W -f='${Status}' faro 2>/dev/null | grep -q "installed" && fail "dpkg still lists faro"
echo "check-deb: $(basename "$deb"): lintian clean of errors and warnings; installed, faro --version, decode," \
  "--demo (window, /usr/bin/faro-backend on /usr/share/faro), desktop file, icon, schema, man, translations;" \
  "purged with nothing left ($(wc -l <"$tmp/files") paths)"
