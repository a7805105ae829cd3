// SPDX-License-Identifier: GPL-2.0
/*
 * PROTECT_ELIGIBLE, and the protected slice it builds on. Two CPU-bound
 * processes ("hogs", hogs.h) share one CPU and note the time each takes it
 * from the other, which gives the length of every run.
 *
 * ineligible: with PROTECT_ELIGIBLE the hogs' runs end once the running one
 * is no longer eligible -- at once, for equal hogs -- but not before it ran
 * a quantum, the unscaled base slice (base_slice / the tunable_scaling
 * factor); with HRTICK the timer is armed for that point. Without the flag
 * a run lasts the slice (HRTICK at the deadline) or the slice in whole
 * ticks (no HRTICK); with it, the quantum, or the quantum in whole ticks.
 * Rounds with the flag off and on alternate, and each pair must put the
 * median run -- of all runs, or of those during which the CPU did not
 * stop (hog()) -- on the predicted side of the midpoint between the two
 * predictions. Besides the medians, no more than one run in FLOOR_SHARE of
 * those without a gap may last under FLOOR_SHORT of the quantum: the
 * quantum is a floor, which bounds the switch rate at any HZ. A run is
 * timed from the first to the last look at the clock of its hog, while
 * the kernel counts it from the pick, so each run is off by the
 * difference of two context switches -- tens of microseconds on hardware,
 * up to a few hundred under emulation -- in either direction: hence half
 * the quantum, where a kernel without the floor makes runs of a switch or
 * two. The tenth percentile is logged. Hogs that asked for a slice of
 * their own keep it.
 *
 * Layouts: the hogs in the test's own group, in sibling cgroups, in an
 * autogroup each. The flag must act where the hogs meet: below the root
 * runqueue in sibling cgroups, at the root in the others.
 *
 * protect_base: the protected slice of the base, without the flag.
 * protect_wakeup: PROTECT_ELIGIBLE at a wakeup that does not preempt.
 */
/* First: it defines _GNU_SOURCE for the libc headers below. */
#include "sched_wakeup.h"

#include <sys/utsname.h>

#include "../kselftest_harness.h"
#include "hogs.h"

enum hrtick { HRTICK_AS_IS, HRTICK_ON, HRTICK_OFF };

FIXTURE(ineligible) {
	struct ctx c;
};

FIXTURE_VARIANT(ineligible) {
	enum layout layout;
	bool custom_slice;	/* hogs ask for a long slice, the flag leaves it */
	enum hrtick hrtick;	/* HRTICK set on or off for the test */
};

/* Stop the hogs and the waker, restore every knob the case wrote. */
FIXTURE_TEARDOWN(ineligible)
{
	ctx_teardown(&self->c);
}

FIXTURE_VARIANT_ADD(ineligible, protect_hrtick) {
	.layout = FLAT, .hrtick = HRTICK_ON,
};

FIXTURE_VARIANT_ADD(ineligible, protect_hrtick_siblings) {
	.layout = SIBLINGS, .hrtick = HRTICK_ON,
};

FIXTURE_VARIANT_ADD(ineligible, protect_hrtick_autogroups) {
	.layout = AUTOGROUPS, .hrtick = HRTICK_ON,
};

FIXTURE_VARIANT_ADD(ineligible, protect_tick) {
	.layout = FLAT, .hrtick = HRTICK_OFF,
};

FIXTURE_VARIANT_ADD(ineligible, protect_custom_slice) {
	.layout = FLAT, .hrtick = HRTICK_ON,
	.custom_slice = true,
};

/*
 * Whether @cpu's hrtimers run in high-resolution mode (/proc/timer_list),
 * without which HRTICK does nothing; -1 if that cannot be read.
 */
static int cpu_hres_active(int cpu)
{
	char line[256], want[32];
	bool in_cpu = false;
	int ret = -1, v;
	FILE *f;

	f = fopen("/proc/timer_list", "r");
	if (!f)
		return -1;
	snprintf(want, sizeof(want), "cpu: %d\n", cpu);
	while (fgets(line, sizeof(line), f)) {
		if (!strncmp(line, "cpu: ", 5)) {
			in_cpu = !strcmp(line, want);
			continue;
		}
		if (in_cpu && sscanf(line, " .hres_active : %d", &v) == 1) {
			ret = v;
			break;
		}
	}
	fclose(f);
	return ret;
}

/* The kernel's tunable_scaling factor (get_update_sysctl_factor()). */
static int scaling_factor(long scaling, int cpus)
{
	int log = 0;

	if (cpus > 8)
		cpus = 8;
	while ((2 << log) <= cpus)
		log++;
	switch (scaling) {
	case 0:
		return 1;
	case 2:
		return cpus;
	default:
		return 1 + log;
	}
}

/*
 * tunable_scaling and the factor the kernel divides base_slice by for the
 * quantum. NULL, or why there is no quantum apart from the slice.
 */
static const char *quantum_factor(long *scaling, int *factor)
{
	static char why[160];

	*scaling = sw_sysctl_get(SW_SCALING);
	if (*scaling < 0)
		return "cannot read " SW_SCALING;
	*factor = scaling_factor(*scaling, sw_nr_cpus());
	if (*factor >= 2)
		return NULL;
	snprintf(why, sizeof(why),
		 "tunable_scaling %ld with %d CPUs: the quantum is the whole slice",
		 *scaling, sw_nr_cpus());
	return why;
}

/*
 * PROTECT_ELIGIBLE's predictions: the quantum is the unscaled base slice,
 * which the kernel recomputes from base_slice when tunable_scaling is
 * written; it is written back with its own value, after any change of
 * base_slice. With HRTICK, runs end at the deadline (off) or the quantum
 * (on); without it, at the first tick after either. Where that leaves the
 * two within 2 ticks, base_slice is raised a tick at a time. Returns NULL,
 * or why the situation cannot be built here.
 */
static const char *protect_predict(struct __test_metadata *_metadata, struct ctx *c,
				   bool custom)
{
	static char why[160];
	long long off_ticks, on_ticks;
	long scaling;
	int factor;
	const char *no = quantum_factor(&scaling, &factor);

	if (no)
		return no;
	for (;;) {
		if (sw_sysctl_set(SW_SCALING, scaling))
			return "cannot write " SW_SCALING;
		c->quantum_ns = c->slice_ns / factor;
		if (c->hrtick) {
			c->off_ns = c->slice_ns;
			c->on_ns = c->quantum_ns;
			break;
		}
		off_ticks = (c->slice_ns + c->tick_ns - 1) / c->tick_ns;
		on_ticks = (c->quantum_ns + c->tick_ns - 1) / c->tick_ns;
		c->off_ns = off_ticks * c->tick_ns;
		c->on_ns = on_ticks * c->tick_ns;
		if (off_ticks >= on_ticks + 2)
			break;
		if (c->slice_ns >= MAX_SLICE_TICKS * c->tick_ns) {
			snprintf(why, sizeof(why),
				 "no slice up to %d ticks puts the quantum 2 ticks below it",
				 MAX_SLICE_TICKS);
			return why;
		}
		TH_LOG("base_slice %lld ns: %lld tick(s), the quantum %lld:",
		       c->slice_ns, off_ticks, on_ticks);
		TH_LOG("without HRTICK the flag %s",
		       off_ticks == on_ticks ? "changes nothing" : "is within a tick of the base");
		c->slice_ns = c->slice_ns < c->tick_ns * 7 / 2 ? c->tick_ns * 7 / 2 :
			      c->slice_ns + c->tick_ns;
		TH_LOG("raised to %lld ns for the test", c->slice_ns);
		if (sw_sysctl_set(SW_BASE_SLICE, c->slice_ns))
			return "cannot write " SW_BASE_SLICE;
	}
	if (custom) {
		/* Equal custom slices: each hog's own is the shortest queued. */
		c->custom_ns = 2 * c->slice_ns;
		c->off_ns = c->hrtick ? c->custom_ns :
			    (c->custom_ns + c->tick_ns - 1) / c->tick_ns * c->tick_ns;
		c->quantum_ns = 0;
	}
	return NULL;
}

