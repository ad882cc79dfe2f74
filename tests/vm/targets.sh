# The kernels make check builds for and boots: one build root each
# (mkroot.sh), sourced by check.sh, mkroot.sh and suite.sh.
#
#   target   Debian suite  kernel (from SUITE and SUITE-security)     tests
#   trixie   trixie        linux-image-amd64 (6.12.y, Debian 13)     all
#   bookworm bookworm      linux-image-amd64 (6.1.y, Debian 12)      all
#   bookworm-612
#            bookworm      linux-image-6.12-amd64 (6.12.y built for  the smoke set
#                          Debian 12, which users opt into from
#                          bookworm-security), with Debian 12's compiler
#
# The full suite runs on trixie's 6.12, from the same kernel source as
# bookworm-612's; what differs on Debian 12 is the compiler (what gcc
# inlines decides what the module can hook), the userland, DKMS 3.0 and
# the kernel's build for Debian 12: the smoke set covers those.

# target_of LINE: the target for a kernel line named in KERNELS.
target_of() {
	case $1 in
	6.12) echo trixie ;;
	6.1) echo bookworm ;;
	6.12-deb12) echo bookworm-612 ;;
	*) echo "unknown kernel '$1' (known: 6.12 6.1 6.12-deb12)" >&2; return 1 ;;
	esac
}

# target_suite TARGET: the Debian suite its root is made from.
target_suite() {
	case $1 in
	trixie) echo trixie ;;
	bookworm | bookworm-612) echo bookworm ;;
	*) echo "no target '$1'" >&2; return 1 ;;
	esac
}

# target_kernel_packages TARGET: the kernel image and headers it installs.
target_kernel_packages() {
	case $1 in
	bookworm-612) echo linux-image-6.12-amd64 linux-headers-6.12-amd64 ;;
	*) echo linux-image-amd64 linux-headers-amd64 ;;
	esac
}

# target_label TARGET KVER: how results name it: the kernel line, and the
# Debian release where one line is tested on two.
target_label() {
	case $1 in
	bookworm-612) echo "$(echo "$2" | cut -d. -f1,2)-deb12" ;;
	*) echo "$2" | cut -d. -f1,2 ;;
	esac
}

# target_tests TARGET ALL...: the tests it runs, of ALL.
target_tests() {
	local target=$1 t
	shift
	case $target in
	bookworm-612)
		for t in "$@"; do
			case " readme_install_steps_work_as_written loads_and_unloads_cleanly self_tests_pass swapped_pages_verify switch_under_load_loses_nothing stock_final_free_never_races refuses_owned_hooks refuses_unknown_kernels " in
			*" $t "*) echo "$t" ;;
			esac
		done
		;;
	*) printf '%s\n' "$@" ;;
	esac
}
