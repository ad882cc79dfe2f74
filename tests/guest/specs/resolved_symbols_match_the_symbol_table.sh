# Every kernel symbol the module resolved is where the kernel's symbol
# table puts it.  On a kernel whose kallsyms lists its variables
# (KALLSYMS_ALL) that table is /proc/kallsyms, and nothing may have been
# found from code.  On one whose kallsyms lists none (Debian's arm64 6.1),
# it is the image's own System.map, from its debug package
# (tests/vm/system-map.sh puts it in /job), and a variable the module found
# from the code that uses it must indeed be missing from kallsyms.
# Budget: new; the limit is a first guess.
TIMEOUT_resolved_symbols_match_the_symbol_table=120
test_resolved_symbols_match_the_symbol_table() {
	local table text name off how addr n=0 code=0 all_symbols
	all_symbols=$(grep -c '^CONFIG_KALLSYMS_ALL=y' "/boot/config-$(uname -r)")
	table=/proc/kallsyms
	if [ "$all_symbols" = 0 ]; then
		table=/job/System.map
		[ -r $table ] || fail "kallsyms lists no variables here, and the harness gave no System.map"
	fi
	cs_load
	cat $CSD/symbols >/tmp/symbols || fail "cannot read $CSD/symbols"
	cs_unload
	grep -q '^swap_info ' /tmp/symbols || fail "symbols does not list swap_info: $(cat /tmp/symbols)"
	# One pass over the table: each listed name's addresses, and _stext's
	# (kallsyms shows real addresses to root, as System.map shows the
	# link-time ones: each against its own _stext).
	awk 'NR == FNR { want[$1] = 1; next }
		NF == 3 && ($3 == "_stext" || ($3 in want)) { print $3, $1 }' /tmp/symbols $table >/tmp/table
	text=$(awk '$1 == "_stext" { print $2; exit }' /tmp/table)
	[ -n "$text" ] && [ "$text" != 0000000000000000 ] || fail "$table gives no address for _stext"
	while read -r name off how; do
		off=${off#_stext+}
		found=0
		# The shell's arithmetic is signed 64-bit: compare the low 48
		# bits, more than the kernel image spans.
		for addr in $(awk -v n="$name" '$1 == n { print $2 }' /tmp/table); do
			[ $(((0x${addr#????} - 0x${text#????}) & 0xffffffffffff)) = $((off)) ] && found=1
		done
		[ $found = 1 ] ||
			fail "$name is at _stext+$off ($how); $table has it at: $(awk -v n="$name" '$1 == n { printf "%s ", $2 }' /tmp/table)(_stext $text)"
		case $how in
		kallsyms) ;;
		code)
			[ "$all_symbols" = 0 ] || fail "$name was found from code, but this kernel lists every variable"
			! grep -q " $name\$" /proc/kallsyms ||
				fail "$name was found from code, but kallsyms lists it"
			code=$((code + 1))
			;;
		*) fail "$name was found by '$how'" ;;
		esac
		n=$((n + 1))
	done </tmp/symbols
	note "$n symbols where $table puts them; $code found from code: $(awk '$3 == "code" { printf "%s ", $1 }' /tmp/symbols)"
}
