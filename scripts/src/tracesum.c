// SPDX-License-Identifier: GPL-2.0
/*
 * tracesum - what a scheduler trace says about run lengths, wakeup
 * latencies and the hrtick, read from the raw text of 'trace-cmd report -R
 * -t' (every field as name=value, full nanoseconds) of a trace taken with
 * the mono trace clock, so that hrtimer expiry times and event times share
 * one clock.
 *
 * Events used: sched:sched_switch, sched_wakeup, sched_wakeup_new,
 * timer:hrtimer_start, hrtimer_expire_entry, hrtimer_cancel. Others are
 * counted and otherwise ignored.
 *
 * Output, on stdout:
 *  - runs: per task name (comm), the lengths of its runs, switch-in to
 *    switch-out on one CPU: count, p10, median, p90, max;
 *  - wakeup latency: sched_wakeup (or _new) to the switch-in of the wakee;
 *  - ready waits: from the moment a task could run (its wakeup, or its
 *    preemption: switched out runnable) to its switch-in;
 * A run, and the wait before it, count under the name the task has when
 * the run ends: a child that names itself (prctl()) after its fork counts
 * under its own name, not its parent's.
 *  - the hrtick: how often it was armed, cancelled and fired, how often a
 *    switch followed its firing on that CPU within --after us, and how
 *    often it fired in a storm: the third or later firing of a chain on
 *    one CPU, each within --storm us of the one before, with no switch
 *    between. (Two close firings are no storm: an hrtick left armed fires
 *    with one task queued, and a wakeup re-arms it 10 us ahead for a
 *    protection about to end.)
 *  - with --long MS: each run longer than MS ms (of the tasks --comm
 *    selects), listed with the timer events and wakeups on its CPU while it
 *    ran, at their offsets from the run's start: what ended it, what was
 *    armed, what fired and did not end it.
 * With --pair A,B, for two tasks of equal weight that share a CPU (named A
 * and B): their switch rate, and the distribution of A's lag over time --
 * (B's run time - A's) / 2 from their runs, sampled every 10 us and
 * centred on its mean (a trace does not give the lag's origin) -- the
 * spread that EEVDF keeps two equal tasks' lags within.
 * With --runs FILE, every selected run goes to FILE as
 * "cpu<TAB>comm<TAB>pid<TAB>start_ns<TAB>length_ns", in trace order.
 * With --tsv FILE, the figures scripts/invariants compares go to FILE, a
 * line per task name and one of totals:
 *   task<TAB>comm<TAB>runs<TAB>median run<TAB>low<TAB>high<TAB>mean<TAB>se
 *       <TAB>ready waits<TAB>median wait<TAB>low<TAB>high<TAB>mean<TAB>se
 *   total<TAB>switches<TAB>wakeups<TAB>hrtick fired<TAB>hrtick storms
 * (ns, 0 where none; low and high bound the 99% confidence interval of
 * the median: the order statistics n/2 -+ 2.576 sqrt(n) / 2; se is the
 * standard error of the mean).
 *
 * usage: tracesum [--comm NAME] [--cpu N] [--long MS] [--list N]
 *                 [--after US] [--storm US] [--runs FILE] [--tsv FILE]
 *                 [--pair A,B] [--by-pid] [REPORT]
 */
#include <errno.h>
#include <getopt.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAX_CPUS	256
#define COMM_LEN	32
#define MAX_NAMES	512

struct name;
static struct name *name_of(const char *comm);
#define NOTE_MAX	48	/* events kept per CPU for the long-run listing */
#define NOTE_LEN	112
#define PID_SLOTS	(1 << 16)
#define TIMER_SLOTS	1024

typedef long long ns_t;

/* Growable array of durations. */
struct vec {
	ns_t *v;
	size_t n, cap;
};

struct name {
	char comm[COMM_LEN];
	struct vec runs, lat, ready;
};

struct note {
	ns_t at;
	char text[NOTE_LEN];
};

struct cpu {
	int pid;		/* running task; -1 unknown */
	char comm[COMM_LEN];
	ns_t since;		/* its switch-in, or -1 if not seen */
	ns_t hrtick_fired;	/* last hrtick expiry on this CPU, or -1 */
	ns_t hrtick_last;	/* ... since its last switch, or -1 */
	int hrtick_chain;	/* firings since, each close to the one before */
	ns_t lat, ready;	/* the running task's wait before this run, or -1 */
	struct note notes[NOTE_MAX];
	int nnotes, dropped;
};

