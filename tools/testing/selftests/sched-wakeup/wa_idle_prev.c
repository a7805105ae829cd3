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
 * nr_wakeups_affine counts the moves to B. Trials come in batches; see
 * judge() for the verdict.
 *
 * On PREEMPT_RT the timer expires in a thread on B, so B is not idle when
 * the wakeup is made and the decision under test is not reached: skipped.
 * So is a machine where Energy Aware Scheduling may run: while the root
 * domain is not overutilized, select_task_rq_fair() returns the CPU
 * find_energy_efficient_cpu() chose before wake_affine() is reached.
 */
/* First: it defines _GNU_SOURCE for the libc headers below. */
#include "sched_wakeup.h"

#include <dirent.h>
#include <errno.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdint.h>
#include <string.h>
#include <sys/timerfd.h>
#include <unistd.h>

#include "../kselftest_harness.h"

#define TRIALS		40		/* wakeups in a batch */
#define MAX_BATCHES	3
#define PASS_PCT	90
#define WRONG_PCT	50
#define WARMUP_NS	4000000000LL
#define ARM_NS		20000000LL	/* timer delay: W and T are asleep by then */

static const char *const flags[] = { "WA_IDLE_PREV", "WA_IDLE", NULL };

struct ctx {
	int a, b;
	int tfd;
	int go[2];		/* W -> T: "I am about to sleep, arm the timer" */
	int on_a, on_b, other;
	struct sw_stats before, after;
	atomic_int started;	/* T pinned itself (1) or failed (-errno) */
};

static void *waker(void *arg)
{
	struct itimerspec its = { .it_value.tv_nsec = ARM_NS };
	struct ctx *c = arg;
	char x;

	if (sw_pin(0, c->b)) {
		atomic_store(&c->started, -errno);
		return NULL;
	}
	atomic_store(&c->started, 1);
	while (read(c->go[0], &x, 1) == 1 && x == 'g')
		timerfd_settime(c->tfd, 0, &its, NULL);
	return NULL;
}

/*
 * EAS may run: sched_energy_aware is on, an energy model is registered
 * (an entry under debugfs's energy_model) and some sched domain spans CPUs
 * of different capacities (SD_ASYM_CPUCAPACITY), as build_perf_domains()
 * requires.
 */
static bool eas_may_run(void)
{
	bool em = false;
	struct dirent *e;
	DIR *d;

	if (sw_sysctl_get("/proc/sys/kernel/sched_energy_aware") != 1)
		return false;
	d = opendir("/sys/kernel/debug/energy_model");
	while (d && (e = readdir(d)))
		if (e->d_name[0] != '.')
			em = true;
	if (d)
		closedir(d);
	return em && sw_domains_have("SD_ASYM_CPUCAPACITY");
}

/* One trial of W: be on A, allow {A, B}, let T arm the timer, sleep. */
static int trial(struct ctx *c)
{
	uint64_t ticks;

	if (sw_pin(0, c->a) || sw_allow2(0, c->a, c->b))
		return -1;
	if (write(c->go[1], "g", 1) != 1 || read(c->tfd, &ticks, sizeof(ticks)) != sizeof(ticks))
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
	int i, n, pick = -1, largest = 0;

	if (why)
		SKIP(return, "%s", why);
	if (sw_preempt_rt())
		SKIP(return, "PREEMPT_RT: timers expire in a thread, the waker CPU is busy");
	if (eas_may_run())
		SKIP(return, "Energy Aware Scheduling may place the wakeup before wake_affine()");
	n = sw_llcs(llcs, SW_MAX_LLCS);
	if (n < 0)
		SKIP(return, "no LLC spans: needs debugfs sched/domains and /proc/schedstat");
	/* wake_wide() compares flips against the LLC size: want >= 4 CPUs. */
	for (i = 0; i < n; i++) {
		if (llcs[i].nr >= 4)
			pick = i;
		if (llcs[i].nr > largest)
			largest = llcs[i].nr;
	}
	if (pick < 0)
		SKIP(return, "needs an LLC of at least 4 online CPUs (largest has %d)", largest);
	if (sw_preflight())
		SKIP(return, SW_READY);
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

/*
 * The verdict on one batch: 1 when nearly every wakeup reached
 * wake_affine() and PASS_PCT of them put W where the flag's setting does,
 * with the schedstats agreeing (nr_wakeups_affine counts moves to B); -1
 * when WRONG_PCT went where the other setting puts W; else 0: the path was
 * bypassed or the wakeups scattered, and another batch is measured, up to
 * MAX_BATCHES, then the test fails.
 */
static int judge(struct ctx *c, bool on, long att, long aff)
{
	int want = on ? c->on_a : c->on_b, wrong = on ? c->on_b : c->on_a;

	if (att * 100 >= TRIALS * PASS_PCT && want * 100 >= TRIALS * PASS_PCT &&
	    (on ? TRIALS - aff : aff) * 100 >= TRIALS * PASS_PCT)
		return 1;
	if (wrong * 100 >= TRIALS * WRONG_PCT)
		return -1;
	return 0;
}

TEST_F_TIMEOUT(wa_idle_prev, placement, 120)
{
	struct ctx *c = &self->c;
	int i, cpu, batch, verdict = 0;
	long long t0;
	pthread_t t;
	long att, aff;

	c->tfd = timerfd_create(CLOCK_MONOTONIC, 0);
	ASSERT_LE(0, c->tfd);
	ASSERT_EQ(0, pipe(c->go));
	ASSERT_EQ(0, pthread_create(&t, NULL, waker, c));
	while (!atomic_load(&c->started))
		usleep(1000);
	ASSERT_EQ(1, atomic_load(&c->started))
		TH_LOG("the waker could not pin itself to cpu%d", c->b);

	/* Warm-up: same loop, W wakes only T; its inherited flips decay. */
	t0 = sw_now_ns();
	while (sw_now_ns() - t0 < WARMUP_NS)
		ASSERT_LE(0, trial(c));

	TH_LOG("WA_IDLE_PREV=%s, prev A=cpu%d, waker B=cpu%d, %d wakeups a batch; predicted: %s",
	       variant->on ? "on" : "off", c->a, c->b, TRIALS,
	       variant->on ? "A, no affine move" : "B, each an affine move");
	for (batch = 1; batch <= MAX_BATCHES && !verdict; batch++) {
		c->on_a = 0;
		c->on_b = 0;
		c->other = 0;
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
		att = c->after.affine_attempts - c->before.affine_attempts;
		aff = c->after.affine - c->before.affine;
		TH_LOG("  batch %d: woke on A %d, on B %d, elsewhere %d;",
		       batch, c->on_a, c->on_b, c->other);
		TH_LOG("  nr_wakeups +%ld, nr_wakeups_affine_attempts +%ld, nr_wakeups_affine +%ld",
		       c->after.nr_wakeups - c->before.nr_wakeups, att, aff);
		if (att * 100 < TRIALS * PASS_PCT)
			TH_LOG("  wake_affine() reached on %ld of %d wakeups: bypassed",
			       att, TRIALS);
		verdict = judge(c, variant->on, att, aff);
	}
	close(c->go[1]);
	pthread_join(t, NULL);
	/* The last batch, the one the verdict came from. */
	SW_MEASURE("woke_on_prev", c->on_a, "wakeups");
	SW_MEASURE("woke_on_waker", c->on_b, "wakeups");
	SW_MEASURE("affine_moves", aff, "wakeups");
	EXPECT_EQ(1, verdict) {
		TH_LOG("%s", verdict < 0 ? "the wakeups went where the other setting puts them" :
		       "no batch decided");
	}
}

TEST_HARNESS_MAIN
