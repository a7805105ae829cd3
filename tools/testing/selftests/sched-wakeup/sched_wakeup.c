// SPDX-License-Identifier: GPL-2.0
/*
 * Helpers shared by the sched-wakeup selftests.
 *
 * The tests flip global knobs and make scratch cgroups and child processes.
 * The knobs' state at program start is saved by a constructor in the
 * top-level process; what a test creates is listed in a shared page that
 * every process of the program sees. Every test's teardown, an atexit()
 * handler and SIGINT/SIGTERM/SIGHUP/SIGQUIT handlers (inherited by the
 * harness' forked test processes) undo both. A test process runs in a
 * process group of its own, which a Ctrl-C or a kill of the top-level
 * process does not reach: a watcher thread in it, asleep on a pidfd of the
 * top-level process, undoes and ends it once that process is gone. A test
 * the harness kills on timeout cannot clean up; its children die with it
 * (PR_SET_PDEATHSIG) and the top-level process removes its cgroups.
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
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/vfs.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#ifndef CGROUP2_SUPER_MAGIC
#define CGROUP2_SUPER_MAGIC	0x63677270
#endif

#define SW_MAX_CG	32
#define SW_MAX_CHILD	32

/*
 * The knobs sw_sysctl_set() may write, saved at start; those written are
 * restored at exit, in this order: tunable_scaling after base_slice_ns,
 * since writing it recomputes the kernel's unscaled base slice from the
 * base slice then in place.
 */
static const char *const knob_paths[] = {
	SW_SCHEDSTATS, SW_TIMER_MIGR, SW_BASE_SLICE, SW_AUTOGROUP, SW_SCALING,
};

static long knob_saved[ARRAY_SIZE(knob_paths)];
static char saved_features[4096];
static char line_buf[4096];
static pid_t top_pid;

/* What tests created, in a page all processes of the program share. */
static struct sw_shared {
	char base[64];			/* the program's cgroup directory */
	int nr_cg;
	char cg[SW_MAX_CG][128];	/* absolute paths, in creation order */
	bool root_cpu;			/* we enabled +cpu in the root */
	pid_t child[SW_MAX_CHILD];
	pid_t parent[SW_MAX_CHILD];	/* who may reap child[i] */
	bool knob_written[ARRAY_SIZE(knob_paths)];
} *shared;

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

/* Async-signal-safe decimal formatting. */
static void fmt_long(char *buf, long v)
{
	char tmp[24];
	int i = 0, j = 0;
	unsigned long u = v < 0 ? -(unsigned long)v : (unsigned long)v;

	do {
		tmp[i++] = '0' + u % 10;
		u /= 10;
	} while (u);
	if (v < 0)
		buf[j++] = '-';
	while (i)
		buf[j++] = tmp[--i];
	buf[j] = '\0';
}