/*
 * A task waiting for its switch-in, by pid (open addressing): woken at
 * (for the wakeup latency), runnable since ready (woken or preempted).
 */
struct wake {
	int pid;		/* 0: free */
	ns_t at, ready;
};

/* What each hrtimer is, from its hrtimer_start. */
struct timer {
	unsigned long long addr;	/* 0: free */
	char fn[COMM_LEN];
};

static struct name names[MAX_NAMES];
static int nnames;
static struct cpu cpus[MAX_CPUS];
static struct wake wakes[PID_SLOTS];
static struct timer timers[TIMER_SLOTS];
static const char *sel_comm;
static int sel_cpu = -1, list_max = 20, listed, long_seen, by_pid;
static ns_t long_ns = -1, after_ns = 200000, storm_ns = 50000;
static FILE *runs_out, *tsv_out;
/* --pair: the two names, their run time so far, A's lag samples. */
static char pair_a[COMM_LEN], pair_b[COMM_LEN];
static ns_t pair_ran[2], pair_first = -1, pair_last;
static long pair_switches;
static struct vec pair_lag;
#define PAIR_STEP	10000	/* ns between lag samples */
static ns_t first_ts = -1, last_ts;
static long events, other_events, switches, wakeups;
static long hrtick_armed, hrtick_cancelled, hrtick_fired, hrtick_switched, hrtick_storm;
static int max_cpu = -1;

static void die(const char *msg)
{
	fprintf(stderr, "tracesum: error: %s\n", msg);
	exit(1);
}

static void push(struct vec *v, ns_t x)
{
	if (v->n == v->cap) {
		v->cap = v->cap ? 2 * v->cap : 256;
		v->v = realloc(v->v, v->cap * sizeof(*v->v));
		if (!v->v)
			die("out of memory");
	}
	v->v[v->n++] = x;
}

/* The row a task's figures go to: its name, or with --by-pid name-pid. */
static struct name *row_of(const char *comm, int pid)
{
	char key[COMM_LEN + 12];

	if (!by_pid)
		return name_of(comm);
	snprintf(key, sizeof(key), "%s-%d", comm, pid);
	return name_of(key);
}

static struct name *name_of(const char *comm)
{
	int i;

	for (i = 0; i < nnames; i++)
		if (!strcmp(names[i].comm, comm))
			return &names[i];
	if (nnames == MAX_NAMES)
		return NULL;
	snprintf(names[nnames].comm, COMM_LEN, "%s", comm);
	return &names[nnames++];
}

static struct wake *wake_slot(int pid, int insert)
{
	unsigned int h = (unsigned int)pid * 2654435761u % PID_SLOTS;
	int i;

	for (i = 0; i < PID_SLOTS; i++, h = (h + 1) % PID_SLOTS) {
		if (wakes[h].pid == pid)
			return &wakes[h];
		if (!wakes[h].pid)
			return insert ? &wakes[h] : NULL;
	}
	return NULL;
}

static struct timer *timer_slot(unsigned long long addr)
{
	unsigned int h = (unsigned int)(addr >> 4) % TIMER_SLOTS;
	int i;

	for (i = 0; i < TIMER_SLOTS; i++, h = (h + 1) % TIMER_SLOTS)
		if (timers[h].addr == addr || !timers[h].addr)
			return &timers[h];
	return NULL;
}

/* field(args, "key="): the value after key=, up to a blank, in buf. */
static int field(const char *args, const char *key, char *buf, size_t len)
{
	const char *p = args, *e;
	size_t kl = strlen(key);

	while ((p = strstr(p, key))) {
		if (p == args || p[-1] == ' ')
			break;
		p += kl;
	}
	if (!p)
		return 0;
	p += kl;
	e = p + strcspn(p, " ");
	if ((size_t)(e - p) >= len)
		e = p + len - 1;
	memcpy(buf, p, e - p);
	buf[e - p] = '\0';
	return 1;
}

