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
 *  - the hrtick: how often it was armed, cancelled and fired, and how
 *    often a switch followed its firing on that CPU within --after us;
 *  - with --long MS: each run longer than MS ms (of the tasks --comm
 *    selects), listed with the timer events and wakeups on its CPU while it
 *    ran, at their offsets from the run's start: what ended it, what was
 *    armed, what fired and did not end it.
 * With --runs FILE, every selected run goes to FILE as
 * "cpu<TAB>comm<TAB>pid<TAB>start_ns<TAB>length_ns", in trace order.
 *
 * usage: tracesum [--comm NAME] [--cpu N] [--long MS] [--list N]
 *                 [--after US] [--runs FILE] [--by-pid] [REPORT]
 */
#include <errno.h>
#include <getopt.h>
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
	struct vec runs, lat;
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
	struct note notes[NOTE_MAX];
	int nnotes, dropped;
};

/* A woken task waiting for its switch-in: open addressing by pid. */
struct wake {
	int pid;		/* 0: free */
	ns_t at;
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
static ns_t long_ns = -1, after_ns = 200000;
static FILE *runs_out;
static ns_t first_ts = -1, last_ts;
static long events, other_events, switches;
static long hrtick_armed, hrtick_cancelled, hrtick_fired, hrtick_switched;
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

static void end_run(int cpu, ns_t ts, const char *state)
{
	struct cpu *c = &cpus[cpu];
	struct name *n;
	ns_t len;
	int i;

	if (c->since < 0 || c->pid <= 0)
		return;
	len = ts - c->since;
	if (!selected(cpu, c->comm))
		return;
	n = row_of(c->comm, c->pid);
	if (n)
		push(&n->runs, len);
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
	char comm[COMM_LEN], pid[16], state[16];
	const char *next = strstr(args, "next_comm=");
	struct wake *w;
	struct name *n;

	if (!next)
		return;
	switches++;
	if (!field(args, "prev_state=", state, sizeof(state)))
		strcpy(state, "?");
	end_run(cpu, ts, state_name(state));
	if (c->hrtick_fired >= 0 && ts - c->hrtick_fired <= after_ns)
		hrtick_switched++;
	c->hrtick_fired = -1;
	if (!field(next, "next_comm=", comm, sizeof(comm)) ||
	    !field(next, "next_pid=", pid, sizeof(pid)))
		return;
	c->pid = atoi(pid);
	snprintf(c->comm, COMM_LEN, "%s", comm);
	c->since = ts;
	c->nnotes = 0;
	c->dropped = 0;
	w = c->pid > 0 ? wake_slot(c->pid, 0) : NULL;
	if (w && w->at >= 0) {
		if (selected(cpu, comm) && (n = row_of(comm, c->pid)))
			push(&n->lat, ts - w->at);
		w->at = -1;
	}
}

static void on_wakeup(ns_t ts, const char *args)
{
	char comm[COMM_LEN], pid[16], target[16];
	struct wake *w;
	int t;

	if (!field(args, "pid=", pid, sizeof(pid)) || !field(args, "comm=", comm, sizeof(comm)))
		return;
	w = wake_slot(atoi(pid), 1);
	if (w) {
		w->pid = atoi(pid);
		w->at = ts;
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
			cpus[cpu].hrtick_fired = ts;
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

static void table(const char *title, int lat)
{
	int i, any = 0;

	printf("%s (ms):\n  %-16s %8s %9s %9s %9s %9s\n", title, "task", "count", "p10",
	       "median", "p90", "max");
	for (i = 0; i < nnames; i++) {
		struct vec *v = lat ? &names[i].lat : &names[i].runs;

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

static void usage(FILE *f)
{
	fprintf(f, "usage: tracesum [--comm NAME] [--cpu N] [--long MS] [--list N] [--after US]\n"
		   "                [--runs FILE] [--by-pid] [REPORT]\n"
		   "  REPORT    the text of 'trace-cmd report -R -t' (default: standard input)\n"
		   "  --comm    only the runs and wakeups of tasks of this name\n"
		   "  --cpu     only those on this CPU\n"
		   "  --long    list each selected run longer than MS ms with its CPU's events\n"
		   "  --list    list at most N such runs (default 20)\n"
		   "  --after   a switch within US us of an hrtick firing counts as its\n"
		   "            (default 200)\n"
		   "  --runs    write every selected run to FILE (cpu, comm, pid, start, length in ns)\n"
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
	table("runs, switch-in to switch-out", 0);
	table("wakeup latency, sched_wakeup to switch-in", 1);
	printf("hrtick: armed %ld, cancelled %ld, fired %ld; a switch within %.0f us of a firing: %ld\n",
	       hrtick_armed, hrtick_cancelled, hrtick_fired, after_ns / 1e3, hrtick_switched);
	if (runs_out && fclose(runs_out))
		die("cannot write the runs file");
	return 0;
}
