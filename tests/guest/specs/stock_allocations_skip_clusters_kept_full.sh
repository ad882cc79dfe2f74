# Stock's allocator keeps, per CPU, a hint of where its last allocation
# left off, and allocates there next without looking at the cluster's list
# (6.12 cluster_alloc_swap_entry()).  A hint left from before the switch
# went on, or from a fallback since, can point into a cluster the module
# has since filled and keeps on the full list with room: stock would fill
# it beside the module, and a DEBUG_VM kernel stops at the VM_BUG_ON in
# cluster_alloc_range() (review F4).  The corrupter fixture points every
# CPU's hint into such a cluster, as a stale hint would; hibernation's
# slots (stock code, which the module calls) then come from no cluster on
# the full list, and every page kept in swap verifies.
# Budget: 3 s on 6.12 (suite.sh, 2-vCPU TCG on a 2-core host); the limit
# is 40.0x the slowest.
TIMEOUT_stock_allocations_skip_clusters_kept_full=120
NEEDS_stock_allocations_skip_clusters_kept_full=order_lists

# full_clusters: the clusters on device 0's full list, one index a line.
full_clusters() {
	sed -n 's/^full [0-9]*://p' "$CSD/devices/0/clusters" | tr ',' '\n' |
		awk -F- 'NF { last = NF > 1 ? $2 : $1; for (i = $1 + 0; i <= last; i++) print i }'
}

test_stock_allocations_skip_clusters_kept_full() {
	[ -c /dev/snapshot ] || fail "no /dev/snapshot (CONFIG_HIBERNATION_SNAPSHOT_DEV)"
	zram_swap 0 64M
	cat /sys/block/zram0/dev >/sys/power/resume || fail "cannot make zram0 the resume device"
	insmod /job/cs_corrupter.ko type=0 || fail "cannot load the corrupter fixture"
	cat /proc/swaps >/dev/null
	cs_load
	cs_set 1
	cluster=$(summary_value cluster_size)
	# Filled by the module, then every other page freed (lib.sh): full
	# clusters with half their slots free.
	holes_start 181 8
	kept=$(full_clusters | tr '\n' ' ')
	[ -n "$kept" ] || fail "the module kept no cluster full with room: $(cat $CSD/devices/0/clusters)"
	set -- $kept
	offset=$(($1 * cluster))
	[ "$offset" -gt 0 ] || offset=1	# slot 0 is the header
	echo "$offset" >/sys/module/cs_corrupter/parameters/stale_hint ||
		fail "the fixture cannot point stock's hints at slot $offset"
	note "stock's hints point at slot $offset, in cluster $1; the full list holds $kept"
	c0=$(cs_stat calls.get_swap_page_of_type)
	$BIN/hibslots -n 600 -C "$cluster" >/tmp/hib.out || fail "hibernation slots: $(cat /tmp/hib.out)"
	got=$(sed -n 's/^hibslots: clusters //p' /tmp/hib.out)
	note "hibernation's 600 slots came from clusters $got"
	[ "$(cs_stat calls.get_swap_page_of_type)" -gt "$c0" ] ||
		fail "hibernation's allocation did not come through the module"
	for c in $got; do
		case " $kept" in
		*" $c "*) fail "hibernation's slots came from cluster $c, which the module keeps on the full list: stock followed its stale hint" ;;
		esac
	done
	holes_end "beside hibernation's allocation"
	cs_check_ok "stock allocations beside clusters kept full"
	cs_set 0
	echo 0:0 >/sys/power/resume 2>/dev/null
	cs_unload
	rmmod cs_corrupter
}
