#!/usr/bin/env bash
# Part of `make test`: `meson setup` and `meson install` into a temporary prefix work, and the installed `faro`
# finds its installed data (it replays the installed demo recording).
set -euo pipefail
cd "$(dirname "$0")/.."
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
meson setup "$tmp/build" --prefix "$tmp/prefix" -Dspm_configuration=debug -Dspm_scratch="$PWD/.build" >"$tmp/setup.log" 2>&1 \
  || { cat "$tmp/setup.log"; exit 1; }
meson install -C "$tmp/build" >"$tmp/install.log" 2>&1 || { tail -n 30 "$tmp/install.log"; exit 1; }
test -x "$tmp/prefix/bin/faro"
test -f "$tmp/prefix/share/faro/demo/walk.jsonl"
test -x "$tmp/prefix/bin/faro-backend"
for f in applications/io.github.faro.Faro.desktop dbus-1/services/io.github.faro.Faro.service \
         metainfo/io.github.faro.Faro.metainfo.xml icons/hicolor/scalable/apps/io.github.faro.Faro.svg \
         icons/hicolor/symbolic/apps/io.github.faro.Faro-symbolic.svg locale/es/LC_MESSAGES/faro.mo; do
  test -f "$tmp/prefix/share/$f" || { echo "meson install did not install share/$f"; exit 1; }
done
desktop-file-validate "$tmp/prefix/share/applications/io.github.faro.Faro.desktop"
grep -q "Exec=$tmp/prefix/bin/faro --gapplication-service" "$tmp/prefix/share/dbus-1/services/io.github.faro.Faro.service"
out=$(env -u FARO_DATA_DIR "$tmp/prefix/bin/faro" scan --source demo --json --duration 1 --speed 50)
echo "$out" | grep -q '"t": 1.0' || { echo "installed faro did not replay its installed demo: $out"; exit 1; }
echo "meson: setup and install into a prefix work (binaries, desktop file, D-Bus service, metainfo, icons, translations); installed faro replays share/faro/demo"
