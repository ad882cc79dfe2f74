# /sys/kernel/clusterswap/enabled takes exactly 0 or 1 from root.  Anything
# else, and any write by another user, is rejected and changes nothing.
# round_robin exists wherever the allocator does (6.12 and 6.1).
# Budget: 2 s on 6.12, 3 s on 6.1 (make check, 2-vCPU TCG on a 2-core host);
# the limit is 20.0x the slowest.
TIMEOUT_switch_rejects_bad_input=60
rejected() {
	want=$(cat $CS/enabled)
	printf '%s' "$1" >$CS/enabled 2>/dev/null && fail "accepted '$2'"
	[ "$(cat $CS/enabled)" = "$want" ] || fail "'$2' changed enabled to $(cat $CS/enabled)"
}

bad_inputs() {
	rejected 2 2
	rejected -1 -1
	rejected yes yes
	rejected on on
	rejected '
' "an empty line"
	rejected '1 ' "'1 '"
	rejected ' 1' "' 1'"
	rejected 01 01
	rejected '1

' "1 and two newlines"
	junk=$(head -c 3000 /dev/urandom | base64 -w0 | head -c 4096)
	rejected "$junk" "4 KiB of junk"
	want=$(cat $CS/enabled)
	setpriv --reuid=65534 --regid=65534 --clear-groups sh -c "echo 1 >$CS/enabled; echo 0 >$CS/enabled" 2>/dev/null &&
		fail "a non-root user could write enabled"
	[ "$(cat $CS/enabled)" = "$want" ] || fail "a non-root write changed enabled"
}

test_switch_rejects_bad_input() {
	cs_load
	bad_inputs
	cs_set 1
	bad_inputs
	printf 0 >$CS/enabled || fail "'0' without newline rejected"
	[ "$(cat $CS/enabled)" = 0 ] || fail "'0' without newline not applied"
	cs_set 1
	cs_set 1
	cs_set 0
	[ -e $CS/round_robin ] || fail "no round_robin knob on $(cs_line)"
	cs_unload
}
