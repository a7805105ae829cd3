# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash
# sysbench: seed 000's threads, mutex, cpu and memory tests.
# BENCH_SYSBENCH_THREADS: threads (default: the CPUs; threads: twice that).

workload sysbench-threads 0 'events ops/s hi'
workload sysbench-mutex 2000 'time s lo'
workload sysbench-cpu 0 'events ops/s hi'
workload sysbench-memory 0 'transfer MiB/s hi'

sb_threads() { echo "${BENCH_SYSBENCH_THREADS:-$NCPU}"; }

run_sysbench_threads() {
	sysbench threads --threads=$(($(sb_threads) * 2)) --time="$RUN_WHOLE_SECS" run
}
# Events over sysbench's own "total time:" (the parser needs nothing else).
parse_sysbench_threads() {
	awk '/total time:/ {t = $NF; sub("s$", "", t)}
	     /total number of events:/ {n = $NF}
	     END {if (t > 0 && n != "") print "events", n / t}'
}

run_sysbench_mutex() { sysbench mutex --threads="$(sb_threads)" --mutex-locks="$SIZE" run; }
parse_sysbench_mutex() { awk '/total time:/ {sub("s$", "", $NF); print "time", $NF}'; }

run_sysbench_cpu() { sysbench cpu --threads="$(sb_threads)" --time="$RUN_WHOLE_SECS" run; }
parse_sysbench_cpu() { awk '/events per second:/ {print "events", $NF}'; }

# "102400.00 MiB transferred (10239.25 MiB/sec)"
run_sysbench_memory() {
	sysbench memory --threads="$(sb_threads)" --time="$RUN_WHOLE_SECS" \
		--memory-total-size=1T run
}
parse_sysbench_memory() {
	awk '/MiB transferred/ {gsub("[(]", "", $4); print "transfer", $4}'
}
