// SPDX-License-Identifier: GPL-2.0
/*
 * IDLEST_UTIL and IDLEST_UTIL_LOCAL: where sched_balance_find_dst_group()
 * places a forked child when groups tie on idle CPUs.
 *
 * idlest_util: three or more LLCs in one NUMA node. The parent runs on
 * local LLC L0, whose other CPUs run spinners, so L0 has no idle CPU and
 * loses to any remote group. The first remote LLC in domain order (L1) and
 * the next one (L2) are fully idle - a tie - but a helper on L1 ran until
 * just before the fork and sleeps, so L1 carries its blocked utilization.
 * Flag on: the lower-utilized L2 wins. Flag off: the first one found, L1.
 *
 * idlest_util_local: two or more LLCs of 4 or more CPUs in one node. L0 and
 * every remote LLC have the same number of idle CPUs (one spinner in each
 * remote LLC; in L0 the parent itself), and L0 is more utilized (the parent
 * spins between forks; a helper in L0 ran until just before the fork). Flag
 * off: the tie stays local. Flag on: the child goes to a remote LLC.
 *
 * The child may run on any CPU of the node under test, and only there: on
 * a machine of several nodes the NUMA level would otherwise send it to an
 * idle node first. The child inherits that mask from the parent, which
 * stays pinned to its CPU but for the fork itself.
 *
 * That moment is when the load balancer takes the parent away: L0 is full
 * next to idle LLCs, every periodic balance of an idle CPU finds L0 the
 * busiest group and fails to move its pinned tasks, so the domain's
 * nr_balance_failed grows, and the first balance after the parent's mask
 * widens pushes it, the running task, to the idle CPU (an active balance).
 * The fork then starts from that CPU's LLC, and the parent's utilization,
 * carried there and back, stays on that CPU until its blocked averages are
 * next updated, which on an idle CPU of a tickless kernel can take tens of
 * milliseconds. A fork during which the parent moved is not counted, and
 * the next one waits until the situation's utilization holds again.
 *
 * Forks come in batches; see judge() for the verdict. A child moved before
 * it first ran (se.nr_migrations > 0), or forked when the helper's nap may
 * have ended or while another CPU meant to be idle ran something (a group
 * then had an idle CPU fewer), does not show the placement decision and is
 * not counted; the fork is repeated. Children stay parked, asleep, until
 * the test ends: an exit leaves work on its CPU that can break the next
 * fork's tie.
 */
/* First: it defines _GNU_SOURCE for the libc headers below. */
#include "sched_wakeup.h"

#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <poll.h>
#include <signal.h>
#include <stdatomic.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "../kselftest_harness.h"

#define TRIALS		30		/* forks in a batch */
#define MAX_SKIPS	(2 * TRIALS)	/* repeated forks (run_forks()), at most */
#define MAX_BATCHES	3
#define BUSY_NS		60000000LL	/* helper: run 60 ms ... */
#define NAP_MS		100		/* ... then sleep until the fork, or 100 ms */
#define WARM_NS		300000000LL
#define CAPACITY	1024		/* a CPU's full utilization */
/*
 * A tie needs every CPU of two groups to be exactly as idle as planned at
 * the instant of the fork, and a stray task breaks it; PASS_PCT_OFF leaves
 * room for a few such forks in the tie-keeping direction, PASS_PCT_ON for
 * fewer (a lower-utilized group wins even when a stray task has come and
 * gone). A batch where half the forks went where the other setting puts
 * them is the flag's effect gone or reversed, and fails at once; any other
 * batch is measured again.
 */
#define PASS_PCT_ON	90
#define PASS_PCT_OFF	80
#define WRONG_PCT	50

static const char *const flags[] = { "IDLEST_UTIL", "IDLEST_UTIL_LOCAL", NULL };

struct spinner {
	pthread_t t;
	int cpu;
	bool cycle;		/* run, signal, nap: a recently busy, idle CPU */
	int sig;		/* write end: "napping now" */
	int go;			/* read end: "forked, nap over" */
	atomic_int woke;	/* naps ended */
	atomic_bool *stop;
	pid_t tid;
	int err;
};

