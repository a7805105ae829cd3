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
 * wake_wide() bypasses wake_affine() when both W's wakee_flips and those
 * of the task the timer interrupts (B's idle task) reach the LLC size and
 * one is at least that many times the other. W inherits its creator's
 * flips (2-62 seen in a guest over 16 runs in a row), and they decay --
 * halve, at most once a second -- only in record_wakee(), which runs when
 * W wakes a task that may run on more than one CPU: T is pinned, so W's
 * wakeups of T never decay them. Left so, the timer wakeups of a whole
 * batch were bypassed whenever the idle task's flips fell within a quarter
 * of W's (one make check in ten, 2026-12-07). So each trial W also wakes
 * S, a thread allowed on two other CPUs of the LLC, always the same one:
 * W's flips halve every second and never grow. The warm-up lasts until
 * WARMUP_WINDOW trials in a row reached wake_affine(), WARMUP_NS at least.
 * schedstats prove the path: nr_wakeups_affine_attempts must grow with
 * every wakeup, and nr_wakeups_affine counts the moves to B. Trials come in
 * batches; a batch whose wakeups did not reach wake_affine() is no verdict:
 * it is counted and measured again (see judge()).
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
#define MAX_BATCHES	3		/* that reached the decision */
#define MAX_UNREACHED	6		/* that did not */
#define PASS_PCT	90
#define WRONG_PCT	50
#define WARMUP_NS	4000000000LL
#define MAX_WARMUP_NS	20000000000LL
#define WARMUP_WINDOW	20		/* trials in a row that reach wake_affine() */
#define ARM_NS		20000000LL	/* timer delay: W and T are asleep by then */

static const char *const flags[] = { "WA_IDLE_PREV", "WA_IDLE", NULL };

struct ctx {
	int a, b;
	int s1, s2;		/* S's two CPUs */
	int tfd;
	int go[2];		/* W -> T: "I am about to sleep, arm the timer" */
	int sink[2];		/* W -> S: a wakeup that decays W's wakee_flips */
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

/* S: on two CPUs that are neither A nor B, woken by W every trial. */
static void *sink(void *arg)
{
	struct ctx *c = arg;
	char x;

	if (sw_allow2(0, c->s1, c->s2))
		return NULL;
	while (read(c->sink[0], &x, 1) == 1)
		;
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

/* One trial of W: be on A, allow {A, B}, wake S, let T arm the timer, sleep. */
static int trial(struct ctx *c)
{
	uint64_t ticks;

	if (sw_pin(0, c->a) || sw_allow2(0, c->a, c->b))
		return -1;
	if (write(c->sink[1], "s", 1) != 1 || write(c->go[1], "g", 1) != 1 ||
	    read(c->tfd, &ticks, sizeof(ticks)) != sizeof(ticks))
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
	self->c.s1 = sw_llc_cpu(&llcs[pick], llcs[pick].nr - 3);
	self->c.s2 = sw_llc_cpu(&llcs[pick], llcs[pick].nr - 4);
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

/* Whether a batch's wakeups reached the decision: wake_affine() ran. */
static bool reached(long att)
{
	return att * 100 >= TRIALS * PASS_PCT;
}

/*
 * The verdict on a batch that reached wake_affine(): 1 when PASS_PCT of
 * its wakeups put W where the flag's setting does, with the schedstats
 * agreeing (nr_wakeups_affine counts moves to B); -1 when WRONG_PCT went
 * where the other setting puts W; else 0: the wakeups scattered, and
 * another batch is measured, up to MAX_BATCHES, then the test fails. A
 * batch that did not reach wake_affine() is not judged (see the test).
 */
static int judge(struct ctx *c, bool on, long aff)
{
	int want = on ? c->on_a : c->on_b, wrong = on ? c->on_b : c->on_a;

	if (want * 100 >= TRIALS * PASS_PCT && (on ? TRIALS - aff : aff) * 100 >= TRIALS * PASS_PCT)
		return 1;
	if (wrong * 100 >= TRIALS * WRONG_PCT)
		return -1;
	return 0;
}

/*
 * Batches of TRIALS wakeups until one is judged a pass or a failure
 * (judge()), MAX_BATCHES are judged or MAX_UNREACHED did not reach
 * wake_affine(). Nothing is logged until the batches are over: a line
 * written to the harness's pipe is a wakeup by W of another task, which
 * would raise W's flips again.
 */
TEST_F_TIMEOUT(wa_idle_prev, placement, 120)
{
	struct ctx *c = &self->c;
	struct {
		int on_a, on_b, other;
		long wakeups, att, aff;
	} rec[MAX_BATCHES + MAX_UNREACHED];
	int i, cpu, batch = 0, verdict = 0, judged = 0, unreached = 0, run = 0, trials = 0;
	struct sw_stats st0, st1;
	long long t0, now;
	pthread_t t, s;
	long att = 0, aff = 0;

	c->tfd = timerfd_create(CLOCK_MONOTONIC, 0);
	ASSERT_LE(0, c->tfd);
	ASSERT_EQ(0, pipe(c->go));
	ASSERT_EQ(0, pipe(c->sink));
	ASSERT_EQ(0, pthread_create(&t, NULL, waker, c));
	ASSERT_EQ(0, pthread_create(&s, NULL, sink, c));
	while (!atomic_load(&c->started))
		usleep(1000);
	ASSERT_EQ(1, atomic_load(&c->started))
		TH_LOG("the waker could not pin itself to cpu%d", c->b);

	/*
	 * Warm-up: the same loop, W's inherited flips halving each second,
	 * until WARMUP_WINDOW trials in a row reached wake_affine().
	 */
	t0 = sw_now_ns();
	ASSERT_EQ(0, sw_stats(0, &st0));
	do {
		ASSERT_LE(0, trial(c));
		trials++;
		ASSERT_EQ(0, sw_stats(0, &st1));
		run = st1.affine_attempts > st0.affine_attempts ? run + 1 : 0;
		st0 = st1;
		now = sw_now_ns();
	} while ((now - t0 < WARMUP_NS || run < WARMUP_WINDOW) && now - t0 < MAX_WARMUP_NS);

	while (!verdict && judged < MAX_BATCHES && unreached < MAX_UNREACHED) {
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
		rec[batch].on_a = c->on_a;
		rec[batch].on_b = c->on_b;
		rec[batch].other = c->other;
		rec[batch].wakeups = c->after.nr_wakeups - c->before.nr_wakeups;
		rec[batch].att = att;
		rec[batch].aff = aff;
		batch++;
		if (!reached(att)) {
			unreached++;
			continue;
		}
		judged++;
		verdict = judge(c, variant->on, aff);
	}
	close(c->go[1]);
	close(c->sink[1]);
	pthread_join(t, NULL);
	pthread_join(s, NULL);

	TH_LOG("warm-up: %d trials in %.1f s, the last %d in a row through wake_affine()",
	       trials, (now - t0) / 1e9, run);
	TH_LOG("WA_IDLE_PREV=%s, prev A=cpu%d, waker B=cpu%d, S on cpu%d,%d, %d wakeups a batch;",
	       variant->on ? "on" : "off", c->a, c->b, c->s1, c->s2, TRIALS);
	TH_LOG("predicted: %s", variant->on ? "A, no affine move" : "B, each an affine move");
	for (i = 0; i < batch; i++) {
		TH_LOG("  batch %d: woke on A %d, on B %d, elsewhere %d;",
		       i + 1, rec[i].on_a, rec[i].on_b, rec[i].other);
		TH_LOG("  nr_wakeups +%ld, nr_wakeups_affine_attempts +%ld, nr_wakeups_affine +%ld",
		       rec[i].wakeups, rec[i].att, rec[i].aff);
		if (!reached(rec[i].att))
			TH_LOG("  wake_affine() bypassed: measured again");
	}
	TH_LOG("%d batch(es): %d judged, %d that did not reach wake_affine()", batch, judged,
	       unreached);
	/* The last batch, the one the verdict came from. */
	SW_MEASURE("woke_on_prev", c->on_a, "wakeups");
	SW_MEASURE("woke_on_waker", c->on_b, "wakeups");
	SW_MEASURE("affine_moves", aff, "wakeups");
	SW_MEASURE("batches_unreached", unreached, "batches");
	EXPECT_EQ(1, verdict) {
		TH_LOG("%s", verdict < 0 ? "the wakeups went where the other setting puts them" :
		       judged ? "no batch decided" :
		       "no batch reached wake_affine(): the decision was never taken");
	}
}

TEST_HARNESS_MAIN
