# SPDX-License-Identifier: GPL-2.0
#
#   make                       build clusterswap.ko for the running kernel
#   make KERNELRELEASE=R       ... for kernel R (headers in /lib/modules/R/build)
#   make KDIR=DIR              ... against the kernel build tree DIR
#   make CS_SELFTEST=y         a test build: self-tests of the pure logic at load
#   make CS_BENCH=passthrough  make bench's build: redirects that only call the originals
#   make check                 the whole test suite (installs what it needs,
#                              boots the stock Debian kernels in QEMU)
#   make check-host            only the host-side part: build per kernel, static checks
#   make check-debug           the in-VM suite on a debug (lockdep, KASAN) 6.12 kernel
#   make deb                   build/clusterswap-dkms_<version>_all.deb (dh-dkms)
#   make bench                 stock vs clusterswap on the same VM
#   make bench-bundle          build/clusterswap-bench.tar.xz: make bench for any
#                              x86-64 host, QEMU and kernels included
#   make bench-locks           si->lock holds per allocation, workload by workload
#   make crash-rate            guest deaths under multi-threaded TCG, with
#                              clusterswap and without (tests/crashrate.sh)
#   make demo                  see it working
#   make clean

KERNELRELEASE ?= $(shell uname -r)
KDIR ?= /lib/modules/$(KERNELRELEASE)/build

# What users get (DKMS, the Debian package, the tree the tests install): the
# one list of shipped paths.  debian/rules and tests/ship-tree.sh read it with
# "make -s shipped".
SHIPPED := Kbuild Makefile dkms.conf README.md module include

all: modules

modules:
	$(MAKE) -C $(KDIR) M=$(CURDIR) $(if $(CS_SELFTEST),CS_SELFTEST=$(CS_SELFTEST)) \
		$(if $(CS_BENCH),CS_BENCH=$(CS_BENCH)) modules

# What a build leaves here, removed without the kernel tree: DKMS (Debian 12's)
# cleans before and after every build, and Kbuild's own clean would read the
# kernel's makefiles again each time for nothing.
clean:
	rm -f *.o *.ko *.mod *.mod.c .*.cmd .module-common.o modules.order Module.symvers
	find module \( -name '*.o' -o -name '.*.cmd' -o -name '*.o.d' \) -delete

shipped:
	@echo $(SHIPPED)

check:
	tests/check.sh all

check-host:
	tests/check.sh host

check-debug:
	tests/check-debug.sh

deb:
	tests/deb.sh

bench:
	tests/bench.sh

bench-locks:
	BENCH_LOCKS=1 tests/bench.sh

bench-bundle:
	tests/bench/bundle.sh

crash-rate:
	tests/crashrate.sh

demo:
	tests/demo.sh

.PHONY: all modules clean shipped check check-host check-debug deb bench bench-bundle bench-locks crash-rate demo
