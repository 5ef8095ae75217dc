#!/usr/bin/env bash
# `make test`: build, a bounded fuzz pass, the meson install check, the Debian package check, then every Swift test
# (unit, integration with real peers, end-to-end CLI). The Swift test runner's summary is the last thing printed.
set -euo pipefail
cd "$(dirname "$0")/.."
export PATH="$PATH:/opt/swift/usr/bin"
quiet() { grep -v -E "prohibited flag\(s\): -pthread" || true; }

echo "== format"
# The checked-in .swift-format; the linter ships with the Swift toolchain.
swift format lint --strict -r Sources Tests Plugins

echo "== build"
swift build --build-tests 2>&1 | quiet
test -x .build/debug/faro

echo "== translations, settings schema and test locales"
bash scripts/build-translations.sh
# glib-compile-schemas --strict --dry-run first, then compiled into build/glib-2.0/schemas for uninstalled runs.
bash scripts/build-schemas.sh
bash scripts/make-locales.sh

echo "== fuzz"
FUZZ_SECONDS="${FUZZ_SECONDS:-45}" bash scripts/fuzz.sh

echo "== meson"
bash scripts/check-meson.sh

echo "== debian package"
bash scripts/check-deb.sh

echo "== swift test"
# Tests keep their own data in temporary folders; give stray GLib/D-Bus autolaunch a throwaway HOME too.
home=$(mktemp -d)
trap 'rm -rf "$home"' EXIT
# One test at a time: the UI, chaos and D-Bus suites start real X servers, buses and apps, and on a 2-core machine
# running them side by side starves their timeouts.
HOME="$home" XDG_RUNTIME_DIR="$home" swift test --skip-build --no-parallel 2>&1 | quiet
exit "${PIPESTATUS[0]}"
