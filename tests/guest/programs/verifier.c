// SPDX-License-Identifier: GPL-2.0
/*
 * verifier: push anonymous memory through swap and prove every byte comes
 * back.
 *
 *   verifier [-t THREADS] [-m MIB] [-p PASSES] [-d SECONDS] [-s SEED] [-H] [-c] [-z N]
 *
 * Each thread maps MIB/THREADS MiB of private anonymous memory and writes a
 * pattern into it: word i of the page at address A in pass P holds
 * mix(A, SEED, P) + i * K, so a page that comes back from the wrong slot, from
 * an earlier pass, or zeroed, is told apart from the right one.  Every later
 * pass first verifies the whole region against the previous pass, then
 * rewrites it with the next.  The last pass is verified too.  With -d the
 * threads keep making passes (at least PASSES) until SECONDS have gone by,
 * or until SIGUSR1 asks them to finish.  A thread told to finish stops at
 * the page it is on, not at the end of its pass (a pass through a small
 * memory cgroup on a slow guest takes minutes), and verifies its whole
 * region once more: the pages this pass rewrote against it, the rest
 * against the pass before.
 * Run it in a memory cgroup smaller than MIB and every pass goes through swap.
 *
 * Prints the pages checked and the number of bad pages; on a mismatch also
 * the first bad page: thread, address, word, expected and found value.
 * Exit status: 0 all pages verified, 1 mismatches, 2 usage or setup error.
 * -H allows transparent huge pages on the region (default: MADV_NOHUGEPAGE).
 * -c makes pages compressible (zswap rejects pages that do not compress):
 * only the first 16 words vary, the rest repeat the page's base value.
 * -z N makes one page in N all zeros, a different one in each pass (the
 * kernel keeps such pages in swap as a zeromap bit, with no data written):
 * a zero page that comes back with data, or a data page that comes back
 * zeroed, is a bad page.
 */
#define _GNU_SOURCE
#include <inttypes.h>
#include <pthread.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <time.h>
#include <unistd.h>

#define PAGE 4096UL
#define WORDS (PAGE / sizeof(uint64_t))
#define K 0x9e3779b97f4a7c15ULL

static uint64_t seed = 1;
static unsigned int min_passes = 3;
static double duration;
static int allow_thp;
static int compressible;
static unsigned long zero_every;

static atomic_ulong pages_checked;
static atomic_ulong bad_pages;
static atomic_int first_reported;
static volatile sig_atomic_t stop;

static void on_usr1(int sig)
{
	(void)sig;
	stop = 1;
}

struct worker {
	pthread_t tid;
	int id;
	size_t bytes;
	unsigned int passes;
};

static uint64_t mix(uint64_t a, uint64_t pass)
{
	uint64_t x = a ^ (seed * K) ^ (pass << 56);

	x ^= x >> 33;
	x *= 0xff51afd7ed558ccdULL;
	x ^= x >> 33;
	x *= 0xc4ceb9fe1a85ec53ULL;
	x ^= x >> 33;
	return x;
}

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

/* Whether the page at @page is all zeros in @pass (-z). */
static int zero_page(const uint64_t *page, uint64_t pass)
{
	return zero_every && ((uintptr_t)page / PAGE + pass) % zero_every == 0;
}

/* Word i of a page whose pattern starts at base. */
static uint64_t expect(const uint64_t *page, uint64_t pass, uint64_t base, size_t i)
{
	if (zero_page(page, pass))
		return 0;
	return compressible && i >= 16 ? base : base + i * K;
}

static void fill(uint64_t *page, uint64_t pass)
{
	uint64_t base = mix((uint64_t)(uintptr_t)page, pass);

	for (size_t i = 0; i < WORDS; i++)
		page[i] = expect(page, pass, base, i);
}

static void check(const struct worker *w, const uint64_t *page, uint64_t pass)
{
	uint64_t base = mix((uint64_t)(uintptr_t)page, pass);

	for (size_t i = 0; i < WORDS; i++) {
		if (page[i] == expect(page, pass, base, i))
			continue;
		atomic_fetch_add(&bad_pages, 1);
		if (atomic_exchange(&first_reported, 1) == 0)
			printf("verifier: first bad page: thread %d addr %p pass %" PRIu64
			       " word %zu expected %#" PRIx64 " found %#" PRIx64 "\n",
			       w->id, (const void *)page, pass, i,
			       expect(page, pass, base, i), page[i]);
		return;
	}
}

