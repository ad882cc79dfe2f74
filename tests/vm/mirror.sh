#!/bin/bash
# Print the Debian archive URI this machine's apt is configured with.
#   mirror.sh debian            -> the main archive (suites like bookworm)
#   mirror.sh debian-security   -> the security archive (suites like bookworm-security)
# The repository never names a mirror: it is read from apt's own view of its sources.
set -euo pipefail
want=${1:-debian}
suite=$(. /etc/os-release; echo "$VERSION_CODENAME")
case $want in
debian) pat=" $suite/main " ;;
debian-security) pat=" $suite-security/main " ;;
*) echo "mirror.sh: unknown archive '$want'" >&2; exit 2 ;;
esac
uri=$(apt-cache policy 2>/dev/null | awk -v pat="$pat" 'index($0, pat) && $2 ~ /^(https?|file):/ {print $2; exit}')
if [ -z "$uri" ]; then
	apt-get update -qq >/dev/null 2>&1 || true
	uri=$(apt-cache policy 2>/dev/null | awk -v pat="$pat" 'index($0, pat) && $2 ~ /^(https?|file):/ {print $2; exit}')
fi
[ -n "$uri" ] || { echo "mirror.sh: apt has no source for '$pat'; configure one" >&2; exit 1; }
echo "$uri"
