#!/usr/bin/env bash
# Part of `make test`: `meson setup` and `meson install` into a temporary prefix work, everything lands where a
# desktop looks for it (translated desktop file and metainfo, compiled settings schema, manual pages, bash
# completion, translations), and the installed binaries find their installed data.
#
# The build is the release one (Swift runtime linked statically) in the SwiftPM scratch folder .build, so that
# `make deb` (scripts/check-deb.sh, run next) reuses it instead of building again. MESON_CONFIGURATION=debug
# checks the debug build instead (quicker while working on this script).
set -euo pipefail
cd "$(dirname "$0")/.."
config="${MESON_CONFIGURATION:-release}"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail() { echo "check-meson: $*" >&2; exit 1; }
meson setup "$tmp/build" --prefix "$tmp/prefix" -Dspm_configuration="$config" -Dspm_scratch="$PWD/.build" \
  >"$tmp/setup.log" 2>&1 || { cat "$tmp/setup.log"; exit 1; }
meson install -C "$tmp/build" >"$tmp/install.log" 2>&1 || { tail -n 30 "$tmp/install.log"; exit 1; }
prefix="$tmp/prefix"
share="$prefix/share"
version=$(meson introspect --projectinfo "$tmp/build" | python3 -c 'import json, sys; print(json.load(sys.stdin)["version"])')

test -x "$prefix/bin/faro" && test -x "$prefix/bin/faro-backend" || fail "the binaries were not installed"
# One binary: faro-backend is a link to faro, which runs the backend when started under that name.
[ "$(readlink "$prefix/bin/faro-backend")" = faro ] || fail "bin/faro-backend is not a link to faro"
test -f "$share/faro/demo/walk.jsonl" || fail "the demo data was not installed"
for f in applications/io.github.faro.Faro.desktop dbus-1/services/io.github.faro.Faro.service \
         metainfo/io.github.faro.Faro.metainfo.xml icons/hicolor/scalable/apps/io.github.faro.Faro.svg \
         icons/hicolor/symbolic/apps/io.github.faro.Faro-symbolic.svg locale/es/LC_MESSAGES/faro.mo \
         glib-2.0/schemas/io.github.faro.Faro.gschema.xml glib-2.0/schemas/gschemas.compiled \
         man/man1/faro.1 man/man1/faro-backend.1 bash-completion/completions/faro \
         bash-completion/completions/faro-backend; do
  test -f "$share/$f" || fail "meson install did not install share/$f"
done

# Desktop integration files: valid, and translated through po/.
desktop="$share/applications/io.github.faro.Faro.desktop"
desktop-file-validate "$desktop"
grep -qx 'Comment\[es\]=Encuentra los beacons cercanos y abre los sitios de sus lugares' "$desktop" \
  || fail "the installed desktop file has no Spanish Comment: $(cat "$desktop")"
grep -q "Exec=$prefix/bin/faro --gapplication-service" "$share/dbus-1/services/io.github.faro.Faro.service"
metainfo="$share/metainfo/io.github.faro.Faro.metainfo.xml"
appstreamcli validate --no-net "$metainfo" >/dev/null || appstreamcli validate --no-net "$metainfo"
grep -q '<summary xml:lang="es">Encuentra los beacons cercanos y abre sus sitios</summary>' "$metainfo" \
  || fail "the installed metainfo has no Spanish summary"
glib-compile-schemas --strict --dry-run "$share/glib-2.0/schemas"

# One version everywhere: meson's.
[ "$("$prefix/bin/faro" --version)" = "faro $version" ] || fail "faro --version is not 'faro $version'"
[ "$("$prefix/bin/faro-backend" --version)" = "faro-backend $version" ] || fail "faro-backend --version differs"

# The installed faro replays its installed demo and reads its installed schema (no GSETTINGS_SCHEMA_DIR): the
# backend URL set with gsettings is the one it uses.
out=$(env -u FARO_DATA_DIR "$prefix/bin/faro" scan --source demo --json --duration 1 --speed 50)
echo "$out" | grep -q '"t": 1.0' || fail "installed faro did not replay its installed demo: $out"
profile=(env -u GSETTINGS_SCHEMA_DIR -u DBUS_SESSION_BUS_ADDRESS GSETTINGS_BACKEND=keyfile
         XDG_CONFIG_HOME="$tmp/config" XDG_DATA_HOME="$tmp/data" XDG_RUNTIME_DIR="$tmp")
if "${profile[@]}" "$prefix/bin/faro" outbox flush --timeout 1 >/dev/null 2>"$tmp/err"; then
  fail "faro outbox flush ran without any backend configured"
fi
"${profile[@]}" GSETTINGS_SCHEMA_DIR="$share/glib-2.0/schemas" gsettings set io.github.faro.Faro backend-url http://127.0.0.1:9
"${profile[@]}" "$prefix/bin/faro" outbox flush --timeout 1 >"$tmp/out" 2>&1 \
  || fail "installed faro did not use the backend-url setting: $(cat "$tmp/out")"

