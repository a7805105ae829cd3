// SPDX-License-Identifier: GPL-2.0
/*
 * TICK_INELIGIBLE and WAKEUP_INELIGIBLE: two CPU-bound processes ("hogs")
 * share one CPU and note the time each takes it from the other, which gives
 * the length of every run. Without the flags a run ends at the first tick
 * (or wakeup) after the hog's slice is used up: at least ceil(slice /
 * tick) ticks, or the slice. TICK_INELIGIBLE ends it at the first tick that
 * finds the hog ineligible; equal hogs pass each other within a tick, so a
 * run lasts one tick. WAKEUP_INELIGIBLE ends it at the first wakeup on the
 * CPU after that, so a run lasts about the interval between wakeups, which
 * the test counts. Rounds with the flag off and on alternate, and each pair
 * must put the median run -- of all runs, or of those during which the CPU
 * did not stop (hog()) -- on the predicted side of the midpoint between
 * the two predictions.
 *
 * The wakeups must not preempt by themselves: the wakee runs at nice 19, so
 * it is never EEVDF's pick when it arrives, and a helper on another CPU
 * moves it onto the hogs' CPU, wakes it there and moves it off before it
 * runs, so it never takes CPU time from the hogs; before every round it
 * runs there once with the hogs stopped, to drop the lag its group gathers
 * there (drop_wakee_lag()).
 *
 * Layouts: the hogs in the test's own group, in sibling cgroups, in two
 * leaves of a binary cgroup tree of depth 4, in one autogroup, in an
 * autogroup each. The flags must act where the hogs meet: below the root
 * runqueue in the middle three, at the root in the last.
 *
 * The hogs, their layouts and the pairs of rounds: hogs.h.
 */
/* First: it defines _GNU_SOURCE for the libc headers below. */
#include "sched_wakeup.h"

#include "../kselftest_harness.h"
#include "hogs.h"

FIXTURE(ineligible) {
	struct ctx c;
};

FIXTURE_VARIANT(ineligible) {
	const char *flag;	/* the path under test */
	const char *other;	/* the other path, kept off */
	bool wakeups;
	enum layout layout;
	bool custom_slice;	/* hogs ask for a long slice, the flag leaves it */
};

/* Stop the hogs and the waker, restore every knob the case wrote. */
FIXTURE_TEARDOWN(ineligible)
{
	ctx_teardown(&self->c);
}

FIXTURE_VARIANT_ADD(ineligible, tick) {
	.flag = "TICK_INELIGIBLE", .other = "WAKEUP_INELIGIBLE",
	.wakeups = false, .layout = FLAT,
};

FIXTURE_VARIANT_ADD(ineligible, wakeup) {
	.flag = "WAKEUP_INELIGIBLE", .other = "TICK_INELIGIBLE",
	.wakeups = true, .layout = FLAT,
};

FIXTURE_VARIANT_ADD(ineligible, tick_siblings) {
	.flag = "TICK_INELIGIBLE", .other = "WAKEUP_INELIGIBLE",
	.wakeups = false, .layout = SIBLINGS,
};

FIXTURE_VARIANT_ADD(ineligible, wakeup_siblings) {
	.flag = "WAKEUP_INELIGIBLE", .other = "TICK_INELIGIBLE",
	.wakeups = true, .layout = SIBLINGS,
};

FIXTURE_VARIANT_ADD(ineligible, tick_tree) {
	.flag = "TICK_INELIGIBLE", .other = "WAKEUP_INELIGIBLE",
	.wakeups = false, .layout = TREE,
};

FIXTURE_VARIANT_ADD(ineligible, wakeup_tree) {
	.flag = "WAKEUP_INELIGIBLE", .other = "TICK_INELIGIBLE",
	.wakeups = true, .layout = TREE,
};

FIXTURE_VARIANT_ADD(ineligible, tick_autogroup) {
	.flag = "TICK_INELIGIBLE", .other = "WAKEUP_INELIGIBLE",
	.wakeups = false, .layout = AUTOGROUP,
};

