#!/bin/sh
# PID 1 in the guest: mount what the tests need, run /job/run.sh with its
# output in /job/out, then power off.  The host reads /job/out.
mount -t proc proc /proc
mount -t sysfs sysfs /sys
mount -t devtmpfs devtmpfs /dev 2>/dev/null
# What udev would add to devtmpfs: dkms uses process substitution (/dev/fd).
ln -sf /proc/self/fd /dev/fd
ln -sf /proc/self/fd/0 /dev/stdin
ln -sf /proc/self/fd/1 /dev/stdout
ln -sf /proc/self/fd/2 /dev/stderr
mkdir -p /dev/pts /dev/shm
mount -t devpts devpts /dev/pts
mount -t tmpfs tmpfs /dev/shm
mount -t tmpfs tmpfs /tmp
mount -t tmpfs tmpfs /run
mount -t debugfs debugfs /sys/kernel/debug
mount -t tracefs tracefs /sys/kernel/tracing 2>/dev/null
mount -t cgroup2 cgroup2 /sys/fs/cgroup
mount -t securityfs securityfs /sys/kernel/security 2>/dev/null
export PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin HOME=/root
# Module builds in the guest (dkms) go through the host's compiler cache, if
# it shares one: Debian's kernel headers put ccache in front of the compiler
# when DEBIAN_KERNEL_USE_CCACHE is set.
# Over 9p, or virtiofs as the root came (tests/vm/init).
mount_ccache() {
	case " $(cat /proc/cmdline) " in
	*" cs.shares=virtiofs "*) mount -t virtiofs ccache /var/cache/ccache ;;
	*) mount -t 9p -o trans=virtio,version=9p2000.L,msize=512000 ccache /var/cache/ccache ;;
	esac
}
# ccache's temporary files stay in the guest's memory, where its inode
# cache may keep the hash of each header between compiles (it needs a local
# file system; Debian 12's ccache has it off by default); and in its depend
# mode it takes the headers a compile read from the dependency file kbuild
# asks gcc for, instead of running the preprocessor first.  One object of
# the module, on 6.12 arm64 under emulation: from the cache 3.7 s before,
# 0.4 s so; compiled 24.5 s before, 15.6 s so (gcc alone 15.2 s).  The
# module's make with every object in the cache: 213 s before, 70 s with
# the temporary files in memory (61 s of it kbuild's own, compiling none).
if command -v ccache >/dev/null && mkdir -p /var/cache/ccache && mount_ccache 2>/dev/null; then
	export CCACHE_DIR=/var/cache/ccache DEBIAN_KERNEL_USE_CCACHE=1
	export CCACHE_TEMPDIR=/tmp/ccache CCACHE_INODECACHE=1 CCACHE_DEPEND=1
fi
mkdir -p /job/out
echo "guest: running /job/run.sh on $(uname -r)"
sh /job/run.sh >/job/out/console.log 2>&1
echo $? >/job/out/rc
dmesg >/job/out/dmesg.txt
sync
echo "guest: done (rc $(cat /job/out/rc)), powering off"
/bin/busybox poweroff -f
