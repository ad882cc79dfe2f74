// SPDX-License-Identifier: GPL-2.0
/*
 * holes: leave a swap device full of scattered free slots, hold the rest,
 * and prove it intact at the end.
 *
 *   holes [-m MIB] [-s SEED]
 *
 * Fills MIB MiB of private anonymous memory (no THP) with a per-page
 * pattern, pages it all out with MADV_PAGEOUT (what finds no slot stays
 * resident), then frees every other page with MADV_DONTNEED: their swap
 * slots are freed one by one, scattered over every cluster.  Prints
 * "holes: ready" with the pages it kept, how many of them are in swap
 * (their page table entry holds a swap entry: /proc/self/pagemap) and how
 * many resident, then waits for SIGUSR1, and verifies every page it kept.
 * Exit status: 0 every kept page verified; 1 a bad page (the first is
 * printed); 2 a setup error.
 */
#define _GNU_SOURCE
#include <fcntl.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <unistd.h>

#ifndef MADV_PAGEOUT
#define MADV_PAGEOUT 21
#endif

#define PAGE 4096UL

static volatile sig_atomic_t go;

static void on_usr1(int sig)
{
	(void)sig;
	go = 1;
}

static uint64_t word(uint64_t seed, size_t page, size_t i)
{
	return (seed * 0x9e3779b97f4a7c15ULL) ^ (page << 20) ^ (i * 0xff51afd7ed558ccdULL) ^ 1;
}

int main(int argc, char **argv)
{
	size_t mib = 32, npages, resident = 0, swapped = 0, bad = 0;
	uint64_t seed = 5;
	unsigned char *vec;
	uint64_t *mem;
	sigset_t set, old;
	int opt, pagemap;

	while ((opt = getopt(argc, argv, "m:s:")) != -1) {
		switch (opt) {
		case 'm': mib = strtoul(optarg, NULL, 0); break;
		case 's': seed = strtoull(optarg, NULL, 0); break;
		default:
			fprintf(stderr, "usage: holes [-m MiB] [-s seed]\n");
			return 2;
		}
	}
	setvbuf(stdout, NULL, _IOLBF, 0);
	sigemptyset(&set);
	sigaddset(&set, SIGUSR1);
	sigprocmask(SIG_BLOCK, &set, &old);
	signal(SIGUSR1, on_usr1);

	npages = mib << 20 >> 12;
	mem = mmap(NULL, npages * PAGE, PROT_READ | PROT_WRITE,
		   MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	vec = malloc(npages);
	if (mem == MAP_FAILED || !vec) {
		perror("holes: mmap");
		return 2;
	}
	madvise(mem, npages * PAGE, MADV_NOHUGEPAGE);
	for (size_t p = 0; p < npages; p++)
		for (size_t i = 0; i < PAGE / 8; i++)
			mem[p * PAGE / 8 + i] = word(seed, p, i);
	if (madvise(mem, npages * PAGE, MADV_PAGEOUT)) {
		perror("holes: MADV_PAGEOUT");
		return 2;
	}
	for (size_t p = 1; p < npages; p += 2)
		madvise((char *)mem + p * PAGE, PAGE, MADV_DONTNEED);
	mincore(mem, npages * PAGE, vec);
	pagemap = open("/proc/self/pagemap", O_RDONLY);
	if (pagemap < 0) {
		perror("holes: /proc/self/pagemap");
		return 2;
	}
	for (size_t p = 0; p < npages; p += 2) {
		uint64_t entry;
		off_t at = ((uintptr_t)mem / PAGE + p) * sizeof(entry);

		resident += vec[p] & 1;
		if (pread(pagemap, &entry, sizeof(entry), at) != sizeof(entry)) {
			perror("holes: reading pagemap");
			return 2;
		}
		swapped += (entry >> 62) & 1;
	}
	close(pagemap);
	printf("holes: ready: kept %zu pages, %zu in swap, %zu resident\n",
	       (npages + 1) / 2, swapped, resident);

	while (!go)
		sigsuspend(&old);

	for (size_t p = 0; p < npages; p += 2) {
		for (size_t i = 0; i < PAGE / 8; i++) {
			if (mem[p * PAGE / 8 + i] == word(seed, p, i))
				continue;
			if (!bad)
				printf("holes: first bad page %zu word %zu: expected %#llx found %#llx\n",
				       p, i, (unsigned long long)word(seed, p, i),
				       (unsigned long long)mem[p * PAGE / 8 + i]);
			bad++;
			break;
		}
	}
	printf("holes: verified %zu pages, %zu bad\n", (npages + 1) / 2, bad);
	return bad ? 1 : 0;
}
