// SPDX-License-Identifier: GPL-2.0
/*
 * taskchurn - change the affinity, nice value and cgroup of running tasks at
 * random, every few milliseconds, for scripts/torture.
 *
 *   taskchurn [-d SECONDS] [-i MS] [-n PER_ROUND] [-s SEED] [-g PREFIX]
 *             [-c CGROUP]... [-t PARENT] PREFIX...
 *
 * Every MS milliseconds (default 10), PER_ROUND (default 8) threads whose
 * name starts with one of the PREFIXes are picked at random, and each gets
 * a random non-empty CPU mask and a random nice value 0..19. With -c, the
 * process of each picked thread whose name starts with the -g PREFIX (any
 * PREFIX without -g) moves to one of the CGROUP directories, at random. With
 * -t, every other round creates a scratch cgroup under PARENT with a random
 * cpu.weight and moves one such process into it; the round after moves its
 * tasks back to the first CGROUP and removes it. The candidates are re-read
 * from /proc every 20 rounds.
 *
 * Everything is done with system calls and file writes: a shell loop
 * forking taskset and renice managed a few changes a minute in a loaded TCG
 * guest. Tasks that exit meanwhile (ESRCH), masks of offline CPUs (EINVAL)
 * and masks narrower than a SCHED_DEADLINE task's root domain (EBUSY; some
 * stress-ng stressors make such tasks) are expected and not counted; any other failure is reported and
 * makes the exit status 1. Prints the counts of changes made at the end
 * (after SECONDS, or on SIGINT, SIGTERM or SIGHUP).
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#define MAXTASKS	8192
#define MAXCG		16

struct task {
	pid_t pid, tid;
	int movable;
};

static struct task tasks[MAXTASKS];
static int ntasks;
static char **prefixes;
static int nprefixes;
static const char *cg_prefix;
static const char *cgroups[MAXCG];
static int ncgroups;
static volatile sig_atomic_t stop;
static long unexpected;

static void on_signal(int sig)
{
	(void)sig;
	stop = 1;
}

static void report(const char *what, long id, int err)
{
	/* Only the first few: a broken interface would fill the log. */
	if (unexpected++ < 10)
		fprintf(stderr, "taskchurn: %s %ld: %s\n", what, id, strerror(err));
}

static int starts_with_any(const char *name)
{
	int i;

	for (i = 0; i < nprefixes; i++)
		if (!strncmp(name, prefixes[i], strlen(prefixes[i])))
			return 1;
	return 0;
}

static int read_comm(pid_t pid, pid_t tid, char *buf, size_t len)
{
	char path[64];
	ssize_t n;
	int fd;

	snprintf(path, sizeof(path), "/proc/%d/task/%d/comm", pid, tid);
	fd = open(path, O_RDONLY);
	if (fd < 0)
		return -1;
	n = read(fd, buf, len - 1);
	close(fd);
	if (n <= 0)
		return -1;
	buf[n] = 0;
	buf[strcspn(buf, "\n")] = 0;
	return 0;
}

/* Every thread of /proc whose name starts with a PREFIX, this one excepted. */
static void scan(void)
{
	DIR *proc = opendir("/proc"), *task;
	struct dirent *p, *t;
	char path[64], comm[32];

	ntasks = 0;
	if (!proc)
		return;
	while ((p = readdir(proc)) && ntasks < MAXTASKS) {
		pid_t pid = atoi(p->d_name);

		if (pid <= 0 || pid == getpid())
			continue;
		snprintf(path, sizeof(path), "/proc/%d/task", pid);
		task = opendir(path);
		if (!task)
			continue;
		while ((t = readdir(task)) && ntasks < MAXTASKS) {
			pid_t tid = atoi(t->d_name);

			if (tid <= 0 || read_comm(pid, tid, comm, sizeof(comm)) ||
			    !starts_with_any(comm))
				continue;
			tasks[ntasks].pid = pid;
			tasks[ntasks].tid = tid;
			tasks[ntasks].movable = !cg_prefix ||
				!strncmp(comm, cg_prefix, strlen(cg_prefix));
			ntasks++;
		}
		closedir(task);
	}
	closedir(proc);
}

/* Writes PID to DIR/cgroup.procs: 1 if moved, 0 if it has exited. */
static int cg_move(const char *dir, pid_t pid)
{
	char path[512], buf[16];
	int fd, len, ret = 1;

	snprintf(path, sizeof(path), "%s/cgroup.procs", dir);
	len = snprintf(buf, sizeof(buf), "%d", pid);
	fd = open(path, O_WRONLY);
	if (fd < 0) {
		report(path, pid, errno);
		return 0;
	}
	if (write(fd, buf, len) != len) {
		if (errno != ESRCH)
			report(path, pid, errno);
		ret = 0;
	}
	close(fd);
	return ret;
}

static int write_str(const char *path, const char *s)
{
	int fd = open(path, O_WRONLY), ok;

	if (fd < 0)
		return -1;
	ok = write(fd, s, strlen(s)) == (ssize_t)strlen(s);
	close(fd);
	return ok ? 0 : -1;
}

/*
 * Empties the scratch cgroup into the first CGROUP and removes it. A task
 * moved into it may have forked meanwhile, so every process listed is moved,
 * not only the one put there. Returns 0 once it is gone.
 */
static int scratch_remove(const char *dir)
{
	char path[512];
	FILE *f;
	int pid;

	snprintf(path, sizeof(path), "%s/cgroup.procs", dir);
	f = fopen(path, "r");
	if (f) {
		while (fscanf(f, "%d", &pid) == 1)
			cg_move(cgroups[0], pid);
		fclose(f);
	}
	if (!rmdir(dir) || errno == ENOENT)
		return 0;
	if (errno != EBUSY)
		report(dir, 0, errno);
	return -1;
}

