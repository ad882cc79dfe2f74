#!/bin/bash
# One version everywhere: the module (CS_VERSION), dkms.conf and the Debian
# package must agree, or DKMS and apt would install under one name what
# modinfo reports under another.
set -u
top=$(cd "$(dirname "$0")/../.." && pwd)
module=$(sed -n 's/^#define CS_VERSION "\(.*\)"/\1/p' "$top/include/clusterswap/control.h")
dkms=$(sed -n 's/^PACKAGE_VERSION="\(.*\)"/\1/p' "$top/dkms.conf")
deb=$(sed -n '1s/^clusterswap (\([^-)]*\).*/\1/p' "$top/debian/changelog")
if [ -n "$module" ] && [ "$module" = "$dkms" ] && [ "$dkms" = "$deb" ]; then
	echo "PASS version/agrees ($module)"
else
	echo "FAIL version/agrees: module '$module', dkms.conf '$dkms', debian/changelog '$deb'"
	exit 1
fi
