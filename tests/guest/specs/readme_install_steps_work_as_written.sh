# Installing through DKMS works as the README says, word for word, read
# from the README.md the user has (the shipped source tree's), and removes
# cleanly.  Install: the first code block under "## Install" runs in the
# source tree as root on the host, in an overlay over the build root that
# the guest then boots (tests/vm/root-installed.sh readme: sudo runs its
# command, uname -r names the guest's kernel, so DKMS builds for it as it
# would on that machine; it also proves that DKMS refuses a kernel outside
# the supported lines and leaves nothing), all but its modprobe, which
# runs here and loads the version the tree has.  Use: each line of the
# first code block under "## Use" runs here in turn, a verified swap run
# through zram after the line that switches it on; the kernel and version
# it prints are this kernel and the tree's; after the last (rmmod) it is
# gone.  Remove: the README's "dkms remove" step leaves no module, no DKMS
# state, and modprobe finds nothing.
# DKMS builds on the host, natively.  The guest's part took 110-150 s on a
# 2-core TCG host as the DKMS test before it, and 400-470 s with three
# guests sharing those 2 cores: the limit leaves room for a slow host.
# Budget: 44 s on 6.12, 34 s on 6.1, 30 s on 6.12-deb12, 69 s on
# 6.12-cloud, 66 s on 6.1-cloud (single runs on 2026-11-28 with the guest's
# module tree trimmed: vm/root-installed.sh; before it, "dkms remove" alone
# took 95 s on 6.12-deb12); the limit is 8.7x the slowest.
TIMEOUT_readme_install_steps_work_as_written=600
BOOT_readme_install_steps_work_as_written=own
ROOT_readme_install_steps_work_as_written=readme

README=/job/src/README.md

# readme_block SECTION: the first code block under "## SECTION".
readme_block() {
	awk -v h="## $1" '$0 == h { f = 1 } f && /^```/ { n++; next } f && n == 1' $README
}

# As root, sudo only runs its command.
sudo() {
	"$@"
}

test_readme_install_steps_work_as_written() {
	kver=$(uname -r)
	cd /job/src || fail "no shipped source tree"
	eval "$(readme_block Install | grep '^v=')"
	[ -n "$v" ] || fail "README's Install has no v= step"
	status=$(dkms status clusterswap)
	note "$status"
	echo "$status" | grep -q "$kver.*installed" ||
		fail "README's install steps left no module for $kver: $status"
	step=$(readme_block Install | grep 'modprobe')
	[ -n "$step" ] || fail "README's Install has no modprobe step"
	eval "$step" || fail "README's '$step' failed"
	[ -e $CS ] || fail "not loaded after README's '$step'"
	[ "$(cat $CS/version)" = "$v" ] || fail "loaded version $(cat $CS/version), README installed $v"

	readme_block Use >/tmp/use.steps
	[ "$(grep -c . /tmp/use.steps)" -ge 3 ] || fail "README's Use block is missing"
	zram_swap 0 512M
	memcg readme 64
	n=$(wc -l </tmp/use.steps)
	i=1
	while [ $i -le "$n" ]; do
		step=$(sed -n "${i}p" /tmp/use.steps)
		i=$((i + 1))
		[ -n "$step" ] || continue
		out=$(eval "$step" 2>&1) || fail "README's '$step' failed: $out"
		note "$step -> ${out:-(nothing)}"
		case $step in
		"echo 1 > /sys/kernel/clusterswap/enabled"*)
			[ "$(cat $CS/enabled)" = 1 ] || fail "'$step' did not switch it on"
			in_memcg readme $BIN/verifier -t 2 -m 128 -p 2 -s 51
			verifier_ok $? "switched on as the README says"
			cs_check_ok "switched on as the README says"
			;;
		*"clusterswap/kernel"*)
			case $out in
			"$kver "*) ;;
			*) fail "'$step' printed '$out', not this kernel $kver" ;;
			esac
			;;
		*"clusterswap/version"*)
			[ "$out" = "$v" ] || fail "'$step' printed '$out', the tree is $v"
			;;
		esac
	done
	[ ! -e $CS ] || fail "still loaded after README's Use steps (the last is rmmod)"

	step=$(sed -n 's/.*`\(sudo dkms remove [^`]*\)`.*/\1/p' $README)
	[ -n "$step" ] || fail "README names no dkms remove step"
	eval "$step" >/tmp/dkms.log 2>&1 || { cat /tmp/dkms.log; fail "README's '$step' failed"; }
	left=$(find /lib/modules/"$kver" -name 'clusterswap.ko*')
	[ -z "$left" ] || fail "README's '$step' left $left"
	[ ! -e /var/lib/dkms/clusterswap/$v ] || fail "README's '$step' left /var/lib/dkms/clusterswap/$v"
	modprobe clusterswap 2>/dev/null && fail "modprobe still finds clusterswap after '$step'"
	note "$step: nothing left"
}
