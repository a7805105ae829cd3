// SPDX-License-Identifier: GPL-2.0
/*
 * wakelat - wakeup-to-run latency of worker threads woken by message threads,
 * in the manner of schbench (which Debian does not package).
 *
 * Each of M message threads owns W workers. A round: the message thread
 * stamps the time into each worker's slot and wakes it (futex); the worker,
 * once running, records now - stamp, spins for the think time and reports
 * back; when all its workers have reported, the message thread sleeps and
 * starts the next round. So every wakeup is of a sleeping task by a running
 * one: the path wake_affine() and the wakeup preemption check decide.
 *
 * Results: percentiles of the latency and the rate of completed requests,
 * printed as text and written with -j as JSON with flat keys, plus the merged
 * histogram (bucket lower bound in ns, count) for CDF plots.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <getopt.h>
#include <limits.h>
#include <linux/futex.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

/*
 * Log-linear histogram of nanoseconds: values below 64 have a bucket each,
 * above that every power of two is split into 32 buckets (3% resolution).
 */
#define SUB_BITS	5
#define SUB		(1 << SUB_BITS)
#define LINEAR		(2 * SUB)
#define NBUCKETS	(LINEAR + (64 - SUB_BITS - 1) * SUB)

struct worker {
	_Atomic uint32_t seq;		/* bumped by the message thread */
	_Atomic uint64_t stamp;		/* ns, when it was woken */
	struct msg *msg;
	pthread_t tid;
	uint64_t hist[NBUCKETS];
	uint64_t n, max;
};

struct msg {
	_Atomic uint32_t pending;	/* workers not yet done this round */
	struct worker *w;
	pthread_t tid;
	uint64_t rounds;
};

static int nmsg = 2, nwork = 4;
static long think_us = 100, sleep_us = 500;
static double runtime_s = 5, warmup_s = 0.5;
static atomic_int stop, recording;

static uint64_t now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ull + ts.tv_nsec;
}

static void futex_wait(_Atomic uint32_t *addr, uint32_t val)
{
	syscall(SYS_futex, addr, FUTEX_WAIT_PRIVATE, val, NULL, NULL, 0);
}

static void futex_wake(_Atomic uint32_t *addr)
{
	syscall(SYS_futex, addr, FUTEX_WAKE_PRIVATE, INT_MAX, NULL, NULL, 0);
}

static int bucket(uint64_t v)
{
	int e;

	if (v < LINEAR)
		return v;
	e = 63 - __builtin_clzll(v);
	return LINEAR + (e - SUB_BITS - 1) * SUB + ((v >> (e - SUB_BITS)) & (SUB - 1));
}

static uint64_t bucket_low(int b)
{
	int e;

	if (b < LINEAR)
		return b;
	e = (b - LINEAR) / SUB + SUB_BITS + 1;
	return (uint64_t)(SUB + (b - LINEAR) % SUB) << (e - SUB_BITS);
}

static void spin(long us)
{
	uint64_t end = now_ns() + us * 1000;

	while (now_ns() < end)
		;
}

static void *worker_fn(void *arg)
{
	struct worker *w = arg;
	uint32_t seen = 0;
	uint64_t lat;

	for (;;) {
		while (atomic_load(&w->seq) == seen)
			futex_wait(&w->seq, seen);
		seen = atomic_load(&w->seq);
		/* At the end, still report back: the message thread may be waiting. */
		if (atomic_load(&stop)) {
			if (atomic_fetch_sub(&w->msg->pending, 1) == 1)
				futex_wake(&w->msg->pending);
			break;
		}
		lat = now_ns() - atomic_load(&w->stamp);
		if (atomic_load(&recording)) {
			w->hist[bucket(lat)]++;
			w->n++;
			if (lat > w->max)
				w->max = lat;
		}
		spin(think_us);
		if (atomic_fetch_sub(&w->msg->pending, 1) == 1)
			futex_wake(&w->msg->pending);
	}
	return NULL;
}