/*
 * Set HRTICK as @want says (HRTICK_AS_IS: leave it) and find whether it
 * acts on @cpu: the feature on and high-resolution timers active there.
 * Returns NULL, or why a variant that wants it on cannot run here; *@err
 * is set when the feature could not be written.
 */
static const char *hrtick_setup(enum hrtick want, int cpu, bool *acts, bool *err)
{
	static char why[96];
	int hres;

	*err = false;
	if (sw_feature_get("HRTICK") < 0) {
		*acts = false;
		return want == HRTICK_ON ?
		       "no HRTICK feature in this kernel (CONFIG_SCHED_HRTICK)" : NULL;
	}
	if (want != HRTICK_AS_IS && sw_feature_set("HRTICK", want == HRTICK_ON)) {
		*err = true;
		return "cannot write the HRTICK feature";
	}
	hres = cpu_hres_active(cpu);
	*acts = sw_feature_get("HRTICK") == 1 && hres == 1;
	if (want != HRTICK_ON || *acts)
		return NULL;
	if (hres < 0)
		snprintf(why, sizeof(why), "cannot read cpu%d's hres_active in /proc/timer_list",
			 cpu);
	else
		snprintf(why, sizeof(why),
			 "high-resolution timers inactive on cpu%d: HRTICK cannot act", cpu);
	return why;
}

FIXTURE_SETUP(ineligible)
{
	struct ctx *c = &self->c;
	const char *const need[] = { "PROTECT_ELIGIBLE", NULL };
	const char *why = machine_ready(need, variant->layout);
	bool err;
	int ret;

	if (why)
		SKIP(return, "%s", why);
	ASSERT_EQ(0, hogs_begin(_metadata, c));
	why = hrtick_setup(variant->hrtick, c->hog_cpu, &c->hrtick, &err);
	ASSERT_FALSE(err) TH_LOG("%s", why);
	if (why)
		SKIP(return, "%s", why);
	why = protect_predict(_metadata, c, variant->custom_slice);
	if (why)
		SKIP(return, "%s", why);
	ret = hogs_start(_metadata, c, need, variant->layout, WAKEE, false);
	if (ret > 0)
		SKIP(return, "the cpu controller cannot be enabled here (see above)");
	ASSERT_EQ(0, ret);
}

/*
 * Pairs of rounds, PROTECT_ELIGIBLE off then on (hogs_pairs()); then the
 * quantum as a floor of the on runs.
 */
TEST_F_TIMEOUT(ineligible, runs, 120)
{
	struct ctx *c = &self->c;
	long long round_ns = round_length(c), mid = (c->on_ns + c->off_ns) / 2;
	struct pairs p;
	char rule[96];

	TH_LOG("%s, hogs in %s on cpu%d, helpers on cpu%d; HZ=%ld, base_slice %lld ns",
	       "PROTECT_ELIGIBLE", layout_names[variant->layout], c->hog_cpu, c->away_cpu,
	       c->hz, c->slice_ns);
	TH_LOG("HRTICK %s; the quantum %.3f ms (base_slice / tunable_scaling factor)",
	       c->hrtick ? "acts" : "off", (c->custom_ns ? c->on_ns : c->quantum_ns) / 1e6);
	TH_LOG("predicted median run: off >= %.3f ms (the slice%s),",
	       c->off_ns / 1e6, c->hrtick ? "" : " in whole ticks");
	if (variant->custom_slice) {
		rule[0] = '\0';
	} else {
		TH_LOG("on %.3f ms (the quantum%s)", c->on_ns / 1e6,
		       c->hrtick ? "" : " in whole ticks");
		snprintf(rule, sizeof(rule), "a pair agrees when off >= %.3f ms > on", mid / 1e6);
	}
	hogs_log_rule(_metadata, c, variant->custom_slice, mid, rule);
	ASSERT_EQ(0, hogs_pairs(_metadata, c, "PROTECT_ELIGIBLE", variant->custom_slice, false,
				&round_ns, mid, &p));
	EXPECT_EQ(AGREE_TO_PASS, p.agree);
	EXPECT_EQ(0, p.storms);
	if (c->quantum_ns) {
		TH_LOG("flag on: %ld of %ld runs without a gap under %.0f%% of the quantum",
		       p.short_runs, p.clean_runs, 100 * FLOOR_SHORT);
		TH_LOG("(%.3f ms), at most 1 in %d allowed; %.0f switches a second",
		       c->quantum_ns / 1e6, FLOOR_SHARE, p.on_runs * 1e9 / (p.pair * round_ns));
		TH_LOG("(the quantum bounds the rate at %.0f)", 1e9 / c->quantum_ns);
		SW_MEASURE("runs_under_quantum", p.short_runs, "runs");
		EXPECT_LE(p.short_runs * FLOOR_SHARE, p.clean_runs);
	}
}

/*
 * Mainline's protected slice, without the series' flags: what the kernel
 * promises a current task since v6.17 (set_protect_slice()) and where its
 * timer ends the run. Two equal-weight hogs on one CPU (hogs.h).
 *
 * short_slice: one hog (B) asked for a short slice Q, the other (A) has the
 * base slice S. With PREEMPT_SHORT a shorter slice queued ends A's
 * protection where A turns ineligible, about Q after its pick (B ran Q
 * since), well before A's deadline. The base arms the hrtick for the
 * deadline alone (the protection is a wakeup heuristic; the steady state
 * runs to the deadline or to the tick that finds the protection over):
 * the first tick after the crossing ends the run. B, with its short
 * slice, is then picked again until it has caught up, and A's next run
 * ends at the next tick: A and B share each tick, and A's runs last half
 * a tick on average (Q is a quarter tick, or three where that is under
 * 0.1 ms; the runs alternate between two lengths or settle on half a
 * tick). Mean of A's runs, predicted tick / 2, against S for a kernel
 * where the crossing does not end the protection; S is raised to a tick
 * and a half past the crossing where it is less. With PROTECT_ELIGIBLE
 * (short_slice_flag), which arms the hrtick for the end of the
 * protection, A's runs end at the crossing: on runs predicted Q (their
 * median), off runs half a tick (their mean), and a pair agrees when they
 * lie on either side of the midpoint. There the flag's own quantum is
 * made longer than a tick past the crossing (base_slice raised,
 * tunable_scaling written): a flag that applied its quantum over
 * PREEMPT_SHORT's end would leave the runs at the tick, as without it.
 *
 * no_parity: NO_RUN_TO_PARITY gives a task "a minimum quantum ... to
 * ensure progress" (the comment above set_protect_slice()): the unscaled
 * base slice q. With PREEMPT_SHORT on, equal tasks picked at parity must
 * still run q before a tick or a wakeup ends them. A wakeup lands on the
 * hogs' CPU every P = q / 4 (waker(): a nice 19 wakee moved away before it
 * runs), and base_slice is raised so that q is 4
 * times the least period, MIN_PERIOD_NS. A kernel without the minimum ends
 * a run at the first wakeup or tick: median P or a tick, predicted q or
 * more. A gap only lengthens a run, so this variant judges the runs
 * without one.
 *
 * repick: with HRTICK, a run ends at the deadline also when the same task
 * is picked again there: it got a new deadline and needs the hrtick armed
 * for it. A at nice -5 (weight 3121) and B at nice 0 share the CPU 3 to
 * 1, so A is picked again at most of its deadlines; base_slice S is set to
 * a fifth of a tick T. Picked again without the hrtick, A runs to the
 * next tick, which leaves it ahead by more than B's slice: B, picked next
 * with its hrtick armed, is then picked again when that fires and runs to
 * the tick as well. Median of B's runs: predicted S, against T for a
 * kernel that does not arm the hrtick for a task picked again (a model of
 * the pick gives T for any T at S = T / 5).
 *
 * The _flag variants: the same situations with PROTECT_ELIGIBLE off and on
 * in turn: each round of a pair agrees with the prediction above, and the
 * median run with the flag is at most NOT_LONGER times the one without.
 * The flag ends a run at the crossing, or later only where the crossing
 * comes before its own quantum; it must never push back an end the base
 * set earlier (short_slice, with that quantum longer than a tick: the
 * flag's runs end at PREEMPT_SHORT's crossing, not at the tick), and in
 * repick the task picked again, its protection and quantum long passed,
 * must get the hrtick for its deadline, not one every 10 us: the timer
 * storm every round checks for (stormy()).
 */
