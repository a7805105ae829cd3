// SPDX-License-Identifier: GPL-2.0
/*
 * Helpers shared by the sched-wakeup selftests.
 *
 * The tests flip global knobs. The state at program start is saved by a
 * constructor in the top-level process and written back by every test's
 * teardown, by an atexit() handler, and by SIGINT/SIGTERM/SIGHUP/SIGQUIT
 * handlers, which the harness' forked test processes inherit. A test
 * process runs in a process group of its own, which a Ctrl-C or a kill of
 * the top-level process does not reach, two forks below the top-level one:
 * a watcher thread in it, asleep on a pidfd of the top-level process,
 * restores and ends it once that process is gone. So an interrupted run,
 * or a test the harness kills on timeout, leaves nothing changed.
 */
#include "sched_wakeup.h"
#include "../kselftest.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

static char saved_features[4096];
static long saved_schedstats = -1, saved_timer_migr = -1;
static char line_buf[4096];
static pid_t top_pid;

pid_t sw_gettid(void)
{
	return syscall(SYS_gettid);
}

long long sw_now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1000000000LL + ts.tv_nsec;
}

void sw_spin_ns(long long ns)
{
	long long end = sw_now_ns() + ns;

	while (sw_now_ns() < end)
		;
}

static ssize_t read_file(const char *path, char *buf, size_t len)
{
	ssize_t n;
	int fd;

	fd = open(path, O_RDONLY);
	if (fd < 0)
		return -1;
	n = read(fd, buf, len - 1);
	close(fd);
	if (n < 0)
		return -1;
	buf[n] = '\0';
	while (n > 0 && buf[n - 1] == '\n')
		buf[--n] = '\0';
	return n;
}

/* Async-signal-safe: only open/write/close. */
static int write_str(const char *path, const char *s)
{
	ssize_t n;
	int fd;

	fd = open(path, O_WRONLY);
	if (fd < 0)
		return -1;
	n = write(fd, s, strlen(s));
	close(fd);
	return n == (ssize_t)strlen(s) ? 0 : -1;
}

const char *sw_features_line(void)
{
	if (read_file(SW_FEATURES, line_buf, sizeof(line_buf)) < 0)
		snprintf(line_buf, sizeof(line_buf), "(unreadable: %s)", strerror(errno));
	return line_buf;
}

/* Is the word @w, exactly, in the space-separated @line? */
static bool has_word(const char *line, const char *w)
{
	size_t l = strlen(w);
	const char *p = line;

	while ((p = strstr(p, w))) {
		if ((p == line || p[-1] == ' ') && (p[l] == ' ' || p[l] == '\0'))
			return true;
		p += l;
	}
	return false;
}

static int feature_state(const char *line, const char *name)
{
	char no[128];

	snprintf(no, sizeof(no), "NO_%s", name);
	if (has_word(line, no))
		return 0;
	if (has_word(line, name))
		return 1;
	return -1;
}

int sw_feature_set(const char *name, bool on)
{
	char tok[128];
	int st;

	snprintf(tok, sizeof(tok), "%s%s", on ? "" : "NO_", name);
	if (write_str(SW_FEATURES, tok)) {
		fprintf(stderr, "# writing %s to %s failed: %s\n", tok, SW_FEATURES,
			strerror(errno));
		return -1;
	}
	st = feature_state(sw_features_line(), name);
	if (st != on) {
		fprintf(stderr, "# wrote %s but %s reads back %s\n", tok, SW_FEATURES,
			st < 0 ? "without the flag" : st ? name : "NO_...");
		return -1;
	}
	return 0;
}

long sw_sysctl_get(const char *path)
{
	char buf[64];

	if (read_file(path, buf, sizeof(buf)) < 0)
		return -1;
	return strtol(buf, NULL, 10);
}

int sw_sysctl_set(const char *path, long val)
{
	char buf[32];

	snprintf(buf, sizeof(buf), "%ld", val);
	if (write_str(path, buf) || sw_sysctl_get(path) != val) {
		fprintf(stderr, "# could not set %s to %ld\n", path, val);
		return -1;
	}
	return 0;
}

