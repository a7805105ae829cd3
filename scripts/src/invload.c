// SPDX-License-Identifier: GPL-2.0
/*
 * invload - one scenario of scripts/invariants on the machine under test:
 * tasks that build a situation the EEVDF flags act in, on one CPU, for a
 * given time, under names the trace reads them by (inv-*). What the flags
 * do is not judged here: the trace taken around this program is.
 *
 * Scenarios (X: --cpu, Y: --away, an online CPU of X's LLC):
 *   equal       two CPU-bound tasks of equal weight on X
 *   short       the same, one of them (inv-short) asking for a short slice
 *               (sched_attr::sched_runtime): a short slice queued before the
 *               pick
 *   short-wake  a CPU-bound task on X and a task with a short slice that
 *               sleeps 2 ms and runs 0.1 ms on X: queued after the pick
 *   repick      base_slice set to a fifth of a tick (at least 0.1 ms), the
 *               two tasks at nice -5 and 0: the heavier is picked again at
 *               most of its deadlines
 *   custom      two CPU-bound tasks asking for twice the base slice
 *   wakee       a CPU-bound task on X wakes a task of X (inv-wakee) every
 *               0.9 ms on average, which runs 20 us: local wakeups
 *   batch, idle the same with a SCHED_BATCH, a SCHED_IDLE wakee
 *   fork        the CPU-bound task forks a child every 0.9 ms on average,
 *               which runs 20 us and exits (WF_FORK)
 *   remote      two CPU-bound tasks on X; a task on Y, asleep between,
 *               wakes a task of X every 0.5 ms on average: wakeups made on
 *               another CPU
 *               (Y sleeps: a busy vCPU beside X would stall X under QEMU's
 *               round-robin TCG, which the trace would show as long runs)
 * Periods vary from 0.6 to 1.4 times their average, so that wakeups fall
 * at every phase of the tick and of the runs; the same seed each time, so
 * that a scenario run with the flags off and on gets the same periods.
 * base_slice, where the scenario changes it, is restored on every exit.
 * Once the tasks are running, the function-call interrupts X takes over the
 * scenario's time are printed ("cal N"): the cost the scenario's wakeups
 * put on X, without the tasks' start and end.
 *
 * usage: invload --scenario S --cpu X --away Y --hz HZ [--duration MS]
 * Exits 0, 1 on a failure (one line on stderr), 2 on bad usage.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <sched.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/eventfd.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#define BASE_SLICE	"/sys/kernel/debug/sched/base_slice_ns"
#define MAX_TASKS	4
#define WAKE_PERIOD_NS	900000LL	/* wakee and fork scenarios */
#define REMOTE_PERIOD_NS 500000LL
#define WAKEE_RUN_NS	20000LL
#define SHORT_SLEEP_NS	2000000LL
#define SHORT_RUN_NS	100000LL
#define SHORT_SLICE_NS	250000ULL

struct sched_attr_v1 {
	uint32_t size, sched_policy;
	uint64_t sched_flags;
	int32_t sched_nice;
	uint32_t sched_priority;
	uint64_t sched_runtime, sched_deadline, sched_period;
};

struct shared {
	atomic_int stop;
	atomic_int ready;
};

static struct shared *sh;
static pid_t kids[MAX_TASKS];
static int nkids, efd = -1;
static long long saved_slice = -1;

static void fail(const char *what)
{
	fprintf(stderr, "invload: error: %s: %s\n", what, strerror(errno));
	exit(1);
}

static long long now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1000000000LL + ts.tv_nsec;
}

static void spin_until(long long t)
{
	while (now_ns() < t && !atomic_load_explicit(&sh->stop, memory_order_relaxed))
		;
}

static long long read_slice(void)
{
	long long v = -1;
	FILE *f = fopen(BASE_SLICE, "r");

	if (f) {
		if (fscanf(f, "%lld", &v) != 1)
			v = -1;
		fclose(f);
	}
	return v;
}

