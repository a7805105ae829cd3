/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Helpers shared by the sched-wakeup selftests: sched features and sysctls
 * with read-back and restore on every exit path, LLC discovery from sysfs,
 * per-thread schedstats, pinning.
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

/* The whole features line, for the TAP log. */
const char *sw_features_line(void);

/* Set a flag and read it back; 0 on success, -1 with a message if not. */
int sw_feature_set(const char *name, bool on);

/* Write a sysctl and read it back; 0 on success. */
int sw_sysctl_set(const char *path, long val);
long sw_sysctl_get(const char *path);

/* Restore the features and sysctls saved when the program started. */
void sw_restore(void);

/* LLCs of the online CPUs, ordered by first CPU; returns how many. */
int sw_llcs(struct sw_llc *llcs, int max);
int sw_llc_cpu(const struct sw_llc *llc, int nth);
int sw_nr_cpus(void);

int sw_pin(pid_t tid, int cpu);
int sw_allow2(pid_t tid, int a, int b);
int sw_allow_all(pid_t tid);

/* Root cfs_rq util_avg of every CPU from the sched debug file; 0 on success. */
int sw_cpu_util(long *util, int nr);

/* schedstats of one thread (0: the caller). */
int sw_stats(pid_t tid, struct sw_stats *st);

void sw_spin_ns(long long ns);
long long sw_now_ns(void);
pid_t sw_gettid(void);

#endif
