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
out=$(env -u FARO_DATA_DIR "$tmp/prefix/bin/faro" scan --source demo --json --duration 1 --speed 50)
echo "$out" | grep -q '"t": 1.0' || { echo "installed faro did not replay its installed demo: $out"; exit 1; }
echo "meson: setup and install into a prefix work; installed faro replays share/faro/demo"