#define REPICK_NICE	-5	/* hog A's nice level in the repick variant */
#define NOT_LONGER	1.1	/* _flag variants: on run / off run, at most */

FIXTURE(protect_base) {
	struct ctx c;
};

FIXTURE_VARIANT(protect_base) {
	bool short_slice;
	bool repick;
	bool flag;		/* PROTECT_ELIGIBLE off and on, in pairs */
};

FIXTURE_VARIANT_ADD(protect_base, short_slice) {
	.short_slice = true,
};

FIXTURE_VARIANT_ADD(protect_base, no_parity) {
	.short_slice = false,
};

FIXTURE_VARIANT_ADD(protect_base, repick) {
	.repick = true,
};

FIXTURE_VARIANT_ADD(protect_base, short_slice_flag) {
	.short_slice = true, .flag = true,
};

FIXTURE_VARIANT_ADD(protect_base, no_parity_flag) {
	.flag = true,
};

FIXTURE_VARIANT_ADD(protect_base, repick_flag) {
	.repick = true, .flag = true,
};

/* Whether the running kernel is @major.@minor or later. */
static bool kernel_at_least(int major, int minor)
{
	struct utsname u;
	int ma, mi;

	if (uname(&u) || sscanf(u.release, "%d.%d", &ma, &mi) != 2)
		return false;
	return ma > major || (ma == major && mi >= minor);
}

FIXTURE_SETUP(protect_base)
{
	struct ctx *c = &self->c;
	const char *const flag[] = { "PROTECT_ELIGIBLE", NULL };
	const char *const *need = variant->flag ? flag : flag + 1;
	const char *why = machine_ready(need, FLAT);
	long long q, want;
	long scaling;
	int factor, nr = variant->short_slice || variant->repick ? WAKEE : NR_ROLES;
	bool err;

	if (why)
		SKIP(return, "%s", why);
	if (!kernel_at_least(6, 17))
		SKIP(return, "the protected slice ends before the deadline since v6.17");
	if (sw_feature_get("PREEMPT_SHORT") < 0 || sw_feature_get("RUN_TO_PARITY") < 0)
		SKIP(return, "no PREEMPT_SHORT or RUN_TO_PARITY feature in this kernel");
	ASSERT_EQ(0, hogs_begin(_metadata, c));
	ASSERT_EQ(0, sw_feature_set("PREEMPT_SHORT", true));
	ASSERT_EQ(0, sw_feature_set("RUN_TO_PARITY", variant->short_slice || variant->repick));

	if (variant->repick) {
		why = hrtick_setup(HRTICK_ON, c->hog_cpu, &c->hrtick, &err);
		ASSERT_FALSE(err) TH_LOG("%s", why);
		if (why)
			SKIP(return, "%s", why);
		/* A fifth of a tick: 0.2 ms at HZ=1000, 0.8 ms at HZ=250. */
		want = c->tick_ns / 5;
		if (want < 100000)
			SKIP(return, "HZ=%ld: a fifth of a tick is under 0.1 ms", c->hz);
		TH_LOG("base_slice %lld ns set to %lld ns, a fifth of a tick",
		       c->slice_ns, want);
		c->slice_ns = want;
		ASSERT_EQ(0, sw_sysctl_set(SW_BASE_SLICE, c->slice_ns));
		c->judged = HOG_B + 1;
		c->on_ns = c->slice_ns;
		c->off_ns = c->tick_ns;
	} else if (variant->short_slice) {
		why = hrtick_setup(HRTICK_ON, c->hog_cpu, &c->hrtick, &err);
		ASSERT_FALSE(err) TH_LOG("%s", why);
		if (why)
			SKIP(return, "%s", why);
		/* An odd number of quarter ticks, at least the 0.1 ms minimum. */
		for (q = c->tick_ns / 4; q < 100000; q += c->tick_ns / 2)
			;
		want = q + 3 * c->tick_ns / 2;
		if (variant->flag) {
			why = quantum_factor(&scaling, &factor);
			if (why)
				SKIP(return, "%s", why);
			/* The flag's quantum a tick and a half past the crossing. */
			if (want < factor * (q + 3 * c->tick_ns / 2))
				want = (factor * (q + 3 * c->tick_ns / 2) / 100000 + 1) * 100000;
		}
		if (c->slice_ns < want) {
			TH_LOG("base_slice %lld ns raised to %lld ns: the deadline%s a tick and",
			       c->slice_ns, want, variant->flag ? " and the flag's quantum" : "");
			TH_LOG("a half past the crossing at least");
			c->slice_ns = want;
			ASSERT_EQ(0, sw_sysctl_set(SW_BASE_SLICE, c->slice_ns));
		}
		if (variant->flag) {
			ASSERT_EQ(0, sw_sysctl_set(SW_SCALING, scaling));
			c->quantum_ns = c->slice_ns / factor;
		}
		c->custom_b_ns = q;
		c->judged = HOG_A + 1;
		c->on_ns = c->tick_ns / 2;
		c->off_ns = c->slice_ns;
	} else {
		why = quantum_factor(&scaling, &factor);
		if (why)
			SKIP(return, "%s", why);
		want = 4 * MIN_PERIOD_NS * factor;
		if (c->slice_ns < want) {
			TH_LOG("base_slice %lld ns: a quantum of %lld ns leaves no room",
			       c->slice_ns, c->slice_ns / factor);
			TH_LOG("for 4 wakeups of the least period; raised to %lld ns", want);
			c->slice_ns = want;
			ASSERT_EQ(0, sw_sysctl_set(SW_BASE_SLICE, c->slice_ns));
		}
		/* The quantum follows base_slice when tunable_scaling is written. */
		ASSERT_EQ(0, sw_sysctl_set(SW_SCALING, scaling));
		c->quantum_ns = c->slice_ns / factor;
		c->period_ns = c->quantum_ns / 4;
		c->off_ns = c->quantum_ns;
		c->on_ns = c->period_ns < c->tick_ns ? c->period_ns : c->tick_ns;
	}

	/* The base's flags as set above; PROTECT_ELIGIBLE off to begin with. */
	ASSERT_EQ(0, hogs_start(_metadata, c, need, FLAT, nr, c->period_ns));
	if (variant->repick)
		ASSERT_EQ(0, setpriority(PRIO_PROCESS, c->sh->pid[HOG_A], REPICK_NICE));
}

