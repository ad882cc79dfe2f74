# Installing as a user does: the source tree in /usr/src/clusterswap-<version>,
# dkms add, build, install for the running kernel, modprobe, a verified swap
# run with it enabled, then dkms remove, which leaves nothing behind.  A DKMS
# install for a kernel outside the supported lines is refused cleanly.
TIMEOUT_dkms_builds_and_removes=420
test_dkms_builds_and_removes() {
	ver=$(sed -n 's/^PACKAGE_VERSION="\(.*\)"/\1/p' /job/src/dkms.conf)
	kver=$(uname -r)
	cp -a /job/src "/usr/src/clusterswap-$ver"
	dkms add "clusterswap/$ver" >/tmp/dkms.log 2>&1 || { cat /tmp/dkms.log; fail "dkms add"; }
	compiler_cache_zero
	dkms install "clusterswap/$ver" -k "$kver" >/tmp/dkms.log 2>&1 ||
		{ tail -n 30 /tmp/dkms.log; tail -n 30 /var/lib/dkms/clusterswap/$ver/build/make.log; fail "dkms install"; }
	note "$(dkms status clusterswap)"
	compiler_cache_note
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

	# A kernel of another line, with headers present (borrowed): refused.
	fake=6.6.0-99-amd64
	mkdir -p /lib/modules/$fake
	ln -s "/usr/src/linux-headers-$kver" /lib/modules/$fake/build
	dkms add "clusterswap/$ver" >/dev/null 2>&1 || fail "dkms add (again)"
	dkms install "clusterswap/$ver" -k $fake >/tmp/dkms.log 2>&1 &&
		fail "dkms install for $fake succeeded"
	note "dkms install -k $fake: exit $?: $(grep -i -m1 'exclusive\|not supported\|does not match' /tmp/dkms.log)"
	grep -qi 'BUILD_EXCLUSIVE\|does not match' /tmp/dkms.log || { cat /tmp/dkms.log; fail "no clear refusal for $fake"; }
	left=$(find /lib/modules/$fake -name 'clusterswap.ko*')
	[ -z "$left" ] || fail "a refused install left $left"
	dkms remove "clusterswap/$ver" --all >/dev/null 2>&1
	rm -rf /lib/modules/$fake "/usr/src/clusterswap-$ver"
}
