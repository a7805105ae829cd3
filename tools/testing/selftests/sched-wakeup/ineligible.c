// SPDX-License-Identifier: GPL-2.0
/*
 * TICK_INELIGIBLE and WAKEUP_INELIGIBLE: two CPU-bound tasks share one CPU.
 * Without the flags the running one keeps the CPU for its whole slice, so
 * they switch once per base slice. With TICK_INELIGIBLE the first tick that
 * finds the runner past its share (ineligible) reschedules it: they switch
 * about once per tick. WAKEUP_INELIGIBLE does the same at wakeups that do
 * not preempt by themselves: a third task on that CPU sleeps on a periodic
 * timerfd and gives a wakeup every millisecond.
 *
 * Each path is tested with the other flag off. The figure is how often the
 * hogs hand the CPU to each other, counted by the hogs themselves (a run of
 * the sleeper in between is not a handoff); with the flag on it must exceed
 * MIN_RATIO times one handoff per base slice, with the flag off stay below. Validity: both hogs got CPU time,
 * the hogs did switch with the flag off, and in the wakeup variants the
 * sleeper did wake about once per period. The tick must be well below the
 * base slice (HZ=1000: 1 ms vs 3 ms on 8 CPUs), or the two behaviours are
 * the same and the test skips.
 */
#include <errno.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/timerfd.h>
#include <unistd.h>

#include "../kselftest_harness.h"
#include "sched_wakeup.h"

#define RUN_NS		2000000000LL
#define PERIOD_NS	1000000LL
#define MIN_RATIO	1.5

static const char *const flags[] = { "TICK_INELIGIBLE", "WAKEUP_INELIGIBLE", NULL };

struct shared {
	atomic_bool stop;
	atomic_bool measuring;
	atomic_int ready;
	atomic_int last;	/* which hog ran last */
};

struct hog {
	pthread_t t;
	int id, cpu;
	pid_t tid;
	struct shared *sh;
	long handoffs;		/* times this hog took the CPU from the other */
	long long cpu_ns;
	struct sw_stats before, after;
};

static void *hog(void *arg)
{
	struct hog *h = arg;
	struct shared *sh = h->sh;
	struct timespec ts;

	h->tid = sw_gettid();
	if (sw_pin(0, h->cpu))
		return NULL;
	atomic_fetch_add(&sh->ready, 1);
	while (!atomic_load_explicit(&sh->stop, memory_order_relaxed)) {
		if (atomic_load_explicit(&sh->last, memory_order_relaxed) == h->id)
			continue;
		atomic_store(&sh->last, h->id);
		if (atomic_load(&sh->measuring))
			h->handoffs++;
	}
	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
	h->cpu_ns = ts.tv_sec * 1000000000LL + ts.tv_nsec;
	return NULL;
}

static void *sleeper(void *arg)
{
	struct itimerspec its = {
		.it_value.tv_nsec = PERIOD_NS,
		.it_interval.tv_nsec = PERIOD_NS,
	};
	struct hog *h = arg;
	uint64_t n;
	int fd;

	h->tid = sw_gettid();
	fd = timerfd_create(CLOCK_MONOTONIC, 0);
	if (fd < 0 || sw_pin(0, h->cpu) || timerfd_settime(fd, 0, &its, NULL))
		return NULL;
	atomic_fetch_add(&h->sh->ready, 1);
	while (!atomic_load(&h->sh->stop))
		if (read(fd, &n, sizeof(n)) != sizeof(n))
			break;
	close(fd);
	return NULL;
}

/* HZ from the jiffies the sched debug file prints, sampled 500 ms apart. */
static long measure_hz(void)
{
	long long j0 = -1, j1 = -1, *j = &j0;
	char line[256];
	int pass;
	FILE *f;

	for (pass = 0; pass < 2; pass++, j = &j1) {
		f = fopen("/sys/kernel/debug/sched/debug", "r");
		if (!f)
			return -1;
		while (fgets(line, sizeof(line), f))
			if (sscanf(line, "  .jiffies : %lld", j) == 1 ||
			    sscanf(line, " .jiffies%*[ ]: %lld", j) == 1)
				break;
		fclose(f);
		if (!pass)
			usleep(500000);
	}
	if (j0 < 0 || j1 < 0)
		return -1;
	return (j1 - j0) * 2;
}

FIXTURE(ineligible) {
	int cpu;
	long hz;
	long slice_ns;
};

FIXTURE_VARIANT(ineligible) {
	const char *flag;	/* the path under test */
	const char *other;	/* the other path, kept off */
	bool on;
	bool wakeups;		/* run the periodic sleeper */
};

FIXTURE_VARIANT_ADD(ineligible, tick_on) {
	.flag = "TICK_INELIGIBLE", .other = "WAKEUP_INELIGIBLE", .on = true,
};

FIXTURE_VARIANT_ADD(ineligible, tick_off) {
	.flag = "TICK_INELIGIBLE", .other = "WAKEUP_INELIGIBLE", .on = false,
};