static int write_slice(long long v)
{
	FILE *f = fopen(BASE_SLICE, "w");
	int ret;

	if (!f)
		return -1;
	ret = fprintf(f, "%lld\n", v) < 0;
	return fclose(f) || ret ? -1 : 0;
}

/* Every exit of the parent: the children stopped, base_slice back. */
static void cleanup(void)
{
	int i;

	if (sh)
		atomic_store(&sh->stop, 1);
	for (i = 0; i < nkids; i++) {
		kill(kids[i], SIGKILL);
		waitpid(kids[i], NULL, 0);
	}
	nkids = 0;
	if (saved_slice > 0 && write_slice(saved_slice))
		fprintf(stderr, "invload: error: cannot restore %s to %lld\n", BASE_SLICE,
			saved_slice);
	saved_slice = -1;
}

static void on_signal(int sig)
{
	cleanup();
	signal(sig, SIG_DFL);
	raise(sig);
}

static void pin(int cpu)
{
	cpu_set_t set;

	CPU_ZERO(&set);
	CPU_SET(cpu, &set);
	if (sched_setaffinity(0, sizeof(set), &set))
		fail("sched_setaffinity");
}

/* The calling task's policy, nice level and own slice (0: none). */
static void set_attr(int policy, int nice, unsigned long long slice)
{
	struct sched_attr_v1 a = {
		.size = sizeof(a), .sched_policy = policy, .sched_nice = nice,
		.sched_runtime = slice,
	};

	if (syscall(SYS_sched_setattr, 0, &a, 0))
		fail("sched_setattr");
}

static void hog(void)
{
	while (!atomic_load_explicit(&sh->stop, memory_order_relaxed))
		;
}

/* @period, 0.6 to 1.4 times it, from the same sequence every run. */
static long long jitter(long long period, unsigned int *seed)
{
	return period * 6 / 10 + period * 8 / 10 * (rand_r(seed) % 1024) / 1024;
}

/* Block on the eventfd, run a moment, again; the woken side of a scenario. */
static void wakee(void)
{
	uint64_t v;

	for (;;) {
		if (read(efd, &v, sizeof(v)) != sizeof(v))
			_exit(0);
		spin_until(now_ns() + WAKEE_RUN_NS);
	}
}

/*
 * Run (or, with @sleeps, sleep) until the next period, wake (or fork) the
 * wakee, again.
 */
static void waker(long long period, int forks, int sleeps)
{
	long long next = now_ns();
	unsigned int seed = 1;
	struct timespec ts;
	uint64_t one = 1;

	while (!atomic_load_explicit(&sh->stop, memory_order_relaxed)) {
		next += jitter(period, &seed);
		if (sleeps) {
			ts.tv_sec = next / 1000000000LL;
			ts.tv_nsec = next % 1000000000LL;
			clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &ts, NULL);
		} else {
			spin_until(next);
		}
		if (forks) {
			if (!fork()) {
				prctl(PR_SET_NAME, "inv-child");
				spin_until(now_ns() + WAKEE_RUN_NS);
				_exit(0);
			}
			while (waitpid(-1, NULL, WNOHANG) > 0)
				;
		} else if (write(efd, &one, sizeof(one)) != sizeof(one)) {
			_exit(1);
		}
	}
}

static void short_sleeper(void)
{
	struct timespec nap = { 0, 0 };
	unsigned int seed = 1;

	while (!atomic_load_explicit(&sh->stop, memory_order_relaxed)) {
		nap.tv_nsec = jitter(SHORT_SLEEP_NS, &seed);
		nanosleep(&nap, NULL);
		spin_until(now_ns() + SHORT_RUN_NS);
	}
}

enum body { HOG, WAKEE, WAKER, SLEEPING_WAKER, FORKER, SHORT_SLEEPER };

/* Fork a task named @name on @cpu with @policy, @nice, @slice doing @body. */
static void spawn(const char *name, int cpu, int policy, int nice, unsigned long long slice,
		  enum body body, long long period)
{
	pid_t pid = fork();