static int selected(int cpu, const char *comm)
{
	return (sel_cpu < 0 || cpu == sel_cpu) && (!sel_comm || !strcmp(comm, sel_comm));
}

static void note(int cpu, ns_t at, const char *fmt, const char *a, const char *b)
{
	struct cpu *c = &cpus[cpu];

	if (long_ns < 0)
		return;
	if (c->nnotes == NOTE_MAX) {
		c->dropped++;
		return;
	}
	c->notes[c->nnotes].at = at;
	snprintf(c->notes[c->nnotes].text, NOTE_LEN, fmt, a, b);
	c->nnotes++;
}

/* --pair: a run of A or B from @from to @to; the lag of A along it. */
static void pair_run(const char *comm, ns_t from, ns_t to)
{
	int who = !strcmp(comm, pair_a) ? 0 : !strcmp(comm, pair_b) ? 1 : -1;
	ns_t t;

	if (!pair_a[0] || who < 0)
		return;
	if (pair_first < 0)
		pair_first = from;
	pair_last = to;
	pair_switches++;
	for (t = from; t < to; t += PAIR_STEP)
		push(&pair_lag, (pair_ran[1] - pair_ran[0] + (who ? t - from : from - t)) / 2);
	pair_ran[who] += to - from;
}

/* The run on @cpu ends at @ts, its task named @comm by now. */
static void end_run(int cpu, ns_t ts, const char *state, const char *comm)
{
	struct cpu *c = &cpus[cpu];
	struct name *n;
	ns_t len;
	int i;

	if (c->since < 0 || c->pid <= 0)
		return;
	snprintf(c->comm, COMM_LEN, "%s", comm);
	len = ts - c->since;
	pair_run(c->comm, c->since, ts);
	if (!selected(cpu, c->comm))
		return;
	n = row_of(c->comm, c->pid);
	if (n) {
		push(&n->runs, len);
		if (c->lat >= 0)
			push(&n->lat, c->lat);
		if (c->ready >= 0)
			push(&n->ready, c->ready);
	}
	if (runs_out)
		fprintf(runs_out, "%d\t%s\t%d\t%lld\t%lld\n", cpu, c->comm, c->pid, c->since - first_ts, len);
	if (long_ns < 0 || len <= long_ns)
		return;
	long_seen++;
	if (listed >= list_max)
		return;
	listed++;
	printf("  %s-%d on CPU %d at %.6f s: %.3f ms, left in state %s\n", c->comm, c->pid, cpu,
	       (c->since - first_ts) / 1e9, len / 1e6, state);
	for (i = 0; i < c->nnotes; i++)
		printf("    %+9.3f ms  %s\n", (c->notes[i].at - c->since) / 1e6, c->notes[i].text);
	if (c->dropped)
		printf("    (%d more events not kept)\n", c->dropped);
}

/*
 * The raw prev_state: 0 running (a reschedule at a preemption point of its
 * own, such as the return to user space), 256 preempted (TASK_REPORT_MAX,
 * shown as R+), else the sleep state's bits.
 */
static const char *state_name(const char *raw)
{
	switch (atoi(raw)) {
	case 0: return "R";
	case 1: return "S";
	case 2: return "D";
	case 256: return "R+ (preempted)";
	default: return raw;
	}
}

static void on_switch(int cpu, ns_t ts, const char *args)
{
	struct cpu *c = &cpus[cpu];
	char comm[COMM_LEN], pid[16], state[16], prev[COMM_LEN];
	const char *next = strstr(args, "next_comm=");
	struct wake *w;

	if (!next)
		return;
	switches++;
	if (!field(args, "prev_state=", state, sizeof(state)))
		strcpy(state, "?");
	if (!field(args, "prev_comm=", prev, sizeof(prev)))
		snprintf(prev, sizeof(prev), "%s", c->comm);
	end_run(cpu, ts, state_name(state), prev);
	/* Switched out runnable (0) or preempted (256): ready from now. */
	if (c->pid > 0 && (!strcmp(state, "0") || !strcmp(state, "256"))) {
		w = wake_slot(c->pid, 1);
		if (w) {
			if (!w->pid)
				w->at = -1;
			w->pid = c->pid;
			w->ready = ts;
		}
	}
	if (c->hrtick_fired >= 0 && ts - c->hrtick_fired <= after_ns)
		hrtick_switched++;
	c->hrtick_fired = -1;
	c->hrtick_last = -1;
	if (!field(next, "next_comm=", comm, sizeof(comm)) ||
	    !field(next, "next_pid=", pid, sizeof(pid)))
		return;
	c->pid = atoi(pid);
	snprintf(c->comm, COMM_LEN, "%s", comm);
	c->since = ts;
	c->nnotes = 0;
	c->dropped = 0;
	c->lat = -1;
	c->ready = -1;
	w = c->pid > 0 ? wake_slot(c->pid, 0) : NULL;
	if (w && w->at >= 0) {
		c->lat = ts - w->at;
		w->at = -1;
	}
	if (w && w->ready >= 0) {
		c->ready = ts - w->ready;
		w->ready = -1;
	}
}

