#!/usr/bin/env bash
# `make deb`: the binary package faro_<version>_<arch>.deb (and its .buildinfo and .changes) in build/deb/, built
# with dpkg-buildpackage from debian/: a release build with the Swift runtime linked statically, Depends computed
# by dpkg-shlibdeps. The SwiftPM scratch folder is .build (FARO_SPM_SCRATCH), so an earlier release build there
# (scripts/check-meson.sh, `make bench`) is reused. Prints the .deb's path last.
set -euo pipefail
cd "$(dirname "$0")/.."
export PATH="$PATH:/opt/swift/usr/bin"
out="$PWD/build/deb"
mkdir -p "$out"
rm -f "$out"/faro*.deb "$out"/faro*.ddeb "$out"/faro*.buildinfo "$out"/faro*.changes
version=$(dpkg-parsechangelog -S Version)
arch=$(dpkg-architecture -qDEB_HOST_ARCH)
# Build-Depends are checked (the Swift toolchain is not one: debian/rules checks for it).
dpkg-checkbuilddeps
FARO_DEB_DIR="$out" FARO_SPM_SCRATCH="${FARO_SPM_SCRATCH:-$PWD/.build}" \
  dpkg-buildpackage -b -us -uc \
    --buildinfo-option="-u$out" --buildinfo-file="$out/faro_${version}_${arch}.buildinfo" \
    --changes-option="-u$out" --changes-file="$out/faro_${version}_${arch}.changes" >&2
deb="$out/faro_${version}_${arch}.deb"
test -f "$deb" || { echo "make-deb: dpkg-buildpackage made no $deb" >&2; exit 1; }
echo "$deb"