FIXTURE_TEARDOWN(protect_base)
{
	ctx_teardown(&self->c);
}

/*
 * no_parity: the quantum 4 wakeup intervals long as this machine makes
 * them (calibrate() for this fixture): base_slice raised, whole tenths of
 * a millisecond of quantum, and tunable_scaling written so that the
 * quantum follows. 0, or -1 when no slice up to MAX_SLICE_NS does.
 */
static int fit_quantum(struct __test_metadata *_metadata, struct ctx *c, long long *round_ns)
{
	long long interval, q;
	long scaling;
	int i, factor = 1;

	for (i = 1; i <= CALIBRATIONS; i++) {
		interval = wakeup_interval(_metadata, c, i, *round_ns);
		if (interval < 0)
			return -1;
		if (4 * interval <= c->quantum_ns)
			return 0;
		if (quantum_factor(&scaling, &factor))
			return -1;
		q = (4 * interval / 100000 + 1) * 100000;
		if (q * factor > MAX_SLICE_NS)
			continue;
		c->slice_ns = q * factor;
		if (sw_sysctl_set(SW_BASE_SLICE, c->slice_ns) ||
		    sw_sysctl_set(SW_SCALING, scaling) || requeue_hogs(c))
			return -1;
		c->quantum_ns = q;
		c->off_ns = q;
		set_gap(c);
		*round_ns = round_length(c);
		TH_LOG("base_slice raised to %lld ns: the quantum %.3f ms, 4 wakeups or more",
		       c->slice_ns, q / 1e6);
		return 0;
	}
	TH_LOG("the waker cannot wake 4 times a quantum of up to %lld ns in %d rounds",
	       MAX_SLICE_NS / factor, CALIBRATIONS);
	return -1;
}

/*
 * A round of protect_base on the predicted side of the midpoint @mid:
 * below it (@below: short_slice, by the mean of the runs, and repick) or
 * at or above it (no_parity).
 */
static bool base_agrees(bool below, bool mean, const struct round *rd, long long mid)
{
	if (mean)
		return rd->mean_ns < mid;
	if (below)
		return rd->median_ns < mid || (rd->clean >= MIN_RUNS && rd->clean_ns < mid);
	return rd->clean >= MIN_RUNS && rd->clean_ns >= mid;
}

/* A round that says nothing: too few runs without a gap, missed ticks. */
static const char *base_invalid(const struct round *rd)
{
	if (rd->invalid)
		return rd->invalid;
	if (rd->clean < MIN_RUNS || (rd->ticks >= 0 && rd->ticks < FAIR_TICKS))
		return "too few runs without a gap or missed ticks";
	return NULL;
}

/*
 * Rounds (in the _flag variants pairs of rounds, the flag off then on)
 * until AGREE_TO_PASS put the median run on the predicted side of the
 * midpoint -- and, with the flag, the on run no longer than NOT_LONGER
 * times the off run -- or DISAGREE_TO_FAIL do not; rounds with too few
 * runs without a gap, too few wakeups or missed ticks are measured again,
 * as in the pairs of hogs_pairs(). No round may show a timer storm.
 */
TEST_F_TIMEOUT(protect_base, runs, 120)
{
	struct ctx *c = &self->c;
	long long mid, round_ns = round_length(c);
	int round = 0, agree = 0, disagree = 0, again = 0, storms = 0;
	bool below = variant->short_slice || variant->repick;
	/* short_slice_flag: the flag's crossing against the base's half tick. */
	long long flag_mid = (c->custom_b_ns + c->tick_ns / 2) / 2;
	const char *invalid;
	bool ok;
	struct round rd, on;

	if (c->period_ns)
		ASSERT_EQ(0, fit_quantum(_metadata, c, &round_ns));
	mid = (c->on_ns + c->off_ns) / 2;

	TH_LOG("hogs on cpu%d, helpers on cpu%d; HZ=%ld, base_slice %lld ns", c->hog_cpu,
	       c->away_cpu, c->hz, c->slice_ns);
	if (variant->repick) {
		TH_LOG("A at nice %d, B at nice 0; B's runs predicted %.3f ms (the slice),",
		       REPICK_NICE, c->on_ns / 1e6);
		TH_LOG("%.3f ms (a tick) if a task picked again runs without the hrtick;",
		       c->off_ns / 1e6);
		TH_LOG("a round agrees when the median of B's runs < %.3f ms", mid / 1e6);
	} else if (variant->short_slice) {
		TH_LOG("B asked for %.3f ms; A's runs, predicted %.3f ms on average (to the",
		       c->custom_b_ns / 1e6, c->on_ns / 1e6);
		TH_LOG("tick after the crossing, B catching up between); %.3f ms (the deadline)",
		       c->off_ns / 1e6);
		TH_LOG("if the crossing does not end the protection; a round agrees when their");
		TH_LOG("mean < %.3f ms", mid / 1e6);
		if (variant->flag) {
			TH_LOG("with PROTECT_ELIGIBLE (its quantum %.3f ms) %.3f ms, the crossing:",
			       c->quantum_ns / 1e6, c->custom_b_ns / 1e6);
			TH_LOG("a pair agrees when the on median < %.3f ms <= the off mean",
			       flag_mid / 1e6);
		}
	} else {
		TH_LOG("NO_RUN_TO_PARITY, the quantum %.3f ms, a wakeup every %.3f ms;",
		       c->quantum_ns / 1e6, c->period_ns / 1e6);
		TH_LOG("runs predicted >= %.3f ms; %.3f ms without the minimum quantum;",
		       c->off_ns / 1e6, c->on_ns / 1e6);
		TH_LOG("a round agrees when the median of the runs without a gap >= %.3f ms",
		       mid / 1e6);
	}
	if (variant->flag)
		TH_LOG("so with PROTECT_ELIGIBLE, in pairs off/on: on <= %.1f x off", NOT_LONGER);
	TH_LOG("%d agreeing rounds pass, %d others fail", AGREE_TO_PASS, DISAGREE_TO_FAIL);

	while (agree < AGREE_TO_PASS && disagree < DISAGREE_TO_FAIL && round < MAX_PAIRS) {
		round++;
		if (variant->flag)
			ASSERT_EQ(0, sw_feature_set("PROTECT_ELIGIBLE", false));
		ASSERT_EQ(0, measure(c, round_ns, &rd));
		log_round(_metadata, c, round, variant->flag ? "off" : "", &rd);
		storms += stormy(rd.storm);
		ok = base_agrees(below, variant->short_slice, &rd, mid);
		invalid = base_invalid(&rd);
		if (variant->flag) {
			ASSERT_EQ(0, sw_feature_set("PROTECT_ELIGIBLE", true));
			ASSERT_EQ(0, measure(c, round_ns, &on));
			log_round(_metadata, c, round, "on", &on);
			storms += stormy(on.storm);
			ok = ok && base_agrees(below, variant->short_slice, &on, mid) &&
			     (on.median_ns <= NOT_LONGER * rd.median_ns ||
			      on.clean_ns <= NOT_LONGER * rd.clean_ns);
			if (variant->short_slice)
				ok = ok && rd.mean_ns >= flag_mid && on.median_ns < flag_mid;
			TH_LOG("  pair %d: median run on/off %.3f (no gap %.3f)", round,
			       rd.median_ns ? (double)on.median_ns / rd.median_ns : 0,
			       rd.clean_ns ? (double)on.clean_ns / rd.clean_ns : 0);
			if (!invalid)
				invalid = base_invalid(&on);
		}
		if (!invalid && ok) {
			agree++;
		} else if (invalid) {
			again++;
			TH_LOG("  round %d: %s: measured again", round, invalid);
		} else {
			disagree++;
		}
	}
	if (variant->flag)
		ASSERT_EQ(0, sw_feature_set("PROTECT_ELIGIBLE", false));
	TH_LOG("%d of %d rounds agree with the prediction, %d disagree, %d measured again",
	       agree, round, disagree, again);
	TH_LOG("%d round(s) with a timer storm (over 1 interrupt per %.1f ms beyond the ticks)",
	       storms, STORM_NS / 1e6);
	SW_MEASURE("rounds_agree", agree, "rounds");
	SW_MEASURE("storm_rounds", storms, "rounds");
	SW_MEASURE("median_run", rd.median_ns / 1e6, "ms");
	SW_MEASURE("mean_run", rd.mean_ns / 1e6, "ms");
	SW_MEASURE("median_run_no_gap", rd.clean_ns / 1e6, "ms");
	if (variant->flag) {
		SW_MEASURE("median_run_on", on.median_ns / 1e6, "ms");
		SW_MEASURE("median_run_on_no_gap", on.clean_ns / 1e6, "ms");
	}
	EXPECT_EQ(AGREE_TO_PASS, agree);
	EXPECT_EQ(0, storms);
}

