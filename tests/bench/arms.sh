# The order of the three arms in a round, sourced by tests/bench.sh on the
# host (a boot per arm) and by tests/bench/guest.sh in the guest (one boot).
#
# arms_of_round ROUND: "unloaded off on" turned left by ROUND - 1, so that
# over every three rounds each arm runs once first, once second and once
# third.  With the order fixed, a 7-round run on 6.12 measured the loaded
# but switched-off module 4.4% faster than the kernel without it (verifier,
# -smp 1), which a module cannot be: whatever the arm after "unloaded"
# inherits (a warm zram, a settled page cache, the module load's own
# reclaim) was charged to one arm.
arms_of_round() {
	case $((($1 - 1) % 3)) in
	0) echo unloaded off on ;;
	1) echo off on unloaded ;;
	2) echo on unloaded off ;;
	esac
}
