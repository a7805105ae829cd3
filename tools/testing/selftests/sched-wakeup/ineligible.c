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
 * PROTECT_ELIGIBLE (the mainline line): the hogs' runs end once the running
 * one is no longer eligible -- at once, for equal hogs -- but not before it
 * ran a quantum, the unscaled base slice (base_slice / the tunable_scaling
 * factor); with HRTICK the timer is armed for that point. Without the flag
 * a run lasts the slice (HRTICK at the deadline) or the slice in whole
 * ticks (no HRTICK); with it, the quantum, or the quantum in whole ticks.
 * Besides the medians, no more than one run in FLOOR_SHARE of those
 * without a gap may last under FLOOR_SHORT of the quantum: the quantum is
 * a floor, which bounds the switch rate at any HZ. A run is timed from
 * the first to the last look at the clock of its hog, while the kernel
 * counts it from the pick, so each run is off by the difference of two
 * context switches -- tens of microseconds on hardware, up to a few
 * hundred under emulation -- in either direction: hence half the quantum,
 * where a kernel without the floor makes runs of a switch or two. The
 * tenth percentile is logged. Hogs that asked for a slice of their own
 * keep it.
 *
 * PROTECT_ELIGIBLE at a wakeup that does not preempt: the protect_wakeup
 * fixture, at the end of this file.
 */
/* First: it defines _GNU_SOURCE for the libc headers below. */
#include "sched_wakeup.h"

#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/eventfd.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <sys/resource.h>
#include <sys/utsname.h>
#include <signal.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "../kselftest_harness.h"

#define MAX_RUNS	16384
#define SETTLE_US	100000		/* after a flip, before a round */
#define MIN_ROUND_NS	400000000LL
#define MAX_ROUND_NS	2000000000LL
#define RUNS_PER_ROUND	60		/* off runs a round should hold */
#define MIN_RUNS	20		/* fewer: the round says nothing */
#define AGREE_TO_PASS	4		/* pairs of rounds, see the test */
#define DISAGREE_TO_FAIL 3
#define MAX_PAIRS	16
#define FAIR_TICKS	0.9		/* share of its ticks the CPU must handle */
#define MIN_PERIOD_NS	500000LL	/* fastest wakeup period asked for */
#define MAX_SLICE_NS	50000000LL	/* longest slice the wakeup test sets */
#define WAKEE_NICE	19
#define CALIBRATIONS	3		/* rounds before the waker is found too slow */
#define FLOOR_SHARE	10		/* runs per short run allowed */
#define FLOOR_SHORT	0.5		/* a run under this share of the quantum */
#define MAX_SLICE_TICKS	20		/* longest slice the tick case sets */
#define ERR_LEN		160

enum hrtick { HRTICK_AS_IS, HRTICK_ON, HRTICK_OFF };

enum layout { FLAT, SIBLINGS, TREE, AUTOGROUP, AUTOGROUPS };
enum role { HOG_A, HOG_B, WAKEE, NR_ROLES };

static const char *const layout_names[] = {
	"the test's own group", "sibling cgroups", "leaves of a binary cgroup tree",
	"one autogroup", "an autogroup each",
};

/* Where each role goes in the cgroup layouts; the wakee's group weighs 1. */
static const char *const cg_of[][NR_ROLES] = {
	[SIBLINGS] = { "a", "b", "w" },
	[TREE] = { "0/0/0", "1/1/1", "w" },
};

/* Shared with the children. */
struct shm {
	atomic_int stop;
	atomic_int measuring;
	atomic_int ready;
	atomic_int last;		/* hog that took the CPU last (1 or 2) */
	atomic_llong taken_at;		/* when it did */
	atomic_llong seen_at[3];	/* each hog's last look at the clock */
	atomic_int gap_seen;		/* the current run had a gap over gap_ns */
	atomic_int gap_before;		/* so had the run before it */
	atomic_llong gap_ns;		/* see hog() */
	atomic_int nr_runs;		/* runs a hog began to note */
	atomic_int noted;		/* runs a hog finished noting */
	atomic_long wakeups;		/* made by the waker */
	atomic_long late;		/* waker periods skipped: wakee not asleep */
	pid_t pid[NR_ROLES];
	char err[ERR_LEN];		/* a child's setup failure */
	long long run_ns[MAX_RUNS];	/* completed runs while measuring */
	bool gapped[MAX_RUNS];		/* see hog() */
	char whose[MAX_RUNS];		/* the hog (1 or 2) that made the run */
};

/* The test's state, shared by the fixture and the helpers. */
struct ctx {
	struct shm *sh;
	int hog_cpu, away_cpu;
	int efd;
	long hz;
	long long tick_ns, slice_ns, period_ns;
	long long on_ns, off_ns;	/* predicted median runs */
	long long custom_ns;		/* the hogs' own slice, or 0 */
	long long custom_b_ns;		/* HOG_B's own slice alone, or 0 */
	int judged;			/* the hog whose runs count, or 0: both */
	long long quantum_ns;		/* PROTECT_ELIGIBLE's floor, or 0 */
	bool hrtick;			/* HRTICK acts on the hogs' CPU */
	pid_t leader;
	pthread_t waker;
	pthread_mutex_t cycle;		/* the waker holds it for a wakeup */
	bool waker_started;
};

FIXTURE(ineligible) {
	struct ctx c;
};

FIXTURE_VARIANT(ineligible) {
	const char *flag;	/* the path under test */
	const char *other;	/* the other path, kept off */
	bool wakeups;
	enum layout layout;
	bool custom_slice;	/* hogs ask for a long slice, the flag leaves it */
	enum hrtick hrtick;	/* HRTICK set on or off for the test, or left */
};

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

FIXTURE_VARIANT_ADD(ineligible, protect_hrtick) {
	.flag = "PROTECT_ELIGIBLE", .layout = FLAT, .hrtick = HRTICK_ON,
};

FIXTURE_VARIANT_ADD(ineligible, protect_hrtick_siblings) {
	.flag = "PROTECT_ELIGIBLE", .layout = SIBLINGS, .hrtick = HRTICK_ON,
};

FIXTURE_VARIANT_ADD(ineligible, protect_hrtick_autogroups) {
	.flag = "PROTECT_ELIGIBLE", .layout = AUTOGROUPS, .hrtick = HRTICK_ON,
};

FIXTURE_VARIANT_ADD(ineligible, protect_tick) {
	.flag = "PROTECT_ELIGIBLE", .layout = FLAT, .hrtick = HRTICK_OFF,
};

FIXTURE_VARIANT_ADD(ineligible, protect_custom_slice) {
	.flag = "PROTECT_ELIGIBLE", .layout = FLAT, .hrtick = HRTICK_ON,
	.custom_slice = true,
};

