/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Two CPU-bound processes ("hogs") on one CPU, for the EEVDF tests of both
 * kernel lines (ineligible.c): each notes the time it takes the CPU from
 * the other, which gives the length of every run (hog()). Around them: the
 * layouts they are put in (their own group, sibling cgroups, two leaves of
 * a cgroup tree, one autogroup, an autogroup each), a wakee that a helper
 * thread wakes on their CPU without letting it run there (waker()), rounds
 * of runs measured with the CPU's ticks and the hogs' CPU time (measure()),
 * and pairs of rounds, flag off then on, judged against a midpoint
 * (hogs_pairs()). Include after ../kselftest_harness.h: the helpers log
 * with TH_LOG().
 */
#ifndef SCHED_WAKEUP_HOGS_H
#define SCHED_WAKEUP_HOGS_H

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
/*
 * No timer storm: a CPU takes no more timer interrupts beyond its ticks than
 * one per STORM_NS, the shortest slice any test sets (the kernel takes no
 * slice under 0.1 ms), on average over a round. An hrtick armed for a point
 * already passed fires every 10 us, its floor, for as long as the same task
 * is picked again; on emulated CPUs that is 20-30 of them a millisecond.
 */
#define STORM_NS	100000LL

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

/* A zeroed page (or more) shared with the children; NULL on failure. */
static void *share_page(size_t size)
{
	void *p = mmap(NULL, size, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);

	if (p == MAP_FAILED)
		return NULL;
	memset(p, 0, size);
	return p;
}

/*
 * What the children share with the parent: the page they report in, the
 * eventfd the waker writes, the lock of a cycle. 0, or -1 with errno set.
 */