static void *msg_fn(void *arg)
{
	struct msg *m = arg;
	struct timespec nap = { .tv_nsec = sleep_us * 1000 };
	uint32_t p;
	int i;

	while (!atomic_load(&stop)) {
		atomic_store(&m->pending, nwork);
		for (i = 0; i < nwork; i++) {
			atomic_store(&m->w[i].stamp, now_ns());
			atomic_fetch_add(&m->w[i].seq, 1);
			futex_wake(&m->w[i].seq);
		}
		while ((p = atomic_load(&m->pending)) != 0)
			futex_wait(&m->pending, p);
		if (atomic_load(&recording))
			m->rounds++;
		if (sleep_us)
			nanosleep(&nap, NULL);
	}
	for (i = 0; i < nwork; i++) {
		atomic_fetch_add(&m->w[i].seq, 1);
		futex_wake(&m->w[i].seq);
	}
	return NULL;
}

static double pct(const uint64_t *h, uint64_t n, double q)
{
	uint64_t want = (uint64_t)(q / 100.0 * n), sum = 0;
	int b;

	if (want >= n)
		want = n - 1;
	for (b = 0; b < NBUCKETS; b++) {
		sum += h[b];
		if (sum > want)
			return bucket_low(b) / 1000.0;
	}
	return 0;
}

static void usage(FILE *f)
{
	fprintf(f,
		"usage: wakelat [-m MSG] [-t WORKERS] [-r SECONDS] [-w WARMUP] [-T THINK_US]\n"
		"               [-s SLEEP_US] [-j FILE]\n"
		"  -m  message threads (2)          -t  workers per message thread (4)\n"
		"  -r  measured seconds (5)         -w  warm-up seconds, not recorded (0.5)\n"
		"  -T  worker think time, us (100)  -s  message thread sleep per round, us (500)\n"
		"  -j  write the results as JSON to FILE\n");
}

static int write_json(const char *path, const uint64_t *h, uint64_t n, uint64_t max,
		      double rps, double secs)
{
	char tmp[PATH_MAX];
	FILE *f;
	int b, first = 1;

	/* A reader never sees half a file: write a temporary, then rename. */
	if (snprintf(tmp, sizeof(tmp), "%s.tmp.%d", path, getpid()) >= (int)sizeof(tmp))
		return -1;
	f = fopen(tmp, "w");
	if (!f)
		return -1;
	fprintf(f, "{\n  \"message_threads\": %d,\n  \"workers\": %d,\n", nmsg, nmsg * nwork);
	fprintf(f, "  \"think_us\": %ld,\n  \"sleep_us\": %ld,\n  \"runtime_s\": %.3f,\n",
		think_us, sleep_us, secs);
	fprintf(f, "  \"wakeups\": %llu,\n  \"rps\": %.1f,\n", (unsigned long long)n, rps);
	fprintf(f, "  \"p50_us\": %.3f,\n  \"p90_us\": %.3f,\n  \"p99_us\": %.3f,\n",
		pct(h, n, 50), pct(h, n, 90), pct(h, n, 99));
	fprintf(f, "  \"p99.9_us\": %.3f,\n  \"max_us\": %.3f,\n", pct(h, n, 99.9), max / 1000.0);
	fprintf(f, "  \"hist_ns\": [");
	for (b = 0; b < NBUCKETS; b++) {
		if (!h[b])
			continue;
		fprintf(f, "%s[%llu, %llu]", first ? "" : ", ",
			(unsigned long long)bucket_low(b), (unsigned long long)h[b]);
		first = 0;
	}
	fprintf(f, "]\n}\n");
	if (fflush(f) || ferror(f) || fsync(fileno(f))) {
		fclose(f);
		unlink(tmp);
		return -1;
	}
	if (fclose(f) || rename(tmp, path)) {
		unlink(tmp);
		return -1;
	}
	return 0;
}

static long arg_long(const char *s, long lo, long hi, const char *what)
{
	char *end;
	long v;

	errno = 0;
	v = strtol(s, &end, 10);
	if (errno || *end || v < lo || v > hi) {
		fprintf(stderr, "wakelat: error: %s must be %ld..%ld, not '%s'\n", what, lo, hi, s);
		exit(2);
	}
	return v;
}

static double arg_double(const char *s, double lo, double hi, const char *what)
{
	char *end;
	double v;

	errno = 0;
	v = strtod(s, &end);
	if (errno || *end || v < lo || v > hi) {
		fprintf(stderr, "wakelat: error: %s must be %g..%g, not '%s'\n", what, lo, hi, s);
		exit(2);
	}
	return v;
}

