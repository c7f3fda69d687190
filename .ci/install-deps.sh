#!/bin/sh
# Install what the build and the tests need on Debian 12 (run as root).
# Installs only what is missing, so it is quick on a prepared machine.
# --browser also installs chromium, in which tests/t_report.sh renders
# report.html (CI does; a user's `make deps` and `make demo` do not).
set -e
PKGS="make gcc clang libomp-dev pkg-config zlib1g-dev libarchive-dev libxxhash-dev libdeflate-dev libutf8proc-dev libbrotli-dev libuchardet-dev python3 python3-html5lib
openmpi-bin libopenmpi-dev"
[ "${1:-}" = --browser ] && PKGS="$PKGS chromium"
missing=""
for p in $PKGS; do
	dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing="$missing $p"
done
if [ -n "$missing" ]; then
	SUDO=""
	[ "$(id -u)" = 0 ] || SUDO=sudo
	echo "installing:$missing"
	$SUDO apt-get update -qq
	DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq $missing >/dev/null
fi