FIXTURE_VARIANT_ADD(ineligible, wakeup_on) {
	.flag = "WAKEUP_INELIGIBLE", .other = "TICK_INELIGIBLE", .on = true, .wakeups = true,
};

FIXTURE_VARIANT_ADD(ineligible, wakeup_off) {
	.flag = "WAKEUP_INELIGIBLE", .other = "TICK_INELIGIBLE", .on = false, .wakeups = true,
};

FIXTURE_SETUP(ineligible)
{
	const char *why = sw_need(flags);

	if (why)
		SKIP(return, "%s", why);
	if (sw_nr_cpus() < 2)
		SKIP(return, "needs 2 CPUs");
	self->cpu = sw_nr_cpus() - 1;
	self->hz = measure_hz();
	self->slice_ns = sw_sysctl_get("/sys/kernel/debug/sched/base_slice_ns");
	if (self->hz <= 0 || self->slice_ns <= 0)
		SKIP(return, "cannot read HZ or base_slice_ns from /sys/kernel/debug/sched");
	if (self->slice_ns < 2 * 1000000000LL / self->hz)
		SKIP(return, "tick (HZ=%ld) is not below half the base slice (%ld ns): nothing to tell apart",
		     self->hz, self->slice_ns);
	ASSERT_EQ(0, sw_sysctl_set(SW_SCHEDSTATS, 1));
	ASSERT_EQ(0, sw_feature_set(variant->other, false));
	ASSERT_EQ(0, sw_feature_set(variant->flag, variant->on));
	TH_LOG("features: %s", sw_features_line());
}

FIXTURE_TEARDOWN(ineligible)
{
	sw_restore();
}

TEST_F_TIMEOUT(ineligible, preemptions, 60)
{
	static struct shared sh;
	struct hog h[3] = { 0 };
	int i, n = variant->wakeups ? 3 : 2;
	long inv = 0, handoffs = 0, sleeper_wakeups = 0;
	long long t0, t1, minutil;
	double rate, slice_rate = 1e9 / self->slice_ns;

	memset(&sh, 0, sizeof(sh));
	for (i = 0; i < n; i++) {
		h[i].id = i + 1;
		h[i].cpu = self->cpu;
		h[i].sh = &sh;
		ASSERT_EQ(0, pthread_create(&h[i].t, NULL, i < 2 ? hog : sleeper, &h[i]));
	}
	while (atomic_load(&sh.ready) < n)
		usleep(1000);
	usleep(200000);		/* settle: both hogs on the CPU, lags mixed */
	for (i = 0; i < n; i++)
		ASSERT_EQ(0, sw_stats(h[i].tid, &h[i].before));
	t0 = sw_now_ns();
	atomic_store(&sh.measuring, true);
	usleep(RUN_NS / 1000);
	atomic_store(&sh.measuring, false);
	t1 = sw_now_ns();
	for (i = 0; i < n; i++)
		ASSERT_EQ(0, sw_stats(h[i].tid, &h[i].after));
	atomic_store(&sh.stop, true);
	for (i = 0; i < n; i++)
		pthread_join(h[i].t, NULL);

	for (i = 0; i < 2; i++) {
		inv += h[i].after.involuntary - h[i].before.involuntary;
		handoffs += h[i].handoffs;
	}
	if (variant->wakeups)
		sleeper_wakeups = h[2].after.nr_wakeups - h[2].before.nr_wakeups;
	rate = handoffs * 1e9 / (t1 - t0);
	minutil = h[0].cpu_ns < h[1].cpu_ns ? h[0].cpu_ns : h[1].cpu_ns;
	TH_LOG("%s=%s cpu%d HZ=%ld base_slice=%ld ns, %.2f s: hog-to-hog handoffs %ld (%.0f/s; one per slice: %.0f/s), hogs' involuntary switches %ld, sleeper wakeups %ld, hog CPU time %.2f s + %.2f s",
	       variant->flag, variant->on ? "on" : "off", self->cpu, self->hz, self->slice_ns,
	       (t1 - t0) / 1e9, handoffs, rate, slice_rate, inv, sleeper_wakeups,
	       h[0].cpu_ns / 1e9, h[1].cpu_ns / 1e9);

	/* Validity: the hogs shared the CPU and took turns. */
	ASSERT_GT(minutil, (t1 - t0) / 10) {
		TH_LOG("one hog hardly ran: they did not share cpu%d", self->cpu);
	}
	ASSERT_GT(handoffs, 0);
	if (variant->wakeups)
		ASSERT_GT(sleeper_wakeups * PERIOD_NS * 4, t1 - t0) {
			TH_LOG("the sleeper woke %ld times, not about every %lld ns",
			       sleeper_wakeups, PERIOD_NS);
		}

	/*
	 * Without the flag the hogs take turns about once per slice; with it
	 * about once per tick (or wakeup period), at least MIN_RATIO times as
	 * often.
	 */
	if (variant->on) {
		EXPECT_GE(rate, MIN_RATIO * slice_rate);
	} else {
		EXPECT_LE(rate, MIN_RATIO * slice_rate);
	}
}

TEST_HARNESS_MAIN
