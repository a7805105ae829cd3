/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Helpers shared by the sched-wakeup selftests: sched features and other
 * knobs with read-back and restore on every exit path, topology from sysfs
 * (online CPUs, LLCs, NUMA nodes), HZ and PREEMPT_RT, per-thread schedstats,
 * pinning, and scratch cgroups and child processes that are removed on
 * every exit path too.
 */
#ifndef SCHED_WAKEUP_H
#define SCHED_WAKEUP_H

#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <sched.h>
#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>

#define SW_FEATURES	"/sys/kernel/debug/sched/features"
#define SW_SCHEDSTATS	"/proc/sys/kernel/sched_schedstats"
#define SW_TIMER_MIGR	"/proc/sys/kernel/timer_migration"
#define SW_BASE_SLICE	"/sys/kernel/debug/sched/base_slice_ns"
#define SW_AUTOGROUP	"/proc/sys/kernel/sched_autogroup_enabled"
#define SW_SCALING	"/sys/kernel/debug/sched/tunable_scaling"
#define SW_CGROOT	"/sys/fs/cgroup"
#define SW_MAX_LLCS	64

struct sw_llc {
	cpu_set_t cpus;
	int nr;
	int first;
};

struct sw_stats {
	long nr_wakeups;
	long affine_attempts;
	long affine;
	long nr_migrations;
	long voluntary;
	long involuntary;
	long long sum_exec_ns;
};

/*
 * Call first in every fixture setup. Returns NULL when the test can run, else
 * the reason to skip: not root, no features file, or a flag missing (a kernel
 * without the series).
 */
const char *sw_need(const char *const *flags);

/*
 * With SW_PREFLIGHT=1 in the environment the fixture setups stop once they
 * know the situation can be built, before they write any knob, and skip
 * with SW_READY: a way to ask what a machine can run without changing it.
 */
#define SW_READY	"preflight: this machine can build the situation"
bool sw_preflight(void);

/*
 * SW_MEASURE() - log one figure a verdict rests on, in the one shape result
 * collectors can parse (a CI harness can turn it into a measurement):
 * "measured NAME VALUE UNIT", NAME in [a-z0-9_], after the harness' prefix.
 * Used in a TEST_F() body, where TH_LOG() is.
 */
#define SW_MEASURE(name, value, unit) \
	TH_LOG("measured %s %g %s", name, (double)(value), unit)

/* The whole features line, for the TAP log. */
const char *sw_features_line(void);

/* Set a flag and read it back; 0 on success, -1 with a message if not. */
/* 1 on, 0 off, -1 not in the features file. */
int sw_feature_get(const char *name);
int sw_feature_set(const char *name, bool on);

/*
 * Write a knob (a sysctl or a debugfs value) and read it back; 0 on
 * success. Only the knobs named above: their values at program start are
 * what sw_restore() writes back.
 */
int sw_sysctl_set(const char *path, long val);
long sw_sysctl_get(const char *path);

/*
 * Restore the features and knobs saved when the program started, kill the
 * registered children and remove the scratch cgroups. Async-signal-safe.
 */
void sw_restore(void);

/* Online CPUs; the highest online CPU; how many are online. */
int sw_online(cpu_set_t *set);
int sw_last_cpu(void);
int sw_nr_cpus(void);

/*
 * LLCs of the online CPUs as the scheduler sees them (the spans of the
 * domains with SD_SHARE_LLC), ordered by first CPU; returns how many, or
 * -1 without debugfs's domains or /proc/schedstat.
 */
int sw_llcs(struct sw_llc *llcs, int max);
int sw_llc_cpu(const struct sw_llc *llc, int nth);
/* Whether some CPU has a sched domain with @flag (debugfs domains/). */
bool sw_domains_have(const char *flag);
/* NUMA node of a CPU (0 without NUMA); its online CPUs. */
int sw_node_of(int cpu);
int sw_node_cpus(int node, cpu_set_t *set);

int sw_pin(pid_t tid, int cpu);
int sw_allow2(pid_t tid, int a, int b);
int sw_allow_set(pid_t tid, const cpu_set_t *set);

/* Is this a PREEMPT_RT kernel (/sys/kernel/realtime)? */
bool sw_preempt_rt(void);

/*
 * HZ, measured from the jiffies in the sched debug file against
 * CLOCK_MONOTONIC over @ms milliseconds, and rounded to the nearest value
 * Kconfig offers when within 2% of one; -1 if it cannot be read.
 */
long sw_hz(int ms);

/*
 * Local timer interrupts @cpu has handled ("LOC" in /proc/interrupts, x86);
 * -1 where the line or the CPU's column is missing.
 */
long long sw_timer_irqs(int cpu);

/* Root cfs_rq util_avg of every CPU from the sched debug file; 0 on success. */
int sw_cpu_util(long *util, int nr);

/* schedstats of one thread (0: the caller). */
int sw_stats(pid_t tid, struct sw_stats *st);

/*
 * The state letter of thread @tid (R, S, T, ...; 0 if it cannot be read),
 * and its CPU time in ns, which counts up to the moment of reading while
 * it runs (-1 if it cannot be read).
 */
char sw_task_state(pid_t tid);
long long sw_task_runtime(pid_t tid);

/*
 * Scratch cgroups, below one directory per test program in the cgroup v2
 * root, with the cpu controller. sw_cg_usable() returns NULL or why they
 * cannot be made; sw_cg_make() creates @rel (parents first) with cpu.weight
 * @weight (0: the default) and enables the cpu controller on the way, and
 * returns 0, SW_CG_NO_CPU where the controller cannot be enabled (a
 * situation the machine cannot build), or -1 on another error;
 * sw_cg_enter() moves process @pid into @rel ("" is the cgroup root itself).
 */
#define SW_CG_NO_CPU	(-2)
const char *sw_cg_usable(void);
int sw_cg_make(const char *rel, int weight);
int sw_cg_enter(const char *rel, pid_t pid);
/* The program's cgroup directory (absolute path). */
const char *sw_cg_base(void);

/*
 * fork() for helper processes: the child dies with its parent
 * (PR_SET_PDEATHSIG), has the default signal handlers, and must leave with
 * _exit(). With @track, the parent's sw_restore() kills and reaps it; else
 * the parent reaps it itself.
 */
pid_t sw_fork(bool track);
void sw_children_kill(void);

void sw_spin_ns(long long ns);
long long sw_now_ns(void);
pid_t sw_gettid(void);

#endif
