// SPDX-License-Identifier: GPL-2.0
/*
 * TICK_INELIGIBLE and WAKEUP_INELIGIBLE: two CPU-bound threads ("hogs")
 * share one CPU and count how often they hand it to each other. Without the
 * flags the running hog keeps the CPU for its whole slice even after it has
 * received more than its share, so they take turns about once per base
 * slice. TICK_INELIGIBLE reschedules it at the first tick that finds it
 * ineligible: about once per tick. WAKEUP_INELIGIBLE does so at wakeups that
 * do not preempt by themselves; a third thread on the CPU provides them: it
 * wakes from a 1 ms periodic timerfd, runs 100 us and sleeps again, at nice
 * 10, so that it is rarely EEVDF's pick itself when it wakes (a nice-0
 * sleeper is, and then the base kernel already reschedules).
 *
 * Each path is tested with the other flag off, in rounds that alternate the
 * flag off and on inside one run, so that machine noise hits both alike.
 * Tick: every round with the flag on must show more handoffs than every
 * round with it off, the mean must rise 1.5 times, and 1.5 handoffs per
 * base slice must separate off from on. Wakeups, whose effect is smaller
 * (the sleeper is often queued, not waking): pass when the on round beats
 * the off round before it in 3 of 4 pairs and the mean rises by 25%, fail
 * when on does not beat off at all, else skip as inconclusive. In 20 runs
 * under TCG the mean rose x2.43 to x2.86 (tick), x1.08 to x1.84 (wakeups);
 * without the flag's code, noise reached x1.14. Validity: both hogs got
 * CPU time and took turns; the sleeper woke often enough. The tick must be
 * below half the base slice (HZ=1000: 1 ms vs 2.8-3 ms on 8 CPUs), or both
 * behaviours are the same and the test skips.
 */
#include <errno.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/timerfd.h>
#include <unistd.h>

#include "../kselftest_harness.h"
#include "sched_wakeup.h"

#define ROUNDS		4
#define ROUND_NS	1000000000LL
#define PERIOD_NS	1000000LL
#define SLEEPER_RUN_NS	100000LL
#define SLEEPER_NICE	10

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
};

static void *hog(void *arg)
{
	struct hog *h = arg;
	struct shared *sh = h->sh;

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
	if (setpriority(PRIO_PROCESS, 0, SLEEPER_NICE))
		return NULL;
	atomic_fetch_add(&h->sh->ready, 1);
	while (!atomic_load(&h->sh->stop)) {
		if (read(fd, &n, sizeof(n)) != sizeof(n))
			break;
		sw_spin_ns(SLEEPER_RUN_NS);
	}
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
			if (sscanf(line, "jiffies%*[ ]: %lld", j) == 1)
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
	bool wakeups;		/* run the periodic sleeper */
	double min_ratio;	/* mean on / mean off at least */
	int min_wins;		/* rounds where on beat the off round before it */
	bool model;		/* all on rounds beat all off rounds */
};

FIXTURE_VARIANT_ADD(ineligible, tick) {
	.flag = "TICK_INELIGIBLE", .other = "WAKEUP_INELIGIBLE",
	.min_ratio = 1.5, .min_wins = ROUNDS, .model = true,
};

FIXTURE_VARIANT_ADD(ineligible, wakeup) {
	.flag = "WAKEUP_INELIGIBLE", .other = "TICK_INELIGIBLE", .wakeups = true,
	.min_ratio = 1.25, .min_wins = ROUNDS - 1,
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
		SKIP(return,
		     "tick (HZ=%ld) is not below half the base slice (%ld ns): nothing to tell apart",
		     self->hz, self->slice_ns);
	ASSERT_EQ(0, sw_sysctl_set(SW_SCHEDSTATS, 1));
	ASSERT_EQ(0, sw_feature_set(variant->other, false));
	ASSERT_EQ(0, sw_feature_set(variant->flag, false));
	TH_LOG("features: %s", sw_features_line());
}

FIXTURE_TEARDOWN(ineligible)
{
	sw_restore();
}

struct round {
	double rate;		/* hog-to-hog handoffs per second */
	long inv;		/* hogs' involuntary switches */
	long wakeups;		/* sleeper wakeups */
	long long hog_ns[2];	/* CPU time of each hog */
};

static int measure(struct hog *h, int n, struct shared *sh, struct round *r)
{
	struct sw_stats before[3], after[3];
	long long t0, t1, cpu0[2];
	long handoffs = 0;
	int i;

	usleep(100000);		/* let the new setting act on fresh slices */
	for (i = 0; i < 2; i++)
		h[i].handoffs = 0;
	for (i = 0; i < n; i++)
		if (sw_stats(h[i].tid, &before[i]))
			return -1;
	for (i = 0; i < 2; i++)
		cpu0[i] = before[i].sum_exec_ns;
	t0 = sw_now_ns();
	atomic_store(&sh->measuring, true);
	usleep(ROUND_NS / 1000);
	atomic_store(&sh->measuring, false);
	t1 = sw_now_ns();
	for (i = 0; i < n; i++)
		if (sw_stats(h[i].tid, &after[i]))
			return -1;
	memset(r, 0, sizeof(*r));
	for (i = 0; i < 2; i++) {
		handoffs += h[i].handoffs;
		r->inv += after[i].involuntary - before[i].involuntary;
		r->hog_ns[i] = after[i].sum_exec_ns - cpu0[i];
	}
	if (n > 2)
		r->wakeups = after[2].nr_wakeups - before[2].nr_wakeups;
	r->rate = handoffs * 1e9 / (t1 - t0);
	return 0;
}

