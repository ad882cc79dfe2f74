# Hibernation's swap slots (get_swap_page_of_type, taken through
# /dev/snapshot as the kernel's image writer takes them) come from a device
# the module serves while a load swaps to it: 32768 slots, none handed out
# twice, all freed again (after switch-off, swapoff brings back every slot
# still in use within 60 s: a slot or a count leaked would keep it looping),
# no device shown fuller than its size; the load's pages verify and debugfs
# check reads ok.  The time the 32768 slots took is
# printed stock and with the module on (upstream's 6.15 hibernation slowdown
# was in this allocation).  A whole hibernation cycle is not run here: a
# test_resume cycle in this harness hung with the module off (its root and
# job share are 9p, whose virtio transport has no freeze/restore).
# Budget: 43 s on 6.12, 66 s on 6.1 (make check, 2-vCPU TCG on a 2-core
# host); the limit is 4.5x the slowest.
TIMEOUT_hibernation_slots_beside_load=300
DISK_hibernation_slots_beside_load=384
BOOT_hibernation_slots_beside_load=own
NEEDS_hibernation_slots_beside_load=allocator

# slots_run stock|clusterswap SEED
slots_run() {
	in_memcg_bg hib $BIN/verifier -t 2 -m 128 -p 3 -z 3 -s "$2"
	pid=$bg_pid
	sleep 3
	$BIN/hibslots -n 32768 >/tmp/hib.out || fail "hibernation slots ($1): $(cat /tmp/hib.out)"
	note "$1: $(cat /tmp/hib.out)"
	awk 'NR > 1 && $4 > $3 {print "over"}' /proc/swaps | grep -q over &&
		fail "a device shows more in use than its size ($1): $(tr '\n' ';' </proc/swaps)"
	wait $pid
	verifier_ok $? "beside hibernation's slot allocation ($1)"
}

test_hibernation_slots_beside_load() {
	[ -c /dev/snapshot ] || fail "no /dev/snapshot (CONFIG_HIBERNATION_SNAPSHOT_DEV)"
	virtio_disk
	echo 0 >/sys/block/vda/queue/rotational || fail "cannot mark the virtio disk non-rotational"
	mkswap /dev/vda >/dev/null || fail "mkswap vda"
	swapon /dev/vda || fail "swapon vda"
	cat /sys/block/vda/dev >/sys/power/resume || fail "cannot make vda the resume device"
	memcg hib 48
	cs_load
	slots_run stock 141
	cs_set 1
	slots_run clusterswap 142
	cs_stats_note alloc.total calls.get_swap_page_of_type freed
	[ "$(cs_stat calls.get_swap_page_of_type)" -ge 32768 ] ||
		fail "hibernation's allocation did not come through the module"
	cs_check_ok "hibernation's slot allocation"
	cs_set 0
	# What /proc/swaps still counts now may be swap cache (a swap-in's
	# readahead from vda that nobody mapped, freed only by reclaim) or, with
	# the module off, slots in stock's per-CPU slot cache: not a leak.
	# swapoff takes all of it back, or loops on what was leaked.
	note "after switch-off: vda $(swap_used /dev/vda) KiB in use, SwapCached $(awk '$1 == "SwapCached:" {print $2}' /proc/meminfo) KiB"
	timeout 60 swapoff /dev/vda ||
		fail "swapoff vda did not finish in 60 s after everything was freed ($(swap_used /dev/vda) KiB still in use)"
	cs_unload
}
