// SPDX-License-Identifier: GPL-2.0
/*
 * IDLEST_UTIL and IDLEST_UTIL_LOCAL: where sched_balance_find_dst_group()
 * places a forked child when groups tie on idle CPUs.
 *
 * idlest_util: three or more LLCs under one domain. The parent runs on
 * local LLC L0, whose other CPUs run spinners, so L0 has no idle CPU and
 * loses to any remote group. The first remote LLC in domain order (L1) and
 * the next one (L2) are fully idle - a tie - but a helper on L1 ran until
 * just before the fork and sleeps, so L1 carries its blocked utilization.
 * Flag on: the lower-utilized L2 wins. Flag off: the first one found, L1.
 *
 * idlest_util_local: L0 and every remote LLC have the same number of idle
 * CPUs (one spinner in each remote LLC; in L0 the parent itself), and L0 is
 * more utilized (the parent spins between forks; a helper in L0 ran until
 * just before the fork). Flag off: the tie stays local. Flag on: the child
 * goes to a remote LLC.
 *
 * A child that starts outside the groups the situation allows means the
 * situation did not hold; more than 10% of those fails the test.
 */
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <signal.h>
#include <stdatomic.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "../kselftest_harness.h"
#include "sched_wakeup.h"

#define TRIALS		30
#define BUSY_NS		60000000LL	/* helper: run 60 ms ... */
#define NAP_US		25000		/* ... then sleep 25 ms, forks happen here */
#define WARM_NS		300000000LL

static const char *const flags[] = { "IDLEST_UTIL", "IDLEST_UTIL_LOCAL", NULL };

struct spinner {
	pthread_t t;
	int cpu;
	bool cycle;		/* run, signal, nap: a recently busy, idle CPU */
	int sig;		/* write end: "napping now" */
	atomic_bool *stop;
	int err;
};

struct setup {
	struct sw_llc llc[SW_MAX_LLCS];
	int nr_llc;
	int p0;			/* the parent's CPU, first of L0 */
	struct spinner sp[SW_MAX_LLCS * 2];
	int nr_sp;
	int nap[2];
	atomic_bool stop;
	long util[CPU_SETSIZE];
};

static void *spin(void *arg)
{
	struct spinner *s = arg;

	if (sw_pin(0, s->cpu)) {
		s->err = errno;
		return NULL;
	}
	while (!atomic_load(s->stop)) {
		if (!s->cycle) {
			sw_spin_ns(1000000);
			continue;
		}
		sw_spin_ns(BUSY_NS);
		if (write(s->sig, "n", 1) != 1)
			break;
		usleep(NAP_US);
	}
	return NULL;
}

static int add_spinner(struct setup *s, int cpu, bool cycle)
{
	struct spinner *sp = &s->sp[s->nr_sp++];

	sp->cpu = cpu;
	sp->cycle = cycle;
	sp->sig = s->nap[1];
	sp->stop = &s->stop;
	return pthread_create(&sp->t, NULL, spin, sp);
}

static void stop_spinners(struct setup *s)
{
	int i;

	atomic_store(&s->stop, true);
	for (i = 0; i < s->nr_sp; i++)
		pthread_join(s->sp[i].t, NULL);
	s->nr_sp = 0;
}

static int llc_of(struct setup *s, int cpu)
{
	int i;

	for (i = 0; i < s->nr_llc; i++)
		if (CPU_ISSET(cpu, &s->llc[i].cpus))
			return i;
	return -1;
}

static int node_of(int cpu)
{
	char path[96];
	int n;

	for (n = 0; n < 64; n++) {
		snprintf(path, sizeof(path), "/sys/devices/system/cpu/cpu%d/node%d", cpu, n);
		if (!access(path, F_OK))
			return n;
	}
	return 0;
}

/*
 * The LLCs to use: the ones in the first CPU's NUMA node, at least @need of
 * them, each with at least 2 CPUs. Returns a skip reason or NULL.
 */
