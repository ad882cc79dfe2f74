# Installing as a user does, through DKMS: the source tree in
# /usr/src/clusterswap-<version>, dkms add and install for the kernel the
# guest boots (done on the host, in an overlay over the build root that the
# guest then boots: tests/vm/root-installed.sh, which also proves that DKMS
# refuses a kernel outside the supported lines and leaves nothing).  In the
# guest: modprobe loads what DKMS installed, a verified swap run with it
# enabled, then dkms remove, which leaves nothing behind.
# Took 89 s with a warm compiler cache on a 2-core TCG host; cold, its build
# costs what the package test's does (371 s there): the limit allows that.
TIMEOUT_dkms_builds_and_removes=600
BOOT_dkms_builds_and_removes=own
ROOT_dkms_builds_and_removes=dkms
test_dkms_builds_and_removes() {
	ver=$(sed -n 's/^PACKAGE_VERSION="\(.*\)"/\1/p' /job/src/dkms.conf)
	kver=$(uname -r)
	status=$(dkms status clusterswap)
	note "$status"
	echo "$status" | grep -q "$kver.*installed" || fail "not installed for $kver: $status"
	modprobe clusterswap || fail "modprobe clusterswap after dkms install"
	[ "$(cat $CS/version)" = "$ver" ] || fail "loaded version $(cat $CS/version), dkms installed $ver"

	zram_swap 0 512M
	cs_set 1
	memcg dkms 64
	in_memcg dkms $BIN/verifier -t 2 -m 160 -p 2 -s 51
	verifier_ok $? "with the DKMS-built module"
	cs_check_ok "the DKMS-built module"
	cs_set 0
	modprobe -r clusterswap || fail "modprobe -r clusterswap"

	dkms remove "clusterswap/$ver" --all >/tmp/dkms.log 2>&1 || { cat /tmp/dkms.log; fail "dkms remove"; }
	left=$(find /lib/modules/"$kver" -name 'clusterswap.ko*')
	[ -z "$left" ] || fail "dkms remove left $left"
	[ ! -e /var/lib/dkms/clusterswap/$ver ] || fail "dkms remove left /var/lib/dkms/clusterswap/$ver"
	modprobe clusterswap 2>/dev/null && fail "modprobe still finds clusterswap after dkms remove"
	return 0
}
