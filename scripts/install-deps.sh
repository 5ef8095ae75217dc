#!/usr/bin/env bash
# Installs the system packages Faro needs to build, run and test, and nothing else. Idempotent: it asks dpkg what
# is installed first and touches the network only when something is missing. Works as root or through sudo, never
# prompts (CI has no stdin), and prints what it installs.
set -euo pipefail

# Build: the C libraries behind the systemLibrary targets, glib-compile-resources for Resources/, meson for
# installing, and the Debian packaging tools (`make deb`; bash-completion gives meson the completions folder).
build=(pkg-config libgtk-3-dev libnotify-dev libbluetooth-dev libsqlite3-dev libcurl4-openssl-dev libxml2-dev
       libsoup-3.0-dev libglib2.0-dev libglib2.0-dev-bin libglib2.0-bin libqrencode-dev libayatana-appindicator3-dev
       libsecret-1-dev meson ninja-build gettext bash-completion debhelper dpkg-dev fakeroot)
# Tests: real peers and tools (private D-Bus + dbusmock, a headless X server, AT-SPI, validators, a Secret Service,
# the package checker, man, openssl for the HTTPS peer's certificates), the bench's venv, and the text browsers the
# reader benchmark compares with (w3m, lynx), xdotool for real pointer clicks on the beacon list, and libfaketime for
# wall-clock jumps (a suspend) under the soak and the sleep tests.
test=(dbus dbus-x11 python3 python3-dbusmock python3-venv xvfb x11-utils at-spi2-core python3-dogtail imagemagick
      desktop-file-utils appstream locales sqlite3 curl chromium libxml2-utils systemd gnome-keyring libsecret-tools
      lintian man-db groff-base openssl xdotool w3m lynx faketime)

wanted=("${build[@]}")
case "${1:-all}" in
  build) ;;
  all) wanted+=("${test[@]}") ;;
  *) echo "usage: $0 [build|all]" >&2; exit 2 ;;
esac

missing=()
for pkg in "${wanted[@]}"; do
  if ! dpkg-query -W -f='${Status}' "$pkg" 2>/dev/null | grep -q "install ok installed"; then
    missing+=("$pkg")
  fi
done

if [ ${#missing[@]} -gt 0 ]; then
  echo "install-deps: installing ${missing[*]}"
  if [ "$(id -u)" -eq 0 ]; then
    sudo=()
  elif command -v sudo >/dev/null 2>&1; then
    sudo=(sudo -n)
  else
    echo "install-deps: need root or sudo to install: ${missing[*]}" >&2
    exit 1
  fi
  export DEBIAN_FRONTEND=noninteractive
  "${sudo[@]}" apt-get update -qq
  "${sudo[@]}" apt-get install -y -qq --no-install-recommends "${missing[@]}" </dev/null
fi

if ! command -v swift >/dev/null 2>&1 && [ ! -x /opt/swift/usr/bin/swift ]; then
  echo "install-deps: no Swift toolchain found (Swift 6 is needed; Debian does not package it)." >&2
  echo "install-deps: install one from swift.org's Linux tarballs into /opt/swift and run again." >&2
  exit 1
fi
echo "install-deps: all ${#wanted[@]} packages present"