FIXTURE_VARIANT_ADD(ineligible, wakeup_autogroup) {
	.flag = "WAKEUP_INELIGIBLE", .other = "TICK_INELIGIBLE",
	.wakeups = true, .layout = AUTOGROUP,
};

FIXTURE_VARIANT_ADD(ineligible, tick_autogroups) {
	.flag = "TICK_INELIGIBLE", .other = "WAKEUP_INELIGIBLE",
	.wakeups = false, .layout = AUTOGROUPS,
};

FIXTURE_VARIANT_ADD(ineligible, wakeup_autogroups) {
	.flag = "WAKEUP_INELIGIBLE", .other = "TICK_INELIGIBLE",
	.wakeups = true, .layout = AUTOGROUPS,
};

FIXTURE_VARIANT_ADD(ineligible, tick_custom_slice) {
	.flag = "TICK_INELIGIBLE", .other = "WAKEUP_INELIGIBLE",
	.wakeups = false, .layout = FLAT, .custom_slice = true,
};

/*
 * The wakeups this machine makes, in a round with the flag off. A run with
 * the flag on lasts about the interval between them, so it must be well
 * below a slice: when the waker cannot wake the wakee 4 times a slice (a
 * slow or loaded machine, an emulator), the slice is made long enough.
 * The waker keeps the period it was calibrated with: a cycle that overruns
 * it waits a period more, so asking for the interval measured here would
 * bring the wakeups at that interval plus the overrun, about two a slice.
 * A host that stalls the guest can make one calibration round far sparser
 * than the machine is: up to CALIBRATIONS rounds are measured before the
 * waker is found too slow.
 */
static int calibrate(struct __test_metadata *_metadata, struct ctx *c,
		     const char *flag, long long *round_ns)
{
	long long interval;
	int i;

	for (i = 1; i <= CALIBRATIONS; i++) {
		if (sw_feature_set(flag, false))
			return -1;
		interval = wakeup_interval(_metadata, c, i, *round_ns);
		if (interval < 0)
			return -1;
		if (4 * interval <= c->off_ns)
			return 0;
		switch (fit_slice(_metadata, c, interval, round_ns)) {
		case 0:
			continue;
		case 1:
			return 0;
		}
		return -1;
	}
	TH_LOG("the waker cannot make %lld wakeups a second in %d rounds: no situation to test",
	       4 * 1000000000LL / MAX_SLICE_NS, CALIBRATIONS);
	return -1;
}

