# A kernel outside the supported lines is refused at load with -EOPNOTSUPP
# and one clear line in the kernel log, and nothing is left behind.  The
# running kernel is faked with the test-only parameter assume_release.  So
# is a kernel of the line that carries later swap code (a backport): the
# test-only parameter assume_later_symbol names a function this kernel has
# as one of later code's.  And so is a build in which the compiler made a
# copy of a function the module redirects (a .constprop, .isra or .part
# clone, whose callers the redirect would miss): assume_clone_suffix.  And
# a PREEMPT_RT kernel: assume_version.  And a kernel in which a function
# the module calls through the gate ends in a jump to a redirected one (a
# tail call the redirect would let through): assume_gate_called names a
# function to check as if the module called it; x86-64 6.1's
# swapcache_clear() ends in a jump to free_swap_slot() and is refused,
# 6.12's and arm64 6.1's have no such jump and load.  (Chains of such jumps through other functions are
# checked too; the self-tests hold them on made-up code.)  On arm64, until
# the suite has run on arm64 hardware, a load without arm64_unverified=1 is
# refused too.
# Budget: 3 s on 6.12, 3 s on 6.1, 5 s on 6.12-deb12, 19 s on 6.12-cloud,
# 21 s on 6.1-cloud (make check, 2-vCPU TCG on a 2-core host); the limit is
# 5.7x the slowest.
TIMEOUT_refuses_unknown_kernels=120
refused() {
	dmesg -C
	out=$(insmod $KO $ARCH_OPT ${3:-assume_release}="$1" 2>&1) && fail "insmod accepted kernel $1"
	echo "$out" | grep -q 'Operation not supported' ||
		fail "kernel $1: insmod said '$out', want 'Operation not supported'"
	line=$(dmesg | grep 'clusterswap: ')
	echo "$line" | grep -q "$2" || fail "kernel $1: log says '$line', want '$2'"
	[ ! -e $CS ] || fail "kernel $1: $CS exists after a refused load"
	note "$1: $line"
}

# refused_arch: on arm64, a load without arm64_unverified=1 is refused.
refused_arch() {
	dmesg -C
	out=$(insmod $KO 2>&1) && fail "insmod accepted arm64 without arm64_unverified=1"
	line=$(dmesg | grep 'clusterswap: ')
	echo "$line" | grep -q 'arm64 support has not yet run on arm64 hardware' || fail "arm64: log says '$line'"
	[ ! -e $CS ] || fail "arm64: $CS exists after a refused load"
	note "arm64: $line"
}

test_refuses_unknown_kernels() {
	[ -n "$ARCH_OPT" ] && refused_arch
	refused 7.2.13+deb14-amd64 'already has the cluster swap allocator'
	refused 6.14.0 'already has the cluster swap allocator'
	refused 6.6.0-30-amd64 'is not supported'
	refused 5.10.0-33-amd64 'is not supported'
	refused not-a-kernel 'cannot parse kernel release'
	case $(uname -r) in
	6.12.*) refused 6.1.0-56-amd64 'built for the 6.12 line' ;;
	6.1.*) refused 6.12.117+deb13-amd64 'built for the 6.1 line' ;;
	esac
	refused folio_alloc_swap 'has folio_alloc_swap(), swap code of a later kernel' assume_later_symbol
	# A build where gcc made a copy of a redirected function: the test-only
	# suffix "" makes the check find each function itself as its copy.
	refused '' 'folio_alloc_swap has a compiler-made copy, folio_alloc_swap, whose callers a redirect would miss' assume_clone_suffix
	# A PREEMPT_RT kernel (Debian's rt-amd64), loaded by force past the
	# build's refusal and the loader's flavour check: uname -v gives it away
	# (the inner quotes keep the kernel's parameter parser from splitting it).
	refused '"#1 SMP PREEMPT_RT Debian 6.12.57-1 (2025-11-05)"' 'is a PREEMPT_RT kernel, which is not supported' assume_version
	case $(uname -r) in
	6.1.*-arm64)
		# Built with frame pointers, hence no sibling calls: "bl".
		cs_load assume_gate_called=swapcache_clear
		note "arm64 6.1's swapcache_clear calls free_swap_slot, no tail call: loaded"
		cs_unload
		;;
	6.1.*)
		refused swapcache_clear 'swapcache_clear+0x[0-9a-f]* jumps into free_swap_slot, a tail call' assume_gate_called
		;;
	6.12.*)
		cs_load assume_gate_called=swapcache_clear
		note "6.12's swapcache_clear has no tail call into a redirected function: loaded"
		cs_unload
		;;
	esac
	# The check follows chains of jumps (at most 4) through the functions
	# they reach; how many it read on this kernel, for its limit (1024).
	dmesg -C
	cs_load dyndbg=+p
	read_fns=$(dmesg | sed -n 's/.*clusterswap: tail calls: \([0-9]*\) functions read.*/\1/p')
	[ -n "$read_fns" ] || fail "the load did not say how many functions its tail-call check read"
	note "the tail-call check read $read_fns functions"
	cs_unload
}