static void on_wakeup(ns_t ts, const char *args)
{
	char comm[COMM_LEN], pid[16], target[16];
	struct wake *w;
	int t;

	if (!field(args, "pid=", pid, sizeof(pid)) || !field(args, "comm=", comm, sizeof(comm)))
		return;
	wakeups++;
	w = wake_slot(atoi(pid), 1);
	if (w) {
		w->pid = atoi(pid);
		w->at = ts;
		w->ready = ts;
	}
	if (field(args, "target_cpu=", target, sizeof(target))) {
		t = atoi(target);
		if (t >= 0 && t < MAX_CPUS)
			note(t, ts, "wakeup of %s-%s", comm, pid);
	}
}

static void on_timer(int cpu, ns_t ts, const char *ev, const char *args)
{
	char addr[32], fn[COMM_LEN] = "", exp[32];
	struct timer *t = NULL;
	char text[NOTE_LEN];

	if (field(args, "hrtimer=", addr, sizeof(addr)))
		t = timer_slot(strtoull(addr, NULL, 16));
	if (!strcmp(ev, "hrtimer_start")) {
		field(args, "function=", fn, sizeof(fn));
		if (t) {
			t->addr = strtoull(addr, NULL, 16);
			snprintf(t->fn, COMM_LEN, "%s", fn);
		}
		if (!strcmp(fn, "hrtick"))
			hrtick_armed++;
		if (field(args, "expires=", exp, sizeof(exp))) {
			snprintf(text, sizeof(text), "%+.3f ms", (atoll(exp) - ts) / 1e6);
			note(cpu, ts, "%s armed for %s", fn, text);
		}
		return;
	}
	if (t && t->addr)
		snprintf(fn, COMM_LEN, "%s", t->fn);
	if (!strcmp(ev, "hrtimer_expire_entry")) {
		/* The raw format gives an address here: keep hrtimer_start's name. */
		if (!fn[0])
			field(args, "function=", fn, sizeof(fn));
		if (!strcmp(fn, "hrtick")) {
			hrtick_fired++;
			if (cpus[cpu].hrtick_last >= 0 && ts - cpus[cpu].hrtick_last < storm_ns)
				cpus[cpu].hrtick_chain++;
			else
				cpus[cpu].hrtick_chain = 0;
			if (cpus[cpu].hrtick_chain >= 2)
				hrtick_storm++;
			cpus[cpu].hrtick_fired = ts;
			cpus[cpu].hrtick_last = ts;
		}
		note(cpu, ts, "%s fired%s", fn, "");
	} else if (!strcmp(ev, "hrtimer_cancel")) {
		if (!strcmp(fn, "hrtick"))
			hrtick_cancelled++;
		note(cpu, ts, "%s cancelled%s", fn[0] ? fn : addr, "");
	}
}

/*
 * One line of 'trace-cmd report': "COMM-PID [CPU] SECS.FRAC: EVENT: ARGS",
 * with optional latency columns between the CPU and the time.
 */
