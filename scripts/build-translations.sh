#!/usr/bin/env bash
# Compiles po/*.po into build/locale/<lang>/LC_MESSAGES/faro.mo, where a faro run from the source tree finds them
# (meson compiles and installs them into share/locale for installed copies). A catalog with an untranslated or
# fuzzy message stops the build: the window would show that message in English.
set -euo pipefail
cd "$(dirname "$0")/.."
for po in po/*.po; do
  lang=$(basename "$po" .po)
  mkdir -p "build/locale/$lang/LC_MESSAGES"
  statistics=$(msgfmt --check --statistics -o "build/locale/$lang/LC_MESSAGES/faro.mo" "$po" 2>&1)
  case "$statistics" in
    *untranslated* | *fuzzy*) echo "$po: $statistics" >&2; exit 1 ;;
  esac
done
