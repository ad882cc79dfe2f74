#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Fetch one Debian package of any architecture into a cache folder, checked
# against the archive's Packages index, without apt: for what a build root
# of another architecture needs (arm64 kernel headers, images).
#
#   deb-fetch.sh ARCHIVE SUITE ARCH PACKAGE DIR
#   e.g. deb-fetch.sh debian-security trixie-security arm64 \
#            linux-headers-6.12.118+deb13-arm64 ~/.cache/clusterswap/arm64
#
# ARCHIVE is debian or debian-security (its URI read from apt's own
# configuration by mirror.sh).  DIR keeps the suite's index (fetched once)
# and the package.  Prints the package's path; exits 1 if SUITE has no
# PACKAGE for ARCH, or its SHA256 is not the index's.
set -euo pipefail
[ $# = 5 ] || { sed -n 7,9p "$0" >&2; exit 2; }
archive=$1 suite=$2 arch=$3 package=$4 dir=$5
here=$(cd "$(dirname "$0")" && pwd)
mkdir -p "$dir"

index=$dir/$suite-$arch-Packages
if ! [ -s "$index" ]; then
	uri=$("$here/mirror.sh" "$archive")
	curl -fsS "$uri/dists/$suite/main/binary-$arch/Packages.xz" | xz -dc >"$index.part"
	mv "$index.part" "$index"
fi

# A suite lists one version of a package; take its stanza, the last if more.
stanza=$(awk -v RS= -v p="$package" 'index("\n" $0 "\n", "\nPackage: " p "\n") { last = $0 }
	END { print last }' "$index")
file=$(sed -n 's/^Filename: //p' <<<"$stanza")
sha=$(sed -n 's/^SHA256: //p' <<<"$stanza")
[ -n "$file" ] || { echo "deb-fetch: $package is not in $suite for $arch" >&2; exit 1; }
deb=$dir/$(basename "$file")
if ! [ -s "$deb" ]; then
	uri=$("$here/mirror.sh" "$archive")
	curl -fsS -o "$deb.part" "$uri/$file"
	mv "$deb.part" "$deb"
fi
echo "$sha  $deb" | sha256sum -c --quiet - >&2
echo "$deb"
