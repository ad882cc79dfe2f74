# While the module serves, a tracer on a function it redirects sees each call
# once, where its stock caller made it: the module's own calls of the
# original (here stock put_swap_folio(), for every page written out with its
# slot still mapped) enter after the ftrace call site, so they run neither
# the trampoline nor the redirect callback a second time.  Before that, a
# kprobe on put_swap_folio() fired about twice per call.  Every page of the
# run is verified.
# Budget: 3 s on 6.12, 3 s on 6.1 (make check, 2-vCPU TCG on a 2-core host);
# the limit is 40.0x the slowest.
TIMEOUT_tracers_see_each_redirected_call_once=120
test_tracers_see_each_redirected_call_once() {
	zram_swap 0 512M
	cs_load
	cs_set 1
	kprobes_on cs_once put_swap_folio || fail "no kprobe on put_swap_folio"
	calls0=$(cs_stat calls.put_swap_folio)
	$BIN/pageout -m 32 -s 7 || fail "pageout failed (exit $?)"
	kprobes_stop cs_once
	calls=$(( $(cs_stat calls.put_swap_folio) - calls0 ))
	hits=$(kprobe_hits cs_once put_swap_folio)
	kprobes_off cs_once put_swap_folio
	note "put_swap_folio: $calls calls came to the module, a kprobe saw $hits"
	[ "$calls" -ge 8110 ] || fail "only $calls of 8192 paged-out pages left the swap cache through the module"
	# Background reclaim between reading the two counters may tilt
	# either by a few calls; a second crossing per call doubles one.
	[ "$hits" -le $(( calls + calls / 100 )) ] && [ "$hits" -ge $(( calls - calls / 100 )) ] ||
		fail "a kprobe on put_swap_folio fired $hits times for $calls calls"
	cs_check_ok "tracer beside the redirect"
	cs_unload
}
