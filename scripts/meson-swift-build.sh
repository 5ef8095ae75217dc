#!/usr/bin/env bash
# Called by meson: builds the named products of the Swift package and copies them into meson's output folder; a
# NAME=PRODUCT argument makes NAME a symbolic link to PRODUCT there instead (faro-backend=faro: faro runs as the
# backend when started under that name).
# Usage: meson-swift-build.sh SWIFT SOURCE_ROOT CONFIGURATION SCRATCH OUTDIR PRODUCT|NAME=PRODUCT...
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
for product in "$@"; do
  case $product in
    *=*) ;;
    *) "$swift" build --package-path "$root" -c "$config" "${static[@]}" --scratch-path "$scratch" \
         --product "$product" 2>&1 | grep -v "prohibited flag(s): -pthread" || true ;;
  esac
done
bin=$("$swift" build --package-path "$root" -c "$config" "${static[@]}" --scratch-path "$scratch" --show-bin-path)
for product in "$@"; do
  case $product in
    *=*)
      name=${product%%=*} target=${product#*=}
      ln -sfn "$target" "$outdir/$name"
      ;;
    *)
      test -x "$bin/$product" || { echo "meson-swift-build: $product was not built" >&2; exit 1; }
      cp -f "$bin/$product" "$outdir/$product"
      ;;
  esac
done