	if (pid < 0)
		fail("fork");
	if (pid) {
		kids[nkids++] = pid;
		return;
	}
	prctl(PR_SET_NAME, name);
	prctl(PR_SET_PDEATHSIG, SIGKILL);
	pin(cpu);
	set_attr(policy, nice, slice);
	atomic_fetch_add(&sh->ready, 1);
	switch (body) {
	case HOG: hog(); break;
	case WAKEE: wakee(); break;
	case WAKER: waker(period, 0, 0); break;
	case SLEEPING_WAKER: waker(period, 0, 1); break;
	case FORKER: waker(period, 1, 0); break;
	case SHORT_SLEEPER: short_sleeper(); break;
	}
	_exit(0);
}

/* The function-call interrupts @cpu took so far (/proc/interrupts), or -1. */
static long long cal_count(int cpu)
{
	char *line = NULL, *p, *e;
	long long v = -1, col;
	size_t cap = 0;
	int i, n = 0;
	FILE *f = fopen("/proc/interrupts", "r");
	int cols[1024];

	if (!f)
		return -1;
	/* The header names the columns: CPU0 CPU1 ... (online CPUs only). */
	if (getline(&line, &cap, f) > 0)
		for (p = line; (p = strstr(p, "CPU")) && n < 1024; p += 3)
			cols[n++] = atoi(p + 3);
	while (getline(&line, &cap, f) > 0) {
		p = line + strspn(line, " ");
		if (strncmp(p, "CAL:", 4))
			continue;
		p += 4;
		for (i = 0; i < n; i++) {
			col = strtoll(p, &e, 10);
			if (e == p)
				break;
			p = e;
			if (cols[i] == cpu)
				v = col;
		}
		break;
	}
	free(line);
	fclose(f);
	return v;
}

static void usage(FILE *f)
{
	fprintf(f, "usage: invload --scenario S --cpu X --away Y --hz HZ [--duration MS]\n"
		   "  S: equal short short-wake repick custom wakee batch idle fork remote\n"
		   "  X: the CPU of the scenario; Y: another CPU of its LLC (remote's waker)\n"
		   "  --hz        the kernel's HZ (repick sets base_slice to a fifth of a tick)\n"
		   "  --duration  milliseconds (default 300)\n");
}

static long number(const char *opt, const char *s, long min)
{
	char *e;
	long v;

	errno = 0;
	v = strtol(s, &e, 10);
	if (errno || e == s || *e || v < min) {
		fprintf(stderr, "invload: error: %s takes a whole number >= %ld, not '%s' (see --help)\n",
			opt, min, s);
		exit(2);
	}
	return v;
}

