#!/bin/bash
# Copy the source tree users get (DKMS, the Debian package) into DEST.
#   ship-tree.sh DEST [--with-debian]
set -euo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
dest=${1:?usage: ship-tree.sh DEST [--with-debian]}
mkdir -p "$dest"
cp -a "$top/Kbuild" "$top/Makefile" "$top/dkms.conf" "$top/README.md" "$top/module" "$top/include" "$dest/"
[ "${2:-}" = --with-debian ] && cp -a "$top/debian" "$dest/"
exit 0