struct setup {
	struct sw_llc llc[SW_MAX_LLCS];
	int nr_llc;
	int p0;			/* the parent's CPU, first of L0 */
	struct spinner sp[CPU_SETSIZE];
	int nr_sp;
	struct spinner *helper;	/* the one that naps */
	int park[2];		/* forked children sleep on park[0] */
	int nr_parked;
	int nap[2];
	int go[2];
	cpu_set_t node_cpus;	/* where the child may go */
	atomic_bool stop;
	long util[CPU_SETSIZE];
	long util_start[CPU_SETSIZE];	/* before a batch's forks */
	long long before[CPU_SETSIZE], after[CPU_SETSIZE];	/* sched_counts() */
};

static void *spin(void *arg)
{
	struct spinner *s = arg;
	struct pollfd pfd = { .fd = s->go, .events = POLLIN };
	char x;

	if (sw_pin(0, s->cpu)) {
		s->err = errno;
		return NULL;
	}
	s->tid = sw_gettid();
	while (!atomic_load(s->stop)) {
		if (!s->cycle) {
			sw_spin_ns(1000000);
			continue;
		}
		sw_spin_ns(BUSY_NS);
		/*
		 * Nap until the parent has forked, so that the nap covers the
		 * placement however long a slow guest takes to get there; a
		 * "forked" left from a nap that had already ended is dropped
		 * first. After NAP_MS alone, the parent was not forking.
		 */
		while (read(s->go, &x, 1) == 1)
			;
		if (write(s->sig, "n", 1) != 1)
			break;
		poll(&pfd, 1, NAP_MS);
		atomic_fetch_add(&s->woke, 1);
	}
	return NULL;
}

static int add_spinner(struct setup *s, int cpu, bool cycle)
{
	struct spinner *sp;

	if (s->nr_sp == CPU_SETSIZE)
		return -1;
	sp = &s->sp[s->nr_sp++];

	sp->cpu = cpu;
	sp->cycle = cycle;
	sp->sig = s->nap[1];
	sp->go = s->go[0];
	sp->stop = &s->stop;
	if (cycle)
		s->helper = sp;
	return pthread_create(&sp->t, NULL, spin, sp);
}

/* Every spinner started and pinned itself; 0 or its errno. */
static int spinners_ok(struct setup *s)
{
	long long t0 = sw_now_ns();
	int i;

	for (i = 0; i < s->nr_sp; i++) {
		while (!s->sp[i].tid && !s->sp[i].err && sw_now_ns() - t0 < 1000000000LL)
			usleep(1000);
		if (s->sp[i].err || !s->sp[i].tid)
			return s->sp[i].err ? s->sp[i].err : ETIMEDOUT;
	}
	return 0;
}