int main(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "scenario", required_argument, NULL, 's' }, { "cpu", required_argument, NULL, 'c' },
		{ "away", required_argument, NULL, 'a' }, { "hz", required_argument, NULL, 'z' },
		{ "duration", required_argument, NULL, 'd' }, { "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	const char *scen = NULL;
	long cpu = -1, away = -1, hz = 0, ms = 300;
	long long slice, want, cal0, cal1;
	struct timespec t;
	int o;

	opterr = 0;
	while ((o = getopt_long(argc, argv, "", opts, NULL)) != -1) {
		switch (o) {
		case 's': scen = optarg; break;
		case 'c': cpu = number("--cpu", optarg, 0); break;
		case 'a': away = number("--away", optarg, 0); break;
		case 'z': hz = number("--hz", optarg, 1); break;
		case 'd': ms = number("--duration", optarg, 1); break;
		case 'h': usage(stdout); return 0;
		default:
			fprintf(stderr, "invload: error: unknown option or missing value '%s' (see --help)\n",
				argv[optind - 1]);
			return 2;
		}
	}
	if (!scen || cpu < 0 || away < 0 || !hz || optind != argc) {
		fprintf(stderr, "invload: error: --scenario, --cpu, --away and --hz are needed (see --help)\n");
		return 2;
	}
	sh = mmap(NULL, sizeof(*sh), PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	if (sh == MAP_FAILED)
		fail("mmap");
	efd = eventfd(0, 0);
	if (efd < 0)
		fail("eventfd");
	atexit(cleanup);
	signal(SIGINT, on_signal);
	signal(SIGTERM, on_signal);
	signal(SIGHUP, on_signal);
	pin(away);
	slice = read_slice();
	if (slice <= 0)
		fail("reading " BASE_SLICE);

	if (!strcmp(scen, "equal")) {
		spawn("inv-hogA", cpu, SCHED_OTHER, 0, 0, HOG, 0);
		spawn("inv-hogB", cpu, SCHED_OTHER, 0, 0, HOG, 0);
	} else if (!strcmp(scen, "short")) {
		spawn("inv-hogA", cpu, SCHED_OTHER, 0, 0, HOG, 0);
		spawn("inv-short", cpu, SCHED_OTHER, 0, SHORT_SLICE_NS, HOG, 0);
	} else if (!strcmp(scen, "short-wake")) {
		spawn("inv-hogA", cpu, SCHED_OTHER, 0, 0, HOG, 0);
		spawn("inv-short", cpu, SCHED_OTHER, 0, SHORT_SLICE_NS, SHORT_SLEEPER, 0);
	} else if (!strcmp(scen, "repick")) {
		want = 1000000000LL / hz / 5;
		if (want < 100000)
			want = 100000;
		saved_slice = slice;
		if (write_slice(want))
			fail("writing " BASE_SLICE);
		spawn("inv-hogA", cpu, SCHED_OTHER, -5, 0, HOG, 0);
		spawn("inv-hogB", cpu, SCHED_OTHER, 0, 0, HOG, 0);
	} else if (!strcmp(scen, "custom")) {
		spawn("inv-hogA", cpu, SCHED_OTHER, 0, 2 * slice, HOG, 0);
		spawn("inv-hogB", cpu, SCHED_OTHER, 0, 2 * slice, HOG, 0);
	} else if (!strcmp(scen, "wakee") || !strcmp(scen, "batch") || !strcmp(scen, "idle")) {
		int policy = scen[0] == 'w' ? SCHED_OTHER : scen[0] == 'b' ? SCHED_BATCH : SCHED_IDLE;

		spawn("inv-wakee", cpu, policy, 0, 0, WAKEE, 0);
		spawn("inv-hogA", cpu, SCHED_OTHER, 0, 0, WAKER, WAKE_PERIOD_NS);
	} else if (!strcmp(scen, "fork")) {
		spawn("inv-hogA", cpu, SCHED_OTHER, 0, 0, FORKER, WAKE_PERIOD_NS);
	} else if (!strcmp(scen, "remote")) {
		spawn("inv-hogA", cpu, SCHED_OTHER, 0, 0, HOG, 0);
		spawn("inv-hogB", cpu, SCHED_OTHER, 0, 0, HOG, 0);
		spawn("inv-wakee", cpu, SCHED_OTHER, 0, 0, WAKEE, 0);
		spawn("inv-waker", away, SCHED_OTHER, 0, 0, SLEEPING_WAKER, REMOTE_PERIOD_NS);
	} else {
		fprintf(stderr, "invload: error: no scenario '%s' (see --help)\n", scen);
		return 2;
	}
	while (atomic_load(&sh->ready) < nkids)
		usleep(1000);
	cal0 = cal_count(cpu);
	t.tv_sec = ms / 1000;
	t.tv_nsec = ms % 1000 * 1000000L;
	nanosleep(&t, NULL);
	cal1 = cal_count(cpu);
	cleanup();
	printf("invload: %s on cpu%ld (away cpu%ld), HZ=%ld, base_slice %lld ns%s, %ld ms\n",
	       scen, cpu, away, hz, slice, saved_slice > 0 ? " (set to a fifth of a tick)" : "",
	       ms);
	printf("cal %lld\n", cal0 < 0 || cal1 < 0 ? -1 : cal1 - cal0);
	return 0;
}
