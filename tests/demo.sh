#!/bin/bash
# make demo: not yet.  It will boot Debian 13's stock kernel in QEMU, install
# clusterswap through DKMS inside it, put it under swap pressure and show the
# debugfs views (see the project's issue list).  Until then, `make check`
# shows the module working on both target kernels.
echo "make demo: not yet; run 'make check' to see clusterswap tested on Debian 13 (6.12) and Debian 12 (6.1) kernels"
