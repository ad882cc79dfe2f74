# The module loads on this kernel, says what it recognised, starts disabled,
# exposes read-only debugfs files, and leaves nothing behind when unloaded.
# Budget: 3 s on 6.12, 3 s on 6.1, 3 s on 6.12-deb12, 9 s on 6.12-cloud, 9 s
# on 6.1-cloud (make check, 2-vCPU TCG on a 2-core host); the limit is 6.7x
# the slowest.
TIMEOUT_loads_and_unloads_cleanly=60
test_loads_and_unloads_cleanly() {
	cs_load
	[ "$(cat $CS/enabled)" = 0 ] || fail "enabled is $(cat $CS/enabled) after load, want 0"
	grep -q "^$(uname -r) (" $CS/kernel || fail "kernel reads '$(cat $CS/kernel)'"
	[ -n "$(cat $CS/version)" ] || fail "version is empty"
	note "kernel: $(cat $CS/kernel); version $(cat $CS/version)"
	for f in $CS/version $CS/kernel; do
		[ "$(stat -c %a $f)" = 444 ] || fail "$f has mode $(stat -c %a $f), want 444"
	done
	[ "$(stat -c %a $CS/enabled)" = 644 ] || fail "enabled has mode $(stat -c %a $CS/enabled)"
	[ "$(stat -c %a $CSD/stats)" = 444 ] || fail "stats has mode $(stat -c %a $CSD/stats)"
	[ "$(cs_stat calls.folio_alloc_swap)" != missing ] || fail "stats lacks calls.folio_alloc_swap"
	dmesg | grep -q 'clusterswap: loaded on' || fail "no load line in dmesg"
	cs_unload
	[ ! -e $CSD ] || fail "$CSD still exists after rmmod"
	check_enabled_option
}

# The load option switches it on at once (how it is switched on at boot,
# through /etc/modprobe.d); without it the module starts off.
check_enabled_option() {
	cs_load enabled=1
	[ "$(cat $CS/enabled)" = 1 ] || fail "enabled reads $(cat $CS/enabled) after insmod enabled=1"
	cs_unload
	cs_load enabled=0
	[ "$(cat $CS/enabled)" = 0 ] || fail "enabled reads $(cat $CS/enabled) after insmod enabled=0"
	cs_unload
}
