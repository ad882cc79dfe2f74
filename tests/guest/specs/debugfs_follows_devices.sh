# debugfs follows swapon and swapoff: each swap device in use has
# devices/<type>/summary and clusters; they describe the device as the kernel
# has it (pages, use, cluster lists); the directory goes with swapoff; and
# check reads "ok" throughout.
# Budget: 14 s on 6.12, 12 s on 6.1 (make check, 2-vCPU TCG on a 2-core
# host); the limit is 12.9x the slowest.
TIMEOUT_debugfs_follows_devices=180
test_debugfs_follows_devices() {
	cs_load
	[ -d $CSD/devices ] || fail "no $CSD/devices"
	[ -z "$(ls $CSD/devices)" ] || fail "devices/ lists $(ls $CSD/devices) with no swap on"
	zram_swap 0 256M 5
	zram_swap 1 256M 5
	wait_for $CSD/devices/0/summary
	wait_for $CSD/devices/1/summary
	pages=$(awk '$1 == "pages" {print $2}' $CSD/devices/0/summary)
	proc_kb=$(awk '$1 == "/dev/zram0" {print $3}' /proc/swaps)
	[ "$pages" -eq $((proc_kb / 4)) ] || fail "summary says $pages pages, /proc/swaps $proc_kb KiB"
	nclusters=$(awk '$1 == "clusters" {print $2}' $CSD/devices/0/summary)
	free0=$(awk '$1 == "free" {print $2}' $CSD/devices/0/clusters | tr -d :)
	note "zram0: $pages pages, $nclusters clusters, $free0 free before swapping"
	[ "$free0" -ge $((nclusters - 2)) ] || fail "only $free0 of $nclusters clusters free on an idle device"
	cs_set 1
	memcg views 64
	in_memcg views $BIN/verifier -t 2 -m 96 -p 2 -s 41
	verifier_ok $? "on two devices"
	inuse=$(awk '$1 == "inuse" {print $2}' $CSD/devices/0/summary)
	used_kb=$(awk '$1 == "/dev/zram0" {print $4}' /proc/swaps)
	note "zram0 after swapping: inuse $inuse pages, /proc/swaps used $used_kb KiB"
	[ "$inuse" -eq $((used_kb / 4)) ] || fail "summary inuse $inuse, /proc/swaps used $used_kb KiB"
	sed 's/^/    /' $CSD/devices/0/summary
	head -c 600 $CSD/devices/0/clusters | sed 's/^/    /'
	cs_check_ok "swapping on two devices"
	swapoff /dev/zram1 || fail "swapoff zram1"
	wait_for $CSD/devices/1 absent
	[ -d $CSD/devices/0 ] || fail "devices/0 went away with zram1"
	cs_check_ok "swapoff of zram1"
	cs_unload
}