void sw_restore(void)
{
	char buf[4096], cur[4096], *tok, *save;
	char num[32];

	if (saved_features[0] && read_file(SW_FEATURES, cur, sizeof(cur)) >= 0 &&
	    strcmp(cur, saved_features)) {
		memcpy(buf, saved_features, sizeof(buf));
		for (tok = strtok_r(buf, " ", &save); tok; tok = strtok_r(NULL, " ", &save))
			if (!has_word(cur, tok))
				write_str(SW_FEATURES, tok);
	}
	if (saved_schedstats >= 0) {
		snprintf(num, sizeof(num), "%ld", saved_schedstats);
		write_str(SW_SCHEDSTATS, num);
	}
	if (saved_timer_migr >= 0) {
		snprintf(num, sizeof(num), "%ld", saved_timer_migr);
		write_str(SW_TIMER_MIGR, num);
	}
}

static void restore_on_signal(int sig)
{
	sw_restore();
	signal(sig, SIG_DFL);
	raise(sig);
}

__attribute__((constructor)) static void sw_guard(void)
{
	static const int sigs[] = { SIGINT, SIGTERM, SIGHUP, SIGQUIT };
	struct sigaction sa = { .sa_handler = restore_on_signal };
	unsigned int i;

	top_pid = getpid();
	if (read_file(SW_FEATURES, saved_features, sizeof(saved_features)) < 0)
		saved_features[0] = '\0';
	saved_schedstats = sw_sysctl_get(SW_SCHEDSTATS);
	saved_timer_migr = sw_sysctl_get(SW_TIMER_MIGR);
	atexit(sw_restore);
	sigemptyset(&sa.sa_mask);
	for (i = 0; i < ARRAY_SIZE(sigs); i++)
		sigaction(sigs[i], &sa, NULL);
}

/*
 * Blocks until the top-level process has exited (its pidfd turns readable),
 * then restores and ends this test process. Sleeping in poll(), it never
 * wakes up before that, so it cannot disturb a placement under test.
 */
static void *watch_top(void *arg)
{
	struct pollfd pfd = { .fd = (int)(long)arg, .events = POLLIN };

	while (poll(&pfd, 1, -1) < 0 && errno == EINTR)
		;
	sw_restore();
	_exit(1);
	return NULL;
}

const char *sw_need(const char *const *flags)
{
	static char why[256];
	const char *line;
	pthread_t t;
	long fd;

	/* In a test process: restore and end when the top-level one is gone. */
	if (getpid() != top_pid) {
		fd = syscall(SYS_pidfd_open, top_pid, 0);
		if (fd >= 0 && !pthread_create(&t, NULL, watch_top, (void *)fd))
			pthread_detach(t);
	}
	if (geteuid())
		return "must run as root (writes sched features)";
	if (access(SW_FEATURES, W_OK))
		return "no writable " SW_FEATURES " (debugfs mounted? CONFIG_SCHED_DEBUG?)";
	if (access(SW_SCHEDSTATS, W_OK))
		return "no " SW_SCHEDSTATS " (CONFIG_SCHEDSTATS?)";
	line = sw_features_line();
	for (; *flags; flags++) {
		if (feature_state(line, *flags) < 0) {
			snprintf(why, sizeof(why),
				 "sched feature %s missing: kernel without the sched-wakeup series",
				 *flags);
			return why;
		}
	}
	return NULL;
}

int sw_nr_cpus(void)
{
	return sysconf(_SC_NPROCESSORS_ONLN);
}

static int parse_cpulist(const char *s, cpu_set_t *set)
{
	int a, b, n;

	CPU_ZERO(set);
	while (*s) {
		if (sscanf(s, "%d%n", &a, &n) != 1)
			return -1;
		s += n;
		b = a;
		if (*s == '-') {
			if (sscanf(s + 1, "%d%n", &b, &n) != 1)
				return -1;
			s += n + 1;
		}
		for (; a <= b; a++)
			CPU_SET(a, set);
		if (*s == ',')
			s++;
		else
			break;
	}
	return 0;
}