TEST_F_TIMEOUT(ineligible, handoffs, 120)
{
	static struct shared sh;
	struct round off[ROUNDS], on[ROUNDS];
	struct hog h[3] = { 0 };
	int i, r, n = variant->wakeups ? 3 : 2, wins = 0;
	double min_on = 1e18, max_off = 0, mean_on = 0, mean_off = 0;
	double slice_rate = 1e9 / self->slice_ns;

	memset(&sh, 0, sizeof(sh));
	for (i = 0; i < n; i++) {
		h[i].id = i + 1;
		h[i].cpu = self->cpu;
		h[i].sh = &sh;
		ASSERT_EQ(0, pthread_create(&h[i].t, NULL, i < 2 ? hog : sleeper, &h[i]));
	}
	while (atomic_load(&sh.ready) < n)
		usleep(1000);

	for (r = 0; r < ROUNDS; r++) {
		ASSERT_EQ(0, sw_feature_set(variant->flag, false));
		ASSERT_EQ(0, measure(h, n, &sh, &off[r]));
		ASSERT_EQ(0, sw_feature_set(variant->flag, true));
		ASSERT_EQ(0, measure(h, n, &sh, &on[r]));
	}
	ASSERT_EQ(0, sw_feature_set(variant->flag, false));
	atomic_store(&sh.stop, true);
	for (i = 0; i < n; i++)
		pthread_join(h[i].t, NULL);

	TH_LOG("%s on cpu%d, HZ=%ld, base_slice=%ld ns (one handoff per slice: %.0f/s)",
	       variant->flag, self->cpu, self->hz, self->slice_ns, slice_rate);
	TH_LOG("per round: hog-to-hog handoffs, hogs' involuntary switches,");
	TH_LOG("           sleeper wakeups, CPU time of each hog");
	for (r = 0; r < ROUNDS; r++) {
		struct round *x[2] = { &off[r], &on[r] };

		for (i = 0; i < 2; i++)
			TH_LOG("  round %d %-3s: %5.0f/s, %5ld, %5ld, %.2f+%.2f s",
			       r + 1, i ? "on" : "off", x[i]->rate, x[i]->inv, x[i]->wakeups,
			       x[i]->hog_ns[0] / 1e9, x[i]->hog_ns[1] / 1e9);
		mean_off += off[r].rate / ROUNDS;
		mean_on += on[r].rate / ROUNDS;
		if (off[r].rate > max_off)
			max_off = off[r].rate;
		if (on[r].rate < min_on)
			min_on = on[r].rate;
		wins += on[r].rate > off[r].rate;
	}
	TH_LOG("mean handoffs: off %.0f/s, on %.0f/s (x%.2f; want >= x%.2f)",
	       mean_off, mean_on, mean_on / (mean_off ? mean_off : 1), variant->min_ratio);

	/* Validity: in every round both hogs ran, took turns, got wakeups. */
	for (r = 0; r < ROUNDS; r++) {
		struct round *x[2] = { &off[r], &on[r] };

		for (i = 0; i < 2; i++) {
			ASSERT_GT(x[i]->hog_ns[0], ROUND_NS / 10);
			ASSERT_GT(x[i]->hog_ns[1], ROUND_NS / 10);
			ASSERT_GT(x[i]->rate, 0);
			if (variant->wakeups)
				ASSERT_GT(x[i]->wakeups * PERIOD_NS * 10, ROUND_NS);
		}
	}

	/*
	 * Wakeups: the effect is small and noisy under emulation. On a kernel
	 * whose flag did nothing, noise alone reached x1.14 with 3 of 4
	 * wins; with the flag working, x1.08 to x1.84 were seen. Pass only
	 * above that noise; fail when there is no effect at all; in between
	 * say that the run could not tell, and skip.
	 */
	if (!variant->model) {
		if (wins >= variant->min_wins && mean_on >= variant->min_ratio * mean_off)
			return;
		ASSERT_GE(wins, ROUNDS / 2);
		ASSERT_GE(mean_on, mean_off);
		SKIP(return, "inconclusive: x%.2f, on beat off in %d of %d rounds",
		     mean_on / (mean_off ? mean_off : 1), wins, ROUNDS);
	}

	/* The tick: the prediction, in both directions. */
	EXPECT_GE(wins, variant->min_wins);
	EXPECT_GE(mean_on, variant->min_ratio * mean_off);
	if (variant->model) {
		EXPECT_GT(min_on, max_off);
		EXPECT_LE(max_off, variant->min_ratio * slice_rate);
		EXPECT_GE(min_on, variant->min_ratio * slice_rate);
	}
}

TEST_HARNESS_MAIN
