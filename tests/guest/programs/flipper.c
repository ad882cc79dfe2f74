// SPDX-License-Identifier: GPL-2.0
/*
 * flipper: flip /sys/kernel/clusterswap/enabled at a steady pace.
 *
 *   flipper [-i MS] [-d SECONDS] [-n FLIPS -l LIMIT] [-f FILE]
 *
 * Writes 1, then 0, then 1 ... to FILE (default the switch) every MS
 * milliseconds (default 200) for SECONDS seconds (default 60), reads the
 * switch back after each write, and ends on 0.  With -n it goes on past
 * SECONDS until it has made FLIPS flips, but stops at LIMIT seconds in all
 * (a write waits for the calls in flight, so a slow guest makes fewer flips
 * in the same time; the caller still checks the count).  A shell loop cannot keep
 * that pace on an emulated 8-CPU guest (each process start costs a few
 * hundred milliseconds there); this can.  Prints the number of flips and the
 * longest a write took.
 * Exit status: 0 when every write took and read back; 1 otherwise; 2 on a
 * usage error.
 */
#define _GNU_SOURCE
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

/* Write "0" or "1", read it back.  Returns 0 on success. */
static int set_switch(const char *file, int on)
{
	char want = on ? '1' : '0', got[4] = "";
	int fd = open(file, O_RDWR);
	int ok;

	if (fd < 0) {
		perror(file);
		return -1;
	}
	ok = write(fd, &want, 1) == 1 && pread(fd, got, sizeof(got) - 1, 0) > 0 &&
	     got[0] == want;
	if (!ok)
		fprintf(stderr, "flipper: writing %c to %s: read back '%s'\n", want, file, got);
	close(fd);
	return ok ? 0 : -1;
}

int main(int argc, char **argv)
{
	const char *file = "/sys/kernel/clusterswap/enabled";
	double interval = 0.2, duration = 60, limit = 0, start, elapsed, t, slowest = 0;
	unsigned long flips = 0, want = 0;
	struct timespec pause;
	int opt, on = 1;

	while ((opt = getopt(argc, argv, "i:d:n:l:f:")) != -1) {
		switch (opt) {
		case 'i': interval = atof(optarg) / 1000; break;
		case 'd': duration = atof(optarg); break;
		case 'n': want = strtoul(optarg, NULL, 10); break;
		case 'l': limit = atof(optarg); break;
		case 'f': file = optarg; break;
		default:
			goto usage;
		}
	}
	if (want && limit < duration)
		goto usage;
	pause.tv_sec = (time_t)interval;
	pause.tv_nsec = (long)((interval - pause.tv_sec) * 1e9);
	start = now();
	for (;;) {
		elapsed = now() - start;
		if (elapsed >= duration && (flips >= want || elapsed >= limit))
			break;
		t = now();
		if (set_switch(file, on))
			return 1;
		t = now() - t;
		if (t > slowest)
			slowest = t;
		flips++;
		on = !on;
		nanosleep(&pause, NULL);
	}
	if (!on && set_switch(file, 0))
		return 1;
	printf("flipper: flips=%lu seconds=%.1f slowest_write_ms=%.0f\n",
	       flips, now() - start, slowest * 1000);
	return 0;
usage:
	fprintf(stderr, "usage: flipper [-i ms] [-d seconds] [-n flips -l limit] [-f file]\n");
	return 2;
}
