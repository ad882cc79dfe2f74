# The Debian package: "apt install ./clusterswap-dkms_*.deb" builds and
# installs the module for the running kernel through DKMS; the shipped example
# /etc/modprobe.d file switches it on when it loads; "apt purge" removes it
# and leaves nothing behind.
TIMEOUT_deb=600
test_deb() {
	deb=$(ls /job/clusterswap-dkms_*_all.deb) || fail "no package in /job"
	kver=$(uname -r)
	# Headers for the running kernel only, as on a user's machine: the build
	# root also carries the suite's older kernel for host-side builds.
	for k in /lib/modules/*; do
		[ "$k" = /lib/modules/$kver ] || rm -f "$k/build"
	done
	DEBIAN_FRONTEND=noninteractive apt-get install -y -q "$deb" >/tmp/apt.log 2>&1 ||
		{ tail -n 40 /tmp/apt.log; fail "apt install of the package"; }
	note "$(dkms status clusterswap | tr '\n' ';')"
	dkms status clusterswap | grep -q "$kver.*installed" || fail "not installed for $kver: $(dkms status clusterswap)"
	[ "$(dkms status clusterswap | wc -l)" = 1 ] || fail "built for kernels without headers: $(dkms status clusterswap)"

	cp /usr/share/doc/clusterswap-dkms/examples/clusterswap.conf /etc/modprobe.d/ ||
		fail "the package lacks the modprobe.d example"
	modprobe clusterswap || fail "modprobe clusterswap after apt install"
	[ "$(cat $CS/enabled)" = 1 ] || fail "the modprobe.d example did not switch it on"
	zram_swap 0 512M
	memcg deb 64
	in_memcg deb $BIN/verifier -t 2 -m 128 -p 2 -s 61
	verifier_ok $? "with the packaged module"
	cs_check_ok "the packaged module"
	modprobe -r clusterswap || fail "modprobe -r clusterswap"
	rm /etc/modprobe.d/clusterswap.conf

	DEBIAN_FRONTEND=noninteractive apt-get purge -y -q clusterswap-dkms >/tmp/apt.log 2>&1 ||
		{ tail -n 40 /tmp/apt.log; fail "apt purge"; }
	left=$(ls -d /usr/src/clusterswap-* /var/lib/dkms/clusterswap /usr/share/doc/clusterswap-dkms 2>/dev/null;
		find /lib/modules -name 'clusterswap.ko*')
	[ -z "$left" ] || fail "apt purge left: $left"
	dpkg -s clusterswap-dkms >/dev/null 2>&1 && fail "dpkg still knows clusterswap-dkms after purge"
	note "purged: nothing left"
}
