#!/usr/bin/env bash
# Installs the Debian packages libqless needs, only those missing.
# Safe to run repeatedly; needs root (or sudo) only when something is missing.
set -euo pipefail

PACKAGES=(
  cmake make gcc pkg-config swig valgrind
  libhiredis-dev libjansson-dev libcunit1-dev libssl-dev openssl
  redis-server redis-tools
  chromium chromium-driver python3-selenium
  python3 python3-dev python3-pytest python3-redis
  ruby ruby-dev
  lua5.4 liblua5.4-dev lua-busted lua-dkjson
  php8.2-dev php8.2-cli phpunit
  abigail-tools
  libmicrohttpd-dev libcrypt-dev prometheus
)

missing=()
for p in "${PACKAGES[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
[ ${#missing[@]} -eq 0 ] && exit 0

echo "deps: installing ${missing[*]}" >&2
SUDO=""
if [ "$(id -u)" -ne 0 ]; then
  command -v sudo >/dev/null || { echo "deps: need root or sudo to install: ${missing[*]}" >&2; exit 1; }
  SUDO=sudo
fi
export DEBIAN_FRONTEND=noninteractive
$SUDO apt-get update -q
# lua5.4 is named together with lua-busted so that busted runs on 5.4, not on a pulled-in 5.2.
$SUDO apt-get install -y -q --no-install-recommends "${missing[@]}"
