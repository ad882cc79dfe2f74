// SPDX-License-Identifier: GPL-2.0
/*
 * mthpchurn: write, partly discard and page out large folios beside small
 * ones, round after round, and verify every page each round.
 *
 *   mthpchurn [-m MIB] [-k MIB] [-r ROUNDS] [-s SEED]
 *
 * Maps MIB MiB (default 60) aligned to 2 MiB with transparent huge pages
 * allowed (the per-size settings decide: 64 KiB mTHP when that size is
 * "always"), and KIB MiB (default 4) of small folios (MADV_NOHUGEPAGE).
 * Each round writes a round-specific pattern into every page (a page
 * discarded the round before faults in afresh: a 64 KiB folio where its
 * whole 64 KiB was discarded), discards with MADV_DONTNEED, in each 64 KiB
 * of the large region, nothing, its first half or all of it (a third each,
 * by a pseudo-random draw), pages both regions out with MADV_PAGEOUT, then
 * reads back and verifies every page it kept (a discarded page is not
 * touched, so that it does not map the zero page).
 * Exit status: 0 every page verified in every round; 1 a bad page (the
 * first is printed); 2 a setup error.
 */
#define _GNU_SOURCE
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
#define CHUNK (64UL << 10)

static uint64_t word(uint64_t seed, size_t page, size_t i)
{
	return (seed * 0x9e3779b97f4a7c15ULL) ^ (page << 20) ^ (i * 0xff51afd7ed558ccdULL) ^ 3;
}

static void fill(uint64_t *mem, size_t npages, uint64_t seed)
{
	for (size_t p = 0; p < npages; p++)
		for (size_t i = 0; i < PAGE / 8; i++)
			mem[p * PAGE / 8 + i] = word(seed, p, i);
}

/* Page @p of @mem: 0 if it holds its pattern, else 1 (the first is printed). */
static size_t page_bad(const uint64_t *mem, size_t p, uint64_t seed, const char *what,
		       unsigned int round, size_t bad)
{
	for (size_t i = 0; i < PAGE / 8; i++) {
		uint64_t want = word(seed, p, i), got = mem[p * PAGE / 8 + i];

		if (got == want)
			continue;
		if (!bad)
			printf("mthpchurn: round %u: first bad page %zu of the %s region, word %zu: expected %#llx found %#llx\n",
			       round, p, what, i, (unsigned long long)want, (unsigned long long)got);
		return 1;
	}
	return 0;
}

int main(int argc, char **argv)
{
	size_t mib = 60, small_mib = 4, nlarge, nsmall, bad = 0;
	unsigned int rounds = 20;
	uint64_t seed = 11, draw;
	uint64_t *large, *small;
	unsigned char *kept;
	char *raw;
	int opt;

	while ((opt = getopt(argc, argv, "m:k:r:s:")) != -1) {
		switch (opt) {
		case 'm': mib = strtoul(optarg, NULL, 0); break;
		case 'k': small_mib = strtoul(optarg, NULL, 0); break;
		case 'r': rounds = strtoul(optarg, NULL, 0); break;
		case 's': seed = strtoull(optarg, NULL, 0); break;
		default:
			fprintf(stderr, "usage: mthpchurn [-m MiB] [-k MiB] [-r rounds] [-s seed]\n");
			return 2;
		}
	}
	setvbuf(stdout, NULL, _IOLBF, 0);
	nlarge = (mib << 20) / PAGE;
	nsmall = (small_mib << 20) / PAGE;
	raw = mmap(NULL, nlarge * PAGE + ALIGN, PROT_READ | PROT_WRITE,
		   MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	small = mmap(NULL, nsmall * PAGE, PROT_READ | PROT_WRITE,
		     MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (raw == MAP_FAILED || small == MAP_FAILED) {
		perror("mthpchurn: mmap");
		return 2;
	}
	large = (uint64_t *)(((uintptr_t)raw + ALIGN - 1) & ~(ALIGN - 1));
	madvise(small, nsmall * PAGE, MADV_NOHUGEPAGE);
	kept = malloc(nlarge * PAGE / CHUNK);
	if (!kept) {
		perror("mthpchurn: malloc");
		return 2;
	}
	draw = seed;
	for (unsigned int r = 0; r < rounds && !bad; r++) {
		uint64_t s = seed + r;
		size_t chunk_pages = CHUNK / PAGE;

		fill(large, nlarge, s);
		fill(small, nsmall, ~s);
		for (size_t c = 0; c < nlarge / chunk_pages; c++) {
			draw = draw * 6364136223846793005ULL + 1442695040888963407ULL;
			/* 0: all kept; 1: the second half kept; 2: nothing kept. */
			kept[c] = (draw >> 33) % 3;
			if (kept[c])
				madvise((char *)large + c * CHUNK, kept[c] == 1 ? CHUNK / 2 : CHUNK,
					MADV_DONTNEED);
		}
		if (madvise(large, nlarge * PAGE, MADV_PAGEOUT) ||
		    madvise(small, nsmall * PAGE, MADV_PAGEOUT)) {
			perror("mthpchurn: MADV_PAGEOUT");
			return 2;
		}
		for (size_t p = 0; p < nlarge; p++) {
			unsigned char k = kept[p / chunk_pages];

			if (k == 0 || (k == 1 && p % chunk_pages >= chunk_pages / 2))
				bad += page_bad(large, p, s, "large", r, bad);
		}
		for (size_t p = 0; p < nsmall; p++)
			bad += page_bad(small, p, ~s, "small", r, bad);
	}
	printf("mthpchurn: %u rounds of %zu + %zu MiB, %zu bad pages\n", rounds, mib, small_mib, bad);
	return bad ? 1 : 0;
}
