// SPDX-License-Identifier: GPL-2.0
/*
 * WA_IDLE_PREV: an interrupt-context wakeup from an idle CPU B, for a task
 * whose previous CPU A is idle and shares B's LLC, keeps the task on A with
 * the flag on and moves it to B with the flag off.
 *
 * The wakee W sleeps in read() on a timerfd. The waker T, pinned to B, arms
 * the timer and blocks, so the timer interrupt hits an idle B and
 * wake_affine_idle() sees this_cpu = B idle, prev_cpu = A idle. Before each
 * trial W pins itself to A and widens its mask to {A, B}, so A is prev_cpu
 * and both answers are allowed. With timer_migration = 0 the hrtimer expires
 * on the CPU that armed it.
 *
 * wake_wide() would bypass wake_affine() once W's wakee_flips reach the LLC
 * size; W inherits its creator's flips and they decay only while W wakes
 * others, so W first wakes T (and nobody else) for a few seconds. schedstats
 * prove the path: nr_wakeups_affine_attempts must grow with every wakeup, and
 * nr_wakeups_affine counts the moves to B.
 */
#include <errno.h>
#include <pthread.h>
#include <stdint.h>
#include <string.h>
#include <sys/timerfd.h>
#include <unistd.h>

#include "../kselftest_harness.h"
#include "sched_wakeup.h"

#define TRIALS		40
#define WARMUP_NS	4000000000LL
#define ARM_NS		20000000LL	/* timer delay: W and T are asleep by then */

static const char *const flags[] = { "WA_IDLE_PREV", "WA_IDLE", NULL };

struct ctx {
	int a, b;
	int tfd;
	int done[2];		/* W -> T: "I am about to sleep, arm the timer" */
	bool measuring;
	int trials;
	int on_a, on_b, other;
	struct sw_stats before, after;
	int err;
};

static void *waker(void *arg)
{
	struct itimerspec its = { .it_value.tv_nsec = ARM_NS };
	struct ctx *c = arg;
	char x;

	if (sw_pin(0, c->b)) {
		c->err = errno;
		return NULL;
	}
	while (read(c->done[0], &x, 1) == 1 && x == 'g')
		timerfd_settime(c->tfd, 0, &its, NULL);
	return NULL;
}

/* One trial of W: be on A, allow {A, B}, let T arm the timer, sleep. */
static int trial(struct ctx *c)
{
	uint64_t ticks;

	if (sw_pin(0, c->a) || sw_allow2(0, c->a, c->b))
		return -1;
	if (write(c->done[1], "g", 1) != 1 || read(c->tfd, &ticks, sizeof(ticks)) != sizeof(ticks))
		return -1;
	return sched_getcpu();
}

FIXTURE(wa_idle_prev) {
	struct ctx c;
};

FIXTURE_VARIANT(wa_idle_prev) {
	bool on;
};

FIXTURE_VARIANT_ADD(wa_idle_prev, on) {
	.on = true,
};

FIXTURE_VARIANT_ADD(wa_idle_prev, off) {
	.on = false,
};

FIXTURE_SETUP(wa_idle_prev)
{
	struct sw_llc llcs[SW_MAX_LLCS];
	const char *why = sw_need(flags);
	int i, n, pick = -1;

	if (why)
		SKIP(return, "%s", why);
	n = sw_llcs(llcs, SW_MAX_LLCS);
	if (n < 0)
		SKIP(return, "no LLC information in sysfs (cache/index3)");
	/* wake_wide() compares flips against the LLC size: want >= 4 CPUs. */
	for (i = 0; i < n; i++)
		if (llcs[i].nr >= 4)
			pick = i;
	if (pick < 0)
		SKIP(return, "needs an LLC of at least 4 CPUs (largest has %d)", llcs[0].nr);
	memset(&self->c, 0, sizeof(self->c));
	self->c.a = sw_llc_cpu(&llcs[pick], llcs[pick].nr - 1);
	self->c.b = sw_llc_cpu(&llcs[pick], llcs[pick].nr - 2);
	ASSERT_EQ(0, sw_sysctl_set(SW_SCHEDSTATS, 1));
	if (sw_sysctl_get(SW_TIMER_MIGR) >= 0)
		ASSERT_EQ(0, sw_sysctl_set(SW_TIMER_MIGR, 0));
	ASSERT_EQ(0, sw_feature_set("WA_IDLE", true));
	ASSERT_EQ(0, sw_feature_set("WA_IDLE_PREV", variant->on));
	TH_LOG("features: %s", sw_features_line());
}

FIXTURE_TEARDOWN(wa_idle_prev)
{
	sw_restore();
}

TEST_F_TIMEOUT(wa_idle_prev, placement, 120)
{
	struct ctx *c = &self->c;
	long long t0;
	pthread_t t;
	long att, aff;
	int i, cpu;

	c->tfd = timerfd_create(CLOCK_MONOTONIC, 0);
	ASSERT_LE(0, c->tfd);
	ASSERT_EQ(0, pipe(c->done));
	ASSERT_EQ(0, pthread_create(&t, NULL, waker, c));

	/* Warm-up: same loop, W wakes only T; its inherited flips decay. */
	t0 = sw_now_ns();
	while (sw_now_ns() - t0 < WARMUP_NS)
		ASSERT_LE(0, trial(c));

	ASSERT_EQ(0, sw_stats(0, &c->before));
	for (i = 0; i < TRIALS; i++) {
		cpu = trial(c);
		ASSERT_LE(0, cpu);
		if (cpu == c->a)
			c->on_a++;
		else if (cpu == c->b)
			c->on_b++;
		else
			c->other++;
	}
	ASSERT_EQ(0, sw_stats(0, &c->after));
	close(c->done[1]);
	pthread_join(t, NULL);
	ASSERT_EQ(0, c->err);

	att = c->after.affine_attempts - c->before.affine_attempts;
	aff = c->after.affine - c->before.affine;
	TH_LOG("WA_IDLE_PREV=%s prev A=cpu%d waker B=cpu%d, %d trials:",
	       variant->on ? "on" : "off", c->a, c->b, TRIALS);
	TH_LOG("  woke on A %d, on B %d, elsewhere %d", c->on_a, c->on_b, c->other);
	TH_LOG("  nr_wakeups +%ld, nr_wakeups_affine_attempts +%ld, nr_wakeups_affine +%ld",
	       c->after.nr_wakeups - c->before.nr_wakeups, att, aff);

	/* The path under test ran: wake_affine() was asked on (nearly) every wakeup. */
	ASSERT_GE(att * 10, TRIALS * 9) {
		TH_LOG("wake_affine() reached on %ld of %d wakeups", att, TRIALS);
		TH_LOG("wake_wide() or the topology bypassed it");
	}
	/* On: stay on A, no affine move. Off: move to B, counted as affine. */
	EXPECT_GE((variant->on ? c->on_a : c->on_b) * 10, TRIALS * 9);
	EXPECT_GE((variant->on ? TRIALS - aff : aff) * 10, TRIALS * 9);
}

TEST_HARNESS_MAIN