/*
 * PROTECT_ELIGIBLE at a wakeup that does not preempt (the protect_wakeup
 * fixture). A CPU-bound task, "the hog", runs alone on its CPU, so the
 * protection it got when picked lasts to its deadline. A wakee with lag
 * zero arrives: place_entity() puts it at the average, which is the hog's
 * vruntime, so the hog stays eligible and pick_eevdf() keeps it. Without
 * the flag the wakee waits for the hog's deadline: the hrtick armed there,
 * or the first tick after it. With the flag the wakeup ends the protection
 * where the hog turns ineligible, which, the hog having run its quantum,
 * is less than 10 us ahead: the wakeup reschedules the hog at once. Under
 * lazy preemption the schedule finds the hog past that point and runs the
 * wakee, with HRTICK or without. Under any other model the reschedule
 * skips the clock update, the pick keeps the hog, and the hrtick armed at
 * that pick ends its run 10 us later -- without HRTICK, the next tick.
 * The model is read from debugfs ("preempt"); where that file is missing
 * it is taken as not lazy, the later prediction.
 *
 * Every cycle builds that situation anew. The hog sleeps a moment, alone,
 * so it is picked again with lag zero and a fresh protection; it runs
 * ran_ns, an eighth over the quantum, and wakes the wakee through an
 * eventfd. The wakee ran alone on another CPU before it slept, so it left
 * with lag zero; the hog moved it onto its own CPU (sched_setaffinity())
 * while it slept, so the wakeup is made on the hog's CPU and acted on when
 * the hog returns to user space, in every preemption mode. The wakee notes
 * when it runs and moves back.
 *
 * A wait is from the hog's write to the wakee's first look at the clock:
 * a switch or two more than the kernel's decision, tens of microseconds
 * on hardware, up to 0.6 ms (median of a round) on emulated CPUs.
 * So the two predictions must lie PW_MIN_GAP_NS apart. Without HRTICK
 * the wait without the flag ends at a tick; the hog's sleep is lengthened
 * by a random part of a tick, so that the wakeups fall at every phase of
 * it, and the predictions must lie a tick more apart, so that the
 * flag-off wait does not cross the midpoint wherever in the tick it falls.
 * The test raises base_slice where the default leaves less.
 *
 * The hog looks at the clock until the wakee has run; the longest time it
 * did not is taken for the wakee's run, and what the hog ran from its
 * write to then ("after" in the log) for the kernel's decision alone; the
 * rest of the wait is the switches. That split is logged, not judged (a
 * stall of the CPU while the hog runs can be the longest time). A stalled
 * CPU -- a host that does not run the guest's -- lengthens waits with the
 * flag on and off alike: the hog notes the time it lost to gaps over
 * PW_STALL_NS while it ran before each wakeup, alone on its CPU, and a
 * pair that disagrees with a round that lost over PW_MAX_STALLED of it
 * is measured again (see the test). A measurement that cannot decide
 * fails.
 *
 * A hog that asked for a slice of its own keeps its protection with the
 * flag: in the custom-slice variant hog and wakee ask for twice the base
 * slice (the wakee too, or PREEMPT_SHORT would preempt for it), and the
 * waits must lie over the midpoint on and off.
 *
 * So does a hog woken beside by a wakee that wakeup_preempt_fair() never
 * lets preempt: a SCHED_BATCH or a SCHED_IDLE task, or a child the hog
 * forks (WF_FORK). The flag acts at the wakeups that may preempt, where
 * the pick runs; in these variants the waits must lie over the midpoint
 * on and off. In the fork variant there is no wakee process: each cycle
 * the hog forks a child, which notes when it runs and exits. (A wakee
 * still sched_delayed is the fourth kind the base keeps from preempting;
 * a wakeup requeues it before wakeup_preempt_fair() looks, so no wakeup
 * a test can make reaches that case.)
 */
#define PW_MIN_GAP_NS	2000000LL	/* least distance of the predictions */
#define PW_NAP_NS	100000L		/* the hog's sleep before each cycle */
#define PW_MIN_WAITS	15		/* fewer in a round: it says nothing */
#define PW_MAX_WAITS	4096
#define PW_MAX_SLICE_NS	50000000LL	/* longest base_slice the test sets */
#define PW_STALL_NS	50000LL		/* a gap in the hog's looks: time lost */
#define PW_MAX_STALLED	0.25		/* share of it that marks a stalled round */
#define PW_PREEMPT	"/sys/kernel/debug/sched/preempt"

struct pw_shm {
	atomic_int stop;
	atomic_int measuring;
	atomic_int ready;
	atomic_int asleep;		/* the wakee is about to block */
	atomic_llong woke_at;		/* when the wakee ran; 0 before */
	atomic_int woke_cpu;		/* where */
	atomic_int nr;			/* waits noted this round */
	atomic_int lost;		/* wakee not run within timeout_ns */
	atomic_int elsewhere;		/* wakee run on another CPU */
	pid_t pid[NR_ROLES];		/* HOG_A and WAKEE */
	char err[ERR_LEN];
	long long wait_ns[PW_MAX_WAITS];
	long long ran_ns[PW_MAX_WAITS];	/* the hog's run before the wakeup */
	long long held_ns[PW_MAX_WAITS];	/* and after it, till it left the CPU */
	long long stall_ns[PW_MAX_WAITS];	/* gaps while it ran before it */
};