int sw_llcs(struct sw_llc *llcs, int max)
{
	char path[128], buf[1024];
	cpu_set_t online, set;
	int cpu, i, nr = 0;

	if (read_file("/sys/devices/system/cpu/online", buf, sizeof(buf)) < 0 ||
	    parse_cpulist(buf, &online))
		return -1;
	for (cpu = 0; cpu < CPU_SETSIZE; cpu++) {
		if (!CPU_ISSET(cpu, &online))
			continue;
		snprintf(path, sizeof(path),
			 "/sys/devices/system/cpu/cpu%d/cache/index3/shared_cpu_list", cpu);
		if (read_file(path, buf, sizeof(buf)) < 0 || parse_cpulist(buf, &set))
			return -1;
		CPU_AND(&set, &set, &online);
		for (i = 0; i < nr; i++)
			if (CPU_EQUAL(&set, &llcs[i].cpus))
				break;
		if (i < nr || nr == max)
			continue;
		llcs[nr].cpus = set;
		llcs[nr].nr = CPU_COUNT(&set);
		llcs[nr].first = cpu;
		nr++;
	}
	return nr;
}

int sw_llc_cpu(const struct sw_llc *llc, int nth)
{
	int cpu;

	for (cpu = 0; cpu < CPU_SETSIZE; cpu++)
		if (CPU_ISSET(cpu, &llc->cpus) && nth-- == 0)
			return cpu;
	return -1;
}

int sw_pin(pid_t tid, int cpu)
{
	cpu_set_t set;

	CPU_ZERO(&set);
	CPU_SET(cpu, &set);
	return sched_setaffinity(tid, sizeof(set), &set);
}

int sw_allow2(pid_t tid, int a, int b)
{
	cpu_set_t set;

	CPU_ZERO(&set);
	CPU_SET(a, &set);
	CPU_SET(b, &set);
	return sched_setaffinity(tid, sizeof(set), &set);
}

int sw_allow_all(pid_t tid)
{
	cpu_set_t set;
	int cpu;

	CPU_ZERO(&set);
	for (cpu = 0; cpu < sw_nr_cpus() && cpu < CPU_SETSIZE; cpu++)
		CPU_SET(cpu, &set);
	return sched_setaffinity(tid, sizeof(set), &set);
}

int sw_stats(pid_t tid, struct sw_stats *st)
{
	static const struct {
		const char *key;
		size_t off;
	} keys[] = {
		{ "nr_wakeups ", offsetof(struct sw_stats, nr_wakeups) },
		{ "nr_wakeups_affine_attempts ", offsetof(struct sw_stats, affine_attempts) },
		{ "nr_wakeups_affine ", offsetof(struct sw_stats, affine) },
		{ "se.nr_migrations ", offsetof(struct sw_stats, nr_migrations) },
		{ "nr_voluntary_switches ", offsetof(struct sw_stats, voluntary) },
		{ "nr_involuntary_switches ", offsetof(struct sw_stats, involuntary) },
	};
	char path[64], line[256], *v;
	unsigned int i;
	FILE *f;

	snprintf(path, sizeof(path), "/proc/%d/sched", tid ? tid : sw_gettid());
	f = fopen(path, "r");
	if (!f)
		return -1;
	memset(st, 0, sizeof(*st));
	while (fgets(line, sizeof(line), f)) {
		for (i = 0; i < ARRAY_SIZE(keys); i++) {
			if (strncmp(line, keys[i].key, strlen(keys[i].key)))
				continue;
			v = strchr(line, ':');
			if (v)
				*(long *)((char *)st + keys[i].off) = strtol(v + 1, NULL, 10);
		}
		/* Printed in ms with six decimals. */
		if (!strncmp(line, "se.sum_exec_runtime ", 20)) {
			v = strchr(line, ':');
			if (v)
				st->sum_exec_ns = strtod(v + 1, NULL) * 1e6;
		}
	}
	fclose(f);
	return 0;
}

int sw_cpu_util(long *util, int nr)
{
	char line[256];
	int cpu = -1, c;
	FILE *f;

	f = fopen("/sys/kernel/debug/sched/debug", "r");
	if (!f)
		return -1;
	while (fgets(line, sizeof(line), f)) {
		/* The root cfs_rq of each CPU is "cfs_rq[N]:/". */
		if (sscanf(line, "cfs_rq[%d]:", &c) == 1 && !strcmp(strchr(line, ':'), ":/\n"))
			cpu = c;
		else if (!strncmp(line, "cfs_rq[", 7))
			cpu = -1;
		else if (cpu >= 0 && cpu < nr && !strncmp(line, "  .util_avg ", 12))
			util[cpu] = strtol(strchr(line, ':') + 1, NULL, 10);
	}
	fclose(f);
	return 0;
}
