#!/usr/bin/env bash
# Called by meson: builds the Swift package and copies the named products into meson's output folder.
# Usage: meson-swift-build.sh SWIFT SOURCE_ROOT CONFIGURATION SCRATCH OUTDIR PRODUCT...
# FARO_VERSION (meson's project version) must equal the copy the Swift code prints (FaroVersion.swift).
set -euo pipefail
swift=$1 root=$2 config=$3 scratch=$4 outdir=$5
shift 5
if [ -n "${FARO_VERSION:-}" ] && ! grep -qF "static let string = \"$FARO_VERSION\"" "$root/Sources/FaroCommandLine/FaroVersion.swift"; then
  echo "meson-swift-build: meson.build says version $FARO_VERSION but Sources/FaroCommandLine/FaroVersion.swift" \
    "says otherwise: set the same version in both" >&2
  exit 1
fi
# Release binaries carry the Swift runtime inside (no libswiftCore & co. to load and relocate at every launch).
static=()
[ "$config" = release ] && static=(--static-swift-stdlib)
"$swift" build --package-path "$root" -c "$config" "${static[@]}" --scratch-path "$scratch" 2>&1 \
  | grep -v "prohibited flag(s): -pthread" || true
bin=$("$swift" build --package-path "$root" -c "$config" "${static[@]}" --scratch-path "$scratch" --show-bin-path)
for product in "$@"; do
  test -x "$bin/$product" || { echo "meson-swift-build: $product was not built" >&2; exit 1; }
  cp -f "$bin/$product" "$outdir/$product"
done
