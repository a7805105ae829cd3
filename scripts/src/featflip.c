// SPDX-License-Identifier: GPL-2.0
/*
 * featflip - flip sched features to random states, every few milliseconds,
 * for scripts/torture.
 *
 *   featflip [-i MS] [-d SECONDS] [-n WRITES] [-s SEED] [-p] [-f FILE] FEATURE...
 *
 * Every MS milliseconds (default 5) one of the FEATUREs, chosen at random,
 * is written in a random state (NAME or NO_NAME), for SECONDS or WRITES
 * writes. The choices come from SEED alone (default: from the time), which
 * the program prints first, so a run's sequence can be replayed; -p prints
 * each write. At the end, on SIGINT,
 * SIGTERM or SIGHUP, every FEATURE is written back to the state it had at
 * start and the features line is compared with the starting one. Prints the
 * number of flips (writes that changed a state) and exits 0 if the line was
 * restored, 1 otherwise.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#define MAXFEAT	64
#define LINELEN	4096

static const char *path = "/sys/kernel/debug/sched/features";
static volatile sig_atomic_t stop;

static void on_signal(int sig)
{
	(void)sig;
	stop = 1;
}

static int read_line(char *buf, size_t len)
{
	int fd = open(path, O_RDONLY);
	ssize_t n;

	if (fd < 0)
		return -1;
	n = read(fd, buf, len - 1);
	close(fd);
	if (n < 0)
		return -1;
	buf[n] = 0;
	buf[strcspn(buf, "\n")] = 0;
	return 0;
}

static int write_feat(const char *tok)
{
	int fd = open(path, O_WRONLY);
	ssize_t n;

	if (fd < 0)
		return -1;
	n = write(fd, tok, strlen(tok));
	close(fd);
	return n == (ssize_t)strlen(tok) ? 0 : -1;
}

/* Whether the line holds NAME (1), NO_NAME (0), or neither (-1). */
static int state_in(const char *line, const char *name)
{
	char tok[128];
	const char *p = line;
	int n;

	while (sscanf(p, "%127s%n", tok, &n) == 1) {
		if (!strcmp(tok, name))
			return 1;
		if (!strncmp(tok, "NO_", 3) && !strcmp(tok + 3, name))
			return 0;
		p += n;
	}
	return -1;
}

int main(int argc, char **argv)
{
	char start[LINELEN], now[LINELEN], tok[160];
	int init[MAXFEAT], cur[MAXFEAT], nfeat, i, c, rc = 0;
	long interval_ms = 5, errors = 0, writes = 0, max_writes = 0;
	int print = 0;
	unsigned long long flips = 0;
	double duration = 0;
	unsigned int seed = getpid() ^ time(NULL);
	struct timespec t0, t, nap;
	struct sigaction sa = { .sa_handler = on_signal };

	while ((c = getopt(argc, argv, "i:d:n:s:pf:")) != -1) {
		switch (c) {
		case 'i': interval_ms = atol(optarg); break;
		case 'd': duration = atof(optarg); break;
		case 'n': max_writes = atol(optarg); break;
		case 's': seed = strtoul(optarg, NULL, 0); break;
		case 'p': print = 1; break;
		case 'f': path = optarg; break;
		default:
			fprintf(stderr, "usage: featflip [-i MS] [-d SECONDS] [-n WRITES] [-s SEED] [-p] [-f FILE] FEATURE...\n");
			return 2;
		}
	}
	nfeat = argc - optind;
	if (nfeat < 1 || nfeat > MAXFEAT || interval_ms < 0) {
		fprintf(stderr, "featflip: error: give 1..%d features and -i >= 0\n", MAXFEAT);
		return 2;
	}
	if (read_line(start, sizeof(start))) {
		fprintf(stderr, "featflip: error: cannot read %s: %s\n", path, strerror(errno));
		return 1;
	}
	for (i = 0; i < nfeat; i++) {
		init[i] = cur[i] = state_in(start, argv[optind + i]);
		if (init[i] < 0) {
			fprintf(stderr, "featflip: error: no sched feature '%s' in %s\n",
				argv[optind + i], path);
			return 2;
		}
	}
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	sigaction(SIGHUP, &sa, NULL);
	printf("seed %u\n", seed);
	fflush(stdout);
	srand(seed);
	nap.tv_sec = interval_ms / 1000;
	nap.tv_nsec = (interval_ms % 1000) * 1000000L;
	clock_gettime(CLOCK_MONOTONIC, &t0);

	while (!stop) {
		int f = rand() % nfeat, on = rand() % 2;

		snprintf(tok, sizeof(tok), "%s%s", on ? "" : "NO_", argv[optind + f]);
		if (print)
			printf("write %s\n", tok);
		if (write_feat(tok))
			errors++;
		else if (cur[f] != on)
			flips++, cur[f] = on;
		if (max_writes && ++writes >= max_writes)
			break;
		if (duration > 0) {
			clock_gettime(CLOCK_MONOTONIC, &t);
			if (t.tv_sec - t0.tv_sec + (t.tv_nsec - t0.tv_nsec) / 1e9 >= duration)
				break;
		}
		if (interval_ms)
			nanosleep(&nap, NULL);
	}

	for (i = 0; i < nfeat; i++) {
		snprintf(tok, sizeof(tok), "%s%s", init[i] ? "" : "NO_", argv[optind + i]);
		if (write_feat(tok))
			errors++;
	}
	if (read_line(now, sizeof(now)) || strcmp(now, start)) {
		fprintf(stderr, "featflip: error: features line not restored:\n  start: %s\n  now:   %s\n",
			start, now);
		rc = 1;
	}
	printf("flips %llu\nwrite_errors %ld\n", flips, errors);
	return rc || errors ? 1 : 0;
}