static void *work(void *arg)
{
	struct worker *w = arg;
	double end = now() + duration;
	size_t npages = w->bytes / PAGE;
	size_t done;
	uint8_t *mem;
	uint64_t pass;

	mem = mmap(NULL, w->bytes, PROT_READ | PROT_WRITE,
		   MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (mem == MAP_FAILED) {
		perror("verifier: mmap");
		exit(2);
	}
	madvise(mem, w->bytes, allow_thp ? MADV_HUGEPAGE : MADV_NOHUGEPAGE);

	for (size_t p = 0; p < npages; p++)
		fill((uint64_t *)(mem + p * PAGE), 0);
	/*
	 * Pages [0, done) of the last pass hold its pattern, the rest the
	 * pattern of the pass before: done is npages unless SIGUSR1 ended
	 * that pass early.
	 */
	done = npages;
	for (pass = 1; pass < min_passes || (now() < end && !stop); pass++) {
		int may_stop = pass >= min_passes;

		for (done = 0; done < npages; done++) {
			uint64_t *page = (uint64_t *)(mem + done * PAGE);

			if (may_stop && stop)
				break;
			check(w, page, pass - 1);
			fill(page, pass);
		}
		atomic_fetch_add(&pages_checked, done);
		if (done < npages)
			break;
	}
	/* pass: the last pass, whole or ended early. */
	if (done == npages)
		pass--;
	for (size_t p = 0; p < npages; p++)
		check(w, (uint64_t *)(mem + p * PAGE), p < done ? pass : pass - 1);
	atomic_fetch_add(&pages_checked, npages);
	w->passes = done == npages ? pass + 1 : pass;
	munmap(mem, w->bytes);
	return NULL;
}

int main(int argc, char **argv)
{
	unsigned int threads = 4, mib = 256;
	struct worker *ws;
	unsigned long total_passes = 0;
	double t0;
	int opt;

	signal(SIGUSR1, on_usr1);
	while ((opt = getopt(argc, argv, "t:m:p:d:s:Hcz:")) != -1) {
		switch (opt) {
		case 't': threads = strtoul(optarg, NULL, 0); break;
		case 'm': mib = strtoul(optarg, NULL, 0); break;
		case 'p': min_passes = strtoul(optarg, NULL, 0); break;
		case 'd': duration = strtod(optarg, NULL); break;
		case 's': seed = strtoull(optarg, NULL, 0); break;
		case 'H': allow_thp = 1; break;
		case 'c': compressible = 1; break;
		case 'z': zero_every = strtoul(optarg, NULL, 0); break;
		default:
			fprintf(stderr, "usage: verifier [-t threads] [-m MiB] [-p passes] [-d seconds] [-s seed] [-H] [-c] [-z N]\n");
			return 2;
		}
	}
	if (!threads || !mib || min_passes < 2) {
		fprintf(stderr, "verifier: need threads >= 1, MiB >= 1, passes >= 2\n");
		return 2;
	}
	setvbuf(stdout, NULL, _IOLBF, 0);
	ws = calloc(threads, sizeof(*ws));
	t0 = now();
	for (unsigned int i = 0; i < threads; i++) {
		ws[i].id = i;
		ws[i].bytes = ((size_t)mib << 20) / threads / PAGE * PAGE;
		if (pthread_create(&ws[i].tid, NULL, work, &ws[i])) {
			perror("verifier: pthread_create");
			return 2;
		}
	}
	for (unsigned int i = 0; i < threads; i++) {
		pthread_join(ws[i].tid, NULL);
		total_passes += ws[i].passes;
	}
	printf("verifier: threads=%u MiB=%u passes=%lu pages_checked=%lu bad_pages=%lu seconds=%.1f\n",
	       threads, mib, total_passes, atomic_load(&pages_checked),
	       atomic_load(&bad_pages), now() - t0);
	return atomic_load(&bad_pages) ? 1 : 0;
}