/* Stop the helpers and let the parked children exit. */
static void stop_spinners(struct setup *s)
{
	int i;

	if (s->park[1] > 0) {
		close(s->park[1]);
		s->park[1] = -1;
	}
	for (i = 0; i < s->nr_parked; i++)
		wait(NULL);
	s->nr_parked = 0;

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

/*
 * The LLCs of the first CPU's NUMA node, in the order the scheduler's group
 * list has them as seen from the one that becomes L0: @first, then the
 * next ones by CPU number, wrapping around. Returns how many.
 */
static int node_llcs(struct setup *s, int first)
{
	struct sw_llc all[SW_MAX_LLCS], mine[SW_MAX_LLCS];
	int i, n, node, nr = 0;

	n = sw_llcs(all, SW_MAX_LLCS);
	if (n <= 0)
		return -1;
	node = sw_node_of(all[0].first);
	if (sw_node_cpus(node, &s->node_cpus))
		return -1;
	for (i = 0; i < n; i++)
		if (sw_node_of(all[i].first) == node)
			mine[nr++] = all[i];
	for (i = 0; i < nr; i++)
		s->llc[i] = mine[(first + i) % nr];
	s->nr_llc = nr;
	s->p0 = s->llc[0].first;
	return nr;
}

/* "4 3 4": the sizes of the node's LLCs, for a skip reason. */
static const char *llc_sizes(struct setup *s)
{
	static char buf[128];
	int i, len = 0;

	buf[0] = '\0';
	for (i = 0; i < s->nr_llc && len < (int)sizeof(buf) - 8; i++)
		len += snprintf(buf + len, sizeof(buf) - len, "%s%d", i ? " " : "", s->llc[i].nr);
	return buf;
}

/*
 * idlest_util's situation: the remote tie is between L1, the first remote
 * LLC in group order, and a later LLC with as many CPUs; no later LLC may
 * have more (it would win on idle CPUs alone). Tries each LLC as L0.
 */
static const char *find_remote_tie(struct setup *s)
{
	static char why[192];
	int k, j, n, same, larger;

	for (k = 0; (n = node_llcs(s, k)) > 0 && k < n; k++) {
		if (n < 3 || s->llc[0].nr < 2 || s->llc[1].nr < 2)
			continue;
		same = 0;
		larger = 0;
		for (j = 2; j < n; j++) {
			same += s->llc[j].nr == s->llc[1].nr;
			larger += s->llc[j].nr > s->llc[1].nr;
		}
		if (same && !larger)
			return NULL;
	}
	if (n < 0)
		return "no LLC spans: needs debugfs sched/domains and /proc/schedstat";
	snprintf(why, sizeof(why),
		 "needs 3 LLCs in one NUMA node, two remote ones of the same size and none larger (LLC sizes: %s)",
		 llc_sizes(s));
	return why;
}

/*
 * idlest_util_local's situation: L0 of 4 or more CPUs (with fewer, the tie
 * rests on one or two idle CPUs, which stray tasks keep breaking), and a
 * remote LLC that can have as many idle CPUs as L0 (all but the parent's)
 * at a lower utilization: one of L0's size less one, or of L0's size with
 * one spinner. Tries each LLC as L0.
 */
static const char *find_local_tie(struct setup *s)
{
	static char why[192];
	int k, j, n, ok;

	for (k = 0; (n = node_llcs(s, k)) > 0 && k < n; k++) {
		if (s->llc[0].nr < 4)
			continue;
		for (j = 1, ok = 0; j < n; j++)
			ok |= s->llc[j].nr == s->llc[0].nr || s->llc[j].nr == s->llc[0].nr - 1;
		if (ok)
			return NULL;
	}
	if (n < 0)
		return "no LLC spans: needs debugfs sched/domains and /proc/schedstat";
	snprintf(why, sizeof(why),
		 "needs an LLC of >= 4 CPUs and another of the same size or one less in its NUMA node (LLC sizes: %s)",
		 llc_sizes(s));
	return why;
}

/*
 * Has thread @tid left its CPU? Asleep, and its CPU time, which counts up
 * to the moment of reading while it runs, did not grow in a millisecond.
 * The caller spins meanwhile, so that p0 stays busy.
 */
static bool off_cpu(pid_t tid)
{
	long long a;

	if (sw_task_state(tid) != 'S')
		return false;
	a = sw_task_runtime(tid);
	sw_spin_ns(1000000);
	return a >= 0 && sw_task_runtime(tid) == a && sw_task_state(tid) == 'S';
}

/*
 * How many times each CPU has called schedule(), from /proc/schedstat
 * (schedstats on). 0, or -1 if the file cannot be read.
 */
static int sched_counts(long long *cnt)
{
	char line[512];
	long long v;
	FILE *f;
	int c;

	f = fopen("/proc/schedstat", "r");
	if (!f)
		return -1;
	while (fgets(line, sizeof(line), f))
		if (sscanf(line, "cpu%d %*u %*u %lld", &c, &v) == 2 && c >= 0 && c < CPU_SETSIZE)
			cnt[c] = v;
	fclose(f);
	return 0;
}

/*
 * Did a CPU that should be idle for the fork run anything while it was
 * made, other than @child's? Every CPU of the node but the parent's and the
 * spinners' should; the helper's naps. A task that came and went there,
 * which utilization hardly shows, may have taken an idle CPU from a group
 * at the moment of the placement.
 */
static bool quiet_broken(struct setup *s, const long long *before,
			 const long long *after, int child)
{
	bool spun;
	int cpu, i;

	for (cpu = 0; cpu < CPU_SETSIZE; cpu++) {
		if (!CPU_ISSET(cpu, &s->node_cpus) || cpu == s->p0 || cpu == child)
			continue;
		for (i = 0, spun = false; i < s->nr_sp; i++)
			spun |= s->sp[i].cpu == cpu && !s->sp[i].cycle;
		if (!spun && after[cpu] != before[cpu])
			return true;
	}
	return false;
}

/* Let the helper run again. */
static void end_nap(struct setup *s)
{
	/* Should the write fail, the nap just lasts its NAP_MS. */
	if (write(s->go[1], "g", 1) != 1)
		return;
}

/*
 * Fork one child from p0 once the helper has started a nap and left its
 * CPU: that CPU is then idle but recently busy. Returns the CPU the child
 * started on, -2 if it was migrated before it ran, -3 if the helper's nap
 * may have ended before fork() returned, -4 if another CPU meant to be idle
 * ran something meanwhile, -5 if the parent was moved off p0, or -1 on
 * error. The helper naps until it is told the fork is done.
 *
 * The parent stays pinned to p0 while it waits (spinning, so p0 is busy),
 * and widens its mask to the node just before fork(); the child inherits
 * the mask. The counts of the CPUs' schedule() calls and of the parent's
 * migrations are read before, so that the window in which the balancer can
 * move the parent is fork() alone. A helper that stopped napping (its
 * thread failed) is an error after a second.
 */
static int fork_one(struct setup *s)
{
	int p[2], cpu = -1, tries, woke;
	struct sw_stats me0, me1;
	bool back, counted, moved;
	long long t0;
	char x;
	pid_t pid;

	for (tries = 0; tries < 100; tries++) {
		/* Drop naps already signalled, wait for a fresh one. */
		while (read(s->nap[0], &x, 1) == 1)
			;
		t0 = sw_now_ns();
		while (read(s->nap[0], &x, 1) != 1)
			if (sw_now_ns() - t0 > 1000000000LL)
				return -1;
		/*
		 * Signalled; fork once the helper has left its CPU, which a
		 * virtual CPU its host is not running can take milliseconds to do.
		 */
		t0 = sw_now_ns();
		while (!off_cpu(s->helper->tid) && sw_now_ns() - t0 < 10000000)
			;
		woke = atomic_load(&s->helper->woke);
		if (off_cpu(s->helper->tid))
			break;
		end_nap(s);
	}
	if (tries == 100 || pipe(p))
		return -1;
	if (sched_counts(s->before) || sw_stats(0, &me0))
		return -1;
	if (sw_allow_set(0, &s->node_cpus))
		return -1;
	pid = sw_fork(false);
	if (pid == 0) {
		struct sw_stats st;

		/*
		 * The CPU fork placement chose, unless the child was moved
		 * before it first ran (an idle CPU's balancing can pull it
		 * while its target vCPU is slow to wake): then -2.
		 */
		cpu = sched_getcpu();
		if (sw_stats(0, &st) || st.nr_migrations)
			cpu = -2;
		if (write(p[1], &cpu, sizeof(cpu)) != sizeof(cpu))
			_exit(1);
		/*
		 * Stay parked, asleep, until the test ends: an exit would
		 * leave work (RCU callbacks, stack freeing) on this CPU that
		 * can land on the next fork and break its tie.
		 */
		close(s->park[1]);
		while (read(s->park[0], &x, 1) > 0)
			;
		_exit(0);
	}
	/*
	 * fork() placed the child before it returned here. A helper that
	 * is still asleep, and has not woken meanwhile, kept its CPU idle
	 * for the placement; one whose nap has ended (a slow guest can
	 * take the whole nap to get here) may have been back on it, and
	 * its group then had an idle CPU fewer.
	 */
	back = atomic_load(&s->helper->woke) != woke ||
	       sw_task_state(s->helper->tid) != 'S';
	counted = pid > 0 && !sched_counts(s->after) && !sw_stats(0, &me1);
	moved = counted && me1.nr_migrations != me0.nr_migrations;
	end_nap(s);
	sw_pin(0, s->p0);
	close(p[1]);
	if (pid < 0 || read(p[0], &cpu, sizeof(cpu)) != sizeof(cpu))
		cpu = -1;
	close(p[0]);
	if (pid > 0)
		s->nr_parked++;
	if (!counted)
		return -1;
	if (cpu >= 0 && moved)
		return -5;
	if (cpu >= 0 && back)
		return -3;
	if (cpu >= 0 && quiet_broken(s, s->before, s->after, cpu))
		return -4;
	return cpu;
}

static void log_util(struct __test_metadata *_metadata, struct setup *s);

static void read_util(struct setup *s)
{
	memset(s->util, 0, sizeof(s->util));
	sw_cpu_util(s->util, CPU_SETSIZE);
}

/*
 * The ties are decided by utilization. Work of the test's own start, of the
 * runner that printed its output, of a stray task or of the parent moved
 * for a fork can leave an idle CPU some, which it sheds only slowly: wait,
 * up to 2 s, until the situation's utilization (@holds) is back. Whether
 * it is.
 */
static bool wait_holds(struct setup *s, bool (*holds)(struct setup *s))
{
	int i;

	read_util(s);
	for (i = 0; i < 20 && !holds(s); i++) {
		sw_spin_ns(100000000LL);
		read_util(s);
	}
	return holds(s);
}

static long llc_util(struct setup *s, int l)
{
	long sum = 0;
	int cpu;

	for (cpu = 0; cpu < CPU_SETSIZE; cpu++)
		if (CPU_ISSET(cpu, &s->llc[l].cpus))
			sum += s->util[cpu];
	return sum;
}

/*
 * idlest_util's situation in utilization: does every LLC after L1 carry
 * less than half of L1's?
 */
static bool remote_tie_holds(struct setup *s)
{
	int l;

	for (l = 2; l < s->nr_llc; l++)
		if (2 * llc_util(s, l) >= llc_util(s, 1))
			return false;
	return true;
}

/*
 * idlest_util_local's: does L0 carry a quarter of a CPU more than the
 * least utilized remote LLC? A stray task on a remote CPU both breaks the
 * tie on idle CPUs and shows here.
 */
static bool local_tie_holds(struct setup *s)
{
	long least = -1, u;
	int l;

	for (l = 1; l < s->nr_llc; l++) {
		u = llc_util(s, l);
		if (least < 0 || u < least)
			least = u;
	}
	return least >= 0 && least + CAPACITY / 4 < llc_util(s, 0);
}

/*
 * Warm up, wait for the situation's utilization (@holds), then fork TRIALS
 * children that show the placement decision: @in[i] counts those that
 * started in LLC i, and @in[SW_MAX_LLCS] those elsewhere. *@held says
 * whether the situation held before the forks. Forks that do not show it
 * are repeated, up to MAX_SKIPS of them: @skip[0] counts children moved before
 * they ran, @skip[1] those forked when the helper may have been back on its
 * CPU, @skip[2] those during which another CPU of the tie ran something,
 * @skip[3] those during which the parent was moved off p0.
 * Returns 0, or -1 on error.
 */
static int run_forks(struct __test_metadata *_metadata, struct setup *s, int *in,
		     bool (*holds)(struct setup *s), bool *held, int *skip)
{
	int i, cpu, l;

	sw_spin_ns(WARM_NS);
	*held = wait_holds(s, holds);
	/* Printed after the forks: output wakes the runner's pipeline. */
	memcpy(s->util_start, s->util, sizeof(s->util));
	memset(skip, 0, 4 * sizeof(*skip));
	for (i = 0; i < TRIALS; i++) {
		cpu = fork_one(s);
		if (cpu == -1)
			return -1;
		/* The parent left its utilization where it went (top of file). */
		if (cpu == -5)
			*held = wait_holds(s, holds) && *held;
		if (cpu < 0 && skip[0] + skip[1] + skip[2] + skip[3] < MAX_SKIPS) {
			skip[-2 - cpu]++;
			i--;
			continue;
		}
		l = cpu < 0 ? -1 : llc_of(s, cpu);
		in[l >= 0 ? l : SW_MAX_LLCS]++;
	}
	memcpy(s->util, s->util_start, sizeof(s->util));
	log_util(_metadata, s);
	TH_LOG("  not counted: %d moved before they ran, %d forked as the helper woke,",
	       skip[0], skip[1]);
	TH_LOG("  %d while another CPU of the tie ran something, %d as the parent was moved",
	       skip[2], skip[3]);
	return 0;
}

static void log_util(struct __test_metadata *_metadata, struct setup *s)
{
	char buf[512];
	int i, cpu, len = 0;

	for (i = 0; i < s->nr_llc && len < (int)sizeof(buf) - 32; i++) {
		len += snprintf(buf + len, sizeof(buf) - len, " L%d[", i);
		for (cpu = 0; cpu < CPU_SETSIZE; cpu++)
			if (CPU_ISSET(cpu, &s->llc[i].cpus))
				len += snprintf(buf + len, sizeof(buf) - len, " %d:%ld",
						cpu, s->util[cpu]);
		len += snprintf(buf + len, sizeof(buf) - len, " ]");
	}
	TH_LOG("util_avg per CPU before the forks:%s", buf);
}

/*
 * The verdict on one batch: 1 when @predicted forks went where the flag's
 * setting puts them in @pass_pct of the batch, -1 when WRONG_PCT went
 * where the other setting puts them (@opposite), 0 otherwise: stray tasks
 * broke too many ties, or children started outside both groups, and the
 * caller measures another batch, up to MAX_BATCHES, then fails.
 *
 * A batch whose situation did not hold before the forks (@held_before)
 * decides nothing. A -1 ends the test only when the situation still holds
 * after the forks (@holds): a stray task that arrived during the batch
 * makes it 0. Neither rule lets a kernel without the effect pass: that
 * needs @pass_pct of a batch where the situation held.
 */
static int judge(struct __test_metadata *_metadata, struct setup *s,
		 bool (*holds)(struct setup *s), bool held_before,
		 int predicted, int opposite, int pass_pct)
{
	if (!held_before) {
		TH_LOG("  the situation's utilization did not hold: measured again");
		return 0;
	}
	if (predicted * 100 >= TRIALS * pass_pct)
		return 1;
	if (opposite * 100 < TRIALS * WRONG_PCT)
		return 0;
	read_util(s);
	if (holds(s))
		return -1;
	log_util(_metadata, s);
	TH_LOG("  (after the forks) the situation no longer held: measured again");
	return 0;
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
	why = find_remote_tie(s);
	if (why)
		SKIP(return, "%s", why);
	if (sw_preflight())
		SKIP(return, SW_READY);
	ASSERT_EQ(0, pipe2(s->nap, O_NONBLOCK));
	ASSERT_EQ(0, pipe2(s->go, O_NONBLOCK));
	ASSERT_EQ(0, pipe(s->park));
	ASSERT_EQ(0, sw_pin(0, s->p0));
	ASSERT_EQ(0, sw_sysctl_set(SW_SCHEDSTATS, 1));
	ASSERT_EQ(0, sw_feature_set("IDLEST_UTIL", variant->on));
	ASSERT_EQ(0, sw_feature_set("IDLEST_UTIL_LOCAL", false));
	TH_LOG("features: %s", sw_features_line());
	/* L0 busy but for the parent; L1's first CPU recently busy. */
	for (cpu = 0; cpu < CPU_SETSIZE; cpu++)
		if (CPU_ISSET(cpu, &s->llc[0].cpus) && cpu != s->p0)
			ASSERT_EQ(0, add_spinner(s, cpu, false));
	ASSERT_EQ(0, add_spinner(s, s->llc[1].first, true));
	ASSERT_EQ(0, spinners_ok(s)) TH_LOG("a spinner could not pin itself");
}

FIXTURE_TEARDOWN(idlest_util)
{
	stop_spinners(&self->s);
	sw_restore();
}

TEST_F_TIMEOUT(idlest_util, fork_placement, 120)
{
	struct setup *s = &self->s;
	int in[SW_MAX_LLCS + 1], skip[4], batch, later, verdict = 0;
	bool held;

	TH_LOG("IDLEST_UTIL=%s, parent on cpu%d (L0), %d forks a batch; predicted: %s",
	       variant->on ? "on" : "off", s->p0, TRIALS,
	       variant->on ? "L2+, the lower-utilized" : "L1, the first found");
	for (batch = 1; batch <= MAX_BATCHES && !verdict; batch++) {
		memset(in, 0, sizeof(in));
		ASSERT_EQ(0, run_forks(_metadata, s, in, remote_tie_holds, &held, skip))
			TH_LOG("a fork failed, or the helper stopped napping");
		/* L2 and any further LLC are idle: any of them is "the idle one". */
		later = TRIALS - in[0] - in[1] - in[SW_MAX_LLCS];
		TH_LOG("  batch %d: L0 %d, L1 (first, recently busy) %d, L2+ (idle) %d,%s%d",
		       batch, in[0], in[1], later, " elsewhere ", in[SW_MAX_LLCS]);
		verdict = variant->on ?
			  judge(_metadata, s, remote_tie_holds, held, later, in[1], PASS_PCT_ON) :
			  judge(_metadata, s, remote_tie_holds, held, in[1], later, PASS_PCT_OFF);
	}
	SW_MEASURE("forks_l1", in[1], "forks");
	SW_MEASURE("forks_idle_llc", later, "forks");
	EXPECT_EQ(1, verdict) {
		TH_LOG("%s", verdict < 0 ? "the forks went where the other setting puts them" :
		       "no batch decided: the tie did not hold");
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
	int i, j;

	if (why)
		SKIP(return, "%s", why);
	memset(s, 0, sizeof(*s));
	why = find_local_tie(s);
	if (why)
		SKIP(return, "%s", why);
	if (sw_preflight())
		SKIP(return, SW_READY);
	ASSERT_EQ(0, pipe2(s->nap, O_NONBLOCK));
	ASSERT_EQ(0, pipe2(s->go, O_NONBLOCK));
	ASSERT_EQ(0, pipe(s->park));
	ASSERT_EQ(0, sw_pin(0, s->p0));
	ASSERT_EQ(0, sw_sysctl_set(SW_SCHEDSTATS, 1));
	ASSERT_EQ(0, sw_feature_set("IDLEST_UTIL", true));
	ASSERT_EQ(0, sw_feature_set("IDLEST_UTIL_LOCAL", variant->on));
	TH_LOG("features: %s", sw_features_line());
	/*
	 * As many idle CPUs in every remote LLC as in L0 at most (L0's but
	 * the parent's): spinners on the CPUs beyond that.
	 */
	for (i = 1; i < s->nr_llc; i++)
		for (j = s->llc[0].nr - 1; j < s->llc[i].nr; j++)
			ASSERT_EQ(0, add_spinner(s, sw_llc_cpu(&s->llc[i], j), false));
	ASSERT_EQ(0, add_spinner(s, sw_llc_cpu(&s->llc[0], 1), true));
	ASSERT_EQ(0, spinners_ok(s)) TH_LOG("a spinner could not pin itself");
}

FIXTURE_TEARDOWN(idlest_util_local)
{
	stop_spinners(&self->s);
	sw_restore();
}

TEST_F_TIMEOUT(idlest_util_local, fork_placement, 120)
{
	struct setup *s = &self->s;
	int in[SW_MAX_LLCS + 1], skip[4], batch, local, remote, verdict = 0;
	bool held;

	TH_LOG("IDLEST_UTIL_LOCAL=%s, parent on cpu%d (L0), %d forks a batch; predicted: %s",
	       variant->on ? "on" : "off", s->p0, TRIALS,
	       variant->on ? "a remote LLC, less utilized" : "L0, the tie stays local");
	for (batch = 1; batch <= MAX_BATCHES && !verdict; batch++) {
		memset(in, 0, sizeof(in));
		ASSERT_EQ(0, run_forks(_metadata, s, in, local_tie_holds, &held, skip))
			TH_LOG("a fork failed, or the helper stopped napping");
		local = in[0];
		remote = TRIALS - local - in[SW_MAX_LLCS];
		TH_LOG("  batch %d: L0 %d, a remote LLC %d, elsewhere %d",
		       batch, local, remote, in[SW_MAX_LLCS]);
		verdict = variant->on ?
			  judge(_metadata, s, local_tie_holds, held, remote, local, PASS_PCT_ON) :
			  judge(_metadata, s, local_tie_holds, held, local, remote, PASS_PCT_OFF);
	}
	SW_MEASURE("forks_local", local, "forks");
	SW_MEASURE("forks_remote", remote, "forks");
	EXPECT_EQ(1, verdict) {
		TH_LOG("%s", verdict < 0 ? "the forks went where the other setting puts them" :
		       "no batch decided: the tie did not hold");
	}
}

TEST_HARNESS_MAIN
