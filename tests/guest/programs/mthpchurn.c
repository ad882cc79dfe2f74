// SPDX-License-Identifier: GPL-2.0
/*
 * mthpchurn: keep a swap device nearly full of large folios beside small
 * ones, rewriting, discarding and paging out parts of it round after round,
 * and verify every page.
 *
 *   mthpchurn [-m MIB] [-k MIB] [-r ROUNDS] [-s SEED]
 *
 * Maps MIB MiB (default 32) aligned to 2 MiB with transparent huge pages
 * allowed (the per-size settings decide: 64 KiB mTHP when that size is
 * "always"), and KIB MiB (default 4) of small folios (MADV_NOHUGEPAGE);
 * writes both and pages them out.  Then each round, for each 64 KiB of the
 * large region, by a pseudo-random draw (a quarter each): leaves it in
 * swap; reads and verifies it, then writes it anew; discards it with
 * MADV_DONTNEED and writes it anew (a fresh 64 KiB folio); or discards its
 * first half and writes it anew (the second half comes back from swap).
 * The small region is verified and written anew, and both are paged out
 * again.  So the device keeps most of the data while freed slots are left
 * scattered over it, and each round's fresh 64 KiB folios need 64 KiB
 * ranges in what is left.  At the end every page is verified.
 * Exit status: 0 every page verified; 1 a bad page (the first is printed);
 * 2 a setup error.
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

/* Writes page @p of @mem with generation @gen's pattern. */
static void fill_page(uint64_t *mem, size_t p, uint64_t gen)
{
	for (size_t i = 0; i < PAGE / 8; i++)
		mem[p * PAGE / 8 + i] = word(gen, p, i);
}

/* Page @p of @mem: 0 if it holds generation @gen, else 1 (the first is printed). */
static size_t page_bad(const uint64_t *mem, size_t p, uint64_t gen, const char *what,
		       unsigned int round, size_t bad)
{
	for (size_t i = 0; i < PAGE / 8; i++) {
		uint64_t want = word(gen, p, i), got = mem[p * PAGE / 8 + i];

		if (got == want)
			continue;
		if (!bad)
			printf("mthpchurn: round %u: first bad page %zu of the %s region, word %zu: expected %#llx found %#llx\n",
			       round, p, what, i, (unsigned long long)want, (unsigned long long)got);
		return 1;
	}
	return 0;
}

static int page_out(void *mem, size_t len)
{
	if (!madvise(mem, len, MADV_PAGEOUT))
		return 0;
	perror("mthpchurn: MADV_PAGEOUT");
	return 2;
}

int main(int argc, char **argv)
{
	size_t mib = 32, small_mib = 4, nlarge, nsmall, nchunks, bad = 0;
	const size_t cp = CHUNK / PAGE;	/* pages per chunk */
	unsigned int rounds = 12, r;
	uint64_t seed = 11, draw, *gen, small_gen;
	uint64_t *large, *small;
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
	nchunks = nlarge / cp;
	raw = mmap(NULL, nlarge * PAGE + ALIGN, PROT_READ | PROT_WRITE,
		   MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	small = mmap(NULL, nsmall * PAGE, PROT_READ | PROT_WRITE,
		     MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	gen = calloc(nchunks, sizeof(*gen));
	if (raw == MAP_FAILED || small == MAP_FAILED || !gen) {
		perror("mthpchurn: setup");
		return 2;
	}
	large = (uint64_t *)(((uintptr_t)raw + ALIGN - 1) & ~(ALIGN - 1));
	madvise(small, nsmall * PAGE, MADV_NOHUGEPAGE);

	for (size_t p = 0; p < nlarge; p++)
		fill_page(large, p, seed);
	for (size_t c = 0; c < nchunks; c++)
		gen[c] = seed;
	small_gen = ~seed;
	for (size_t p = 0; p < nsmall; p++)
		fill_page(small, p, small_gen);
	if (page_out(large, nlarge * PAGE) || page_out(small, nsmall * PAGE))
		return 2;

	draw = seed;
	for (r = 1; r <= rounds && !bad; r++) {
		for (size_t c = 0; c < nchunks && !bad; c++) {
			char *chunk = (char *)large + c * CHUNK;

			draw = draw * 6364136223846793005ULL + 1442695040888963407ULL;
			switch (draw >> 62) {
			case 0:		/* left in swap */
				continue;
			case 1:		/* swapped in, verified */
				for (size_t p = c * cp; p < (c + 1) * cp; p++)
					bad += page_bad(large, p, gen[c], "large", r, bad);
				break;
			case 2:		/* a fresh folio */
				madvise(chunk, CHUNK, MADV_DONTNEED);
				break;
			default:	/* half fresh, half from swap (verified) */
				madvise(chunk, CHUNK / 2, MADV_DONTNEED);
				for (size_t p = c * cp + cp / 2; p < (c + 1) * cp; p++)
					bad += page_bad(large, p, gen[c], "large", r, bad);
				break;
			}
			gen[c] = seed + r;
			for (size_t p = c * cp; p < (c + 1) * cp; p++)
				fill_page(large, p, gen[c]);
		}
		for (size_t p = 0; p < nsmall; p++)
			bad += page_bad(small, p, small_gen, "small", r, bad);
		small_gen = ~(seed + r);
		for (size_t p = 0; p < nsmall; p++)
			fill_page(small, p, small_gen);
		if (page_out(large, nlarge * PAGE) || page_out(small, nsmall * PAGE))
			return 2;
	}
	for (size_t p = 0; p < nlarge; p++)
		bad += page_bad(large, p, gen[p / cp], "large", r, bad);
	for (size_t p = 0; p < nsmall; p++)
		bad += page_bad(small, p, small_gen, "small", r, bad);
	printf("mthpchurn: %u rounds of %zu + %zu MiB, %zu bad pages\n", rounds, mib, small_mib, bad);
	return bad ? 1 : 0;
}