static void parse(char *line)
{
	char *lb = strstr(line, "] "), *p, *ev, *colon;
	long long secs = 0, frac = 0;
	int cpu, digits;
	ns_t ts;

	if (!lb || !(p = strrchr(line, '[')) || p > lb)
		return;
	cpu = atoi(p + 1);
	if (cpu < 0 || cpu >= MAX_CPUS)
		return;
	/* The timestamp: the first "digits.digits:" after the CPU. */
	for (p = lb + 1; *p; p++) {
		if (*p < '0' || *p > '9')
			continue;
		secs = strtoll(p, &ev, 10);
		if (*ev != '.')
			continue;
		p = ev + 1;
		frac = strtoll(p, &ev, 10);
		if (*ev != ':')
			continue;
		digits = ev - p;
		while (digits < 9) {
			frac *= 10;
			digits++;
		}
		while (digits > 9) {
			frac /= 10;
			digits--;
		}
		break;
	}
	if (!*p)
		return;
	ts = secs * 1000000000LL + frac;
	ev++;
	while (*ev == ' ')
		ev++;
	colon = strchr(ev, ':');
	if (!colon)
		return;
	*colon = '\0';
	p = colon + 1;
	while (*p == ' ')
		p++;
	p[strcspn(p, "\n")] = '\0';
	events++;
	if (first_ts < 0)
		first_ts = ts;
	last_ts = ts;
	if (cpu > max_cpu)
		max_cpu = cpu;
	if (!strcmp(ev, "sched_switch"))
		on_switch(cpu, ts, p);
	else if (!strcmp(ev, "sched_wakeup") || !strcmp(ev, "sched_wakeup_new"))
		on_wakeup(ts, p);
	else if (!strncmp(ev, "hrtimer_", 8))
		on_timer(cpu, ts, ev, p);
	else
		other_events++;
}

static int cmp(const void *a, const void *b)
{
	ns_t x = *(const ns_t *)a, y = *(const ns_t *)b;

	return x < y ? -1 : x > y;
}

static double pct(struct vec *v, double q)
{
	size_t i = (size_t)(q * (v->n - 1) + 0.5);

	return v->v[i] / 1e6;
}

enum table_of { RUNS, LATENCY, READY };

static struct vec *vec_of(struct name *n, enum table_of what)
{
	return what == RUNS ? &n->runs : what == LATENCY ? &n->lat : &n->ready;
}

static ns_t median(struct vec *v)
{
	return v->n ? v->v[v->n / 2] : 0;
}

/* The mean of @v, and in *@se its standard error. */
static double mean_se(struct vec *v, double *se)
{
	double m = 0, ss = 0;
	size_t i;

	*se = 0;
	if (!v->n)
		return 0;
	for (i = 0; i < v->n; i++)
		m += v->v[i];
	m /= v->n;
	for (i = 0; i < v->n; i++)
		ss += (v->v[i] - m) * (v->v[i] - m);
	if (v->n > 1)
		*se = sqrt(ss / (v->n - 1) / v->n);
	return m;
}

/* An order statistic bounding the median's 99% confidence interval. */
static ns_t median_bound(struct vec *v, int high)
{
	double d = 2.576 * sqrt((double)v->n) / 2;
	long i = (long)(v->n / 2 + (high ? d + 0.5 : -d - 0.5));

	if (!v->n)
		return 0;
	if (i < 0)
		i = 0;
	if (i >= (long)v->n)
		i = v->n - 1;
	return v->v[i];
}

static void table(const char *title, enum table_of what)
{
	int i, any = 0;

	printf("%s (ms):\n  %-16s %8s %9s %9s %9s %9s\n", title, "task", "count", "p10",
	       "median", "p90", "max");
	for (i = 0; i < nnames; i++) {
		struct vec *v = vec_of(&names[i], what);

		if (!v->n)
			continue;
		any = 1;
		qsort(v->v, v->n, sizeof(*v->v), cmp);
		printf("  %-16s %8zu %9.3f %9.3f %9.3f %9.3f\n", names[i].comm, v->n, pct(v, 0.1),
		       pct(v, 0.5), pct(v, 0.9), v->v[v->n - 1] / 1e6);
	}
	if (!any)
		printf("  none\n");
}

