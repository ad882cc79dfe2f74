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
#   bookworm-arm64
#            bookworm      linux-image-arm64 (6.1.y, Debian 12 on     the smoke set
#                          arm64) of the bookworm root's ABI, made
#                          and booted as trixie-arm64's; cross-built
#                          in the bookworm root, by Debian 12's
#                          gcc-12 (root-cross.sh bookworm), but for
#                          the module the tests load, built in its
#                          guest (guest-build.sh: the cross gcc-12
#                          is not the kernel's)
#   trixie-cloud, bookworm-cloud
#            the trixie and bookworm roots' second kernel,           the cloud smoke set
#            linux-image-cloud-amd64: the kernel of Debian's own
#            cloud images, trimmed (no 9p: its guests mount their
#            root and /job over virtiofs, kernel_shares)
#   trixie-arm64-cloud, bookworm-arm64-cloud
#            the arm64 roots' second kernel,                         the arm64 cloud
#            linux-image-cloud-arm64 of the same ABI (Debian's       smoke set
#            arm64 cloud images), built for as the arm64 one
#            and mounting its shares as the amd64 cloud one
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
	6.1-arm64) echo bookworm-arm64 ;;
	6.12-cloud-arm64) echo trixie-arm64-cloud ;;
	6.1-cloud-arm64) echo bookworm-arm64-cloud ;;
	*) echo "unknown kernel '$1' (known: 6.12 6.1 6.12-deb12 6.12-cloud 6.1-cloud 6.12-arm64 6.1-arm64 6.12-cloud-arm64 6.1-cloud-arm64)" >&2; return 1 ;;
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
	*-arm64-cloud) echo cloud-arm64 ;;
	*-cloud) echo cloud-amd64 ;;
	*-arm64) echo arm64 ;;
	*) echo amd64 ;;
	esac
}

# target_arch ROOT: the Debian architecture of a root (or of the target
# booting it, or of a kernel release).
target_arch() {
	case $1 in
	*-arm64 | *-arm64-cloud) echo arm64 ;;
	*) echo amd64 ;;
	esac
}

# target_build_root TARGET: the root its module and test programs are built
# in: its own, or for an arm64 target the amd64 root of its suite, whose
# cross compiler and arm64 headers root-cross.sh installs (an arm64 root's
# compiler cannot run on the host); that root's kernel ABI is the one the
# arm64 root boots (mkroot-arm64.sh).
target_build_root() {
	case $1 in
	*-arm64 | *-arm64-cloud) echo "${1%%-arm64*}" ;;
	*) target_root "$1" ;;
	esac
}

# target_suite ROOT: the Debian suite a build root is made from.
target_suite() {
	case $1 in
	trixie | trixie-arm64) echo trixie ;;
	bookworm | bookworm-612 | bookworm-arm64) echo bookworm ;;
	*) echo "no build root '$1'" >&2; return 1 ;;
	esac
}

# What differs between the suites for their arm64 kernels, in one place
# (root-cross.sh, mkroot-arm64.sh, suite.sh, build.sh):

# suite_gcc SUITE: the gcc version its kernels are built with (its headers
# name it: .kernelvariables), native or cross.
suite_gcc() {
	case $1 in
	trixie) echo 14 ;;
	bookworm) echo 12 ;;
	*) echo "no compiler known for suite '$1'" >&2; return 1 ;;
	esac
}

# arch_gnu_type ARCH: the GNU triplet of a Debian architecture, the prefix
# of its cross tools.
arch_gnu_type() {
	case $1 in
	amd64) echo x86_64-linux-gnu ;;
	arm64) echo aarch64-linux-gnu ;;
	*) echo "no GNU type known for '$1'" >&2; return 1 ;;
	esac
}

# suite_cross_packages SUITE ARCH: what an amd64 root of SUITE installs to
# build for ARCH: the kernels' compiler built as a cross compiler (an amd64
# package of the suite), and the C library of ARCH for the static test
# programs.
suite_cross_packages() {
	echo "gcc-$(suite_gcc "$1")-$(arch_gnu_type "$2") libc6-dev-$2-cross"
}

