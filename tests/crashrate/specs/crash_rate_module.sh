# Arm "module": clusterswap loaded, switched on, flipped off and on once,
# and unloaded each cycle (specs/crash_rate_cycles.sh).
. /job/specs/crash_rate_cycles.sh
TIMEOUT_crash_rate_module=$TIMEOUT_crash_rate

load() {
	cs_load
	cs_set 1
}

unload() {
	cs_set 0
	cs_set 1
	cs_unload
}

test_crash_rate_module() {
	crash_rate_cycles
}