int main(int argc, char **argv)
{
	static uint64_t hist[NBUCKETS];
	const char *json = NULL;
	struct timespec ts;
	struct msg *msgs;
	uint64_t n = 0, max = 0, rounds = 0, t0, t1;
	double secs, rps;
	int c, i, j, b;

	while ((c = getopt(argc, argv, "m:t:r:w:T:s:j:h")) != -1) {
		switch (c) {
		case 'm': nmsg = arg_long(optarg, 1, 256, "-m"); break;
		case 't': nwork = arg_long(optarg, 1, 256, "-t"); break;
		case 'r': runtime_s = arg_double(optarg, 0.05, 86400, "-r"); break;
		case 'w': warmup_s = arg_double(optarg, 0, 3600, "-w"); break;
		case 'T': think_us = arg_long(optarg, 0, 1000000, "-T"); break;
		case 's': sleep_us = arg_long(optarg, 0, 999999, "-s"); break;
		case 'j': json = optarg; break;
		case 'h': usage(stdout); return 0;
		default: usage(stderr); return 2;
		}
	}
	if (optind != argc) {
		fprintf(stderr, "wakelat: error: unexpected argument '%s'\n", argv[optind]);
		return 2;
	}

	msgs = calloc(nmsg, sizeof(*msgs));
	if (!msgs) {
		perror("wakelat: calloc");
		return 1;
	}
	for (i = 0; i < nmsg; i++) {
		msgs[i].w = calloc(nwork, sizeof(struct worker));
		if (!msgs[i].w) {
			perror("wakelat: calloc");
			return 1;
		}
		for (j = 0; j < nwork; j++) {
			msgs[i].w[j].msg = &msgs[i];
			if (pthread_create(&msgs[i].w[j].tid, NULL, worker_fn, &msgs[i].w[j])) {
				fprintf(stderr, "wakelat: error: cannot create worker thread\n");
				return 1;
			}
		}
		if (pthread_create(&msgs[i].tid, NULL, msg_fn, &msgs[i])) {
			fprintf(stderr, "wakelat: error: cannot create message thread\n");
			return 1;
		}
	}

	ts.tv_sec = (time_t)warmup_s;
	ts.tv_nsec = (long)((warmup_s - ts.tv_sec) * 1e9);
	nanosleep(&ts, NULL);
	t0 = now_ns();
	atomic_store(&recording, 1);
	ts.tv_sec = (time_t)runtime_s;
	ts.tv_nsec = (long)((runtime_s - ts.tv_sec) * 1e9);
	nanosleep(&ts, NULL);
	atomic_store(&recording, 0);
	t1 = now_ns();
	atomic_store(&stop, 1);

	for (i = 0; i < nmsg; i++) {
		pthread_join(msgs[i].tid, NULL);
		rounds += msgs[i].rounds;
		for (j = 0; j < nwork; j++) {
			struct worker *w = &msgs[i].w[j];

			pthread_join(w->tid, NULL);
			for (b = 0; b < NBUCKETS; b++)
				hist[b] += w->hist[b];
			n += w->n;
			if (w->max > max)
				max = w->max;
		}
	}
	if (!n) {
		fprintf(stderr, "wakelat: error: no wakeup completed in %.2f s\n", runtime_s);
		return 1;
	}
	secs = (t1 - t0) / 1e9;
	rps = rounds * nwork / secs;
	printf("wakelat: %d message x %d workers, %.2f s, %llu wakeups, %.0f requests/s\n",
	       nmsg, nwork, secs, (unsigned long long)n, rps);
	printf("wakeup latency (us): p50 %.1f  p90 %.1f  p99 %.1f  p99.9 %.1f  max %.1f\n",
	       pct(hist, n, 50), pct(hist, n, 90), pct(hist, n, 99), pct(hist, n, 99.9),
	       max / 1000.0);
	if (json && write_json(json, hist, n, max, rps, secs)) {
		fprintf(stderr, "wakelat: error: cannot write %s: %s\n", json, strerror(errno));
		return 1;
	}
	return 0;
}
