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
if command -v ccache >/dev/null && mkdir -p /var/cache/ccache && mount_ccache 2>/dev/null; then
	export CCACHE_DIR=/var/cache/ccache DEBIAN_KERNEL_USE_CCACHE=1
fi
mkdir -p /job/out
echo "guest: running /job/run.sh on $(uname -r)"
sh /job/run.sh >/job/out/console.log 2>&1
echo $? >/job/out/rc
dmesg >/job/out/dmesg.txt
sync
echo "guest: done (rc $(cat /job/out/rc)), powering off"
/bin/busybox poweroff -f
