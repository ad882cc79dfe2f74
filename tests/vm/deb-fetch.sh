#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Fetch one Debian package of any architecture into a cache folder, checked
# against the archive's Packages index, without apt: for what a build root
# of another architecture needs (arm64 kernel headers, images).
#
#   deb-fetch.sh ARCHIVE SUITE ARCH PACKAGE DIR
#   e.g. deb-fetch.sh debian-security trixie-security arm64 \
#            linux-headers-6.12.118+deb13-arm64 ~/.cache/clusterswap/arm64
#   deb-fetch.sh SUITE ARCH PACKAGE DIR
#            the same from the first of SUITE's archives that has it
#            (targets.sh: suite_archives, the security updates first)
#
# ARCHIVE is debian or debian-security (its URI read from apt's own
# configuration by mirror.sh).  DIR keeps the suite's index and the package.
# Prints the package's path; exits 1 if SUITE has no PACKAGE for ARCH, or
# its SHA256 is not the index's.
set -euo pipefail
# A failed download inside $(...) stops the script too.
shopt -s inherit_errexit
here=$(cd "$(dirname "$0")" && pwd)

# fetch_index ARCHIVE SUITE ARCH INDEX
fetch_index() {
	curl -fsS "$("$here/mirror.sh" "$1")/dists/$2/main/binary-$3/Packages.xz" | xz -dc >"$4.part.$$"
	mv "$4.part.$$" "$4"
}

# stanza ARCHIVE SUITE ARCH PACKAGE DIR: PACKAGE's stanza in the suite's
# index, or nothing.  An index is fetched once and kept; one that lacks the
# package and is over an hour old is fetched again first (an ABI that came
# out since, a root rebuilt on it).
stanza() {
	local index=$5/$2-$3-Packages out
	[ -s "$index" ] || fetch_index "$1" "$2" "$3" "$index"
	# A suite lists one version of a package; take its stanza, the last if more.
	out=$(awk -v RS= -v p="$4" 'index("\n" $0 "\n", "\nPackage: " p "\n") { last = $0 }
		END { print last }' "$index")
	if [ -z "$out" ] && [ -n "$(find "$index" -mmin +60)" ]; then
		fetch_index "$1" "$2" "$3" "$index"
		stanza "$@"
		return
	fi
	echo "$out"
}

# fetch ARCHIVE SUITE ARCH PACKAGE DIR STANZA: the package, checked.
fetch() {
	local file sha deb
	file=$(sed -n 's/^Filename: //p' <<<"$6")
	sha=$(sed -n 's/^SHA256: //p' <<<"$6")
	deb=$5/$(basename "$file")
	if ! [ -s "$deb" ]; then
		curl -fsS -o "$deb.part.$$" "$("$here/mirror.sh" "$1")/$file"
		mv "$deb.part.$$" "$deb"
	fi
	echo "$sha  $deb" | sha256sum -c --quiet - >&2
	echo "$deb"
}

case $# in
5)
	suite=$2 arch=$3 package=$4
	mkdir -p "$5"
	s=$(stanza "$@")
	[ -n "$s" ] || { echo "deb-fetch: $package is not in $suite for $arch" >&2; exit 1; }
	fetch "$@" "$s"
	;;
4)
	suite=$1 arch=$2 package=$3 dir=$4
	mkdir -p "$dir"
	. "$here/targets.sh"
	mapfile -t archives < <(suite_archives "$suite")
	for a in "${archives[@]}"; do
		# shellcheck disable=SC2086
		s=$(stanza $a "$arch" "$package" "$dir")
		# shellcheck disable=SC2086
		[ -n "$s" ] && { fetch $a "$arch" "$package" "$dir" "$s"; exit 0; }
	done
	echo "deb-fetch: $package is not in $(printf '%s\n' "${archives[@]}" | cut -d' ' -f2 | paste -sd' ' | sed 's/ / nor /') for $arch" >&2
	exit 1
	;;
*) sed -n 7,12p "$0" >&2; exit 2 ;;
esac
