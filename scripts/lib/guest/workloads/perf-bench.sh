# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash
# perf bench (linux-perf): seed 000's sched pipe, sched messaging and futex
# wake. BENCH_FUTEX_THREADS: waker threads of futex wake (default: the CPUs;
# seed 000 used 640).

workload perf-sched-pipe 5000 'latency us/op lo'
workload perf-sched-messaging 20 'time s lo'
workload perf-futex-wake 0 'wake-all ms lo'

run_perf_sched_pipe() { perf bench sched pipe -l "$SIZE"; }
parse_perf_sched_pipe() { awk '/usecs\/op/ {print "latency", $1}'; }

run_perf_sched_messaging() { perf bench sched messaging -g 2 -l "$SIZE"; }
parse_perf_sched_messaging() { awk '/Total time:/ {print "time", $3}'; }

run_perf_futex_wake() { perf bench futex wake -s -t "${BENCH_FUTEX_THREADS:-$NCPU}" -w 1; }
parse_perf_futex_wake() { awk '/^Wokeup/ {print "wake-all", $(NF - 2)}'; }