static void nap_ms(int ms)
{
	struct timespec ts = { .tv_nsec = ms * 1000000L };

	nanosleep(&ts, NULL);
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

int sw_feature_get(const char *name)
{
	return feature_state(sw_features_line(), name);
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
	unsigned int i;
	char buf[32];

	for (i = 0; i < ARRAY_SIZE(knob_paths); i++)
		if (!strcmp(path, knob_paths[i]))
			break;
	if (i == ARRAY_SIZE(knob_paths) || knob_saved[i] < 0) {
		fprintf(stderr, "# %s is not a knob saved at start: not written\n", path);
		return -1;
	}
	snprintf(buf, sizeof(buf), "%ld", val);
	shared->knob_written[i] = true;
	if (write_str(path, buf) || sw_sysctl_get(path) != val) {
		fprintf(stderr, "# could not set %s to %ld\n", path, val);
		return -1;
	}
	return 0;
}

static void sw_child_add(pid_t pid)
{
	int i;

	for (i = 0; i < SW_MAX_CHILD; i++) {
		/* Free, or left by a test process that was killed. */
		if (!shared->child[i] || kill(shared->parent[i], 0)) {
			shared->parent[i] = getpid();
			shared->child[i] = pid;
			return;
		}
	}
}

pid_t sw_fork(bool track)
{
	static const int sigs[] = { SIGINT, SIGTERM, SIGHUP, SIGQUIT };
	pid_t parent = getpid(), pid;
	unsigned int i;

	pid = fork();
	if (pid > 0 && track)
		sw_child_add(pid);
	if (pid)
		return pid;
	/* The child: none of the parent's restore duties, and no orphan. */
	for (i = 0; i < ARRAY_SIZE(sigs); i++)
		signal(sigs[i], SIG_DFL);
	prctl(PR_SET_PDEATHSIG, SIGKILL);
	if (getppid() != parent)
		_exit(1);
	return 0;
}

/* Kill and reap the children this process registered. Async-signal-safe. */
void sw_children_kill(void)
{
	pid_t me = getpid();
	int i;

	if (!shared)
		return;
	for (i = 0; i < SW_MAX_CHILD; i++)
		if (shared->child[i] > 0 && shared->parent[i] == me)
			kill(shared->child[i], SIGKILL);
	for (i = 0; i < SW_MAX_CHILD; i++) {
		if (shared->child[i] > 0 && shared->parent[i] == me) {
			waitpid(shared->child[i], NULL, 0);
			shared->child[i] = 0;
		}
	}
}

/*
 * Remove the scratch cgroups, newest first. Their tasks are killed or dying
 * (PR_SET_PDEATHSIG), so a busy cgroup is retried for up to two seconds.
 * Async-signal-safe.
 */
static void cg_remove_all(void)
{
	char path[160];
	int i, tries;

	if (!shared)
		return;
	for (i = shared->nr_cg - 1; i >= 0; i--) {
		for (tries = 0; tries < 200; tries++) {
			if (!rmdir(shared->cg[i]) || errno == ENOENT)
				break;
			nap_ms(10);
		}
	}
	shared->nr_cg = 0;
	if (shared->root_cpu) {
		snprintf(path, sizeof(path), "%s/cgroup.subtree_control", SW_CGROOT);
		if (!write_str(path, "-cpu"))
			shared->root_cpu = false;
	}
}

void sw_restore(void)
{
	char buf[4096], cur[4096], num[32], *tok, *save;
	unsigned int i;

	sw_children_kill();
	cg_remove_all();
	if (saved_features[0] && read_file(SW_FEATURES, cur, sizeof(cur)) >= 0 &&
	    strcmp(cur, saved_features)) {
		memcpy(buf, saved_features, sizeof(buf));
		for (tok = strtok_r(buf, " ", &save); tok; tok = strtok_r(NULL, " ", &save))
			if (!has_word(cur, tok))
				write_str(SW_FEATURES, tok);
	}
	for (i = 0; i < ARRAY_SIZE(knob_paths); i++) {
		if (knob_saved[i] < 0 || !shared->knob_written[i])
			continue;
		fmt_long(num, knob_saved[i]);
		write_str(knob_paths[i], num);
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
	shared = mmap(NULL, sizeof(*shared), PROT_READ | PROT_WRITE,
		      MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	if (shared == MAP_FAILED) {
		perror("# mmap");
		exit(KSFT_FAIL);
	}
	memset(shared, 0, sizeof(*shared));
	snprintf(shared->base, sizeof(shared->base), "%s/sched-wakeup-%d", SW_CGROOT, top_pid);
	if (read_file(SW_FEATURES, saved_features, sizeof(saved_features)) < 0)
		saved_features[0] = '\0';
	for (i = 0; i < ARRAY_SIZE(knob_paths); i++)
		knob_saved[i] = sw_sysctl_get(knob_paths[i]);
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

	/*
	 * In a test process: restore and end when the top-level one is gone,
	 * also when it went before this test started (killed while the
	 * harness forked it).
	 */
	if (getpid() != top_pid) {
		fd = syscall(SYS_pidfd_open, top_pid, 0);
		if (fd < 0 && errno == ESRCH) {
			sw_restore();
			_exit(1);
		}
		if (fd >= 0 && !pthread_create(&t, NULL, watch_top, (void *)fd))
			pthread_detach(t);
	}
	if (geteuid())
		return "must run as root (writes sched features)";
	if (access(SW_FEATURES, W_OK))
		return "no writable " SW_FEATURES
		       " (debugfs mounted? CONFIG_DEBUG_FS? before 6.15 CONFIG_SCHED_DEBUG?)";
	if (access(SW_SCHEDSTATS, W_OK))
		return "no " SW_SCHEDSTATS " (CONFIG_SCHEDSTATS?)";
	line = sw_features_line();
	for (; *flags; flags++) {
		if (feature_state(line, *flags) < 0) {
			snprintf(why, sizeof(why),
				 "sched feature %s missing: a kernel without the patch that adds it",
				 *flags);
			return why;
		}
	}
	return NULL;
}

bool sw_preflight(void)
{
	const char *v = getenv("SW_PREFLIGHT");

	return v && !strcmp(v, "1");
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
		for (; a <= b && a < CPU_SETSIZE; a++)
			CPU_SET(a, set);
		if (*s == ',')
			s++;
		else
			break;
	}
	return 0;
}

int sw_online(cpu_set_t *set)
{
	char buf[1024];

	if (read_file("/sys/devices/system/cpu/online", buf, sizeof(buf)) < 0 ||
	    parse_cpulist(buf, set))
		return -1;
	return 0;
}

int sw_nr_cpus(void)
{
	cpu_set_t set;

	return sw_online(&set) ? -1 : CPU_COUNT(&set);
}

int sw_last_cpu(void)
{
	cpu_set_t set;
	int cpu;

	if (sw_online(&set))
		return -1;
	for (cpu = CPU_SETSIZE - 1; cpu >= 0; cpu--)
		if (CPU_ISSET(cpu, &set))
			return cpu;
	return -1;
}

/*
 * The highest sched domain of @cpu that shares its last-level cache
 * (SD_SHARE_LLC; SD_SHARE_PKG_RESOURCES before v6.10), or -1 where none
 * does: an LLC of that CPU alone, or no domains at all.
 */
static int llc_level(int cpu)
{
	char path[96], buf[1024];
	int lvl, found = -1;

	for (lvl = 0; ; lvl++) {
		snprintf(path, sizeof(path), "/sys/kernel/debug/sched/domains/cpu%d/domain%d/flags",
			 cpu, lvl);
		if (read_file(path, buf, sizeof(buf)) < 0)
			return found;
		if (strstr(buf, "SD_SHARE_LLC") || strstr(buf, "SD_SHARE_PKG_RESOURCES"))
			found = lvl;
	}
}

/*
 * debugfs lists the sched domains only while sched/verbose is on (v5.13
 * on): the readers below switch it on for their reading and back.
 */
#define SW_VERBOSE	"/sys/kernel/debug/sched/verbose"

static int verbose_on(bool *was_off)
{
	char was[8] = "";

	*was_off = read_file(SW_VERBOSE, was, sizeof(was)) >= 0 && was[0] == 'N';
	return *was_off ? write_str(SW_VERBOSE, "Y") : 0;
}

static int verbose_back(bool was_off)
{
	return was_off ? write_str(SW_VERBOSE, "N") : 0;
}

static bool domains_have(const char *flag)
{
	char path[96], buf[1024];
	int cpu, lvl;

	for (cpu = 0; cpu < CPU_SETSIZE; cpu++)
		for (lvl = 0; ; lvl++) {
			snprintf(path, sizeof(path),
				 "/sys/kernel/debug/sched/domains/cpu%d/domain%d/flags", cpu, lvl);
			if (read_file(path, buf, sizeof(buf)) < 0)
				break;
			if (strstr(buf, flag))
				return true;
		}
	return false;
}

/* A cpumask as /proc/schedstat prints it ("00000000,000000ff"). */
static int parse_cpumask(const char *s, cpu_set_t *set)
{
	int len = strlen(s), bit = 0, i, b, v;

	CPU_ZERO(set);
	for (i = len - 1; i >= 0; i--) {
		if (s[i] == ',')
			continue;
		if (s[i] >= '0' && s[i] <= '9')
			v = s[i] - '0';
		else if (s[i] >= 'a' && s[i] <= 'f')
			v = s[i] - 'a' + 10;
		else
			return -1;
		for (b = 0; b < 4; b++, bit++)
			if ((v & (1 << b)) && bit < CPU_SETSIZE)
				CPU_SET(bit, set);
	}
	return 0;
}

/*
 * The LLC of every online CPU as the scheduler sees it: the span of the
 * domain llc_level() names, from that CPU's domain line in /proc/schedstat
 * ("domainN MASK", or "domainN NAME MASK" from version 17).
 */
static int read_llc_spans(const cpu_set_t *online, cpu_set_t *span)
{
	char line[4096], tok[3][256];
	int want[CPU_SETSIZE];
	int cpu = -1, lvl, ver = 0, n;
	FILE *f;

	for (cpu = 0; cpu < CPU_SETSIZE; cpu++) {
		want[cpu] = CPU_ISSET(cpu, online) ? llc_level(cpu) : -1;
		CPU_ZERO(&span[cpu]);
		if (want[cpu] < 0 && CPU_ISSET(cpu, online))
			CPU_SET(cpu, &span[cpu]);
	}
	f = fopen("/proc/schedstat", "r");
	if (!f)
		return -1;
	cpu = -1;
	while (fgets(line, sizeof(line), f)) {
		n = sscanf(line, "%255s %255s %255s", tok[0], tok[1], tok[2]);
		if (n >= 2 && !strcmp(tok[0], "version")) {
			ver = atoi(tok[1]);
			continue;
		}
		if (n >= 1 && sscanf(tok[0], "cpu%d", &cpu) == 1)
			continue;
		if (n < 3 || sscanf(tok[0], "domain%d", &lvl) != 1 ||
		    cpu < 0 || cpu >= CPU_SETSIZE || lvl != want[cpu])
			continue;
		if (parse_cpumask(tok[ver >= 17 ? 2 : 1], &span[cpu])) {
			fclose(f);
			return -1;
		}
	}
	fclose(f);
	for (cpu = 0; cpu < CPU_SETSIZE; cpu++)
		if (CPU_ISSET(cpu, online) && !CPU_COUNT(&span[cpu]))
			return -1;	/* no domain line where one was wanted */
	return 0;
}

static int sched_llc_spans(const cpu_set_t *online, cpu_set_t *span)
{
	bool was_off;
	int ret;

	if (verbose_on(&was_off))
		return -1;
	ret = read_llc_spans(online, span);
	if (verbose_back(was_off))
		ret = -1;
	return ret;
}

bool sw_domains_have(const char *flag)
{
	bool was_off, ret;

	if (verbose_on(&was_off))
		return false;
	ret = domains_have(flag);
	verbose_back(was_off);
	return ret;
}

int sw_llcs(struct sw_llc *llcs, int max)
{
	static cpu_set_t span[CPU_SETSIZE];
	cpu_set_t online, set;
	int cpu, i, nr = 0;

	if (sw_online(&online) || sched_llc_spans(&online, span))
		return -1;
	for (cpu = 0; cpu < CPU_SETSIZE; cpu++) {
		if (!CPU_ISSET(cpu, &online))
			continue;
		CPU_AND(&set, &span[cpu], &online);
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

int sw_node_cpus(int node, cpu_set_t *set)
{
	char path[96], buf[1024];
	cpu_set_t online;

	snprintf(path, sizeof(path), "/sys/devices/system/node/node%d/cpulist", node);
	if (read_file(path, buf, sizeof(buf)) < 0) {
		/* No NUMA: node 0 is every online CPU. */
		if (node)
			return -1;
		return sw_online(set);
	}
	if (parse_cpulist(buf, set) || sw_online(&online))
		return -1;
	CPU_AND(set, set, &online);
	return 0;
}

int sw_node_of(int cpu)
{
	cpu_set_t set;
	int n;

	for (n = 0; n < 1024; n++) {
		if (sw_node_cpus(n, &set))
			break;
		if (CPU_ISSET(cpu, &set))
			return n;
	}
	return 0;
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

int sw_allow_set(pid_t tid, const cpu_set_t *set)
{
	return sched_setaffinity(tid, sizeof(*set), set);
}

bool sw_preempt_rt(void)
{
	return sw_sysctl_get("/sys/kernel/realtime") == 1;
}

/* jiffies, from the header of the sched debug file (the first lines). */
static long long read_jiffies(void)
{
	char buf[4096], *p;
	long long j;
	ssize_t n;
	int fd;

	fd = open("/sys/kernel/debug/sched/debug", O_RDONLY);
	if (fd < 0)
		return -1;
	n = read(fd, buf, sizeof(buf) - 1);
	close(fd);
	if (n <= 0)
		return -1;
	buf[n] = '\0';
	p = strstr(buf, "\njiffies");
	if (!p || sscanf(p + 1, "jiffies%*[ ]: %lld", &j) != 1)
		return -1;
	return j;
}

long long sw_timer_irqs(int cpu)
{
	char want[16], tok[32], *line = NULL;
	long long count = -1, v;
	size_t cap = 0;
	int col = -1, i, off, n;
	FILE *f;

	f = fopen("/proc/interrupts", "r");
	if (!f)
		return -1;
	snprintf(want, sizeof(want), "CPU%d", cpu);
	/* The header names the columns: online CPUs only, in order. */
	if (getline(&line, &cap, f) > 0)
		for (i = 0, off = 0; sscanf(line + off, "%31s%n", tok, &n) == 1; i++, off += n)
			if (!strcmp(tok, want))
				col = i;
	while (col >= 0 && getline(&line, &cap, f) > 0) {
		if (sscanf(line, " %31s%n", tok, &off) != 1 || strcmp(tok, "LOC:"))
			continue;
		for (i = 0; i <= col && sscanf(line + off, "%lld%n", &v, &n) == 1; i++, off += n)
			if (i == col)
				count = v;
		break;
	}
	free(line);
	fclose(f);
	return count;
}

long sw_hz(int ms)
{
	static const long known[] = { 24, 48, 100, 128, 200, 250, 256, 300, 500, 1000, 1024 };
	long long t0, t1, j0, j1;
	double hz;
	unsigned int i;

	t0 = sw_now_ns();
	j0 = read_jiffies();
	t0 = (t0 + sw_now_ns()) / 2;
	usleep(ms * 1000);
	t1 = sw_now_ns();
	j1 = read_jiffies();
	t1 = (t1 + sw_now_ns()) / 2;
	if (j0 < 0 || j1 <= j0)
		return -1;
	hz = (j1 - j0) * 1e9 / (t1 - t0);
	for (i = 0; i < ARRAY_SIZE(known); i++)
		if (hz > known[i] * 0.98 && hz < known[i] * 1.02)
			return known[i];
	return (long)(hz + 0.5);
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

char sw_task_state(pid_t tid)
{
	char path[64], buf[512], *p;

	snprintf(path, sizeof(path), "/proc/%d/stat", tid);
	if (read_file(path, buf, sizeof(buf)) <= 0)
		return 0;
	p = strrchr(buf, ')');
	return p && p[1] == ' ' ? p[2] : 0;
}

long long sw_task_runtime(pid_t tid)
{
	char path[64], buf[128];

	snprintf(path, sizeof(path), "/proc/%d/schedstat", tid);
	if (read_file(path, buf, sizeof(buf)) <= 0)
		return -1;
	return strtoll(buf, NULL, 10);
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

const char *sw_cg_usable(void)
{
	char buf[256];
	struct statfs fs;

	if (statfs(SW_CGROOT, &fs) || fs.f_type != CGROUP2_SUPER_MAGIC)
		return "no cgroup v2 hierarchy at " SW_CGROOT;
	if (read_file(SW_CGROOT "/cgroup.controllers", buf, sizeof(buf)) < 0 ||
	    !has_word(buf, "cpu"))
		return "the cpu controller is not available in " SW_CGROOT
		       " (CONFIG_FAIR_GROUP_SCHED? bound to cgroup v1?)";
	return NULL;
}

/* Enable the cpu controller for the children of @dir. */
static int cg_enable_cpu(const char *dir)
{
	char path[192], buf[256];

	snprintf(path, sizeof(path), "%s/cgroup.subtree_control", dir);
	if (read_file(path, buf, sizeof(buf)) >= 0 && has_word(buf, "cpu"))
		return 0;
	if (write_str(path, "+cpu")) {
		fprintf(stderr, "# cannot enable the cpu controller in %s: %s\n", dir,
			strerror(errno));
		return -1;
	}
	if (!strcmp(dir, SW_CGROOT))
		shared->root_cpu = true;
	return 0;
}

int sw_cg_make(const char *rel, int weight)
{
	char dir[128], path[160], num[16];
	const char *p = rel;
	int i;

	if (cg_enable_cpu(SW_CGROOT))
		return SW_CG_NO_CPU;
	snprintf(dir, sizeof(dir), "%s", shared->base);
	/* The program's directory, then each component of @rel. */
	for (;;) {
		for (i = 0; i < shared->nr_cg; i++)
			if (!strcmp(shared->cg[i], dir))
				break;
		if (i == shared->nr_cg) {
			if (shared->nr_cg == SW_MAX_CG || (mkdir(dir, 0755) && errno != EEXIST)) {
				fprintf(stderr, "# cannot create cgroup %s: %s\n", dir,
					strerror(errno));
				return -1;
			}
			snprintf(shared->cg[shared->nr_cg++], sizeof(shared->cg[0]), "%s", dir);
		}
		if (!*p)
			break;
		if (cg_enable_cpu(dir))
			return SW_CG_NO_CPU;
		i = strlen(dir);
		dir[i++] = '/';
		while (*p && *p != '/' && i < (int)sizeof(dir) - 1)
			dir[i++] = *p++;
		dir[i] = '\0';
		if (*p == '/')
			p++;
	}
	if (weight) {
		snprintf(path, sizeof(path), "%s/cpu.weight", dir);
		snprintf(num, sizeof(num), "%d", weight);
		if (write_str(path, num)) {
			fprintf(stderr, "# cannot set %s to %d: %s\n", path, weight,
				strerror(errno));
			return -1;
		}
	}
	return 0;
}

const char *sw_cg_base(void)
{
	return shared->base;
}

int sw_cg_enter(const char *rel, pid_t pid)
{
	char path[192], num[16];

	if (*rel)
		snprintf(path, sizeof(path), "%s/%s/cgroup.procs", shared->base, rel);
	else
		snprintf(path, sizeof(path), "%s/cgroup.procs", SW_CGROOT);
	snprintf(num, sizeof(num), "%d", pid);
	if (write_str(path, num)) {
		fprintf(stderr, "# cannot move %d into %s: %s\n", pid, path, strerror(errno));
		return -1;
	}
	return 0;
}