/* A child's setup failed: say what, for the parent, and leave. */
static void child_fail(char *err, const char *what)
{
	snprintf(err, ERR_LEN, "%s: %s", what, strerror(errno));
	_exit(1);
}

/*
 * A hog: take the CPU whenever it runs, note each run of the other one.
 *
 * The running hog looks at the clock without pause, so a gap between two
 * of its looks, or between the other hog's last look and its own first,
 * is time the CPU spent elsewhere: an interrupt, another task, or, in a
 * guest, a vCPU the host did not run. The kernel charges that time to the
 * running hog, and the run lasts it too, so a gap can only lengthen a
 * run. A run with a gap over gap_ns is marked, and so is the next one,
 * which starts with the hogs that far apart; the test judges the rounds
 * by the unmarked runs too (see the test).
 */
static void hog(struct shm *sh, int id)
{
	long long now, prev, gap, mine = 0;
	int i, gap_seen, gap_before;

	atomic_fetch_add(&sh->ready, 1);
	while (!atomic_load_explicit(&sh->stop, memory_order_relaxed)) {
		gap = atomic_load_explicit(&sh->gap_ns, memory_order_relaxed);
		if (atomic_load_explicit(&sh->last, memory_order_relaxed) == id) {
			now = sw_now_ns();
			/* The other hog ran since the check: the look is stale. */
			if (atomic_load_explicit(&sh->last, memory_order_relaxed) != id)
				continue;
			if (now - mine > gap)
				atomic_store_explicit(&sh->gap_seen, 1, memory_order_relaxed);
			mine = now;
			atomic_store_explicit(&sh->seen_at[id], now, memory_order_relaxed);
			continue;
		}
		now = sw_now_ns();
		if (now - atomic_load(&sh->seen_at[3 - id]) > gap)
			atomic_store(&sh->gap_seen, 1);
		mine = now;
		atomic_store(&sh->seen_at[id], now);
		prev = atomic_exchange(&sh->taken_at, now);
		atomic_store(&sh->last, id);
		gap_seen = atomic_exchange(&sh->gap_seen, 0);
		gap_before = atomic_exchange(&sh->gap_before, gap_seen);
		if (!atomic_load(&sh->measuring) || !prev)
			continue;
		i = atomic_fetch_add(&sh->nr_runs, 1);
		if (i < MAX_RUNS) {
			sh->run_ns[i] = now - prev;
			sh->gapped[i] = gap_seen || gap_before;
			sh->whose[i] = 3 - id;
		}
		atomic_fetch_add(&sh->noted, 1);
	}
	_exit(0);
}

/*
 * Half the distance from the on prediction to the midpoint: a run of the
 * on prediction with a shorter gap stays below the midpoint.
 */
static void set_gap(struct ctx *c)
{
	atomic_store(&c->sh->gap_ns, (c->off_ns - c->on_ns) / 4);
}

/*
 * What the children share with the parent: the page they report in, the
 * eventfd the waker writes, the lock of a cycle. 0, or -1 with errno set.
 */
static int ctx_share(struct ctx *c)
{
	c->sh = mmap(NULL, sizeof(*c->sh), PROT_READ | PROT_WRITE,
		     MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	if (c->sh == MAP_FAILED) {
		c->sh = NULL;
		return -1;
	}
	memset(c->sh, 0, sizeof(*c->sh));
	set_gap(c);
	c->efd = eventfd(0, 0);
	if (c->efd < 0)
		return -1;
	errno = pthread_mutex_init(&c->cycle, NULL);
	return errno ? -1 : 0;
}

static void wakee(struct shm *sh, int efd)
{
	uint64_t v;

	atomic_fetch_add(&sh->ready, 1);
	while (read(efd, &v, sizeof(v)) == sizeof(v))
		;
	_exit(0);
}

/* sched_setattr()'s argument, as the kernel's uapi defines it. */
struct slice_attr {
	uint32_t size, sched_policy;
	uint64_t sched_flags;
	int32_t sched_nice;
	uint32_t sched_priority;
	uint64_t sched_runtime, sched_deadline, sched_period;
};

/* Ask for a slice of @ns for the calling task, staying SCHED_OTHER. */
static int set_slice(long long ns)
{
	struct slice_attr a = {
		.size = sizeof(a), .sched_policy = SCHED_OTHER, .sched_runtime = ns,
	};

	return syscall(SYS_sched_setattr, 0, &a, 0);
}

/*
 * Put the calling child where layout @how puts role @r: in its cgroup, or
 * in an autogroup of its own, whose nice is @nice for the wakee. Returns
 * NULL, or what failed.
 */
static const char *enter_layout(enum layout how, enum role r, int nice)
{
	char num[8];
	int fd;

	if (how == SIBLINGS || how == TREE) {
		if (sw_cg_enter(cg_of[how][r], getpid()))
			return "moving into its cgroup";
	} else if (how == AUTOGROUPS) {
		/* Autogroups apply in the root cgroup; a new session, a new one. */
		if (sw_cg_enter("", getpid()) || setsid() < 0)
			return "moving into an autogroup of its own";
		if (r == WAKEE && nice) {
			fd = open("/proc/self/autogroup", O_WRONLY);
			snprintf(num, sizeof(num), "%d", nice);
			if (fd < 0 || write(fd, num, strlen(num)) < 0)
				return "setting the wakee's autogroup nice";
			close(fd);
		}
	}
	return NULL;
}

/* Place the calling child as its role and layout ask, then run the role. */
static void child(struct ctx *c, enum layout how, enum role r)
{
	struct shm *sh = c->sh;
	const char *why;

	sh->pid[r] = getpid();
	why = enter_layout(how, r, WAKEE_NICE);
	if (why)
		child_fail(sh->err, why);
	if (r == WAKEE) {
		if (setpriority(PRIO_PROCESS, 0, WAKEE_NICE) || sw_pin(0, c->away_cpu))
			child_fail(sh->err, "setting up the wakee");
		wakee(sh, c->efd);
	}
	if (sw_pin(0, c->hog_cpu))
		child_fail(sh->err, "pinning a hog");
	if (c->custom_ns && set_slice(c->custom_ns))
		child_fail(sh->err, "asking for a custom slice (sched_setattr)");
	if (r == HOG_B && c->custom_b_ns && set_slice(c->custom_b_ns))
		child_fail(sh->err, "asking for a custom slice (sched_setattr)");
	hog(sh, r + 1);
}

static int spawn(struct ctx *c, enum layout how, enum role r)
{
	pid_t pid = sw_fork(true);

	if (pid == 0)
		child(c, how, r);
	return pid < 0 ? -1 : 0;
}

/* One autogroup for all: a leader in a new session forks the roles. */
static int spawn_autogroup(struct ctx *c, int nr)
{
	enum role r;

	c->leader = sw_fork(true);
	if (c->leader < 0)
		return -1;
	if (c->leader)
		return 0;
	if (sw_cg_enter("", getpid()) || setsid() < 0)
		child_fail(c->sh->err, "making the autogroup");
	for (r = 0; r < nr; r++)
		if (spawn(c, FLAT, r))
			child_fail(c->sh->err, "forking a role");
	for (;;)
		pause();
}

/*
 * Every period: move the sleeping wakee onto the hogs' CPU, wake it there,
 * move it back to this CPU, where it runs and sleeps again. The wakeup is
 * the one check_preempt_wakeup_fair() sees on the hogs' CPU.
 */
static void *waker(void *arg)
{
	struct ctx *c = arg;
	struct shm *sh = c->sh;
	pid_t w = sh->pid[WAKEE];
	struct timespec ts;
	long long next;
	uint64_t one = 1;
	bool ok;

	if (sw_pin(0, c->away_cpu))
		return NULL;
	next = sw_now_ns();
	while (!atomic_load(&sh->stop)) {
		next += c->period_ns;
		if (next < sw_now_ns())
			next = sw_now_ns() + c->period_ns;
		ts.tv_sec = next / 1000000000LL;
		ts.tv_nsec = next % 1000000000LL;
		clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &ts, NULL);
		pthread_mutex_lock(&c->cycle);
		if (sw_task_state(w) != 'S') {
			atomic_fetch_add(&sh->late, 1);
			pthread_mutex_unlock(&c->cycle);
			continue;
		}
		ok = !sw_pin(w, c->hog_cpu) &&
		     write(c->efd, &one, sizeof(one)) == sizeof(one) &&
		     !sw_pin(w, c->away_cpu);
		if (ok)
			atomic_fetch_add(&sh->wakeups, 1);
		pthread_mutex_unlock(&c->cycle);
		if (!ok)
			break;
	}
	return NULL;
}