FIXTURE_SETUP(ineligible)
{
	struct ctx *c = &self->c;
	const char *const need[] = { variant->flag, variant->other, NULL };
	const char *why = machine_ready(need, variant->layout);
	long long off_ticks;
	int ret;

	if (why)
		SKIP(return, "%s", why);
	ASSERT_EQ(0, hogs_begin(_metadata, c));
	off_ticks = (c->slice_ns + c->tick_ns - 1) / c->tick_ns;

	/*
	 * Without the flags a run ends at the first check after the slice
	 * is used up: a tick (update_curr() then finds the deadline passed)
	 * or, in the wakeup test, a wakeup (which calls update_curr() too).
	 * So it lasts at least ceil(slice / tick) ticks in the tick test,
	 * which needs that to be 3 or more, so that 1 tick (on) and the off
	 * runs lie a tick or more from their midpoint; and at least the
	 * slice in the wakeup test, which needs room for wakeups 4 times as
	 * often, and not faster than MIN_PERIOD_NS. Where the default slice
	 * is too short for that (a short slice with few CPUs, or HZ=250/300,
	 * where a slice is less than a tick and TICK_INELIGIBLE changes
	 * nothing at the default), the test raises base_slice_ns for its
	 * duration.
	 */
	if (variant->wakeups) {
		if (c->slice_ns < 4 * MIN_PERIOD_NS) {
			TH_LOG("base_slice %lld ns leaves no room for 4 wakeups: raised to %lld ns",
			       c->slice_ns, 4 * MIN_PERIOD_NS);
			c->slice_ns = 4 * MIN_PERIOD_NS;
			ASSERT_EQ(0, sw_sysctl_set(SW_BASE_SLICE, c->slice_ns));
		}
		c->off_ns = c->slice_ns;
		c->period_ns = c->off_ns / 4;
		if (c->period_ns < MIN_PERIOD_NS)
			c->period_ns = MIN_PERIOD_NS;
		c->on_ns = c->period_ns;
	} else {
		if (off_ticks < 3) {
			TH_LOG("base_slice %lld ns is %lld tick(s) at HZ=%ld: TICK_INELIGIBLE %s;",
			       c->slice_ns, off_ticks, c->hz,
			       off_ticks < 2 ? "does nothing at this slice" :
			       "is within a tick of the base behaviour");
			TH_LOG("raised to 3.5 ticks for the test");
			c->slice_ns = c->tick_ns * 7 / 2;
			ASSERT_EQ(0, sw_sysctl_set(SW_BASE_SLICE, c->slice_ns));
			off_ticks = 4;
		}
		c->off_ns = off_ticks * c->tick_ns;
		c->on_ns = c->tick_ns;
		/*
		 * A task that asked for a slice longer than the base one keeps
		 * it with the flag on: both runs then last that slice, in
		 * whole ticks, well above the midpoint.
		 */
		if (variant->custom_slice) {
			c->custom_ns = 6 * c->tick_ns;
			if (c->custom_ns < 2 * c->slice_ns)
				c->custom_ns = 2 * c->slice_ns;
			ASSERT_GE(100000000LL, c->custom_ns) TH_LOG("a slice over 100 ms");
			c->off_ns = (c->custom_ns + c->tick_ns - 1) / c->tick_ns * c->tick_ns;
		}
	}

	ret = hogs_start(_metadata, c, need, variant->layout, variant->wakeups ? NR_ROLES : WAKEE,
			 variant->wakeups);
	if (ret > 0)
		SKIP(return, "the cpu controller cannot be enabled here (see above)");
	ASSERT_EQ(0, ret);
}

/*
 * Pairs of rounds, the flag off then on (hogs_pairs()), after the
 * wakeups this machine makes were measured (calibrate()).
 */
TEST_F_TIMEOUT(ineligible, runs, 120)
{
	struct ctx *c = &self->c;
	long long mid, round_ns = round_length(c);
	struct pairs p;
	char rule[96];

	if (variant->wakeups)
		ASSERT_EQ(0, calibrate(_metadata, c, variant->flag, &round_ns));
	mid = (c->on_ns + c->off_ns) / 2;
	TH_LOG("%s, hogs in %s on cpu%d, helpers on cpu%d; HZ=%ld, base_slice %lld ns",
	       variant->flag, layout_names[variant->layout], c->hog_cpu, c->away_cpu,
	       c->hz, c->slice_ns);
	TH_LOG("predicted median run: off >= %.3f ms (the slice%s),",
	       c->off_ns / 1e6, variant->wakeups ? "" : " in whole ticks");
	if (variant->custom_slice) {
		rule[0] = '\0';
	} else if (variant->wakeups) {
		TH_LOG("on about the interval between wakeups (%.3f ms expected)",
		       c->on_ns / 1e6);
		snprintf(rule, sizeof(rule),
			 "a pair agrees when off >= (on's wakeup interval + %.3f ms) / 2 > on",
			 c->off_ns / 1e6);
	} else {
		TH_LOG("on %.3f ms (one tick)", c->on_ns / 1e6);
		snprintf(rule, sizeof(rule), "a pair agrees when off >= %.3f ms > on", mid / 1e6);
	}
	hogs_log_rule(_metadata, c, variant->custom_slice, mid, rule);
	ASSERT_EQ(0, hogs_pairs(_metadata, c, variant->flag, variant->custom_slice,
				variant->wakeups, &round_ns, mid, &p));
	EXPECT_EQ(AGREE_TO_PASS, p.agree);
	EXPECT_EQ(0, p.storms);
}

TEST_HARNESS_MAIN
