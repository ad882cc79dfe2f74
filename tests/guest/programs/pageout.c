// SPDX-License-Identifier: GPL-2.0
/*
 * pageout: MADV_PAGEOUT a known region, prove it left memory, read it back.
 *
 *   pageout [-m MIB] [-s SEED] [-a] [-w SECONDS] [-1] [-H]
 *
 * Fills MIB MiB of private anonymous memory with a per-page pattern, asks the
 * kernel to page it out with madvise(MADV_PAGEOUT), counts with mincore() the
 * pages still resident, then verifies every byte after swap-in.
 * With -w it prints "pageout: paged out" and waits SECONDS before verifying
 * (the caller inspects swap meanwhile), or until SIGUSR1 says the caller is
 * done.  With -a any number of pages may stay resident (swap too small:
 * those got no slot).
 * Exit status: 0 when at least 99% of the pages left memory (any number with
 * -a) and every page verified; 1 otherwise; 2 on a setup error.
 * With -1 it works one page at a time: page out page p, check with mincore()
 * that it left, read it back (on zram the swap-in frees its slot at once),
 * then page p + 1: the swap slot of each page is freed before the next one
 * is taken.  Every page is verified again at the end.
 * With -H the region is aligned to 2 MiB and transparent huge pages are not
 * refused (default: MADV_NOHUGEPAGE), so that the per-size settings in
 * /sys/kernel/mm/transparent_hugepage decide the folio size (64 KiB mTHP).
 */
#define _GNU_SOURCE
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
#define ALIGN (2UL << 20)

/* SIGUSR1 during -w: nothing to do but end the wait. */
static void on_usr1(int sig)
{
	(void)sig;
}

static uint64_t word(uint64_t seed, size_t page, size_t i)
{
	return (seed * 0x9e3779b97f4a7c15ULL) ^ (page << 20) ^ (i * 0xff51afd7ed558ccdULL);
}

/* 0 if page @p holds its pattern; else prints the first bad word (once). */
static int page_bad(const uint64_t *mem, uint64_t seed, size_t p, size_t *bad)
{
	for (size_t i = 0; i < PAGE / 8; i++) {
		uint64_t want = word(seed, p, i), got = mem[p * PAGE / 8 + i];

		if (got == want)
			continue;
		if (!*bad)
			printf("pageout: first bad page %zu word %zu expected %#llx found %#llx\n",
			       p, i, (unsigned long long)want, (unsigned long long)got);
		(*bad)++;
		return 1;
	}
	return 0;
}

int main(int argc, char **argv)
{
	size_t mib = 32, npages, resident = 0, bad = 0;
	uint64_t seed = 7;
	unsigned char *vec;
	uint64_t *mem;
	int opt, any_resident = 0, one = 0, large = 0;
	unsigned int wait_s = 0;

	while ((opt = getopt(argc, argv, "m:s:aw:1H")) != -1) {
		switch (opt) {
		case 'm': mib = strtoul(optarg, NULL, 0); break;
		case 's': seed = strtoull(optarg, NULL, 0); break;
		case 'a': any_resident = 1; break;
		case 'w': wait_s = strtoul(optarg, NULL, 0); break;
		case '1': one = 1; break;
		case 'H': large = 1; break;
		default:
			fprintf(stderr, "usage: pageout [-m MiB] [-s seed] [-a] [-w seconds] [-1] [-H]\n");
			return 2;
		}
	}
	npages = (mib << 20) / PAGE;
	mem = mmap(NULL, npages * PAGE + (large ? ALIGN : 0), PROT_READ | PROT_WRITE,
		   MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	vec = malloc(npages);
	if (mem == MAP_FAILED || !vec) {
		perror("pageout: setup");
		return 2;
	}
	if (large)
		mem = (uint64_t *)(((uintptr_t)mem + ALIGN - 1) & ~(ALIGN - 1));
	else
		madvise(mem, npages * PAGE, MADV_NOHUGEPAGE);
	for (size_t p = 0; p < npages; p++)
		for (size_t i = 0; i < PAGE / 8; i++)
			mem[p * PAGE / 8 + i] = word(seed, p, i);

	if (one) {
		for (size_t p = 0; p < npages; p++) {
			unsigned char *page = (unsigned char *)mem + p * PAGE;

			if (madvise(page, PAGE, MADV_PAGEOUT) || mincore(page, PAGE, vec + p)) {
				perror("pageout: madvise(MADV_PAGEOUT) or mincore of one page");
				return 2;
			}
			resident += vec[p] & 1;
			page_bad(mem, seed, p, &bad);
		}
	} else {
		if (madvise(mem, npages * PAGE, MADV_PAGEOUT)) {
			perror("pageout: madvise(MADV_PAGEOUT)");
			return 2;
		}
		if (mincore(mem, npages * PAGE, vec)) {
			perror("pageout: mincore");
			return 2;
		}
		for (size_t p = 0; p < npages; p++)
			resident += vec[p] & 1;
	}
	if (wait_s) {
		/* Before the line the caller waits for: its SIGUSR1 ends the wait. */
		signal(SIGUSR1, on_usr1);
		printf("pageout: paged out, %zu of %zu pages resident; waiting %us\n",
		       resident, npages, wait_s);
		fflush(stdout);
		/* A signal's handler ends sleep() early. */
		sleep(wait_s);
	}

	for (size_t p = 0; p < npages; p++)
		page_bad(mem, seed, p, &bad);
	printf("pageout: pages=%zu resident_after_pageout=%zu bad_pages=%zu\n",
	       npages, resident, bad);
	if (!any_resident && resident * 100 > npages) {
		printf("pageout: more than 1%% of the pages stayed resident\n");
		return 1;
	}
	return bad ? 1 : 0;
}