/* A CPU to run the waker, the wakee and this process on: in the hogs' LLC. */
static int pick_away(int hog_cpu)
{
	struct sw_llc llcs[SW_MAX_LLCS];
	cpu_set_t online;
	int i, n, cpu;

	n = sw_llcs(llcs, SW_MAX_LLCS);
	for (i = 0; i < n; i++) {
		if (!CPU_ISSET(hog_cpu, &llcs[i].cpus))
			continue;
		for (cpu = CPU_SETSIZE - 1; cpu >= 0; cpu--)
			if (cpu != hog_cpu && CPU_ISSET(cpu, &llcs[i].cpus))
				return cpu;
	}
	if (sw_online(&online))
		return -1;
	for (cpu = CPU_SETSIZE - 1; cpu >= 0; cpu--)
		if (cpu != hog_cpu && CPU_ISSET(cpu, &online))
			return cpu;
	return -1;
}

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

static const char *layout_ready(enum layout layout)
{
	const char *why;

	if (layout == FLAT)
		return NULL;
	why = sw_cg_usable();
	if (why)
		return why;
	if ((layout == AUTOGROUP || layout == AUTOGROUPS) &&
	    (access("/proc/self/autogroup", F_OK) || sw_sysctl_get(SW_AUTOGROUP) < 0))
		return "no autogroup in this kernel (CONFIG_SCHED_AUTOGROUP)";
	return NULL;
}

/* The line of /proc/PID/FILE that starts with @prefix, or "". */
static const char *proc_line(pid_t pid, const char *file, const char *prefix)
{
	static char line[256];
	char path[64];
	FILE *f;

	snprintf(path, sizeof(path), "/proc/%d/%s", pid, file);
	line[0] = '\0';
	f = fopen(path, "r");
	if (!f)
		return line;
	while (fgets(line, sizeof(line), f))
		if (!strncmp(line, prefix, strlen(prefix)))
			break;
	if (strncmp(line, prefix, strlen(prefix)))
		line[0] = '\0';
	fclose(f);
	line[strcspn(line, "\n")] = '\0';
	return line;
}

/*
 * The children are where the layout puts them: in their cgroups, in the
 * root cgroup with one autogroup, or with one autogroup each (distinct
 * "/autogroup-N" in /proc/PID/autogroup). @pid is indexed by role; a role
 * without a child (0) is passed over.
 */
static int check_layout(struct __test_metadata *_metadata, const pid_t *pid,
			enum layout layout)
{
	char where[NR_ROLES][128], want[160];
	const char *cg;
	int r, first = -1, prev = -1;

	if (layout == FLAT)
		return 0;
	for (r = 0; r < NR_ROLES; r++) {
		if (!pid[r])
			continue;
		cg = proc_line(pid[r], "cgroup", "0::");
		if (layout == SIBLINGS || layout == TREE) {
			snprintf(want, sizeof(want), "0::/%s/%s", strrchr(sw_cg_base(), '/') + 1,
				 cg_of[layout][r]);
			if (strcmp(cg, want)) {
				TH_LOG("child %d is in cgroup '%s', not '%s'", r, cg, want);
				return -1;
			}
			continue;
		}
		if (strcmp(cg, "0::/")) {
			TH_LOG("child %d is in cgroup '%s', not the root: no autogroup", r, cg);
			return -1;
		}
		snprintf(where[r], sizeof(where[r]), "%s",
			 proc_line(pid[r], "autogroup", "/autogroup-"));
		strtok(where[r], " ");
		if (first < 0)
			first = r;
		if (!where[r][0] ||
		    (layout == AUTOGROUP && prev >= 0 && strcmp(where[r], where[first])) ||
		    (layout == AUTOGROUPS && prev >= 0 && !strcmp(where[r], where[prev]))) {
			TH_LOG("child %d is in autogroup '%s', child %d in '%s'",
			       r, where[r], first, where[first]);
			return -1;
		}
		prev = r;
	}
	return 0;
}

/*
 * What both fixtures need besides their flags (@flags, for sw_need()): the
 * layout's cgroups or autogroups, and 2 CPUs. NULL, or why not (with
 * SW_PREFLIGHT set, SW_READY once all is there).
 */
static const char *machine_ready(const char *const *flags, enum layout layout)
{
	const char *why = sw_need(flags);

	if (!why)
		why = layout_ready(layout);
	if (!why && sw_nr_cpus() < 2)
		why = "needs 2 online CPUs (one for the hogs, one for the helpers)";
	if (!why && sw_preflight())
		why = SW_READY;
	return why;
}

