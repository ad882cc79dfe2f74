# The Debian package: "apt install ./clusterswap-dkms_*.deb" builds and
# installs the module for the booted kernel through DKMS (done on the host, in
# an overlay over the build root that the guest then boots:
# tests/vm/root-installed.sh, with headers for that kernel only, as on a
# user's machine); in the guest, the shipped example
# /etc/modprobe.d file switches it on when it loads, and with the shipped
# modules-load.d example the distribution's boot-time module loader loads it
# (systemd-modules-load on Debian 13, /etc/init.d/kmod on a Debian 12 without
# systemd, as the README says); "apt purge" removes it and leaves nothing
# behind.
# Took 130 s with a warm compiler cache on a 2-core TCG host, and 371 s in a
# cold run (no compiler cache) on a slow host: the limit leaves 2.4x over it.
# Budget: 76 s on 6.12, 56 s on 6.1 (single runs on 2026-11-28 with the
# guest's module tree trimmed, vm/root-installed.sh: 146 s and 80 s before,
# most of the difference depmod under "apt purge"); the limit is 11.8x the
# slowest.
TIMEOUT_deb_package_installs_and_purges=900
BOOT_deb_package_installs_and_purges=own
ROOT_deb_package_installs_and_purges=deb

# What loads modules at boot: systemd-modules-load.service runs this binary;
# without systemd, Debian 12's kmod init script does the same from
# /etc/modules and /etc/modules-load.d.
boot_module_loader() {
	for loader in /usr/lib/systemd/systemd-modules-load /lib/systemd/systemd-modules-load; do
		if [ -x $loader ]; then
			note "boot-time loader: $loader"
			$loader || fail "$loader failed"
			return
		fi
	done
	[ -x /etc/init.d/kmod ] || fail "no boot-time module loader in this root"
	note "boot-time loader: /etc/init.d/kmod start"
	/etc/init.d/kmod start || fail "/etc/init.d/kmod start failed"
}
test_deb_package_installs_and_purges() {
	kver=$(uname -r)
	dpkg -s clusterswap-dkms >/dev/null 2>&1 || fail "the package is not installed in this root"
	status=$(dkms status clusterswap)
	note "$(echo "$status" | tr '\n' ';')"
	echo "$status" | grep -q "$kver.*installed" || fail "not installed for $kver: $status"
	[ "$(echo "$status" | wc -l)" = 1 ] || fail "built for kernels without headers: $status"

	ex=/usr/share/doc/clusterswap-dkms/examples
	cp $ex/clusterswap.conf /etc/modprobe.d/ || fail "the package lacks the modprobe.d example"
	# install -D: a Debian 12 without systemd may have no /etc/modules-load.d.
	install -D -m 644 $ex/modules-load.conf /etc/modules-load.d/clusterswap.conf ||
		fail "the package lacks the modules-load.d example"
	[ ! -e $CS ] || fail "loaded before the boot-time loader ran"
	boot_module_loader
	[ -e $CS ] || fail "the boot-time module loader did not load clusterswap"
	[ "$(cat $CS/enabled)" = 1 ] || fail "the modprobe.d example did not switch it on"
	packaged_module_serves
	rm /etc/modprobe.d/clusterswap.conf /etc/modules-load.d/clusterswap.conf

	packaged_purge_leaves_nothing
}