struct pw_ctx {
	struct pw_shm *sh;
	int hog_cpu, wakee_cpu, own_cpu;
	int efd;
	long hz;
	long long tick_ns, slice_ns, quantum_ns, ran_ns, timeout_ns;
	long long custom_ns;		/* the hog's and the wakee's own slice, or 0 */
	long long off_ns, on_ns;	/* predicted median waits */
	int wakee_policy;		/* SCHED_OTHER, SCHED_BATCH or SCHED_IDLE */
	bool fork_wakee;		/* each wakee a new child of the hog */
	bool keeps;			/* the hog keeps its protection with the flag */
	bool hrtick;
	bool lazy;			/* lazy preemption, read from debugfs */
};

FIXTURE(protect_wakeup) {
	struct pw_ctx c;
};

FIXTURE_VARIANT(protect_wakeup) {
	enum layout layout;
	enum hrtick hrtick;
	bool custom_slice;
	int wakee_policy;
	bool fork_wakee;
};

FIXTURE_VARIANT_ADD(protect_wakeup, hrtick) {
	.layout = FLAT, .hrtick = HRTICK_ON,
};

FIXTURE_VARIANT_ADD(protect_wakeup, hrtick_siblings) {
	.layout = SIBLINGS, .hrtick = HRTICK_ON,
};

FIXTURE_VARIANT_ADD(protect_wakeup, hrtick_autogroups) {
	.layout = AUTOGROUPS, .hrtick = HRTICK_ON,
};

FIXTURE_VARIANT_ADD(protect_wakeup, tick) {
	.layout = FLAT, .hrtick = HRTICK_OFF,
};

FIXTURE_VARIANT_ADD(protect_wakeup, custom_slice) {
	.layout = FLAT, .hrtick = HRTICK_ON, .custom_slice = true,
};

FIXTURE_VARIANT_ADD(protect_wakeup, batch_wakee) {
	.layout = FLAT, .hrtick = HRTICK_ON, .wakee_policy = SCHED_BATCH,
};

FIXTURE_VARIANT_ADD(protect_wakeup, idle_wakee) {
	.layout = FLAT, .hrtick = HRTICK_ON, .wakee_policy = SCHED_IDLE,
};

FIXTURE_VARIANT_ADD(protect_wakeup, fork_wakee) {
	.layout = FLAT, .hrtick = HRTICK_ON, .fork_wakee = true,
};

/* The fork variant's wakee: a child of the hog that notes its first run. */
static pid_t pw_fork_wakee(struct pw_shm *sh)
{
	pid_t pid = fork();

	if (!pid) {
		atomic_store(&sh->woke_cpu, sched_getcpu());
		atomic_store(&sh->woke_at, sw_now_ns());
		_exit(0);
	}
	return pid;
}

static void pw_hog(struct pw_ctx *c)
{
	struct timespec nap = { 0, PW_NAP_NS };
	unsigned int seed = getpid();
	struct pw_shm *sh = c->sh;
	pid_t w = sh->pid[WAKEE];
	long long picked, t0, woke, end, now, prev, gap, held, stall;
	long slept = -1;
	struct sw_stats st;
	uint64_t one = 1;
	pid_t child = 0;
	int i;

	atomic_fetch_add(&sh->ready, 1);
	while (!atomic_load(&sh->stop)) {
		if (child > 0)
			waitpid(child, NULL, 0);
		child = 0;
		/* The wakee asleep on its CPU again, once more than last time. */
		if (!c->fork_wakee) {
			if (!atomic_load(&sh->asleep) || sw_task_state(w) != 'S' ||
			    sw_stats(w, &st) || st.voluntary <= slept)
				continue;
			slept = st.voluntary;
			if (sw_pin(w, c->hog_cpu))
				child_fail(sh->err, "moving the sleeping wakee");
		}
		if (!c->hrtick)
			nap.tv_nsec = PW_NAP_NS + rand_r(&seed) % c->tick_ns;
		nanosleep(&nap, NULL);
		picked = sw_now_ns();
		prev = picked;
		stall = 0;
		for (now = picked; now - picked < c->ran_ns; prev = now) {
			now = sw_now_ns();
			if (now - prev > PW_STALL_NS)
				stall += now - prev;
		}
		atomic_store(&sh->woke_at, 0);
		atomic_store(&sh->asleep, 0);
		t0 = sw_now_ns();
		if (c->fork_wakee) {
			child = pw_fork_wakee(sh);
			if (child < 0)
				child_fail(sh->err, "forking the wakee");
		} else if (write(c->efd, &one, sizeof(one)) != sizeof(one)) {
			child_fail(sh->err, "waking the wakee");
		}
		/* The longest time the hog did not look: the wakee ran then. */
		end = t0 + c->timeout_ns;
		prev = t0;
		gap = 0;
		held = 0;
		while (!(woke = atomic_load(&sh->woke_at))) {
			now = sw_now_ns();
			if (now - prev > gap) {
				gap = now - prev;
				held = prev - t0;
			}
			prev = now;
			if (now >= end)
				break;
		}
		if (!atomic_load(&sh->measuring))
			continue;
		if (!woke) {
			atomic_fetch_add(&sh->lost, 1);
			continue;
		}
		if (atomic_load(&sh->woke_cpu) != c->hog_cpu) {
			atomic_fetch_add(&sh->elsewhere, 1);
			continue;
		}
		i = atomic_fetch_add(&sh->nr, 1);
		if (i < PW_MAX_WAITS) {
			sh->wait_ns[i] = woke - t0;
			sh->held_ns[i] = held;
			sh->stall_ns[i] = stall;
			sh->ran_ns[i] = t0 - picked;
		}
	}
	_exit(0);
}

static void pw_wakee(struct pw_ctx *c)
{
	struct pw_shm *sh = c->sh;
	uint64_t v;

	atomic_fetch_add(&sh->ready, 1);
	for (;;) {
		atomic_store(&sh->asleep, 1);
		if (read(c->efd, &v, sizeof(v)) != sizeof(v))
			_exit(0);
		atomic_store(&sh->woke_cpu, sched_getcpu());
		atomic_store(&sh->woke_at, sw_now_ns());
		if (sw_pin(0, c->wakee_cpu))
			child_fail(sh->err, "moving back to its CPU");
	}
}

static int pw_spawn(struct pw_ctx *c, enum layout how, enum role r)
{
	pid_t pid = sw_fork(true);

	if (pid) {
		/* Here too: the hog, forked next, reads the wakee's at once. */
		c->sh->pid[r] = pid;
		return pid < 0 ? -1 : 0;
	}
	c->sh->pid[r] = getpid();
	place(c->sh->err, how, r, 0, r == WAKEE ? c->wakee_cpu : c->hog_cpu, c->custom_ns);
	if (r == WAKEE && c->wakee_policy != SCHED_OTHER) {
		struct sched_param none = { 0 };

		if (sched_setscheduler(0, c->wakee_policy, &none))
			child_fail(c->sh->err, "setting the wakee's policy");
	}
	if (r == WAKEE)
		pw_wakee(c);
	pw_hog(c);
	_exit(0);
}

/*
 * The predictions, and base_slice raised until they lie far enough apart
 * (see above). The quantum is the unscaled base slice, recomputed when
 * tunable_scaling is written back after base_slice; the hog runs an eighth
 * more than that before each wakeup. Returns NULL, or why the situation
 * cannot be built here.
 */
/* Whether debugfs says the preemption model is lazy; false where unknown. */
static bool preempt_lazy(void)
{
	char line[128] = "";
	FILE *f = fopen(PW_PREEMPT, "r");

	if (f) {
		if (!fgets(line, sizeof(line), f))
			line[0] = '\0';
		fclose(f);
	}
	return strstr(line, "(lazy)");
}

