# A rotational disk at a higher priority than a zram device that the module
# serves: the module hands order-0 calls to stock while the disk comes first,
# and serves zram itself when the disk is full.  With both devices driven to
# full (and 64 KiB mTHP on where the kernel has it: 6.12), stock allocation
# beside the module never spins (on 6.12: no full mTHP cluster is left on
# frag or nonfull), no device shows more in use than its size, and every page
# verifies.
# Budget: 53 s on 6.12, 59 s on 6.1 (make check, 2-vCPU TCG on a 2-core
# host); the limit is 7.1x the slowest.
TIMEOUT_rotational_first_never_spins=420
DISK_rotational_first_never_spins=64
BOOT_rotational_first_never_spins=own
NEEDS_rotational_first_never_spins=allocator
test_rotational_first_never_spins() {
	virtio_disk
	echo 1 >/sys/block/vda/queue/rotational || fail "cannot mark the virtio disk rotational"
	mkswap /dev/vda >/dev/null || fail "mkswap vda"
	swapon -p 20 /dev/vda || fail "swapon vda"
	zram_swap 0 96M
	mthp64 always && note "64 KiB mTHP on"
	cs_load
	cs_set 1
	memcg rot 32
	# memory.high alone: a full swap throttles the load instead of killing it.
	echo max >"$CG/rot/memory.max"
	# Until told to finish, once both devices have been filled.
	in_memcg_bg rot $BIN/verifier -H -t 2 -m 128 -p 2 -d 600 -s 91
	pid=$bg_pid
	sleep 10
	# Fill what is left of both devices, three times over.
	for s in 92 93 94; do
		$BIN/pageout -a -m 96 -w 2 -s $s >/tmp/fill.out || fail "pageout: $(tail -n 2 /tmp/fill.out)"
		note "$(grep -v '^pageout: paged out$' /tmp/fill.out | tail -n 1)"
		awk 'NR > 1 && $4 > $3 {print "over"}' /proc/swaps | grep -q over &&
			fail "a device shows more in use than its size: $(tr '\n' ';' </proc/swaps)"
	done
	note "swaps at the end of filling: $(awk 'NR > 1 {printf "%s %s/%s; ", $1, $4, $3}' /proc/swaps)"
	running $pid || fail "the load ended before the devices were filled"
	kill -USR1 $pid
	wait $pid
	verifier_ok $? "beside a rotational disk of higher priority"
	mthp64 never
	cs_stats_note alloc.order0 alloc.order4 alloc.order9 large_fallback.order4 alloc.stock_fallback device_full freed.stock_final_free
	[ "$(cs_stat alloc.stock_fallback)" -gt 0 ] || fail "the module never handed a call to stock: the disk was not first"
	[ "$(cs_stat alloc.total)" -gt 0 ] || fail "the module never allocated on zram"
	cs_check_ok "a rotational disk first, both full"
	cs_unload
}
