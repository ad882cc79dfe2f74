# Where the suite's module was built outside the guest's DKMS (arm64:
# cross-built on the host by the kernel's own compiler, trixie's
# gcc-14-aarch64-linux-gnu; or, where the host has none, as for Debian 12's
# arm64 kernels, by make in a guest: tests/vm/guest-build.sh), DKMS in the
# guest, on the kernel it serves, builds the same module: every executable
# section byte for byte the same, the same sections and the same kernel
# symbols imported.  So what the other tests load is what a user's DKMS
# install gives.  The DKMS module then loads, switches on, swaps pages out
# and back intact through zram, and "dkms remove" leaves nothing.
# The source is the tree as users get it (/job/src, tests/ship-tree.sh).
# Compiling under emulation of another architecture is slow: the limit
# leaves room for a cold compiler cache on a 2-core host.  make check runs
# this test of an arm64 target beside the rest, at the lowest priority,
# with three times the limit (check.sh: arm64_prep).  On arm64 its CPU has
# no pointer authentication, as Neoverse N1 (Graviton2, Ampere Altra): the
# build takes a fifth less time, and the module runs on such a CPU; the
# code it runs, byte for byte the tests' module, runs with pointer
# authentication in every other test.
TIMEOUT_dkms_in_the_guest_builds_the_module_the_tests_load=1800
PAUTH_dkms_in_the_guest_builds_the_module_the_tests_load=off
BOOT_dkms_in_the_guest_builds_the_module_the_tests_load=own
NEEDS_dkms_in_the_guest_builds_the_module_the_tests_load=built_for_guest

# sections KO: each section's name, type and flags, one per line.
# readelf -SW: "[Nr] Name Type Address Off Size ES Flg Lk Inf Al", Flg
# empty for some; metadata (build ids, BTF, debug info, module info,
# names) left out: DKMS strips debug info.
sections() {
	readelf -SW "$1" | sed -n 's/^ *\[ *[0-9]*\] //p' |
		awk '$1 != "Name" { print $1, $2, (NF == 10 ? $7 : "-") }' |
		grep -v '^NULL\|^\.debug_\|^\.rela\|^\.note\|^\.gnu\.\|^\.BTF\|^\.modinfo\|^\.comment\|^\.symtab\|^\.strtab\|^\.shstrtab'
}

# same_code A B: the executable sections of A and B are byte for byte the same.
same_code() {
	_n=0
	for _s in $(sections "$1" | awk '$3 ~ /X/ {print $1}'); do
		objcopy -O binary --only-section="$_s" "$1" /tmp/a.bin || fail "objcopy $_s of $1"
		objcopy -O binary --only-section="$_s" "$2" /tmp/b.bin || fail "objcopy $_s of $2"
		cmp -s /tmp/a.bin /tmp/b.bin ||
			fail "section $_s differs: $(stat -c %s /tmp/a.bin) bytes in the tests' module, $(stat -c %s /tmp/b.bin) by DKMS"
		_n=$((_n + 1))
	done
	[ $_n -gt 0 ] || fail "no executable section in $1"
	note "$_n executable sections byte for byte the same"
}

test_dkms_in_the_guest_builds_the_module_the_tests_load() {
	kver=$(uname -r)
	ver=$(sed -n 's/^PACKAGE_VERSION="\(.*\)"/\1/p' /job/src/dkms.conf)
	# The guest's root is a throwaway overlay: its module tree is trimmed
	# for DKMS's depmod as the host's install overlays are.
	start=$(date +%s)
	sh "$BIN"/trim-modules.sh /lib/modules/"$kver"/kernel || fail "trim-modules.sh"
	note "module tree trimmed to $(find /lib/modules/"$kver"/kernel -name '*.ko*' | wc -l) modules in $(( $(date +%s) - start )) s"
	compiler_cache_zero
	dkms add /job/src >/tmp/dkms.log 2>&1 || { cat /tmp/dkms.log; fail "dkms add"; }
	# Built, then installed, each step timed as it ends: under emulation
	# a step that runs out of the test's time leaves the ones before it.
	for step in build install; do
		start=$(date +%s)
		dkms $step -m clusterswap -v "$ver" -k "$kver" >>/tmp/dkms.log 2>&1 ||
			{ tail -n 30 /tmp/dkms.log; cat /var/lib/dkms/clusterswap/"$ver"/build/make.log 2>/dev/null | tail -n 30; fail "dkms $step"; }
		note "dkms $step for $kver: $(( $(date +%s) - start )) s"
	done
	compiler_cache_note
	built=$(ls /var/lib/dkms/clusterswap/"$ver"/"$kver"/*/module/clusterswap.ko* | head -n 1)
	[ -f "$built" ] || fail "DKMS left no module for $kver"
	case $built in
	*.xz) xz -dc "$built" >/tmp/dkms.ko ;;
	*.zst) zstd -qdc "$built" >/tmp/dkms.ko ;;
	*) cp "$built" /tmp/dkms.ko ;;
	esac

	sections "$KO" >/tmp/tests.sections
	sections /tmp/dkms.ko >/tmp/dkms.sections
	cmp -s /tmp/tests.sections /tmp/dkms.sections ||
		fail "the sections differ: $(diff /tmp/tests.sections /tmp/dkms.sections | grep '^[<>]' | head -n 4 | tr '\n' ';')"
	same_code "$KO" /tmp/dkms.ko
	nm -u "$KO" | sort >/tmp/tests.imports
	nm -u /tmp/dkms.ko | sort >/tmp/dkms.imports
	cmp -s /tmp/tests.imports /tmp/dkms.imports ||
		fail "the imports differ: $(diff /tmp/tests.imports /tmp/dkms.imports | grep '^[<>]' | head -n 4 | tr '\n' ';')"
	note "$(wc -l </tmp/tests.imports) kernel symbols imported, the same"

	modprobe clusterswap $ARCH_OPT || fail "modprobe of the DKMS module"
	grep -q "^$kver (" $CS/kernel || fail "the DKMS module says kernel '$(cat $CS/kernel)'"
	cs_set 1
	zram_swap 0 512M
	memcg verify 48
	out0=$(vmstat pswpout)
	in_memcg verify $BIN/verifier -t 2 -m 128 -p 2 -s 5
	verifier_ok $? "through the DKMS module"
	swapped=$(( ($(vmstat pswpout) - out0) * 4 / 1024 ))
	note "swapped out $swapped MiB through the DKMS module"
	[ "$swapped" -ge 96 ] || fail "only $swapped MiB went through swap, want >= 96 (2x memory.max)"
	cs_check_ok "the verifier"
	swap_clear
	modprobe -r clusterswap || fail "modprobe -r clusterswap"

	dkms remove -m clusterswap -v "$ver" --all >>/tmp/dkms.log 2>&1 || fail "dkms remove"
	[ -z "$(dkms status clusterswap)" ] || fail "dkms status after remove: $(dkms status clusterswap)"
	left=$(find /lib/modules/"$kver" -name 'clusterswap.ko*')
	[ -z "$left" ] || fail "left behind: $left"
	! modinfo clusterswap >/dev/null 2>&1 || fail "modinfo still finds clusterswap"
}