static const char *pw_predict(struct __test_metadata *_metadata, struct pw_ctx *c,
			      bool custom)
{
	long long need = PW_MIN_GAP_NS + (c->hrtick ? 0 : c->tick_ns);
	long long gap, slice;
	long scaling;
	int factor;
	const char *no = quantum_factor(&scaling, &factor);

	if (no)
		return no;
	/* slice - ran = slice * (1 - 9 / (8 * factor)) */
	gap = c->slice_ns - (c->slice_ns / factor) * 9 / 8;
	if (gap < need) {
		slice = (need * 8 * factor / (8 * factor - 9) / 100000 + 1) * 100000;
		if (slice > PW_MAX_SLICE_NS)
			return "no base_slice up to 50 ms leaves the wakeup room";
		TH_LOG("base_slice %lld ns leaves %lld ns between the predictions:",
		       c->slice_ns, gap);
		TH_LOG("raised to %lld ns", slice);
		c->slice_ns = slice;
		if (sw_sysctl_set(SW_BASE_SLICE, c->slice_ns))
			return "cannot write " SW_BASE_SLICE;
	}
	if (sw_sysctl_set(SW_SCALING, scaling))
		return "cannot write " SW_SCALING;
	c->quantum_ns = c->slice_ns / factor;
	c->ran_ns = c->quantum_ns * 9 / 8;
	c->off_ns = c->slice_ns - c->ran_ns;
	c->on_ns = 0;
	/*
	 * Without HRTICK the flag-off wait ends at a tick, half a tick later
	 * on average; so does the flag-on wait unless preemption is lazy.
	 */
	if (!c->hrtick) {
		c->off_ns += c->tick_ns / 2;
		if (!c->lazy)
			c->on_ns = c->tick_ns / 2;
	}
	if (custom) {
		/* The hog keeps its protection: to its own, longer deadline. */
		c->custom_ns = 2 * c->slice_ns;
		c->off_ns += c->custom_ns - c->slice_ns;
	}
	if (c->keeps)
		c->on_ns = c->off_ns;
	c->timeout_ns = c->custom_ns + c->slice_ns + 4 * c->tick_ns + 20000000LL;
	return NULL;
}

FIXTURE_SETUP(protect_wakeup)
{
	const char *const need[] = { "PROTECT_ELIGIBLE", NULL };
	struct pw_ctx *c = &self->c;
	const char *why = machine_ready(need, variant->layout);
	cpu_set_t online;
	bool err;
	int cpu;

	if (why)
		SKIP(return, "%s", why);
	/* This process on a third CPU where there is one, else the wakee's. */
	c->hog_cpu = sw_last_cpu();
	c->wakee_cpu = pick_away(c->hog_cpu);
	ASSERT_LE(0, c->wakee_cpu);
	ASSERT_EQ(0, sw_online(&online));
	c->own_cpu = c->wakee_cpu;
	for (cpu = 0; cpu < CPU_SETSIZE; cpu++)
		if (CPU_ISSET(cpu, &online) && cpu != c->hog_cpu && cpu != c->wakee_cpu) {
			c->own_cpu = cpu;
			break;
		}
	ASSERT_EQ(0, sw_pin(0, c->own_cpu));
	ASSERT_EQ(0, read_timing(_metadata, &c->hz, &c->slice_ns, &c->tick_ns));
	why = hrtick_setup(variant->hrtick, c->hog_cpu, &c->hrtick, &err);
	ASSERT_FALSE(err) TH_LOG("%s", why);
	if (why)
		SKIP(return, "%s", why);
	c->wakee_policy = variant->wakee_policy;
	c->fork_wakee = variant->fork_wakee;
	c->lazy = preempt_lazy();
	c->keeps = variant->custom_slice || variant->wakee_policy != SCHED_OTHER ||
		   variant->fork_wakee;
	why = pw_predict(_metadata, c, variant->custom_slice);
	if (why)
		SKIP(return, "%s", why);
	ASSERT_EQ(0, sw_sysctl_set(SW_SCHEDSTATS, 1));
	if (variant->layout == AUTOGROUPS)
		ASSERT_EQ(0, sw_sysctl_set(SW_AUTOGROUP, 1));
	ASSERT_EQ(0, sw_feature_set("PROTECT_ELIGIBLE", false));
	TH_LOG("features: %s", sw_features_line());

	c->sh = share_page(sizeof(*c->sh));
	ASSERT_NE(NULL, c->sh);
	c->efd = eventfd(0, 0);
	ASSERT_LE(0, c->efd);
	if (variant->layout == SIBLINGS) {
		int ret = sw_cg_make(cg_of[SIBLINGS][HOG_A], 0);

		if (!ret)
			ret = sw_cg_make(cg_of[SIBLINGS][WAKEE], 0);
		if (ret == SW_CG_NO_CPU)
			SKIP(return, "the cpu controller cannot be enabled here (see above)");
		ASSERT_EQ(0, ret);
	}
	/* The wakee first: the hog waits for it to sleep. */
	if (!c->fork_wakee)
		ASSERT_EQ(0, pw_spawn(c, variant->layout, WAKEE));
	ASSERT_EQ(0, pw_spawn(c, variant->layout, HOG_A));
	ASSERT_EQ(0, children_ready(_metadata, &c->sh->ready, c->fork_wakee ? 1 : 2,
				    c->sh->err));
	ASSERT_EQ(0, check_layout(_metadata, c->sh->pid, variant->layout));
}

FIXTURE_TEARDOWN(protect_wakeup)
{
	if (self->c.sh)
		atomic_store(&self->c.sh->stop, true);
	sw_restore();
}

struct pw_round {
	long long median_ns, p90_ns, ran_ns;	/* ran_ns: the hog's median run */
	long long held_ns, held_p90_ns;	/* the hog's run after the wakeup */
	double stalled;		/* share of the hogs' runs before the wakeups lost */
	int waits, lost, elsewhere;
	int over;		/* waits at or over the midpoint */
	double ticks;		/* share of the expected ticks the CPU handled, or -1 */
	double storm;		/* timer interrupts beyond them per STORM_NS, or -1 */
	const char *invalid;
};

static int pw_measure(struct pw_ctx *c, long long round_ns, long long mid,
		      struct pw_round *r)
{
	static long long waits[PW_MAX_WAITS], ran[PW_MAX_WAITS], held[PW_MAX_WAITS];
	long long stall = 0;
	struct pw_shm *sh = c->sh;
	long long t0, irq0, irq1;
	int i, n;

	usleep(SETTLE_US);
	memset(r, 0, sizeof(*r));
	atomic_store(&sh->nr, 0);
	atomic_store(&sh->lost, 0);
	atomic_store(&sh->elsewhere, 0);
	timed_round(&sh->measuring, c->hog_cpu, round_ns, &irq0, &t0);
	/* The hog notes a wait once it ended: one more may still come. */
	usleep((c->timeout_ns + c->ran_ns) / 1000);
	irq1 = sw_timer_irqs(c->hog_cpu);
	r->ticks = ticks_handled(irq0, irq1, t0, c->tick_ns);
	r->storm = storm_rate(r->ticks, c->tick_ns);
	if (sh->err[0])
		return -1;
	n = atomic_load(&sh->nr);
	if (n > PW_MAX_WAITS)
		n = PW_MAX_WAITS;
	for (i = 0; i < n; i++) {
		waits[i] = sh->wait_ns[i];
		ran[i] = sh->ran_ns[i];
		held[i] = sh->held_ns[i];
		stall += sh->stall_ns[i];
		r->over += waits[i] >= mid;
	}
	qsort(waits, n, sizeof(waits[0]), cmp_ll);
	qsort(ran, n, sizeof(ran[0]), cmp_ll);
	qsort(held, n, sizeof(held[0]), cmp_ll);
	r->stalled = n ? (double)stall / (n * c->ran_ns) : 0;
	r->held_ns = n ? held[n / 2] : 0;
	r->held_p90_ns = n ? held[n * 9 / 10] : 0;
	r->waits = n;
	r->median_ns = n ? waits[n / 2] : 0;
	r->p90_ns = n ? waits[n * 9 / 10] : 0;
	r->ran_ns = n ? ran[n / 2] : 0;
	r->lost = atomic_load(&sh->lost);
	r->elsewhere = atomic_load(&sh->elsewhere);
	if (n < PW_MIN_WAITS)
		r->invalid = "too few wakeups to tell";
	return 0;
}