# suite_cross_cc SUITE ARCH: that compiler's command (aarch64-linux-gnu-gcc-12).
suite_cross_cc() {
	echo "$(arch_gnu_type "$2")-gcc-$(suite_gcc "$1")"
}

# cross_make_env ROOTARCH KVER: what a build in a root of ROOTARCH for the
# kernel KVER puts in make's environment, none where their architectures
# agree: else the variables dpkg-architecture -a sets for a cross build.
# Debian 12's headers name their compiler by them (.kernelvariables:
# CROSS_COMPILE = $(DEB_HOST_GNU_TYPE)- where DEB_BUILD_ARCH and
# DEB_HOST_ARCH differ, and with neither set, none: the root's own gcc-12
# given ARCH=arm64); Debian 13's set CROSS_COMPILE themselves, and these
# change nothing there.
cross_make_env() {
	local host
	host=$(target_arch "$2")
	[ "$host" = "$1" ] && return 0
	echo "DEB_BUILD_ARCH=$1 DEB_BUILD_GNU_TYPE=$(arch_gnu_type "$1")" \
		"DEB_HOST_ARCH=$host DEB_HOST_GNU_TYPE=$(arch_gnu_type "$host")"
}

# cross_cc_is_kernels ROOTDIR SUITE KVER: whether the cross compiler of
# SUITE in the build root ROOTDIR is the very compiler the arm64 kernel
# KVER was built with: its version text (its headers' .config) less the
# command's name.  Debian 13's is; Debian 12's is not (gcc-12 12.2.0-14,
# its kernels' 12.2.0-14+deb12u1): the module for such a kernel is built
# in its guest (guest-build.sh).
cross_cc_is_kernels() {
	local want have
	want=$(sed -n 's/^CONFIG_CC_VERSION_TEXT="[^ ]* \(.*\)"$/\1/p' \
		"$1/usr/src/linux-headers-$3/.config")
	have=$(chroot "$1" "$(suite_cross_cc "$2" "$(target_arch "$3")")" --version | head -n 1 |
		cut -d' ' -f2-)
	[ -n "$want" ] && [ "$want" = "$have" ]
}

# suite_kbuild_package SUITE ABI: the package of the host tools an ABI's
# headers link scripts/ and tools/ to: per ABI in trixie
# (linux-kbuild-6.12.118+deb13), per line in bookworm (linux-kbuild-6.1).
suite_kbuild_package() {
	case $1 in
	bookworm) echo "linux-kbuild-$(echo "$2" | cut -d. -f1,2)" ;;
	*) echo "linux-kbuild-$2" ;;
	esac
}

# suite_kernel_deps SUITE: what an arm64 root's kernel packages (image,
# headers, kbuild) depend on beside the guests' own list, which debootstrap
# resolves for mkroot-arm64.sh: trixie's kbuild needs libelf1t64 and
# pahole, bookworm's libelf1 (and libssl3, which openssl brings), and no
# pahole, which its amd64 root has not either: the two builds that
# dkms_in_the_guest_builds_the_module_the_tests_load compares see the same
# tools.
suite_kernel_deps() {
	case $1 in
	trixie) echo linux-base libelf1t64 pahole ;;
	bookworm) echo linux-base libelf1 ;;
	*) echo "no kernel dependencies known for suite '$1'" >&2; return 1 ;;
	esac
}

# deb_unpack DEB DIR: unpack a package into a tree as dpkg-deb -x does, but
# through the tree's merged-/usr links: bookworm's packages still ship
# ./bin and ./lib (busybox-static, the kernel's image and headers), and
# dpkg-deb -x (GNU tar underneath) would replace a root's bin -> usr/bin
# with a directory holding just those files, leaving the root without a
# shell or a dynamic loader.
deb_unpack() {
	dpkg-deb --fsys-tarfile "$1" | tar -x -C "$2" --keep-directory-symlink
}

