# The arms of a round and their order, sourced by tests/bench.sh on the host
# (a boot per arm) and by tests/bench/guest.sh in the guest (one boot).
#
# arms_of_round ROUND ARM...: the ARMs turned left by ROUND - 1, so that
# over as many rounds as there are arms each arm runs once in each place.
# With the order fixed (unloaded, off, on), a 7-round run on 6.12 measured
# the loaded but switched-off module 4.4% faster than the kernel without it
# (verifier, -smp 1), which a module cannot be: whatever an arm inherits
# from the one before it (a warm zram, a settled page cache, the module
# load's own reclaim) was charged to one arm.
# POSIX sh: the guest runs it with dash.
arms_of_round() {
	_turn=$((($1 - 1) % ($# - 1)))
	shift
	while [ "$_turn" -gt 0 ]; do
		_first=$1
		shift
		set -- "$@" "$_first"
		_turn=$((_turn - 1))
	done
	echo "$@"
}
