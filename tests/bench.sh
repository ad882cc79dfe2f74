#!/bin/bash
# make bench: not yet.  The allocator itself has not landed; until it does
# there is nothing to compare with the stock allocator.
echo "make bench: not yet; the cluster allocator has not landed (the hooks pass every call to stock code)"