static double since(const struct timespec *t0)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return t.tv_sec - t0->tv_sec + (t.tv_nsec - t0->tv_nsec) / 1e9;
}

int main(int argc, char **argv)
{
	unsigned long long aff = 0, nic = 0, attempts = 0, moves = 0, made = 0;
	const char *parent = NULL;
	char scratch[512] = "", path[600], weight[16];
	double duration = 0;
	long interval_ms = 10;
	int per_round = 8, ncpu, c, i, round;
	unsigned int seed = getpid() ^ time(NULL);
	struct sigaction sa = { .sa_handler = on_signal };
	struct timespec t0, nap;

	while ((c = getopt(argc, argv, "d:i:n:s:g:c:t:")) != -1) {
		switch (c) {
		case 'd': duration = atof(optarg); break;
		case 'i': interval_ms = atol(optarg); break;
		case 'n': per_round = atoi(optarg); break;
		case 's': seed = strtoul(optarg, NULL, 0); break;
		case 'g': cg_prefix = optarg; break;
		case 'c':
			if (ncgroups == MAXCG) {
				fprintf(stderr, "taskchurn: error: at most %d -c\n", MAXCG);
				return 2;
			}
			cgroups[ncgroups++] = optarg;
			break;
		case 't': parent = optarg; break;
		default:
			fprintf(stderr, "usage: taskchurn [-d SECONDS] [-i MS] [-n PER_ROUND] [-s SEED] [-g PREFIX] [-c CGROUP]... [-t PARENT] PREFIX...\n");
			return 2;
		}
	}
	prefixes = argv + optind;
	nprefixes = argc - optind;
	if (nprefixes < 1 || interval_ms < 0 || per_round < 1 || (parent && !ncgroups)) {
		fprintf(stderr, "taskchurn: error: give a PREFIX, -i >= 0, -n >= 1, and -c with -t\n");
		return 2;
	}
	for (i = 0; i < ncgroups; i++) {
		snprintf(path, sizeof(path), "%s/cgroup.procs", cgroups[i]);
		if (access(path, W_OK)) {
			fprintf(stderr, "taskchurn: error: %s is not a writable cgroup\n", cgroups[i]);
			return 2;
		}
	}
	/* Masks over the first 30 possible CPUs (rand() gives 31 bits). */
	ncpu = sysconf(_SC_NPROCESSORS_CONF);
	if (ncpu < 1)
		ncpu = 1;
	if (ncpu > 30)
		ncpu = 30;

	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	sigaction(SIGHUP, &sa, NULL);
	printf("seed %u\n", seed);
	fflush(stdout);
	srand(seed);
	nap.tv_sec = interval_ms / 1000;
	nap.tv_nsec = (interval_ms % 1000) * 1000000L;
	clock_gettime(CLOCK_MONOTONIC, &t0);

	for (round = 0; !stop && (duration <= 0 || since(&t0) < duration); round++) {
		if (round % 20 == 0)
			scan();
		for (i = 0; ntasks && i < per_round; i++) {
			struct task *t = &tasks[rand() % ntasks];
			unsigned long long bits = 1 + (unsigned long long)rand() % ((1ULL << ncpu) - 1);
			cpu_set_t mask;
			int cpu;

			CPU_ZERO(&mask);
			for (cpu = 0; cpu < ncpu; cpu++)
				if (bits & (1ULL << cpu))
					CPU_SET(cpu, &mask);
			if (!sched_setaffinity(t->tid, sizeof(mask), &mask))
				aff++;
			else if (errno != ESRCH && errno != EINVAL && errno != EBUSY)
				report("sched_setaffinity", t->tid, errno);
			if (!setpriority(PRIO_PROCESS, t->tid, rand() % 20))
				nic++;
			else if (errno != ESRCH)
				report("setpriority", t->tid, errno);
			if (ncgroups && t->movable) {
				attempts++;
				moves += cg_move(cgroups[rand() % ncgroups], t->pid);
			}
		}
		if (parent && round % 2 == 0) {
			if (scratch[0]) {
				if (!scratch_remove(scratch))
					made++, scratch[0] = 0;
			} else if (ntasks) {
				struct task *t = &tasks[rand() % ntasks];

				snprintf(scratch, sizeof(scratch), "%s/churn%d", parent, round);
				if (mkdir(scratch, 0755)) {
					report(scratch, 0, errno);
					scratch[0] = 0;
				} else {
					snprintf(path, sizeof(path), "%s/cpu.weight", scratch);
					snprintf(weight, sizeof(weight), "%d", 1 + rand() % 500);
					if (write_str(path, weight))
						report(path, 0, errno);
					if (t->movable) {
						attempts++;
						moves += cg_move(scratch, t->pid);
					}
				}
			}
		}
		if (interval_ms)
			nanosleep(&nap, NULL);
	}

	/* The scratch cgroup must not outlive the run. */
	for (i = 0; scratch[0] && i < 50; i++) {
		if (!scratch_remove(scratch)) {
			made++, scratch[0] = 0;
			break;
		}
		usleep(100000);
	}
	if (scratch[0]) {
		fprintf(stderr, "taskchurn: error: cannot remove %s\n", scratch);
		unexpected++;
	}
	printf("affinity_changes %llu\nnice_changes %llu\n", aff, nic);
	if (ncgroups)
		printf("cgroup_move_attempts %llu\ncgroup_moves %llu\n", attempts, moves);
	if (parent)
		printf("cgroups_created_removed %llu\n", made);
	printf("unexpected_errors %ld\n", unexpected);
	return unexpected ? 1 : 0;
}