/* HZ and base_slice as the kernel reports them, and the tick; 0 or -1. */
static int read_timing(struct __test_metadata *_metadata, long *hz, long long *slice_ns,
		       long long *tick_ns)
{
	*hz = sw_hz(500);
	*slice_ns = sw_sysctl_get(SW_BASE_SLICE);
	if (*hz <= 0) {
		TH_LOG("cannot read jiffies from /sys/kernel/debug/sched/debug");
		return -1;
	}
	if (*slice_ns <= 0) {
		TH_LOG("cannot read %s", SW_BASE_SLICE);
		return -1;
	}
	*tick_ns = 1000000000LL / *hz;
	return 0;
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

/* Wait up to 10 s for @nr children to be ready, or one to fail; 0 or -1. */
static int children_ready(struct __test_metadata *_metadata, atomic_int *ready, int nr,
			  const char *err)
{
	long long t0 = sw_now_ns();

	while (atomic_load(ready) < nr && !err[0] && sw_now_ns() - t0 < 10000000000LL)
		usleep(1000);
	if (err[0]) {
		TH_LOG("a child failed: %s", err);
		return -1;
	}
	if (atomic_load(ready) < nr) {
		TH_LOG("children not ready after 10 s");
		return -1;
	}
	return 0;
}

FIXTURE_SETUP(ineligible)
{
	struct ctx *c = &self->c;
	const char *const need[] = { variant->flag, variant->other, NULL };
	const char *why = machine_ready(need, variant->layout);
	int nr = variant->wakeups ? NR_ROLES : WAKEE;
	long long off_ticks;
	bool err;
	enum role r;
	int i;

	if (why)
		SKIP(return, "%s", why);
	c->hog_cpu = sw_last_cpu();
	c->away_cpu = pick_away(c->hog_cpu);
	ASSERT_LE(0, c->away_cpu);
	ASSERT_EQ(0, sw_pin(0, c->away_cpu));
	ASSERT_EQ(0, read_timing(_metadata, &c->hz, &c->slice_ns, &c->tick_ns));
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
	if (!variant->other) {
		why = hrtick_setup(variant->hrtick, c->hog_cpu, &c->hrtick, &err);
		ASSERT_FALSE(err) TH_LOG("%s", why);
		if (why)
			SKIP(return, "%s", why);
		why = protect_predict(_metadata, c, variant->custom_slice);
		if (why)
			SKIP(return, "%s", why);
	} else if (variant->wakeups) {
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

	ASSERT_EQ(0, sw_sysctl_set(SW_SCHEDSTATS, 1));
	if (variant->layout == AUTOGROUP || variant->layout == AUTOGROUPS)
		ASSERT_EQ(0, sw_sysctl_set(SW_AUTOGROUP, 1));
	if (variant->other)
		ASSERT_EQ(0, sw_feature_set(variant->other, false));
	ASSERT_EQ(0, sw_feature_set(variant->flag, false));
	TH_LOG("features: %s", sw_features_line());

	ASSERT_EQ(0, ctx_share(c));

	if (variant->layout == SIBLINGS || variant->layout == TREE) {
		int ret = 0;

		for (r = 0; r < NR_ROLES && !ret; r++)
			ret = sw_cg_make(cg_of[variant->layout][r], r == WAKEE ? 1 : 0);
		/* The whole binary tree of depth 3: 8 leaves. */
		for (i = 0; variant->layout == TREE && i < 8 && !ret; i++) {
			char leaf[8];

			snprintf(leaf, sizeof(leaf), "%d/%d/%d", i >> 2, (i >> 1) & 1, i & 1);
			ret = sw_cg_make(leaf, 0);
		}
		if (ret == SW_CG_NO_CPU)
			SKIP(return, "the cpu controller cannot be enabled here (see above)");
		ASSERT_EQ(0, ret);
	}
	if (variant->layout == AUTOGROUP) {
		ASSERT_EQ(0, spawn_autogroup(c, nr));
	} else {
		for (r = 0; r < nr; r++)
			ASSERT_EQ(0, spawn(c, variant->layout, r));
	}
	ASSERT_EQ(0, children_ready(_metadata, &c->sh->ready, nr, c->sh->err));
	ASSERT_EQ(0, check_layout(_metadata, c->sh->pid, variant->layout));
	if (variant->wakeups) {
		ASSERT_EQ(0, pthread_create(&c->waker, NULL, waker, c));
		c->waker_started = true;
	}
}

/* Stop the children and the waker, restore every knob the case wrote. */
static void ctx_teardown(struct ctx *c)
{
	if (c->sh) {
		atomic_store(&c->sh->stop, true);
		if (c->waker_started)
			pthread_join(c->waker, NULL);
	}
	sw_restore();
}

FIXTURE_TEARDOWN(ineligible)
{
	ctx_teardown(&self->c);
}

struct round {
	long long median_ns;
	int runs;
	long long clean_ns;	/* median of the runs without a gap (hog()) */
	int clean;		/* those runs */
	int short_runs;		/* of those, under FLOOR_SHORT of the quantum */
	long long p10_ns;	/* their tenth percentile */
	long long hog_ns[2];	/* CPU time of each hog */
	long wakeups, late;
	double ticks;		/* share of the expected ticks the CPU handled, or -1 */
	bool sparse;		/* under two wakeups a slice */
	const char *invalid;	/* why the round says nothing, or NULL */
};

/* Wait up to 2 s for thread @pid to be in state @want ('S', 'T', ...). */
static int wait_state(pid_t pid, char want)
{
	long long t0 = sw_now_ns();

	while (sw_task_state(pid) != want) {
		if (sw_now_ns() - t0 > 2000000000LL)
			return -1;
		usleep(1000);
	}
	return 0;
}

/*
 * In the layouts that give the wakee a group of its own (sibling cgroups,
 * the cgroup tree, an autogroup each), that group has an entity on the
 * hogs' CPU which every wakeup enqueues there and which never runs there.
 * It leaves with the lag the hogs' progress gave it while it was queued
 * and is placed with it again (place_entity()), so its lag only grows, up
 * to the limit entity_lag() allows: twice the slice (or a tick), in
 * service. That owed service pulls the average vruntime of the runqueue
 * where the hogs meet below both hogs whenever they are within
 * lag * its weight / the total weight of each other, as they are each time
 * the running hog passes the waiting one. pick_eevdf() then finds only the
 * wakee's group eligible and check_preempt_wakeup_fair() preempts, flag or
 * no flag, and the off runs end early.
 *
 * So, while the hogs are stopped, the wakee is woken on their CPU alone:
 * an entity enqueued on an empty runqueue is placed without its lag, runs,
 * sleeps and leaves with none. The wakee's task carries its own lag to its
 * CPU and works it off there; only its groups need this, but doing it in
 * every layout costs little.
 */
static int drop_wakee_lag(struct ctx *c)
{
	pid_t w = c->sh->pid[WAKEE];
	struct sw_stats before, now;
	uint64_t one = 1;
	long long t0;

	if (wait_state(w, 'S') || sw_stats(w, &before) || sw_pin(w, c->hog_cpu) ||
	    write(c->efd, &one, sizeof(one)) != sizeof(one))
		return -1;
	/* It ran and went back to sleep. */
	for (t0 = sw_now_ns(); ; usleep(1000)) {
		if (sw_stats(w, &now))
			return -1;
		if (now.voluntary > before.voluntary && sw_task_state(w) == 'S')
			break;
		if (sw_now_ns() - t0 > 2000000000LL)
			return -1;
	}
	return sw_pin(w, c->away_cpu);
}

/*
 * Stop the hogs, and let them go on. A group entity keeps the slice it was
 * given when it was last enqueued (the shortest of its queued children's);
 * hogs never sleep, so after a change of base_slice their groups are made
 * to enqueue again this way. In the wakeup test this also happens before
 * every round, to drop the lag of the wakee's groups (see above); the
 * waker makes no wakeup meanwhile.
 */
static int requeue_hogs(struct ctx *c)
{
	int i, ret = 0;

	pthread_mutex_lock(&c->cycle);
	for (i = 0; i < 2 && !ret; i++)
		ret = kill(c->sh->pid[i], SIGSTOP) || wait_state(c->sh->pid[i], 'T');
	/* Stopped with a negative lag, a hog stays queued until picked once. */
	usleep(20000);
	if (!ret && c->period_ns)
		ret = drop_wakee_lag(c);
	for (i = 0; i < 2; i++)
		if (kill(c->sh->pid[i], SIGCONT))
			ret = -1;
	pthread_mutex_unlock(&c->cycle);
	return ret ? -1 : 0;
}

static int cmp_ll(const void *a, const void *b)
{
	long long x = *(const long long *)a, y = *(const long long *)b;

	return x < y ? -1 : x > y;
}

static int measure(struct ctx *c, long long round_ns, struct round *r)
{
	static long long clean[MAX_RUNS], all[MAX_RUNS];
	struct shm *sh = c->sh;
	struct sw_stats before[2], after[2];
	long long t0, t1, irq0, irq1;
	long w0, l0;
	int i, n;

	if (c->period_ns && requeue_hogs(c))
		return -1;
	usleep(SETTLE_US);
	memset(r, 0, sizeof(*r));
	for (i = 0; i < 2; i++)
		if (sw_stats(sh->pid[i], &before[i]))
			return -1;
	w0 = atomic_load(&sh->wakeups);
	l0 = atomic_load(&sh->late);
	atomic_store(&sh->nr_runs, 0);
	atomic_store(&sh->noted, 0);
	irq0 = sw_timer_irqs(c->hog_cpu);
	t0 = sw_now_ns();
	atomic_store(&sh->measuring, 1);
	usleep(round_ns / 1000);
	atomic_store(&sh->measuring, 0);
	irq1 = sw_timer_irqs(c->hog_cpu);
	/*
	 * A hog that saw measuring set may still be noting its last run: the
	 * runs are those noted once every run begun is (later ones go past n).
	 */
	for (t1 = sw_now_ns(); ; usleep(1000)) {
		n = atomic_load(&sh->nr_runs);
		if (atomic_load(&sh->noted) == n)
			break;
		if (sw_now_ns() - t1 > 1000000000LL)
			return -1;
	}
	r->ticks = irq0 < 0 || irq1 < 0 ? -1 :
		   (double)(irq1 - irq0) * c->tick_ns / (sw_now_ns() - t0);
	for (i = 0; i < 2; i++)
		if (sw_stats(sh->pid[i], &after[i]))
			return -1;
	r->wakeups = atomic_load(&sh->wakeups) - w0;
	r->late = atomic_load(&sh->late) - l0;
	for (i = 0; i < 2; i++)
		r->hog_ns[i] = after[i].sum_exec_ns - before[i].sum_exec_ns;
	if (n > MAX_RUNS)
		n = MAX_RUNS;
	for (i = 0; i < n; i++) {
		if (c->judged && sh->whose[i] != c->judged)
			continue;
		all[r->runs++] = sh->run_ns[i];
		if (sh->gapped[i])
			continue;
		clean[r->clean++] = sh->run_ns[i];
		if (sh->run_ns[i] < FLOOR_SHORT * c->quantum_ns)
			r->short_runs++;
	}
	qsort(clean, r->clean, sizeof(clean[0]), cmp_ll);
	r->clean_ns = r->clean ? clean[r->clean / 2] : 0;
	r->p10_ns = r->clean ? clean[r->clean / 10] : 0;
	n = r->runs;
	qsort(all, n, sizeof(all[0]), cmp_ll);
	r->median_ns = n ? all[n / 2] : 0;
	if (n < MIN_RUNS)
		r->invalid = "too few runs to tell";
	else if (r->hog_ns[0] * 4 < r->hog_ns[1] || r->hog_ns[1] * 4 < r->hog_ns[0])
		r->invalid = "one hog had less than a fifth of the other's CPU time";
	r->sparse = c->period_ns && r->wakeups * c->off_ns < 2 * round_ns;
	if (!r->invalid && r->sparse)
		r->invalid = "fewer than two wakeups per slice: too few to tell";
	return 0;
}

static void log_round(struct __test_metadata *_metadata, struct ctx *c,
		      int pair, const char *state, const struct round *r)
{
	TH_LOG("  pair %d %-3s: median run %6.3f ms = %4.2f ticks (%4d runs), hogs %.2f+%.2f s,",
	       pair, state, r->median_ns / 1e6, (double)r->median_ns / c->tick_ns, r->runs,
	       r->hog_ns[0] / 1e9, r->hog_ns[1] / 1e9);
	TH_LOG("    no gap %6.3f ms (%4d runs, p10 %.3f), wakeups %ld (%ld late), ticks %.0f%%%s%s",
	       r->clean_ns / 1e6, r->clean, r->p10_ns / 1e6, r->wakeups, r->late,
	       r->ticks < 0 ? -1.0 : 100 * r->ticks,
	       r->invalid ? ": " : "", r->invalid ? r->invalid : "");
}

static long long round_length(struct ctx *c)
{
	long long round_ns = RUNS_PER_ROUND * c->off_ns;

	if (round_ns < MIN_ROUND_NS)
		round_ns = MIN_ROUND_NS;
	if (round_ns > MAX_ROUND_NS)
		round_ns = MAX_ROUND_NS;
	return round_ns;
}

/*
 * Make the slice 4 wakeup intervals long (whole tenths of a millisecond, a
 * little over), the hogs take it up and the rounds fit it. Returns 1 when
 * the slice was raised, 0 when it would pass MAX_SLICE_NS, -1 on error.
 */
static int fit_slice(struct __test_metadata *_metadata, struct ctx *c,
		     long long interval, long long *round_ns)
{
	long long slice_ns = (4 * interval / 100000 + 1) * 100000;

	if (slice_ns > MAX_SLICE_NS)
		return 0;
	if (slice_ns <= c->slice_ns)
		return 1;
	c->slice_ns = slice_ns;
	if (sw_sysctl_set(SW_BASE_SLICE, c->slice_ns) || requeue_hogs(c))
		return -1;
	c->off_ns = c->slice_ns;
	c->on_ns = interval;
	set_gap(c);
	*round_ns = round_length(c);
	TH_LOG("base_slice raised to %lld ns: off runs >= %.3f ms, 4 wakeups or more each",
	       c->slice_ns, c->off_ns / 1e6);
	return 1;
}

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
	struct round cal;
	int i;

	for (i = 1; i <= CALIBRATIONS; i++) {
		if (sw_feature_set(flag, false) || measure(c, *round_ns, &cal))
			return -1;
		interval = cal.wakeups ? *round_ns / cal.wakeups : *round_ns;
		TH_LOG("calibration %d: %ld wakeups in %.3f s, one every %.3f ms",
		       i, cal.wakeups, *round_ns / 1e9, interval / 1e6);
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

/*
 * The off run at or above the midpoint, the on run below it (or, for a
 * custom slice the flag keeps, at or above it too).
 */
static bool agrees(long long off_ns, long long on_ns, long long mid, bool custom)
{
	return off_ns >= mid && (custom ? on_ns >= mid : on_ns < mid);
}

/*
 * Pairs of rounds, off then on, until AGREE_TO_PASS pairs have put the
 * median runs on their predicted sides of the midpoint (pass) or
 * DISAGREE_TO_FAIL have not (fail): a flag whose effect is gone or reversed
 * fails in DISAGREE_TO_FAIL pairs. Runs are timed on the wall clock, so a
 * CPU that was not running while its ticks were due -- a guest whose vCPU
 * the host did not run -- stretches them. A pair agrees when the medians
 * of all runs do, or those of the runs without a gap (hog()) do: a gap
 * only lengthens a run, so neither can show a short run the kernel did not
 * make. A pair that disagrees with too few runs without a gap, or while
 * its CPU handled under FAIR_TICKS of the ticks its rounds should have
 * had, is measured again instead of counted, and a test still undecided
 * after MAX_PAIRS pairs fails.
 *
 * Such a host also spaces out the wakeups, more than calibrate() saw when
 * it stalls the guest for milliseconds at a time (as an overcommitted
 * host does): when a round of the pair got under two wakeups a
 * slice, the slice is fitted to the sparser round's interval and the pair
 * measured again.
 */
TEST_F_TIMEOUT(ineligible, runs, 120)
{
	struct ctx *c = &self->c;
	long long mid, round_ns, sparser;
	int pair = 0, agree = 0, disagree = 0, starved = 0, fitted;
	long short_runs = 0, clean_runs = 0, on_runs = 0;
	struct round off, on;

	round_ns = round_length(c);
	if (variant->wakeups)
		ASSERT_EQ(0, calibrate(_metadata, c, variant->flag, &round_ns));
	mid = (c->on_ns + c->off_ns) / 2;
	TH_LOG("%s, hogs in %s on cpu%d, helpers on cpu%d; HZ=%ld, base_slice %lld ns",
	       variant->flag, layout_names[variant->layout], c->hog_cpu, c->away_cpu,
	       c->hz, c->slice_ns);
	if (!variant->other)
		TH_LOG("HRTICK %s; the quantum %.3f ms (base_slice / tunable_scaling factor)",
		       c->hrtick ? "acts" : "off", (c->custom_ns ? c->on_ns : c->quantum_ns) / 1e6);
	TH_LOG("predicted median run: off >= %.3f ms (the slice%s),",
	       c->off_ns / 1e6, variant->wakeups || c->hrtick ? "" : " in whole ticks");
	if (variant->custom_slice && !variant->other)
		TH_LOG("on the same: the hogs asked for %.3f ms slices, the flag keeps them",
		       c->custom_ns / 1e6);
	else if (!variant->other)
		TH_LOG("on %.3f ms (the quantum%s)", c->on_ns / 1e6,
		       c->hrtick ? "" : " in whole ticks");
	else if (variant->custom_slice)
		TH_LOG("on the same: the hogs asked for %.3f ms slices, the flag keeps them",
		       c->custom_ns / 1e6);
	else if (variant->wakeups)
		TH_LOG("on about the interval between wakeups (%.3f ms expected)",
		       c->on_ns / 1e6);
	else
		TH_LOG("on %.3f ms (one tick)", c->on_ns / 1e6);
	if (variant->custom_slice)
		TH_LOG("a pair agrees when both off and on >= %.3f ms;", mid / 1e6);
	else if (variant->wakeups)
		TH_LOG("a pair agrees when off >= (on's wakeup interval + %.3f ms) / 2 > on;",
		       c->off_ns / 1e6);
	else
		TH_LOG("a pair agrees when off >= %.3f ms > on;", mid / 1e6);
	TH_LOG("in the medians of all runs or of those without a gap over %.3f ms;",
	       atomic_load(&c->sh->gap_ns) / 1e6);
	TH_LOG("%d agreeing pairs pass, %d others fail (pairs whose CPU handled",
	       AGREE_TO_PASS, DISAGREE_TO_FAIL);
	TH_LOG("under %.0f%% of its ticks, or left under %d runs without a gap,",
	       100 * FAIR_TICKS, MIN_RUNS);
	TH_LOG("are measured again, up to %d pairs)", MAX_PAIRS);

	while (agree < AGREE_TO_PASS && disagree < DISAGREE_TO_FAIL && pair < MAX_PAIRS) {
		pair++;
		ASSERT_EQ(0, sw_feature_set(variant->flag, false));
		ASSERT_EQ(0, measure(c, round_ns, &off));
		ASSERT_EQ(0, sw_feature_set(variant->flag, true));
		ASSERT_EQ(0, measure(c, round_ns, &on));
		log_round(_metadata, c, pair, "off", &off);
		log_round(_metadata, c, pair, "on", &on);
		short_runs += on.short_runs;
		clean_runs += on.clean;
		on_runs += on.runs;
		sparser = off.wakeups < on.wakeups ? off.wakeups : on.wakeups;
		if (sparser < 1)
			sparser = 1;
		/* The wakeups the on round got, not those asked for, set its run. */
		if (variant->wakeups && on.wakeups) {
			mid = (round_ns / on.wakeups + c->off_ns) / 2;
			TH_LOG("  pair %d: a wakeup every %.3f ms, midpoint %.3f ms",
			       pair, round_ns / on.wakeups / 1e6, mid / 1e6);
		}
		if (!off.invalid && !on.invalid &&
		    (agrees(off.median_ns, on.median_ns, mid, variant->custom_slice) ||
		     (off.clean >= MIN_RUNS && on.clean >= MIN_RUNS &&
		      agrees(off.clean_ns, on.clean_ns, mid, variant->custom_slice)))) {
			agree++;
			continue;
		}
		fitted = off.sparse || on.sparse ?
			 fit_slice(_metadata, c, round_ns / sparser, &round_ns) : 0;
		ASSERT_LE(0, fitted);
		if (fitted) {
			starved++;
			TH_LOG("  pair %d: too few wakeups a slice: measured again", pair);
		} else if (off.clean < MIN_RUNS || on.clean < MIN_RUNS) {
			starved++;
			TH_LOG("  pair %d: too few runs without a gap: measured again", pair);
		} else if ((off.ticks >= 0 && off.ticks < FAIR_TICKS) ||
			   (on.ticks >= 0 && on.ticks < FAIR_TICKS)) {
			starved++;
			TH_LOG("  pair %d: its CPU missed ticks: measured again", pair);
		} else {
			disagree++;
		}
	}
	ASSERT_EQ(0, sw_feature_set(variant->flag, false));
	TH_LOG("%d of %d pairs agree with the prediction, %d disagree, %d measured again",
	       agree, pair, disagree, starved);
	SW_MEASURE("pairs_agree", agree, "pairs");
	SW_MEASURE("pairs_disagree", disagree, "pairs");
	SW_MEASURE("median_run_off", off.median_ns / 1e6, "ms");
	SW_MEASURE("median_run_on", on.median_ns / 1e6, "ms");
	if (agree < AGREE_TO_PASS && disagree < DISAGREE_TO_FAIL)
		TH_LOG("undecided after %d pairs: the CPU kept stopping %s",
		       pair, "(host load or steal time)");
	EXPECT_EQ(AGREE_TO_PASS, agree);
	if (c->quantum_ns) {
		TH_LOG("flag on: %ld of %ld runs without a gap under %.0f%% of the quantum",
		       short_runs, clean_runs, 100 * FLOOR_SHORT);
		TH_LOG("(%.3f ms), at most 1 in %d allowed; %.0f switches a second",
		       c->quantum_ns / 1e6, FLOOR_SHARE, on_runs * 1e9 / (pair * round_ns));
		TH_LOG("(the quantum bounds the rate at %.0f)", 1e9 / c->quantum_ns);
		SW_MEASURE("runs_under_quantum", short_runs, "runs");
		EXPECT_LE(short_runs * FLOOR_SHARE, clean_runs);
	}
}

/*
 * Mainline's protected slice, without the series' flags: what the kernel
 * promises a current task since v6.17 (set_protect_slice()) and where its
 * timer ends the run. Two equal-weight hogs on one CPU, as above.
 *
 * short_slice: one hog (B) asked for a short slice Q, the other (A) has the
 * base slice S. With PREEMPT_SHORT a shorter slice queued ends A's
 * protection where A turns ineligible, about Q after its pick (B ran Q
 * since), well before A's deadline; with HRTICK that point is where the
 * run should end. A kernel that arms the hrtick for the deadline alone
 * ends it at the first tick after the crossing, or at the deadline. Q is
 * an odd number of quarter ticks, so that such a kernel, whose runs end
 * on tick boundaries, leaves A's runs half a tick past the crossing:
 * median of A's runs, predicted Q, against min(S, Q + tick / 2); S is
 * raised where it leaves less than that.
 *
 * no_parity: NO_RUN_TO_PARITY gives a task "a minimum quantum ... to
 * ensure progress" (the comment above set_protect_slice()): the unscaled
 * base slice q. With PREEMPT_SHORT on, equal tasks picked at parity must
 * still run q before a tick or a wakeup ends them. A wakeup lands on the
 * hogs' CPU every P = q / 4 (the helper of the wakeup variants above, nice
 * 19, moved away before it runs), and base_slice is raised so that q is 4
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
 */
#define REPICK_NICE	-5	/* hog A's nice level in the repick variant */

FIXTURE(protect_base) {
	struct ctx c;
};

FIXTURE_VARIANT(protect_base) {
	bool short_slice;
	bool repick;
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
	const char *const need[] = { NULL };
	const char *why = machine_ready(need, FLAT);
	long long q, want;
	long scaling;
	int factor, nr = variant->short_slice || variant->repick ? WAKEE : NR_ROLES;
	bool err;
	enum role r;

	if (why)
		SKIP(return, "%s", why);
	if (!kernel_at_least(6, 17))
		SKIP(return, "the protected slice ends before the deadline since v6.17");
	if (sw_feature_get("PREEMPT_SHORT") < 0 || sw_feature_get("RUN_TO_PARITY") < 0)
		SKIP(return, "no PREEMPT_SHORT or RUN_TO_PARITY feature in this kernel");
	c->hog_cpu = sw_last_cpu();
	c->away_cpu = pick_away(c->hog_cpu);
	ASSERT_LE(0, c->away_cpu);
	ASSERT_EQ(0, sw_pin(0, c->away_cpu));
	ASSERT_EQ(0, read_timing(_metadata, &c->hz, &c->slice_ns, &c->tick_ns));
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
		want = 2 * q + c->tick_ns / 2;
		if (c->slice_ns < want) {
			TH_LOG("base_slice %lld ns leaves A's runs no room past Q + tick / 2:",
			       c->slice_ns);
			TH_LOG("raised to %lld ns for the test", want);
			c->slice_ns = want;
			ASSERT_EQ(0, sw_sysctl_set(SW_BASE_SLICE, c->slice_ns));
		}
		c->custom_b_ns = q;
		c->judged = HOG_A + 1;
		c->on_ns = q;
		c->off_ns = q + c->tick_ns / 2 < c->slice_ns ? q + c->tick_ns / 2 : c->slice_ns;
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

	ASSERT_EQ(0, sw_sysctl_set(SW_SCHEDSTATS, 1));
	TH_LOG("features: %s", sw_features_line());
	ASSERT_EQ(0, ctx_share(c));
	for (r = 0; r < nr; r++)
		ASSERT_EQ(0, spawn(c, FLAT, r));
	ASSERT_EQ(0, children_ready(_metadata, &c->sh->ready, nr, c->sh->err));
	if (variant->repick)
		ASSERT_EQ(0, setpriority(PRIO_PROCESS, c->sh->pid[HOG_A], REPICK_NICE));
	if (c->period_ns) {
		ASSERT_EQ(0, pthread_create(&c->waker, NULL, waker, c));
		c->waker_started = true;
	}
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
	struct round cal;
	int i, factor = 1;

	for (i = 1; i <= CALIBRATIONS; i++) {
		if (measure(c, *round_ns, &cal))
			return -1;
		interval = cal.wakeups ? *round_ns / cal.wakeups : *round_ns;
		TH_LOG("calibration %d: %ld wakeups in %.3f s, one every %.3f ms",
		       i, cal.wakeups, *round_ns / 1e9, interval / 1e6);
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
 * Rounds until AGREE_TO_PASS put the median run on the predicted side of
 * the midpoint or DISAGREE_TO_FAIL do not; rounds with too few runs
 * without a gap, too few wakeups or missed ticks are measured again, as in
 * ineligible.runs.
 */
TEST_F_TIMEOUT(protect_base, runs, 120)
{
	struct ctx *c = &self->c;
	long long mid, round_ns = round_length(c);
	int round = 0, agree = 0, disagree = 0, again = 0;
	bool ok;
	struct round rd;

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
		TH_LOG("B asked for %.3f ms; A's runs, predicted %.3f ms (the crossing, the",
		       c->custom_b_ns / 1e6, c->on_ns / 1e6);
		TH_LOG("hrtick armed there); %.3f ms if it is armed for the deadline alone;",
		       c->off_ns / 1e6);
		TH_LOG("a round agrees when their median < %.3f ms", mid / 1e6);
	} else {
		TH_LOG("NO_RUN_TO_PARITY, the quantum %.3f ms, a wakeup every %.3f ms;",
		       c->quantum_ns / 1e6, c->period_ns / 1e6);
		TH_LOG("runs predicted >= %.3f ms; %.3f ms without the minimum quantum;",
		       c->off_ns / 1e6, c->on_ns / 1e6);
		TH_LOG("a round agrees when the median of the runs without a gap >= %.3f ms",
		       mid / 1e6);
	}
	TH_LOG("%d agreeing rounds pass, %d others fail", AGREE_TO_PASS, DISAGREE_TO_FAIL);

	while (agree < AGREE_TO_PASS && disagree < DISAGREE_TO_FAIL && round < MAX_PAIRS) {
		round++;
		ASSERT_EQ(0, measure(c, round_ns, &rd));
		log_round(_metadata, c, round, "", &rd);
		if (variant->short_slice || variant->repick)
			ok = rd.median_ns < mid || (rd.clean >= MIN_RUNS && rd.clean_ns < mid);
		else
			ok = rd.clean >= MIN_RUNS && rd.clean_ns >= mid;
		if (!rd.invalid && ok) {
			agree++;
		} else if (rd.invalid || rd.clean < MIN_RUNS ||
			   (rd.ticks >= 0 && rd.ticks < FAIR_TICKS)) {
			again++;
			TH_LOG("  round %d: %s: measured again", round,
			       rd.invalid ? rd.invalid :
			       "too few runs without a gap or missed ticks");
		} else {
			disagree++;
		}
	}
	TH_LOG("%d of %d rounds agree with the prediction, %d disagree, %d measured again",
	       agree, round, disagree, again);
	SW_MEASURE("rounds_agree", agree, "rounds");
	SW_MEASURE("median_run", rd.median_ns / 1e6, "ms");
	SW_MEASURE("median_run_no_gap", rd.clean_ns / 1e6, "ms");
	EXPECT_EQ(AGREE_TO_PASS, agree);
}

/*
 * PROTECT_ELIGIBLE at a wakeup that does not preempt (the protect_wakeup
 * fixture). A CPU-bound task, "the hog", runs alone on its CPU, so the
 * protection it got when picked lasts to its deadline. A wakee with lag
 * zero arrives: place_entity() puts it at the average, which is the hog's
 * vruntime, so the hog stays eligible and pick_eevdf() keeps it. Without
 * the flag the wakee waits for the hog's deadline: the hrtick armed there,
 * or the first tick after it. With the flag the wakeup ends the protection
 * where the hog turns ineligible, which is at once when the hog has run
 * its quantum: the wakee runs after the hrtick's 10 us minimum, or at the
 * next tick without HRTICK.
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
 * both waits end at a tick; the hog's sleep is lengthened by a random part
 * of a tick, so that the wakeups fall at every phase of it, and the
 * predictions must lie a tick more apart, so that neither wait crosses
 * the midpoint wherever in the tick it falls. The test raises base_slice
 * where the default leaves less.
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
	const char *why;
	pid_t pid = sw_fork(true);

	if (pid) {
		/* Here too: the hog, forked next, reads the wakee's at once. */
		c->sh->pid[r] = pid;
		return pid < 0 ? -1 : 0;
	}
	c->sh->pid[r] = getpid();
	why = enter_layout(how, r, 0);
	if (why)
		child_fail(c->sh->err, why);
	if (sw_pin(0, r == WAKEE ? c->wakee_cpu : c->hog_cpu))
		child_fail(c->sh->err, "pinning");
	if (c->custom_ns && set_slice(c->custom_ns))
		child_fail(c->sh->err, "asking for a custom slice (sched_setattr)");
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
	if (!c->hrtick) {
		/* Both waits end at a tick: on average half a tick later. */
		c->off_ns += c->tick_ns / 2;
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

	c->sh = mmap(NULL, sizeof(*c->sh), PROT_READ | PROT_WRITE,
		     MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	ASSERT_NE(MAP_FAILED, c->sh);
	memset(c->sh, 0, sizeof(*c->sh));
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
	irq0 = sw_timer_irqs(c->hog_cpu);
	t0 = sw_now_ns();
	atomic_store(&sh->measuring, 1);
	usleep(round_ns / 1000);
	atomic_store(&sh->measuring, 0);
	/* The hog notes a wait once it ended: one more may still come. */
	usleep((c->timeout_ns + c->ran_ns) / 1000);
	irq1 = sw_timer_irqs(c->hog_cpu);
	r->ticks = irq0 < 0 || irq1 < 0 ? -1 :
		   (double)(irq1 - irq0) * c->tick_ns / (sw_now_ns() - t0);
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
}

/*
 * Pairs of rounds, off then on, as in the ineligible test: AGREE_TO_PASS
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
	int pair = 0, agree = 0, disagree = 0, again = 0, elsewhere = 0;
	struct pw_round off, on;
	bool ok;

	TH_LOG("PROTECT_ELIGIBLE at a wakeup, hog and wakee in %s; hog on cpu%d, wakee's cpu%d",
	       layout_names[variant->layout], c->hog_cpu, c->wakee_cpu);
	TH_LOG("HZ=%ld, base_slice %lld ns, quantum %.3f ms, HRTICK %s; the hog runs %.3f ms",
	       c->hz, c->slice_ns, c->quantum_ns / 1e6, c->hrtick ? "acts" : "off",
	       c->ran_ns / 1e6);
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
	SW_MEASURE("pairs_agree", agree, "pairs");
	SW_MEASURE("median_wait_off", off.median_ns / 1e6, "ms");
	SW_MEASURE("median_wait_on", on.median_ns / 1e6, "ms");
	SW_MEASURE("median_held_off", off.held_ns / 1e6, "ms");
	SW_MEASURE("median_held_on", on.held_ns / 1e6, "ms");
	EXPECT_EQ(0, elsewhere) TH_LOG("the wakee ran %d times on a CPU not the hog's", elsewhere);
	EXPECT_EQ(AGREE_TO_PASS, agree);
}

TEST_HARNESS_MAIN