/* --pair: the switch rate and the spread of A's lag, centred. */
static void pair_report(void)
{
	double mean = 0;
	size_t i;

	if (!pair_lag.n || pair_last <= pair_first) {
		printf("pair %s,%s: no runs of both\n", pair_a, pair_b);
		return;
	}
	for (i = 0; i < pair_lag.n; i++)
		mean += pair_lag.v[i];
	mean /= pair_lag.n;
	for (i = 0; i < pair_lag.n; i++) {
		pair_lag.v[i] -= (ns_t)mean;
		if (pair_lag.v[i] < 0)
			pair_lag.v[i] = -pair_lag.v[i];
	}
	qsort(pair_lag.v, pair_lag.n, sizeof(*pair_lag.v), cmp);
	printf("pair %s,%s: %.0f runs a second over %.3f s; |lag of %s| around its mean (ms):\n"
	       "  p50 %.3f  p90 %.3f  p99 %.3f  max %.3f  (%zu samples, one per %d us)\n",
	       pair_a, pair_b, pair_switches * 1e9 / (pair_last - pair_first),
	       (pair_last - pair_first) / 1e9, pair_a, pct(&pair_lag, 0.5), pct(&pair_lag, 0.9),
	       pct(&pair_lag, 0.99), pair_lag.v[pair_lag.n - 1] / 1e6, pair_lag.n, PAIR_STEP / 1000);
}

/* The --tsv file: the vectors are sorted by table() before. */
static void write_tsv(void)
{
	int i;

	for (i = 0; i < nnames; i++) {
		struct name *n = &names[i];
		double rse, wse, rm = mean_se(&n->runs, &rse), wm = mean_se(&n->ready, &wse);

		fprintf(tsv_out, "task\t%s\t%zu\t%lld\t%lld\t%lld\t%.0f\t%.0f\t%zu\t%lld\t%lld\t%lld\t%.0f\t%.0f\n",
			n->comm, n->runs.n, median(&n->runs), median_bound(&n->runs, 0),
			median_bound(&n->runs, 1), rm, rse, n->ready.n, median(&n->ready),
			median_bound(&n->ready, 0), median_bound(&n->ready, 1), wm, wse);
	}
	fprintf(tsv_out, "total\t%ld\t%ld\t%ld\t%ld\n", switches, wakeups, hrtick_fired,
		hrtick_storm);
}

static void usage(FILE *f)
{
	fprintf(f, "usage: tracesum [--comm NAME] [--cpu N] [--long MS] [--list N] [--after US]\n"
		   "                [--storm US] [--runs FILE] [--tsv FILE] [--by-pid] [REPORT]\n"
		   "  REPORT    the text of 'trace-cmd report -R -t' (default: standard input)\n"
		   "  --comm    only the runs and wakeups of tasks of this name\n"
		   "  --cpu     only those on this CPU\n"
		   "  --long    list each selected run longer than MS ms with its CPU's events\n"
		   "  --list    list at most N such runs (default 20)\n"
		   "  --after   a switch within US us of an hrtick firing counts as its\n"
		   "            (default 200)\n"
		   "  --storm   the third firing of the hrtick in a row on a CPU, each within US us\n"
		   "            of the one before, no switch between, is a storm (default 50)\n"
		   "  --runs    write every selected run to FILE (cpu, comm, pid, start, length in ns)\n"
		   "  --tsv     write the medians and totals scripts/invariants reads to FILE\n"
		   "  --pair    A,B: two equal tasks on one CPU: switch rate, spread of A's lag\n"
		   "  --by-pid  a row per task (name-pid), not per name\n");
}

static double number(const char *opt, const char *s)
{
	char *e;
	double v;

	errno = 0;
	v = strtod(s, &e);
	if (errno || e == s || *e || v < 0) {
		fprintf(stderr, "tracesum: error: %s takes a number, not '%s' (see --help)\n", opt, s);
		exit(2);
	}
	return v;
}

