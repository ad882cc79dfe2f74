// SPDX-License-Identifier: GPL-2.0
/*
 * hibslots: allocate swap slots the way hibernation does, and free them.
 *
 *   hibslots [-n SLOTS] [-a] [-C CLUSTER]
 *
 * Opens /dev/snapshot for hibernating (the resume device, set in
 * /sys/power/resume, must be an active swap device) and asks for SLOTS swap
 * slots with SNAPSHOT_ALLOC_SWAP_PAGE: each comes from alloc_swapdev_block(),
 * that is from get_swap_page_of_type(), exactly as the kernel's own image
 * writer gets them.  No task is frozen and no device suspended.  Checks that
 * no slot is handed out twice, then frees them all (SNAPSHOT_FREE_SWAP_PAGES,
 * free_all_swap_pages()).  Prints the slots allocated and the time it took.
 * With -a it asks until swap has no slot left (the allocation's ENOSPC),
 * SLOTS at most, and any number of slots is enough.  With -C it also prints
 * the clusters of CLUSTER slots each that its slots came from, as
 * "hibslots: clusters I J ..." (each index once, in ascending order).
 * Exit status: 0 SLOTS distinct slots allocated and freed (with -a: distinct
 * slots until ENOSPC); 1 a slot handed out twice, fewer slots than asked, or
 * (-a) an error other than ENOSPC; 2 a setup error.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/ioctl.h>
#include <time.h>
#include <unistd.h>
#include <linux/suspend_ioctls.h>

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

static int by_value(const void *a, const void *b)
{
	unsigned long x = *(const unsigned long *)a, y = *(const unsigned long *)b;

	return x < y ? -1 : x > y;
}

int main(int argc, char **argv)
{
	unsigned long n = 10000, got = 0, dup = 0;
	__kernel_loff_t off, avail = 0;
	unsigned long *slots;
	uint8_t *seen;
	size_t bits = 1UL << 30;	/* slot offsets up to 4 TiB of swap */
	double t0, t;
	unsigned long cluster = 0;
	int opt, fd, until_full = 0, full = 0;

	while ((opt = getopt(argc, argv, "n:aC:")) != -1) {
		switch (opt) {
		case 'n': n = strtoul(optarg, NULL, 0); break;
		case 'a': until_full = 1; break;
		case 'C': cluster = strtoul(optarg, NULL, 0); break;
		default:
			fprintf(stderr, "usage: hibslots [-n slots] [-a] [-C cluster]\n");
			return 2;
		}
	}
	seen = calloc(bits / 8, 1);
	slots = calloc(n, sizeof(*slots));
	fd = open("/dev/snapshot", O_RDONLY);
	if (fd < 0 || !seen || !slots) {
		perror("hibslots: open /dev/snapshot");
		return 2;
	}
	if (ioctl(fd, SNAPSHOT_AVAIL_SWAP_SIZE, &avail))
		perror("hibslots: SNAPSHOT_AVAIL_SWAP_SIZE");
	t0 = now();
	while (got < n) {
		unsigned long slot;

		if (ioctl(fd, SNAPSHOT_ALLOC_SWAP_PAGE, &off)) {
			full = errno == ENOSPC;
			if (!until_full || !full)
				perror("hibslots: SNAPSHOT_ALLOC_SWAP_PAGE");
			break;
		}
		slot = off / 4096;
		if (slot >= bits || (seen[slot / 8] & (1 << slot % 8))) {
			if (!dup)
				printf("hibslots: slot %lu handed out twice\n", slot);
			dup++;
		} else {
			seen[slot / 8] |= 1 << slot % 8;
		}
		slots[got++] = slot;
	}
	t = now() - t0;
	if (ioctl(fd, SNAPSHOT_FREE_SWAP_PAGES)) {
		perror("hibslots: SNAPSHOT_FREE_SWAP_PAGES");
		return 2;
	}
	close(fd);
	if (cluster) {
		unsigned long last = (unsigned long)-1;

		qsort(slots, got, sizeof(*slots), by_value);
		printf("hibslots: clusters");
		for (unsigned long i = 0; i < got; i++) {
			if (slots[i] / cluster == last)
				continue;
			last = slots[i] / cluster;
			printf(" %lu", last);
		}
		printf("\n");
	}
	printf("hibslots: allocated %lu of %lu slots (%lld bytes of swap were free) in %.0f ms, %lu twice%s\n",
	       got, n, (long long)avail, t * 1000, dup, full ? ", then no slot left" : "");
	if (dup)
		return 1;
	return (until_full ? full || got == n : got == n) ? 0 : 1;
}
