#!/usr/bin/env bash
# Compiles Faro's GSettings schema into build/glib-2.0/schemas, where an uninstalled faro (make run, the tests)
# finds it (meson installs and compiles it into share/glib-2.0/schemas for installed copies). Validated with
# --strict first: a schema GLib would only warn about fails here.
set -euo pipefail
cd "$(dirname "$0")/.."
out=build/glib-2.0/schemas
mkdir -p "$out"
sed -e 's|@APP_ID@|io.github.faro.Faro|' -e 's|@APP_PATH@|/io/github/faro/Faro/|' \
  data/io.github.faro.Faro.gschema.xml.in > "$out/io.github.faro.Faro.gschema.xml"
glib-compile-schemas --strict --dry-run "$out"
glib-compile-schemas --strict "$out"
