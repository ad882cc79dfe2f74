// SPDX-License-Identifier: GPL-2.0
/*
 * flipper: flip /sys/kernel/clusterswap/enabled at a steady pace.
 *
 *   flipper [-i MS] [-d SECONDS] [-f FILE]
 *
 * Writes 1, then 0, then 1 ... to FILE (default the switch) every MS
 * milliseconds (default 200) for SECONDS seconds (default 60), reads the
 * switch back after each write, and ends on 0.  A shell loop cannot keep
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
	double interval = 0.2, duration = 60, start, end, t, slowest = 0;
	struct timespec pause;
	unsigned long flips = 0;
	int opt, on = 1;

	while ((opt = getopt(argc, argv, "i:d:f:")) != -1) {
		switch (opt) {
		case 'i': interval = atof(optarg) / 1000; break;
		case 'd': duration = atof(optarg); break;
		case 'f': file = optarg; break;
		default:
			fprintf(stderr, "usage: flipper [-i ms] [-d seconds] [-f file]\n");
			return 2;
		}
	}
	pause.tv_sec = (time_t)interval;
	pause.tv_nsec = (long)((interval - pause.tv_sec) * 1e9);
	start = now();
	end = start + duration;
	while (now() < end) {
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
}
