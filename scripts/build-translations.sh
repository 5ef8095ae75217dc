#!/usr/bin/env bash
# Compiles po/*.po into build/locale/<lang>/LC_MESSAGES/faro.mo, where a faro run from the source tree finds them
# (meson compiles and installs them into share/locale for installed copies).
set -euo pipefail
cd "$(dirname "$0")/.."
for po in po/*.po; do
  lang=$(basename "$po" .po)
  mkdir -p "build/locale/$lang/LC_MESSAGES"
  msgfmt --check -o "build/locale/$lang/LC_MESSAGES/faro.mo" "$po"
done
