#!/usr/bin/env bash
# Builds the Spanish (Mexico) locale into build/locales for the UI tests (LOCPATH): this machine ships only
# C.UTF-8, and gettext ignores LANGUAGE in the C locale.
set -euo pipefail
cd "$(dirname "$0")/.."
mkdir -p build/locales
[ -d build/locales/es_MX.UTF-8 ] || localedef -i es_MX -f UTF-8 build/locales/es_MX.UTF-8 2>/dev/null || \
  localedef -i es_MX -f UTF-8 build/locales/es_MX.UTF-8