static int ctx_share(struct ctx *c)
{
	c->sh = share_page(sizeof(*c->sh));
	if (!c->sh)
		return -1;
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

/*
 * Put the calling child where layout @how puts role @r (enter_layout(),
 * @nice for a wakee in an autogroup of its own), on @cpu, with a slice of
 * its own when @slice_ns is not 0; on failure, say what in @err and exit.
 */
static void place(char *err, enum layout how, enum role r, int nice, int cpu,
		  long long slice_ns)
{
	const char *why = enter_layout(how, r, nice);

	if (why)
		child_fail(err, why);
	if (sw_pin(0, cpu))
		child_fail(err, "pinning");
	if (slice_ns && set_slice(slice_ns))
		child_fail(err, "asking for a custom slice (sched_setattr)");
}

/* Place the calling child as its role and layout ask, then run the role. */
static void child(struct ctx *c, enum layout how, enum role r)
{
	struct shm *sh = c->sh;

	sh->pid[r] = getpid();
	if (r == WAKEE) {
		place(sh->err, how, r, WAKEE_NICE, c->away_cpu, 0);
		if (setpriority(PRIO_PROCESS, 0, WAKEE_NICE))
			child_fail(sh->err, "setting up the wakee");
		wakee(sh, c->efd);
	}
	place(sh->err, how, r, WAKEE_NICE, c->hog_cpu, c->custom_ns);
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

struct round {
	long long median_ns;
	long long mean_ns;
	int runs;
	long long clean_ns;	/* median of the runs without a gap (hog()) */
	int clean;		/* those runs */
	int short_runs;		/* of those, under FLOOR_SHORT of the quantum */
	long long p10_ns;	/* their tenth percentile */
	long long hog_ns[2];	/* CPU time of each hog */
	long wakeups, late;
	double ticks;		/* share of the expected ticks the CPU handled, or -1 */
	double storm;		/* timer interrupts beyond the ticks per STORM_NS, or -1 */
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

/*
 * The share of the ticks due since @t0 that a CPU handled, from its timer
 * interrupts at @t0 and now (sw_timer_irqs()); -1 where they cannot be read.
 */
static double ticks_handled(long long irq0, long long irq1, long long t0, long long tick_ns)
{
	return irq0 < 0 || irq1 < 0 ? -1 : (double)(irq1 - irq0) * tick_ns / (sw_now_ns() - t0);
}

/*
 * The timer interrupts a CPU took beyond its ticks since @t0, per STORM_NS
 * (see there), from the share of ticks_handled(); -1 where unknown.
 */
static double storm_rate(double ticks, long long tick_ns)
{
	return ticks < 0 ? -1 : (ticks - 1) * STORM_NS / tick_ns;
}

/* A round whose CPU took more timer interrupts than a correct kernel arms. */
static bool stormy(double rate)
{
	return rate > 1;
}

/*
 * A round of @round_ns with @measuring set, the children's sign to note
 * what they see; the timer interrupts of @cpu at its start in *@irq0
 * (ticks_handled()), the start in *@t0.
 */
static void timed_round(atomic_int *measuring, int cpu, long long round_ns, long long *irq0,
			long long *t0)
{
	*irq0 = sw_timer_irqs(cpu);
	*t0 = sw_now_ns();
	atomic_store(measuring, 1);
	usleep(round_ns / 1000);
	atomic_store(measuring, 0);
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
	timed_round(&sh->measuring, c->hog_cpu, round_ns, &irq0, &t0);
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
	r->ticks = ticks_handled(irq0, irq1, t0, c->tick_ns);
	r->storm = storm_rate(r->ticks, c->tick_ns);
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
	for (i = 0; i < n; i++)
		r->mean_ns += all[i] / n;
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
	TH_LOG("    mean run %.3f ms; timer interrupts beyond the ticks: %.2f per %.1f ms%s",
	       r->mean_ns / 1e6, r->storm, STORM_NS / 1e6,
	       stormy(r->storm) ? " (a timer storm)" : "");
}

/*
 * Calibration round @i: the interval between the wakeups the waker makes
 * on this machine, measured over a round of @round_ns; -1 on failure.
 */
static long long wakeup_interval(struct __test_metadata *_metadata, struct ctx *c, int i,
				 long long round_ns)
{
	long long interval;
	struct round cal;

	if (measure(c, round_ns, &cal))
		return -1;
	interval = cal.wakeups ? round_ns / cal.wakeups : round_ns;
	TH_LOG("calibration %d: %ld wakeups in %.3f s, one every %.3f ms",
	       i, cal.wakeups, round_ns / 1e9, interval / 1e6);
	return interval;
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
 * The off run at or above the midpoint, the on run below it (or, for a
 * custom slice the flag keeps, at or above it too).
 */
static bool agrees(long long off_ns, long long on_ns, long long mid, bool custom)
{
	return off_ns >= mid && (custom ? on_ns >= mid : on_ns < mid);
}

/*
 * The hogs on the last online CPU, the helpers and this process on another
 * of its LLC; HZ, base_slice and the tick as the kernel reports them. 0, or
 * -1 with the reason logged.
 */
static int hogs_begin(struct __test_metadata *_metadata, struct ctx *c)
{
	c->hog_cpu = sw_last_cpu();
	c->away_cpu = pick_away(c->hog_cpu);
	if (c->away_cpu < 0 || sw_pin(0, c->away_cpu)) {
		TH_LOG("no CPU for the helpers beside cpu%d", c->hog_cpu);
		return -1;
	}
	return read_timing(_metadata, &c->hz, &c->slice_ns, &c->tick_ns);
}

/*
 * Schedstats on (and autogroups, for their layouts), the flags @off off,
 * the features line logged; then the layout's cgroups, the first @nr roles
 * forked into it and ready, and, with @wakeups, the waker started. 0; 1
 * when the cpu controller cannot be enabled here (a reason to skip); -1
 * with the reason logged.
 */
static int hogs_start(struct __test_metadata *_metadata, struct ctx *c,
		      const char *const *off, enum layout layout, int nr, bool wakeups)
{
	int ret = 0, i;
	enum role r;

	if (sw_sysctl_set(SW_SCHEDSTATS, 1) ||
	    ((layout == AUTOGROUP || layout == AUTOGROUPS) && sw_sysctl_set(SW_AUTOGROUP, 1))) {
		TH_LOG("cannot turn schedstats or autogroups on");
		return -1;
	}
	for (; *off; off++) {
		if (sw_feature_set(*off, false)) {
			TH_LOG("cannot turn %s off", *off);
			return -1;
		}
	}
	TH_LOG("features: %s", sw_features_line());
	if (ctx_share(c)) {
		TH_LOG("cannot share a page or an eventfd with the children");
		return -1;
	}
	if (layout == SIBLINGS || layout == TREE) {
		for (r = 0; r < NR_ROLES && !ret; r++)
			ret = sw_cg_make(cg_of[layout][r], r == WAKEE ? 1 : 0);
		/* The whole binary tree of depth 3: 8 leaves. */
		for (i = 0; layout == TREE && i < 8 && !ret; i++) {
			char leaf[8];

			snprintf(leaf, sizeof(leaf), "%d/%d/%d", i >> 2, (i >> 1) & 1, i & 1);
			ret = sw_cg_make(leaf, 0);
		}
		if (ret == SW_CG_NO_CPU)
			return 1;
		if (ret)
			return -1;
	}
	if (layout == AUTOGROUP) {
		ret = spawn_autogroup(c, nr);
	} else {
		for (r = 0; r < nr && !ret; r++)
			ret = spawn(c, layout, r);
	}
	if (ret) {
		TH_LOG("cannot fork the children");
		return -1;
	}
	if (children_ready(_metadata, &c->sh->ready, nr, c->sh->err) ||
	    check_layout(_metadata, c->sh->pid, layout))
		return -1;
	if (wakeups) {
		errno = pthread_create(&c->waker, NULL, waker, c);
		if (errno) {
			TH_LOG("cannot start the waker: %s", strerror(errno));
			return -1;
		}
		c->waker_started = true;
	}
	return 0;
}

/* What the pairs of rounds of hogs_pairs() came to. */
struct pairs {
	int pair, agree, disagree, again;
	int storms;				/* rounds with a timer storm */
	long short_runs, clean_runs, on_runs;	/* the on rounds' (measure()) */
	struct round off, on;			/* the last pair */
};

/*
 * Pairs of rounds, @flag off then on, until AGREE_TO_PASS pairs have put
 * the median runs on their predicted sides of the midpoint @mid (pass) or
 * DISAGREE_TO_FAIL have not (fail): a flag whose effect is gone or reversed
 * fails in DISAGREE_TO_FAIL pairs. Runs are timed on the wall clock, so a
 * CPU that was not running while its ticks were due -- a guest whose vCPU
 * the host did not run -- stretches them. A pair agrees when the medians
 * of all runs do, or those of the runs without a gap (hog()) do: a gap
 * only lengthens a run, so neither can show a short run the kernel did not
 * make. A pair that disagrees with too few runs without a gap, or while
 * its CPU handled under FAIR_TICKS of the ticks its rounds should have
 * had, is measured again instead of counted, and a test still undecided
 * after MAX_PAIRS pairs fails. With @custom both runs are predicted at or
 * over the midpoint.
 *
 * With @wakeups the on run is the interval between wakeups: the midpoint
 * follows the wakeups the on round got. A host that stalls the guest for
 * milliseconds at a time (as an overcommitted host does) spaces them out:
 * when a round of the pair got under two wakeups a slice, the slice is
 * fitted to the sparser round's interval and the pair measured again.
 * 0, or -1 with the reason logged.
 */
static int hogs_pairs(struct __test_metadata *_metadata, struct ctx *c, const char *flag,
		      bool custom, bool wakeups, long long *round_ns, long long mid,
		      struct pairs *p)
{
	struct round *off = &p->off, *on = &p->on;
	long long sparser;
	int fitted;

	memset(p, 0, sizeof(*p));
	while (p->agree < AGREE_TO_PASS && p->disagree < DISAGREE_TO_FAIL && p->pair < MAX_PAIRS) {
		p->pair++;
		if (sw_feature_set(flag, false) || measure(c, *round_ns, off) ||
		    sw_feature_set(flag, true) || measure(c, *round_ns, on)) {
			TH_LOG("pair %d: cannot flip %s or measure a round", p->pair, flag);
			return -1;
		}
		log_round(_metadata, c, p->pair, "off", off);
		log_round(_metadata, c, p->pair, "on", on);
		p->storms += stormy(off->storm) + stormy(on->storm);
		p->short_runs += on->short_runs;
		p->clean_runs += on->clean;
		p->on_runs += on->runs;
		sparser = off->wakeups < on->wakeups ? off->wakeups : on->wakeups;
		if (sparser < 1)
			sparser = 1;
		/* The wakeups the on round got, not those asked for, set its run. */
		if (wakeups && on->wakeups) {
			mid = (*round_ns / on->wakeups + c->off_ns) / 2;
			TH_LOG("  pair %d: a wakeup every %.3f ms, midpoint %.3f ms",
			       p->pair, *round_ns / on->wakeups / 1e6, mid / 1e6);
		}
		if (!off->invalid && !on->invalid &&
		    (agrees(off->median_ns, on->median_ns, mid, custom) ||
		     (off->clean >= MIN_RUNS && on->clean >= MIN_RUNS &&
		      agrees(off->clean_ns, on->clean_ns, mid, custom)))) {
			p->agree++;
			continue;
		}
		fitted = off->sparse || on->sparse ?
			 fit_slice(_metadata, c, *round_ns / sparser, round_ns) : 0;
		if (fitted < 0)
			return -1;
		if (fitted) {
			p->again++;
			TH_LOG("  pair %d: too few wakeups a slice: measured again", p->pair);
		} else if (off->clean < MIN_RUNS || on->clean < MIN_RUNS) {
			p->again++;
			TH_LOG("  pair %d: too few runs without a gap: measured again", p->pair);
		} else if ((off->ticks >= 0 && off->ticks < FAIR_TICKS) ||
			   (on->ticks >= 0 && on->ticks < FAIR_TICKS)) {
			p->again++;
			TH_LOG("  pair %d: its CPU missed ticks: measured again", p->pair);
		} else {
			p->disagree++;
		}
	}
	if (sw_feature_set(flag, false)) {
		TH_LOG("cannot turn %s off", flag);
		return -1;
	}
	TH_LOG("%d of %d pairs agree with the prediction, %d disagree, %d measured again",
	       p->agree, p->pair, p->disagree, p->again);
	TH_LOG("%d of %d rounds with a timer storm (over 1 interrupt per %.1f ms beyond the ticks)",
	       p->storms, 2 * p->pair, STORM_NS / 1e6);
	SW_MEASURE("pairs_agree", p->agree, "pairs");
	SW_MEASURE("storm_rounds", p->storms, "rounds");
	SW_MEASURE("pairs_disagree", p->disagree, "pairs");
	SW_MEASURE("median_run_off", off->median_ns / 1e6, "ms");
	SW_MEASURE("median_run_on", on->median_ns / 1e6, "ms");
	if (p->agree < AGREE_TO_PASS && p->disagree < DISAGREE_TO_FAIL)
		TH_LOG("undecided after %d pairs: the CPU kept stopping %s",
		       p->pair, "(host load or steal time)");
	return 0;
}

/*
 * What a test of pairs logs before them: the on prediction and how a pair
 * agrees where the hogs asked for a slice of their own (@custom), else
 * @rule (with the midpoint); when a pair is measured again.
 */
static void hogs_log_rule(struct __test_metadata *_metadata, struct ctx *c, bool custom,
			  long long mid, const char *rule)
{
	if (custom) {
		TH_LOG("on the same: the hogs asked for %.3f ms slices, the flag keeps them",
		       c->custom_ns / 1e6);
		TH_LOG("a pair agrees when both off and on >= %.3f ms;", mid / 1e6);
	} else {
		TH_LOG("%s;", rule);
	}
	TH_LOG("in the medians of all runs or of those without a gap over %.3f ms;",
	       atomic_load(&c->sh->gap_ns) / 1e6);
	TH_LOG("%d agreeing pairs pass, %d others fail (pairs whose CPU handled",
	       AGREE_TO_PASS, DISAGREE_TO_FAIL);
	TH_LOG("under %.0f%% of its ticks, or left under %d runs without a gap,",
	       100 * FAIR_TICKS, MIN_RUNS);
	TH_LOG("are measured again, up to %d pairs)", MAX_PAIRS);
}

#endif /* SCHED_WAKEUP_HOGS_H */
