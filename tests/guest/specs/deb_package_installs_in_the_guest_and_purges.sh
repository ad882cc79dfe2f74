# The Debian package where the host cannot install into the guest's root
# (arm64: deb_package_installs_and_purges installs on the host, in an
# overlay, and is skipped there): "apt install" of the suite's .deb in the
# guest, with headers for the booted kernel only, as on a user's machine,
# builds and installs the module through DKMS for that kernel alone; where
# the module needs a load option to run at all (arm64, not yet run on
# hardware: arm64_unverified), the packaged module refuses to load without
# it; with it, it switches on, swaps pages out and back intact through zram,
# and the packaged clusterswap-top shows the device; "apt purge" removes it
# and leaves nothing behind.
# Budget: 225 and 232 s on 6.12 arm64 (2026-12-02, apt install 174 s,
# compiler cache warm); the first run that hour, its cache colder, 493 s
# (apt install 443 s): the limit is 3.7x that, room for a cold cache as the
# DKMS test's.
TIMEOUT_deb_package_installs_in_the_guest_and_purges=1800
BOOT_deb_package_installs_in_the_guest_and_purges=own
NEEDS_deb_package_installs_in_the_guest_and_purges=built_for_guest

test_deb_package_installs_in_the_guest_and_purges() {
	kver=$(uname -r)
	# The guest's root is a throwaway overlay: the other kernels lose their
	# headers (an arm64 root holds the cloud kernel's too), and the module
	# tree is trimmed for DKMS's depmod, as in the DKMS test.
	for b in /lib/modules/*/build; do
		[ "$b" = /lib/modules/"$kver"/build ] || rm -f "$b"
	done
	sh "$BIN"/trim-modules.sh /lib/modules/"$kver"/kernel || fail "trim-modules.sh"
	# apt installs a local package named by its path (a copy in /tmp: from
	# /job, with --no-download, apt refused it as "not absolute").
	cp /job/clusterswap-dkms_*.deb /tmp/ || fail "no package in /job"
	deb=$(ls /tmp/clusterswap-dkms_*.deb)
	start=$(date +%s)
	DEBIAN_FRONTEND=noninteractive apt-get install -y -q "$deb" >/tmp/apt.log 2>&1 ||
		{ tail -n 40 /tmp/apt.log; fail "apt install $deb"; }
	note "apt install: $(( $(date +%s) - start )) s"
	status=$(dkms status clusterswap)
	note "$(echo "$status" | tr '\n' ';')"
	echo "$status" | grep -q "$kver.*installed" || fail "not installed for $kver: $status"
	[ "$(echo "$status" | wc -l)" = 1 ] || fail "built for kernels without headers: $status"

	if [ -n "$ARCH_OPT" ]; then
		! modprobe clusterswap 2>/dev/null || fail "the packaged module loaded without $ARCH_OPT"
		dmesg | grep -q "clusterswap: .*refusing to load" || fail "no refusal in the kernel log"
		note "without $ARCH_OPT: $(dmesg | grep 'clusterswap: .*refusing to load' | tail -n 1 | sed 's/^\[[^]]*\] //')"
	fi
	modprobe clusterswap $ARCH_OPT || fail "modprobe clusterswap $ARCH_OPT"
	cs_set 1
	packaged_module_serves
	packaged_purge_leaves_nothing
}
