# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash
# hackbench (rt-tests): groups of senders and receivers over pipes or
# sockets, as processes or threads. hackbench-seed004 is seed 004's load, 4
# groups of 20 senders and 20 receivers (160 processes), as a workload.

for m in process thread; do
	for t in pipe socket; do
		workload "hackbench-$m-$t" 20 'time s lo'
	done
done
workload hackbench-seed004 10 'time s lo'

hackbench_parse() { awk '/^Time:/ {print "time", $2}'; }

run_hackbench_process_pipe() { hackbench -P -p -g 2 -l "$SIZE" -s 4096; }
run_hackbench_process_socket() { hackbench -P -g 2 -l "$SIZE" -s 4096; }
run_hackbench_thread_pipe() { hackbench -T -p -g 2 -l "$SIZE" -s 4096; }
run_hackbench_thread_socket() { hackbench -T -g 2 -l "$SIZE" -s 4096; }
run_hackbench_seed004() { hackbench -P -g 4 -f 20 -l "$SIZE" -s 100; }
for f in process_pipe process_socket thread_pipe thread_socket seed004; do
	eval "parse_hackbench_$f() { hackbench_parse; }"
done
