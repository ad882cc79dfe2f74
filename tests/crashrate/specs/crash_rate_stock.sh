# Arm "stock", the control: clusterswap is never loaded; the squatter
# fixture takes the same functions with an IPMODIFY ftrace_ops that changes
# nothing, so each cycle patches the call sites clusterswap's load and
# unload patch, and stock code swaps (specs/crash_rate_cycles.sh).
. /job/specs/crash_rate_cycles.sh
TIMEOUT_crash_rate_stock=$TIMEOUT_crash_rate

load() {
	insmod /job/cs_squatter.ko targets="$(cat /job/crashrate_targets)" ||
		fail "cannot load the squatter on $(cat /job/crashrate_targets)"
}

unload() {
	rmmod cs_squatter || fail "cannot unload the squatter"
}

test_crash_rate_stock() {
	crash_rate_cycles
}