# man finds the pages through PATH (man-db maps <prefix>/bin to <prefix>/share/man), and they say what --help says.
manual=$(PATH="$prefix/bin:$PATH" man -P cat faro 2>/dev/null || true)
grep -q 'faro register --nombre N --email E --telefono T' <<<"$manual" || fail "'man faro' does not show the installed faro(1)"
manual=$(PATH="$prefix/bin:$PATH" man -P cat faro-backend 2>/dev/null || true)
grep -q -- '--refuse-every' <<<"$manual" || fail "'man faro-backend' does not show the installed faro-backend(1)"
completion=$(bash -c 'source "$1"; COMP_WORDS=(faro reg); COMP_CWORD=1; _faro; echo "${COMPREPLY[*]}"' _ \
  "$share/bash-completion/completions/faro")
[ "$completion" = register ] || fail "the installed bash completion completes 'faro reg' to '$completion'"

# The development profile installs beside a regular Faro under io.github.faro.Faro.Devel (the same SwiftPM build:
# the profile is a fact of the install, share/faro/app-id), and its faro reads the .Devel schema.
meson setup "$tmp/devel-build" --prefix "$tmp/devel" -Dprofile=development -Dspm_configuration="$config" \
  -Dspm_scratch="$PWD/.build" >"$tmp/devel-setup.log" 2>&1 || { cat "$tmp/devel-setup.log"; exit 1; }
meson install -C "$tmp/devel-build" >"$tmp/devel-install.log" 2>&1 || { tail -n 30 "$tmp/devel-install.log"; exit 1; }
devel="$tmp/devel/share"
for f in applications/io.github.faro.Faro.Devel.desktop dbus-1/services/io.github.faro.Faro.Devel.service \
         metainfo/io.github.faro.Faro.Devel.metainfo.xml glib-2.0/schemas/io.github.faro.Faro.Devel.gschema.xml \
         icons/hicolor/scalable/apps/io.github.faro.Faro.Devel.svg; do
  test -f "$devel/$f" || fail "the development profile did not install share/$f"
done
[ "$(cat "$devel/faro/app-id")" = io.github.faro.Faro.Devel ] || fail "share/faro/app-id: $(cat "$devel/faro/app-id")"
[ "$(cat "$share/faro/app-id")" = io.github.faro.Faro ] || fail "the default share/faro/app-id: $(cat "$share/faro/app-id")"
grep -qx 'Icon=io.github.faro.Faro.Devel' "$devel/applications/io.github.faro.Faro.Devel.desktop" \
  || fail "the development desktop file does not name its own icon"
glib-compile-schemas --strict --dry-run "$devel/glib-2.0/schemas"
env -u FARO_DATA_DIR "$tmp/devel/bin/faro" --help | grep -q "schema io.github.faro.Faro.Devel" \
  || fail "the development faro does not name its own schema in --help"
devel_profile=(env -u GSETTINGS_SCHEMA_DIR -u DBUS_SESSION_BUS_ADDRESS -u FARO_DATA_DIR GSETTINGS_BACKEND=keyfile
               XDG_CONFIG_HOME="$tmp/devel-config" XDG_DATA_HOME="$tmp/devel-data" XDG_RUNTIME_DIR="$tmp")
if "${devel_profile[@]}" "$tmp/devel/bin/faro" outbox flush --timeout 1 >/dev/null 2>&1; then
  fail "the development faro ran without any backend configured"
fi
# The regular schema's setting is not the development Faro's.
"${devel_profile[@]}" GSETTINGS_SCHEMA_DIR="$share/glib-2.0/schemas" gsettings set io.github.faro.Faro backend-url http://127.0.0.1:9
if "${devel_profile[@]}" "$tmp/devel/bin/faro" outbox flush --timeout 1 >/dev/null 2>&1; then
  fail "the development faro used the regular profile's backend-url"
fi
"${devel_profile[@]}" GSETTINGS_SCHEMA_DIR="$devel/glib-2.0/schemas" gsettings set io.github.faro.Faro.Devel backend-url \
  http://127.0.0.1:9
"${devel_profile[@]}" "$tmp/devel/bin/faro" outbox flush --timeout 1 >"$tmp/out" 2>&1 \
  || fail "the development faro did not use io.github.faro.Faro.Devel's backend-url: $(cat "$tmp/out")"

echo "meson ($config): setup and install into a prefix work (binaries, translated desktop file and metainfo, D-Bus" \
  "service, compiled schema, icons, translations, man pages, bash completion); installed faro $version replays" \
  "share/faro/demo and reads its installed schema; the development profile installs and reads io.github.faro.Faro.Devel"
