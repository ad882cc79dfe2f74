# Under kernel lockdown (integrity, as Secure Boot sets it): a module loaded
# before lockdown keeps working; every debugfs file stays readable (they are
# read-only, which lockdown allows), the sysfs switch works, swapping with it
# on verifies, and it unloads.  Unsigned modules can no longer be loaded,
# which shows lockdown is really on.
# Budget: 17 s on 6.12, 25 s on 6.1 (make check, 2-vCPU TCG on a 2-core
# host); the limit is 4.8x the slowest.
TIMEOUT_views_readable_under_lockdown=120
# Lockdown cannot be lowered again: it gets a boot of its own.
BOOT_views_readable_under_lockdown=own
test_views_readable_under_lockdown() {
	L=/sys/kernel/security/lockdown
	[ -w $L ] || fail "no $L on this kernel"
	zram_swap 0 512M
	cs_load
	echo integrity >$L || fail "cannot raise lockdown"
	note "lockdown: $(cat $L)"
	grep -q '\[integrity\]' $L || fail "lockdown reads '$(cat $L)'"
	insmod /job/cs_squatter.ko 2>/dev/null && fail "an unsigned module loaded under lockdown"
	for f in stats check devices/0/summary devices/0/clusters; do
		wait_for $CSD/$f
		cat $CSD/$f >/dev/null || fail "cannot read $CSD/$f under lockdown"
	done
	cs_set 1
	memcg lockdown 64
	in_memcg lockdown $BIN/verifier -t 2 -m 128 -p 2 -s 71
	verifier_ok $? "under lockdown"
	cs_check_ok "swapping under lockdown"
	cs_set 0
	cs_unload
}