static void pw_log_round(struct __test_metadata *_metadata, int pair, const char *state,
			 const struct pw_round *r)
{
	TH_LOG("  pair %d %-3s: median wait %6.3f ms, p90 %.3f ms; %d wakeups,",
	       pair, state, r->median_ns / 1e6, r->p90_ns / 1e6, r->waits);
	TH_LOG("    %d over the midpoint, %d lost; the hog ran %.3f ms before each,",
	       r->over, r->lost, r->ran_ns / 1e6);
	TH_LOG("    %.3f ms (p90 %.3f) after; %.1f%% of the run before lost%s; ticks %.0f%%%s%s",
	       r->held_ns / 1e6, r->held_p90_ns / 1e6, 100 * r->stalled,
	       r->stalled > PW_MAX_STALLED ? " (stalled)" : "",
	       r->ticks < 0 ? -1.0 : 100 * r->ticks,
	       r->invalid ? ": " : "", r->invalid ? r->invalid : "");
	TH_LOG("    timer interrupts beyond the ticks: %.2f per %.1f ms%s",
	       r->storm, STORM_NS / 1e6, stormy(r->storm) ? " (a timer storm)" : "");
}

/*
 * Pairs of rounds, off then on, as in hogs_pairs(): AGREE_TO_PASS
 * pairs whose median waits lie on their predicted sides of the midpoint
 * pass, DISAGREE_TO_FAIL others fail; a pair with too few wakeups is
 * measured again, and so is one that disagrees while its CPU stalled or
 * missed ticks, up to MAX_PAIRS. A stall only lengthens waits, so it
 * cannot make a pair agree where the flag did not shorten the on waits. A wakee that ran on
 * another CPU than the hog's fails the test: the wakeup was not the one
 * under test.
 */
TEST_F_TIMEOUT(protect_wakeup, waits, 120)
{
	struct pw_ctx *c = &self->c;
	static const char *const kinds[] = {
		[SCHED_OTHER] = "",
		[SCHED_BATCH] = "a SCHED_BATCH ",
		[SCHED_IDLE] = "a SCHED_IDLE ",
	};
	long long mid = c->keeps ? c->off_ns / 2 : (c->on_ns + c->off_ns) / 2;
	int pair = 0, agree = 0, disagree = 0, again = 0, elsewhere = 0, storms = 0;
	struct pw_round off, on;
	bool ok;

	TH_LOG("PROTECT_ELIGIBLE at a wakeup, hog and wakee in %s; hog on cpu%d, wakee's cpu%d",
	       layout_names[variant->layout], c->hog_cpu, c->wakee_cpu);
	TH_LOG("HZ=%ld, base_slice %lld ns, quantum %.3f ms, HRTICK %s, %s preemption",
	       c->hz, c->slice_ns, c->quantum_ns / 1e6, c->hrtick ? "acts" : "off",
	       c->lazy ? "lazy" : "not lazy");
	TH_LOG("the hog runs %.3f ms", c->ran_ns / 1e6);
	if (c->custom_ns)
		TH_LOG("both asked for %.3f ms slices: off and on wait ~%.3f ms, >= %.3f ms",
		       c->custom_ns / 1e6, c->off_ns / 1e6, mid / 1e6);
	else if (c->keeps)
		TH_LOG("%swakee%s never preempts: off and on wait ~%.3f ms, >= %.3f ms",
		       c->fork_wakee ? "a forked " : kinds[c->wakee_policy],
		       c->fork_wakee ? " (WF_FORK)" : "", c->off_ns / 1e6, mid / 1e6);
	else
		TH_LOG("predicted median wait: off %.3f ms (%s), on %.3f ms; midpoint %.3f ms",
		       c->off_ns / 1e6, c->hrtick ? "to the hog's deadline" :
		       "to the first tick after the hog's deadline", c->on_ns / 1e6, mid / 1e6);

	while (agree < AGREE_TO_PASS && disagree < DISAGREE_TO_FAIL && pair < MAX_PAIRS) {
		pair++;
		ASSERT_EQ(0, sw_feature_set("PROTECT_ELIGIBLE", false));
		ASSERT_EQ(0, pw_measure(c, MIN_ROUND_NS, mid, &off)) TH_LOG("%s", c->sh->err);
		ASSERT_EQ(0, sw_feature_set("PROTECT_ELIGIBLE", true));
		ASSERT_EQ(0, pw_measure(c, MIN_ROUND_NS, mid, &on)) TH_LOG("%s", c->sh->err);
		pw_log_round(_metadata, pair, "off", &off);
		pw_log_round(_metadata, pair, "on", &on);
		storms += stormy(off.storm) + stormy(on.storm);
		elsewhere += off.elsewhere + on.elsewhere;
		ok = off.median_ns >= mid &&
		     (c->keeps ? on.median_ns >= mid : on.median_ns < mid);
		if (!off.invalid && !on.invalid && ok) {
			agree++;
		} else if (off.invalid || on.invalid ||
			   off.stalled > PW_MAX_STALLED || on.stalled > PW_MAX_STALLED ||
			   (off.ticks >= 0 && off.ticks < FAIR_TICKS) ||
			   (on.ticks >= 0 && on.ticks < FAIR_TICKS)) {
			again++;
			TH_LOG("  pair %d: too few wakeups, a stalled CPU or missed ticks:", pair);
			TH_LOG("  measured again");
		} else {
			disagree++;
		}
	}
	ASSERT_EQ(0, sw_feature_set("PROTECT_ELIGIBLE", false));
	TH_LOG("%d of %d pairs agree with the prediction, %d disagree, %d measured again",
	       agree, pair, disagree, again);
	TH_LOG("%d of %d rounds with a timer storm (over 1 interrupt per %.1f ms beyond the ticks)",
	       storms, 2 * pair, STORM_NS / 1e6);
	SW_MEASURE("pairs_agree", agree, "pairs");
	SW_MEASURE("storm_rounds", storms, "rounds");
	SW_MEASURE("median_wait_off", off.median_ns / 1e6, "ms");
	SW_MEASURE("median_wait_on", on.median_ns / 1e6, "ms");
	SW_MEASURE("median_held_off", off.held_ns / 1e6, "ms");
	SW_MEASURE("median_held_on", on.held_ns / 1e6, "ms");
	EXPECT_EQ(0, elsewhere) TH_LOG("the wakee ran %d times on a CPU not the hog's", elsewhere);
	EXPECT_EQ(AGREE_TO_PASS, agree);
	EXPECT_EQ(0, storms);
}

TEST_HARNESS_MAIN
