#!/bin/bash
# make deb: build clusterswap-dkms_<version>_all.deb (the module source for
# DKMS, no binary) with dh-dkms, into build/ or the folder OUTDIR.  Installs
# the packaging tools on this Debian machine when they are missing.  Prints
# the package's path.
#
#   deb.sh [OUTDIR]
#
# The in-VM suites of several kernels may run side by side (check.sh): each
# builds its package into its own job folder, so none reads a package that
# another is still writing.
set -euo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
if ! command -v dh >/dev/null || ! command -v dh_dkms >/dev/null || ! command -v dpkg-buildpackage >/dev/null; then
	echo "deb: installing debhelper, dh-dkms, dpkg-dev" >&2
	apt-get update -qq && DEBIAN_FRONTEND=noninteractive \
		apt-get install -y -qq --no-install-recommends debhelper dh-dkms dpkg-dev >/dev/null
fi
version=$(dpkg-parsechangelog -l "$top/debian/changelog" -S Version)
upstream=${version%-*}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
"$top/tests/ship-tree.sh" "$tmp/clusterswap-$upstream" --with-debian
(cd "$tmp/clusterswap-$upstream" && dpkg-buildpackage -us -uc -b >"$tmp/build.log" 2>&1) || {
	tail -n 40 "$tmp/build.log" >&2
	echo "deb: dpkg-buildpackage failed" >&2
	exit 1
}
out=${1:-$top/build}
mkdir -p "$out"
cp "$tmp"/clusterswap-dkms_"${version}"_all.deb "$out/"
echo "$out/clusterswap-dkms_${version}_all.deb"
