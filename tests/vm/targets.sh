# The kernels make check builds for and boots, and the build roots
# (mkroot.sh) they come from; sourced by check.sh, mkroot.sh and suite.sh.
#
#   target   Debian suite  kernel (from SUITE and SUITE-security)     tests
#   trixie   trixie        linux-image-amd64 (6.12.y, Debian 13)     all
#   bookworm bookworm      linux-image-amd64 (6.1.y, Debian 12)      all
#   bookworm-612
#            bookworm      linux-image-6.12-amd64 (6.12.y built for  the smoke set
#                          Debian 12, which users opt into from
#                          bookworm-security), with Debian 12's compiler
#   trixie-arm64
#            trixie        linux-image-arm64 (6.12.y, Debian 13 on    the smoke set
#                          arm64) of the trixie root's ABI, booted
#                          under qemu-system-aarch64; its root is
#                          made by debootstrap --foreign and finished
#                          in the guest (mkroot.sh); the module and
#                          test programs are cross-built in the
#                          trixie root (root-cross.sh)
#   trixie-cloud, bookworm-cloud
#            the trixie and bookworm roots' second kernel,           the cloud smoke set
#            linux-image-cloud-amd64: the kernel of Debian's own
#            cloud images, trimmed (no 9p: its guests mount their
#            root and /job over virtiofs, kernel_shares)
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
	6.12-cloud) echo trixie-cloud ;;
	6.1-cloud) echo bookworm-cloud ;;
	6.12-arm64) echo trixie-arm64 ;;
	*) echo "unknown kernel '$1' (known: 6.12 6.1 6.12-deb12 6.12-cloud 6.1-cloud 6.12-arm64)" >&2; return 1 ;;
	esac
}

# target_root TARGET: the build root it boots (a flavour's kernel is
# installed beside its line's generic one).
target_root() {
	echo "${1%-cloud}"
}

# target_flavour TARGET: the Debian kernel flavour it boots.
target_flavour() {
	case $1 in
	*-cloud) echo cloud-amd64 ;;
	*-arm64) echo arm64 ;;
	*) echo amd64 ;;
	esac
}

# target_arch ROOT: the Debian architecture of a root (or of the target
# booting it).
target_arch() {
	case $1 in
	*-arm64) echo arm64 ;;
	*) echo amd64 ;;
	esac
}

# target_build_root TARGET: the root its module and test programs are built
# in: its own, or for an arm64 target the trixie root, whose cross compiler
# and arm64 headers root-cross.sh installs (an arm64 root's compiler cannot
# run on the host).
target_build_root() {
	case $1 in
	trixie-arm64) echo trixie ;;
	*) target_root "$1" ;;
	esac
}

# target_suite ROOT: the Debian suite a build root is made from.
target_suite() {
	case $1 in
	trixie | trixie-arm64) echo trixie ;;
	bookworm | bookworm-612) echo bookworm ;;
	*) echo "no build root '$1'" >&2; return 1 ;;
	esac
}

# target_kernel_packages ROOT: the kernel images and headers it installs.
target_kernel_packages() {
	case $1 in
	bookworm-612) echo linux-image-6.12-amd64 linux-headers-6.12-amd64 ;;
	*) echo linux-image-amd64 linux-headers-amd64 linux-image-cloud-amd64 linux-headers-cloud-amd64 ;;
	esac
}

# root_kernel ROOTDIR [FLAVOUR]: the newest kernel of FLAVOUR (amd64, the
# default, cloud-amd64 or arm64) installed in a build root; not a debug
# build (debug-kernel.sh's -csdebug).
root_kernel() {
	local flavour=${2:-amd64}
	ls "$1/lib/modules" | grep -- "-$flavour\$" |
		{ case $flavour in
		amd64 | arm64) grep -v -- "-cloud-$flavour\$\|-rt-$flavour\$" ;;
		*) cat ;;
		esac; } |
		sort -V | tail -n 1 | grep . ||
		{ echo "no $flavour kernel in $1" >&2; return 1; }
}

# kernel_shares KVER: how its guest mounts the root and /job: 9p, or
# virtiofs for a cloud kernel, which has no 9p (virtiofs is built into
# 6.12's and a module of 6.1's).
kernel_shares() {
	case $1 in
	*-cloud-amd64) echo virtiofs ;;
	*) echo 9p ;;
	esac
}

# target_label TARGET KVER: how results name it: the kernel line, and the
# Debian release where one line is tested on two.
target_label() {
	case $1 in
	bookworm-612) echo "$(echo "$2" | cut -d. -f1,2)-deb12" ;;
	*-cloud) echo "$(echo "$2" | cut -d. -f1,2)-cloud" ;;
	*-arm64) echo "$(echo "$2" | cut -d. -f1,2)-arm64" ;;
	*) echo "$2" | cut -d. -f1,2 ;;
	esac
}

# The smoke set: installed as the README says, loaded, self-tested, pages
# verified with the switch flipped and beside stock's final frees, and the
# refusals.
SMOKE_TESTS="readme_install_steps_work_as_written loads_and_unloads_cleanly self_tests_pass
swapped_pages_verify switch_under_load_loses_nothing stock_final_free_never_races
refuses_owned_hooks refuses_unknown_kernels"

# A cloud kernel's smoke set: what its flavour can change for the module.
# It is its line's source built by the same compiler as the generic kernel
# that runs the whole suite (switch flips and stock's final frees included),
# with another configuration: so what can differ is what the load checks
# read (hookable functions, tail calls, symbols), the refusals, a verified
# swap run on that configuration, and DKMS against its headers.  The switch
# and final-free tests stay in the Debian 12 6.12 set, whose compiler
# differs.
SMOKE_TESTS_CLOUD="readme_install_steps_work_as_written loads_and_unloads_cleanly self_tests_pass
swapped_pages_verify refuses_owned_hooks refuses_unknown_kernels"

# An arm64 target's smoke set: the same, but that DKMS installs in the
# guest, since the host cannot run an arm64 root's DKMS (suite.sh skips the
# tests that install on the host), and checks there that it builds the
# module the other tests load, which the host cross-built.
SMOKE_TESTS_ARM64="dkms_in_the_guest_builds_the_cross_built_module loads_and_unloads_cleanly
self_tests_pass swapped_pages_verify switch_under_load_loses_nothing stock_final_free_never_races
refuses_owned_hooks refuses_unknown_kernels"

# target_tests TARGET ALL...: the tests it runs, of ALL.  An arm64 target
# runs its smoke set in the default make check (CHECK_DEFAULT_KERNELS=1),
# and all of ALL when KERNELS names it.
target_tests() {
	local target=$1 t smoke=
	shift
	case $target in
	bookworm-612) smoke=$SMOKE_TESTS ;;
	*-cloud) smoke=$SMOKE_TESTS_CLOUD ;;
	*-arm64) [ "${CHECK_DEFAULT_KERNELS:-0}" = 1 ] && smoke=$SMOKE_TESTS_ARM64 ;;
	esac
	if [ -z "$smoke" ]; then
		printf '%s\n' "$@"
		return
	fi
	for t in "$@"; do
		case " $(echo $smoke) " in
		*" $t "*) echo "$t" ;;
		esac
	done
}