static const char *find_llcs(struct setup *s, int need)
{
	static char why[128];
	struct sw_llc all[SW_MAX_LLCS];
	int i, n, node;

	n = sw_llcs(all, SW_MAX_LLCS);
	if (n < 0)
		return "no LLC information in sysfs (cache/index3)";
	node = node_of(all[0].first);
	s->nr_llc = 0;
	for (i = 0; i < n; i++)
		if (all[i].nr >= 2 && node_of(all[i].first) == node)
			s->llc[s->nr_llc++] = all[i];
	if (s->nr_llc < need) {
		snprintf(why, sizeof(why),
			 "needs %d LLCs of >= 2 CPUs in one NUMA node, found %d (boot e.g. 6 CPUs = 3 sockets x 2)",
			 need, s->nr_llc);
		return why;
	}
	s->p0 = s->llc[0].first;
	return NULL;
}

/* Fork one child from p0; returns the CPU it started on. */
static int fork_one(struct setup *s)
{
	int p[2], cpu = -1;
	char x;
	pid_t pid;

	if (sched_getcpu() != s->p0 && (sw_pin(0, s->p0) || sw_allow_all(0)))
		return -1;
	/*
	 * Drop naps already signalled, then spin (staying busy on p0) until
	 * the helper starts a fresh one: its CPU is idle but recently busy.
	 */
	while (read(s->nap[0], &x, 1) == 1)
		;
	while (read(s->nap[0], &x, 1) != 1)
		;
	if (pipe(p))
		return -1;
	pid = fork();
	if (pid == 0) {
		cpu = sched_getcpu();
		_exit(write(p[1], &cpu, sizeof(cpu)) != sizeof(cpu));
	}
	close(p[1]);
	if (pid < 0 || read(p[0], &cpu, sizeof(cpu)) != sizeof(cpu))
		cpu = -1;
	close(p[0]);
	if (pid > 0)
		waitpid(pid, NULL, 0);
	return cpu;
}

static void log_util(struct __test_metadata *_metadata, struct setup *s)
{
	char buf[512];
	int i, cpu, len = 0;

	memset(s->util, 0, sizeof(s->util));
	if (sw_cpu_util(s->util, CPU_SETSIZE))
		return;
	for (i = 0; i < s->nr_llc && len < (int)sizeof(buf) - 32; i++) {
		len += snprintf(buf + len, sizeof(buf) - len, " L%d[", i);
		for (cpu = 0; cpu < CPU_SETSIZE; cpu++)
			if (CPU_ISSET(cpu, &s->llc[i].cpus))
				len += snprintf(buf + len, sizeof(buf) - len, " %d:%ld", cpu, s->util[cpu]);
		len += snprintf(buf + len, sizeof(buf) - len, " ]");
	}
	TH_LOG("util_avg per CPU at a nap:%s", buf);
}

/* ---------------------------------------------------------------- */

FIXTURE(idlest_util) {
	struct setup s;
};

FIXTURE_VARIANT(idlest_util) {
	bool on;
};

FIXTURE_VARIANT_ADD(idlest_util, on) {
	.on = true,
};

FIXTURE_VARIANT_ADD(idlest_util, off) {
	.on = false,
};

FIXTURE_SETUP(idlest_util)
{
	const char *why = sw_need(flags);
	struct setup *s = &self->s;
	int cpu;

	if (why)
		SKIP(return, "%s", why);
	memset(s, 0, sizeof(*s));
	why = find_llcs(s, 3);
	if (why)
		SKIP(return, "%s", why);
	ASSERT_EQ(0, pipe2(s->nap, O_NONBLOCK));
	ASSERT_EQ(0, sw_pin(0, s->p0));
	ASSERT_EQ(0, sw_feature_set("IDLEST_UTIL", variant->on));
	ASSERT_EQ(0, sw_feature_set("IDLEST_UTIL_LOCAL", false));
	TH_LOG("features: %s", sw_features_line());
	/* L0 busy but for the parent; L1's first CPU recently busy. */
	for (cpu = 0; cpu < CPU_SETSIZE; cpu++)
		if (CPU_ISSET(cpu, &s->llc[0].cpus) && cpu != s->p0)
			ASSERT_EQ(0, add_spinner(s, cpu, false));
	ASSERT_EQ(0, add_spinner(s, s->llc[1].first, true));
	ASSERT_EQ(0, sw_allow_all(0));
}