# tree_digest DIR: a digest of a tree's names and contents (not its times
# or owners): the shipped tree a guest build was made from.
tree_digest() {
	tar -c --sort=name --mtime=@0 --owner=0 --group=0 --numeric-owner -C "$1" . |
		sha256sum | cut -c1-16
}

# suite_archives SUITE: where deb-fetch.sh looks for a package of SUITE, as
# "ARCHIVE SUITE" lines, in order: the security updates, where each kernel
# ABI comes out (and where the amd64 roots' kernels come from: mkroot.sh),
# then the suite itself, which has an ABI only once a point release has
# taken it in (when this was written, the bookworm root's 6.1.0-56 was in
# bookworm-security alone).
suite_archives() {
	echo "debian-security $1-security"
	echo "debian $1"
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
# 6.12's and a module of 6.1's, on both architectures).
kernel_shares() {
	case $1 in
	*-cloud-amd64 | *-cloud-arm64) echo virtiofs ;;
	*) echo 9p ;;
	esac
}

# target_label TARGET KVER: how results name it: the kernel line, and the
# Debian release where one line is tested on two.
target_label() {
	case $1 in
	bookworm-612) echo "$(echo "$2" | cut -d. -f1,2)-deb12" ;;
	*-arm64-cloud) echo "$(echo "$2" | cut -d. -f1,2)-cloud-arm64" ;;
	*-cloud) echo "$(echo "$2" | cut -d. -f1,2)-cloud" ;;
	*-arm64) echo "$(echo "$2" | cut -d. -f1,2)-arm64" ;;
	*) echo "$2" | cut -d. -f1,2 ;;
	esac
}

# The smoke set: installed as the README says, loaded, self-tested, pages
# verified with the switch flipped and beside stock's final frees, and the
# refusals.
SMOKE_TESTS="readme_install_steps_work_as_written loads_and_unloads_cleanly self_tests_pass
resolved_symbols_match_the_symbol_table swapped_pages_verify switch_under_load_loses_nothing stock_final_free_never_races
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
resolved_symbols_match_the_symbol_table swapped_pages_verify refuses_owned_hooks refuses_unknown_kernels"

# An arm64 target's smoke set: the same, but that DKMS installs in the
# guest, since the host cannot run an arm64 root's DKMS (suite.sh skips the
# tests that install on the host), and checks there that it builds the
# module the other tests load, which was built outside its DKMS; and the
# check of the swap device table at each swapon, which on arm64 6.1 holds
# a table found from code.
SMOKE_TESTS_ARM64="dkms_in_the_guest_builds_the_module_the_tests_load loads_and_unloads_cleanly
self_tests_pass resolved_symbols_match_the_symbol_table swapped_pages_verify
switch_under_load_loses_nothing stock_final_free_never_races refuses_owned_hooks
refuses_unknown_kernels misfound_swap_table_is_never_served_from"

# An arm64 cloud kernel's smoke set: the cloud set, with DKMS in the guest
# in place of the install on the host, as on arm64, and the swap device
# table's check (6.1's cloud-arm64 lists no variables in kallsyms either).
SMOKE_TESTS_CLOUD_ARM64="dkms_in_the_guest_builds_the_module_the_tests_load loads_and_unloads_cleanly
self_tests_pass resolved_symbols_match_the_symbol_table swapped_pages_verify refuses_owned_hooks
refuses_unknown_kernels misfound_swap_table_is_never_served_from"

# target_tests TARGET ALL...: the tests it runs, of ALL.  An arm64 target
# runs its smoke set in the default make check (CHECK_DEFAULT_KERNELS=1),
# and all of ALL when KERNELS names it; a cloud target, its smoke set.
target_tests() {
	local target=$1 t smoke=
	shift
	case $target in
	bookworm-612) smoke=$SMOKE_TESTS ;;
	*-arm64-cloud) smoke=$SMOKE_TESTS_CLOUD_ARM64 ;;
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
