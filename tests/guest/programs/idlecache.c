// SPDX-License-Identifier: GPL-2.0
/*
 * idlecache: leave swap slots held by the swap cache alone (the idle swap
 * cache that copy-on-write leaves behind), and prove the pages intact.
 *
 *   idlecache [-m MIB] [-s SEED]
 *
 * Fills MIB MiB of private anonymous memory (no THP), pages it out
 * (MADV_PAGEOUT) and forks: each slot now has two references, so a swap-in
 * goes through the swap cache.  The parent reads every page back (and
 * verifies it), then the child exits: each slot's swap count drops to 0
 * while its page stays in the swap cache, mapped by the parent.  Prints
 * "idlecache: ready", waits for SIGUSR1, and verifies every page again.
 * The kernel frees such slots only by reclaiming them (the reclaim worker,
 * or allocation when swap runs short).
 * Exit status: 0 every page verified; 1 a bad page (the first is printed);
 * 2 a setup error.
 */
#define _GNU_SOURCE
#include <signal.h>
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

static volatile sig_atomic_t go;

static void on_usr1(int sig)
{
	(void)sig;
	go = 1;
}

static uint64_t word(uint64_t seed, size_t page, size_t i)
{
	return (seed * 0x9e3779b97f4a7c15ULL) ^ (page << 20) ^ (i * 0xc4ceb9fe1a85ec53ULL) ^ 3;
}

static size_t verify(const uint64_t *mem, size_t npages, uint64_t seed, const char *when)
{
	size_t bad = 0;

	for (size_t p = 0; p < npages; p++) {
		for (size_t i = 0; i < PAGE / 8; i++) {
			if (mem[p * PAGE / 8 + i] == word(seed, p, i))
				continue;
			if (!bad)
				printf("idlecache: first bad page %zu word %zu %s: expected %#llx found %#llx\n",
				       p, i, when, (unsigned long long)word(seed, p, i),
				       (unsigned long long)mem[p * PAGE / 8 + i]);
			bad++;
			break;
		}
	}
	return bad;
}

int main(int argc, char **argv)
{
	size_t mib = 16, npages, bad;
	uint64_t seed = 9;
	int opt, pipefd[2], status;
	sigset_t set, old;
	uint64_t *mem;
	pid_t child;
	char c;

	while ((opt = getopt(argc, argv, "m:s:")) != -1) {
		switch (opt) {
		case 'm': mib = strtoul(optarg, NULL, 0); break;
		case 's': seed = strtoull(optarg, NULL, 0); break;
		default:
			fprintf(stderr, "usage: idlecache [-m MiB] [-s seed]\n");
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
	if (mem == MAP_FAILED || pipe(pipefd)) {
		perror("idlecache: setup");
		return 2;
	}
	madvise(mem, npages * PAGE, MADV_NOHUGEPAGE);
	for (size_t p = 0; p < npages; p++)
		for (size_t i = 0; i < PAGE / 8; i++)
			mem[p * PAGE / 8 + i] = word(seed, p, i);
	if (madvise(mem, npages * PAGE, MADV_PAGEOUT)) {
		perror("idlecache: MADV_PAGEOUT");
		return 2;
	}
	child = fork();
	if (child < 0) {
		perror("idlecache: fork");
		return 2;
	}
	if (!child) {
		close(pipefd[1]);
		/* Hold the second reference until the parent has read. */
		if (read(pipefd[0], &c, 1) < 0)
			_exit(2);
		_exit(0);
	}
	close(pipefd[0]);
	bad = verify(mem, npages, seed, "after swap-in");
	close(pipefd[1]);
	waitpid(child, &status, 0);
	printf("idlecache: ready: %zu pages in the swap cache alone\n", npages);

	while (!go)
		sigsuspend(&old);
	bad += verify(mem, npages, seed, "at the end");
	printf("idlecache: verified %zu pages twice, %zu bad\n", npages, bad);
	return bad ? 1 : 0;
}
