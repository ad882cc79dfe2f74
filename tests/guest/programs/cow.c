// SPDX-License-Identifier: GPL-2.0
/*
 * cow: swapped pages shared by fork, then copied on write, stay right in
 * parent and child.
 *
 *   cow [-m MIB] [-r ROUNDS] [-s SEED]
 *
 * The parent fills MIB MiB of private anonymous memory (pattern of "owner 0")
 * and pages it out (MADV_PAGEOUT), so that each page sits in swap with one
 * reference.  It forks: now each slot has two.  In each round both processes
 * page the region out again, verify every page, then write their own pattern
 * into their half of the pages (the parent the even pages, the child the odd
 * ones), which copies those pages on write; the other half stays shared.
 * Each process always knows what every page must hold: its own pattern for
 * pages it wrote, owner 0's for the rest.
 *
 * Prints the pages checked and the first bad page (process, page, word,
 * expected, found).  Exit status: 0 when both processes verified every page;
 * 1 on a mismatch; 2 on a setup error.
 */
#define _GNU_SOURCE
#include <inttypes.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <unistd.h>

#ifndef MADV_PAGEOUT
#define MADV_PAGEOUT 21
#endif

#define PAGE 4096UL
#define WORDS (PAGE / sizeof(uint64_t))

static uint64_t seed = 5;

static uint64_t word(unsigned int owner, unsigned int round, size_t page, size_t i)
{
	uint64_t x = (seed << 40) ^ ((uint64_t)owner << 32) ^ ((uint64_t)round << 24) ^ page;

	x *= 0x9e3779b97f4a7c15ULL;
	return x ^ (i * 0xff51afd7ed558ccdULL);
}

static void fill(uint64_t *p, unsigned int owner, unsigned int round, size_t page)
{
	for (size_t i = 0; i < WORDS; i++)
		p[i] = word(owner, round, page, i);
}

/* Returns the number of bad pages; prints the first. */
static size_t verify(const char *who, uint8_t *mem, size_t npages, unsigned int me,
		     unsigned int written)
{
	size_t bad = 0;

	for (size_t pg = 0; pg < npages; pg++) {
		const uint64_t *p = (const uint64_t *)(mem + pg * PAGE);
		/* Pages of my parity hold my last round's pattern once I wrote them. */
		int mine = written && (pg % 2 == me - 1);
		unsigned int owner = mine ? me : 0, round = mine ? written : 0;

		for (size_t i = 0; i < WORDS; i++) {
			if (p[i] == word(owner, round, pg, i))
				continue;
			if (!bad)
				printf("cow: first bad page: %s page %zu word %zu expected %#" PRIx64
				       " found %#" PRIx64 "\n", who, pg, i,
				       word(owner, round, pg, i), p[i]);
			bad++;
			break;
		}
	}
	return bad;
}

/* Page out, verify, then write my half. me: 1 parent (even), 2 child (odd). */
static size_t rounds(const char *who, uint8_t *mem, size_t npages, unsigned int me,
		     unsigned int nrounds)
{
	size_t bad = 0;

	for (unsigned int r = 1; r <= nrounds; r++) {
		madvise(mem, npages * PAGE, MADV_PAGEOUT);
		bad += verify(who, mem, npages, me, r - 1);
		for (size_t pg = me - 1; pg < npages; pg += 2)
			fill((uint64_t *)(mem + pg * PAGE), me, r, pg);
	}
	madvise(mem, npages * PAGE, MADV_PAGEOUT);
	bad += verify(who, mem, npages, me, nrounds);
	return bad;
}

int main(int argc, char **argv)
{
	size_t mib = 64, npages, bad;
	unsigned int nrounds = 3;
	uint8_t *mem;
	int opt, status;
	pid_t child;

	while ((opt = getopt(argc, argv, "m:r:s:")) != -1) {
		switch (opt) {
		case 'm': mib = strtoul(optarg, NULL, 0); break;
		case 'r': nrounds = strtoul(optarg, NULL, 0); break;
		case 's': seed = strtoull(optarg, NULL, 0); break;
		default:
			fprintf(stderr, "usage: cow [-m MIB] [-r ROUNDS] [-s SEED]\n");
			return 2;
		}
	}
	npages = mib * 1024 * 1024 / PAGE;
	mem = mmap(NULL, npages * PAGE, PROT_READ | PROT_WRITE,
		   MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (mem == MAP_FAILED) {
		perror("cow: mmap");
		return 2;
	}
	madvise(mem, npages * PAGE, MADV_NOHUGEPAGE);
	for (size_t pg = 0; pg < npages; pg++)
		fill((uint64_t *)(mem + pg * PAGE), 0, 0, pg);
	madvise(mem, npages * PAGE, MADV_PAGEOUT);

	fflush(stdout);
	child = fork();
	if (child < 0) {
		perror("cow: fork");
		return 2;
	}
	if (child == 0)
		_exit(rounds("child", mem, npages, 2, nrounds) ? 1 : 0);
	bad = rounds("parent", mem, npages, 1, nrounds);
	if (waitpid(child, &status, 0) != child) {
		perror("cow: waitpid");
		return 2;
	}
	printf("cow: %zu pages, %u rounds; parent bad %zu, child %s\n", npages, nrounds, bad,
	       WIFEXITED(status) && WEXITSTATUS(status) == 0 ? "ok" : "bad");
	return bad || !WIFEXITED(status) || WEXITSTATUS(status) ? 1 : 0;
}
