#!/usr/bin/env bash
# Called by meson: builds the Swift package and copies the named products into meson's output folder.
# Usage: meson-swift-build.sh SWIFT SOURCE_ROOT CONFIGURATION SCRATCH OUTDIR PRODUCT...
set -euo pipefail
swift=$1 root=$2 config=$3 scratch=$4 outdir=$5
shift 5
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
