#!/bin/bash
# Copy the source tree users get (DKMS, the Debian package) into DEST.
#   ship-tree.sh DEST [--with-debian]
# With --with-debian, the Debian source tree: also debian/, tools/ and docs/
# (the package installs clusterswap-top and the documentation the README
# links to; the DKMS tree needs neither).
set -euo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
dest=${1:?usage: ship-tree.sh DEST [--with-debian]}
mkdir -p "$dest"
# The shipped paths are listed once, in the Makefile.
for path in $(make -s --no-print-directory -C "$top" shipped); do
	cp -a "$top/$path" "$dest/"
done
[ "${2:-}" = --with-debian ] && cp -a "$top/debian" "$top/tools" "$top/docs" "$dest/"
exit 0