FIXTURE_TEARDOWN(idlest_util)
{
	stop_spinners(&self->s);
	sw_restore();
}

TEST_F_TIMEOUT(idlest_util, fork_placement, 120)
{
	struct setup *s = &self->s;
	int i, cpu, l, in[4] = { 0 };

	sw_spin_ns(WARM_NS);
	log_util(_metadata, s);
	for (i = 0; i < TRIALS; i++) {
		cpu = fork_one(s);
		ASSERT_LE(0, cpu);
		l = llc_of(s, cpu);
		in[l >= 0 && l < 3 ? l : 3]++;
	}
	TH_LOG("IDLEST_UTIL=%s parent on cpu%d (L0): child started in L0 %d, L1 (first, recently busy) %d, L2 (idle) %d, other %d of %d",
	       variant->on ? "on" : "off", s->p0, in[0], in[1], in[2], in[3], TRIALS);
	/* Only L1 and L2 are candidates; anything else: situation broken. */
	ASSERT_LE((in[0] + in[3]) * 10, TRIALS) {
		TH_LOG("the child did not go to a remote tie group; the situation did not hold");
	}
	if (variant->on) {
		EXPECT_GE(in[2] * 10, TRIALS * 9);
	} else {
		EXPECT_GE(in[1] * 10, TRIALS * 9);
	}
}

/* ---------------------------------------------------------------- */

FIXTURE(idlest_util_local) {
	struct setup s;
};

FIXTURE_VARIANT(idlest_util_local) {
	bool on;
};

FIXTURE_VARIANT_ADD(idlest_util_local, on) {
	.on = true,
};

FIXTURE_VARIANT_ADD(idlest_util_local, off) {
	.on = false,
};

FIXTURE_SETUP(idlest_util_local)
{
	const char *why = sw_need(flags);
	struct setup *s = &self->s;
	int i;

	if (why)
		SKIP(return, "%s", why);
	memset(s, 0, sizeof(*s));
	why = find_llcs(s, 2);
	if (why)
		SKIP(return, "%s", why);
	ASSERT_EQ(0, pipe2(s->nap, O_NONBLOCK));
	ASSERT_EQ(0, sw_pin(0, s->p0));
	ASSERT_EQ(0, sw_feature_set("IDLEST_UTIL", true));
	ASSERT_EQ(0, sw_feature_set("IDLEST_UTIL_LOCAL", variant->on));
	TH_LOG("features: %s", sw_features_line());
	/* One busy CPU per LLC: the parent in L0, a spinner elsewhere. */
	for (i = 1; i < s->nr_llc; i++)
		ASSERT_EQ(0, add_spinner(s, s->llc[i].first, false));
	ASSERT_EQ(0, add_spinner(s, sw_llc_cpu(&s->llc[0], 1), true));
	ASSERT_EQ(0, sw_allow_all(0));
}

FIXTURE_TEARDOWN(idlest_util_local)
{
	stop_spinners(&self->s);
	sw_restore();
}

TEST_F_TIMEOUT(idlest_util_local, fork_placement, 120)
{
	struct setup *s = &self->s;
	int i, cpu, local = 0, remote = 0;

	sw_spin_ns(WARM_NS);
	log_util(_metadata, s);
	for (i = 0; i < TRIALS; i++) {
		cpu = fork_one(s);
		ASSERT_LE(0, cpu);
		if (llc_of(s, cpu) == 0)
			local++;
		else
			remote++;
	}
	TH_LOG("IDLEST_UTIL_LOCAL=%s parent on cpu%d (L0): child started in L0 %d, in a remote LLC %d of %d",
	       variant->on ? "on" : "off", s->p0, local, remote, TRIALS);
	if (variant->on) {
		EXPECT_GE(remote * 10, TRIALS * 9);
	} else {
		EXPECT_GE(local * 10, TRIALS * 9);
	}
}

TEST_HARNESS_MAIN