int main(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "comm", required_argument, NULL, 'c' }, { "cpu", required_argument, NULL, 'C' },
		{ "long", required_argument, NULL, 'l' }, { "list", required_argument, NULL, 'n' },
		{ "after", required_argument, NULL, 'a' }, { "runs", required_argument, NULL, 'r' },
		{ "by-pid", no_argument, NULL, 'p' }, { "help", no_argument, NULL, 'h' },
		{ "storm", required_argument, NULL, 's' }, { "tsv", required_argument, NULL, 't' },
		{ "pair", required_argument, NULL, 'P' },
		{ NULL, 0, NULL, 0 },
	};
	FILE *in = stdin;
	char *line = NULL;
	size_t cap = 0;
	int o, i;

	opterr = 0;
	while ((o = getopt_long(argc, argv, "", opts, NULL)) != -1) {
		switch (o) {
		case 'c': sel_comm = optarg; break;
		case 'C': sel_cpu = (int)number("--cpu", optarg); break;
		case 'l': long_ns = (ns_t)(number("--long", optarg) * 1e6); break;
		case 'n': list_max = (int)number("--list", optarg); break;
		case 'a': after_ns = (ns_t)(number("--after", optarg) * 1e3); break;
		case 'r':
			runs_out = fopen(optarg, "w");
			if (!runs_out) {
				fprintf(stderr, "tracesum: error: cannot write %s: %s\n", optarg,
					strerror(errno));
				return 1;
			}
			break;
		case 's': storm_ns = (ns_t)(number("--storm", optarg) * 1e3); break;
		case 't':
			tsv_out = fopen(optarg, "w");
			if (!tsv_out) {
				fprintf(stderr, "tracesum: error: cannot write %s: %s\n", optarg,
					strerror(errno));
				return 1;
			}
			break;
		case 'P': {
			const char *comma = strchr(optarg, ',');

			if (!comma || comma == optarg || !comma[1] || comma - optarg >= COMM_LEN ||
			    strlen(comma + 1) >= COMM_LEN) {
				fprintf(stderr, "tracesum: error: --pair takes two task names, A,B, not '%s' (see --help)\n",
					optarg);
				return 2;
			}
			snprintf(pair_a, sizeof(pair_a), "%.*s", (int)(comma - optarg), optarg);
			snprintf(pair_b, sizeof(pair_b), "%s", comma + 1);
			break;
		}
		case 'p': by_pid = 1; break;
		case 'h': usage(stdout); return 0;
		default:
			fprintf(stderr, "tracesum: error: unknown option or missing value '%s' (see --help)\n",
				argv[optind - 1]);
			return 2;
		}
	}
	if (optind < argc - 1) {
		fprintf(stderr, "tracesum: error: one report at most (see --help)\n");
		return 2;
	}
	if (optind == argc - 1 && !(in = fopen(argv[optind], "r"))) {
		fprintf(stderr, "tracesum: error: cannot read %s: %s\n", argv[optind], strerror(errno));
		return 1;
	}
	for (i = 0; i < MAX_CPUS; i++) {
		cpus[i].pid = -1;
		cpus[i].since = -1;
		cpus[i].hrtick_fired = -1;
		cpus[i].hrtick_last = -1;
	}
	if (long_ns >= 0)
		printf("runs longer than %.3f ms%s%s:\n", long_ns / 1e6, sel_comm ? " of " : "",
		       sel_comm ? sel_comm : "");
	while (getline(&line, &cap, in) > 0)
		parse(line);
	if (!events) {
		fprintf(stderr, "tracesum: error: no trace events in the input (the text of 'trace-cmd report -R -t'?)\n");
		return 1;
	}
	if (long_ns >= 0)
		printf("  %d such run(s)%s\n", long_seen, long_seen > listed ? ", the first listed" : "");
	printf("trace: %.3f s, CPUs 0-%d, %ld events (%ld switches, %ld not used here)\n",
	       (last_ts - first_ts) / 1e9, max_cpu, events, switches, other_events);
	table("runs, switch-in to switch-out", RUNS);
	table("wakeup latency, sched_wakeup to switch-in", LATENCY);
	table("ready waits, woken or preempted to switch-in", READY);
	printf("hrtick: armed %ld, cancelled %ld, fired %ld; a switch within %.0f us of a firing: %ld\n",
	       hrtick_armed, hrtick_cancelled, hrtick_fired, after_ns / 1e3, hrtick_switched);
	printf("hrtick storm: %ld firings, each the third or later of a row %.0f us apart, no switch\n",
	       hrtick_storm, storm_ns / 1e3);
	if (pair_a[0])
		pair_report();
	if (tsv_out) {
		write_tsv();
		if (fclose(tsv_out))
			die("cannot write the tsv file");
	}
	if (runs_out && fclose(runs_out))
		die("cannot write the runs file");
	return 0;
}
