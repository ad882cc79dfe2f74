#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# Hide, in a throwaway root, the kernel modules no test guest uses.
#
#   trim-modules.sh DIR     DIR: a kernel's modules, /lib/modules/KVER/kernel
#
# What stays: the subsystems a guest uses (memory, block, file systems,
# crypto, virtio, 9p).  The drivers for hardware no guest has, and sound
# and networking but 9p, are removed.  depmod, which DKMS and "apt purge"
# run, decompresses every module: under emulation that took 95 s for the
# 4,230 modules of Debian's 6.12 on amd64.  What DKMS and the package do is
# unchanged.  Only for a root that is thrown away after one guest: the
# install overlays of tests/vm/root-installed.sh (on the host) and a
# guest's own tmpfs overlay (in the guest, tests/guest/specs).
set -eu
mods=${1:?usage: trim-modules.sh /lib/modules/KVER/kernel}
[ -d "$mods/drivers" ] || { echo "trim-modules.sh: $mods has no drivers/" >&2; exit 1; }
for d in "$mods"/* "$mods"/drivers/* "$mods"/net/*; do
	case ${d#"$mods"/} in
	arch | block | crypto | fs | lib | mm | virt | drivers | drivers/block | drivers/char | \
		drivers/virtio | net | net/9p) ;;
	*) rm -rf "$d" ;;
	esac
done
