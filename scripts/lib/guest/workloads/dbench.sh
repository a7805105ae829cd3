# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash
# dbench: the file server load of seed 001, its client.txt loadfile.
# dbench-tmpfs: NCPU/2 clients on tmpfs. dbench-N: a sweep of client
# counts (BENCH_DBENCH_CLIENTS, default "1 2 4 8", seed 001 went to 128) in
# BENCH_DBENCH_DIR (default: tmpfs; seed 001 used ext4). Seed 001 also
# reported the system CPU time of its runs: every run records it (sys-cpu,
# scripts/lib/guest/run-bench).

workload dbench-tmpfs 0 'throughput MB/s hi'
for n in ${BENCH_DBENCH_CLIENTS:-1 2 4 8}; do
	workload "dbench-$n" 0 'throughput MB/s hi'
	eval "setup_dbench_$n() { dbench_setup; }
	      run_dbench_$n() { dbench_run '${BENCH_DBENCH_DIR:-/dev/shm}' $n; }
	      parse_dbench_$n() { dbench_parse; }"
done

# The loadfile, read by every client as it starts, is copied to tmpfs
# first. Read from the guest's root, a host directory, it makes the guest
# wait for the host inside the timed run; on virtual time with sleep=off
# (scripts/vm's first default) an idle guest's clock jumped to its next
# timer meanwhile, so the run's 3 s could pass before its clients had
# started: the likely cause of the throughput of 0 that make check's smoke
# run saw once (2026-12-05).
DBENCH_LOADFILE=/dev/shm/sw-dbench-client.txt
dbench_setup() { cp /usr/share/dbench/client.txt "$DBENCH_LOADFILE"; }

# dbench_run DIR CLIENTS. dbench reports nothing for a run under 3 s (its
# warm-up takes part of the time), and a throughput of 0 when its clients
# are still starting at the end: at least 3 s, and a second per 4 clients
# (in an 8-CPU TCG guest, 128 clients measured nothing in 3 s; on a busy
# host, 32 clients nothing in 4 s).
dbench_run() {
	local dir rc secs=$RUN_WHOLE_SECS
	[ "$secs" -ge 3 ] || secs=3
	[ "$secs" -ge $(($2 / 4)) ] || secs=$(($2 / 4))
	dir=$(mktemp -d "$1/sw-dbench.XXXXXX") || return 1
	dbench -D "$dir" -c "$DBENCH_LOADFILE" -t "$secs" "$2"
	rc=$?
	rm -rf "$dir"
	return $rc
}
dbench_parse() { awk '/^Throughput/ {print "throughput", $2}'; }

setup_dbench_tmpfs() { dbench_setup; }
run_dbench_tmpfs() { dbench_run /dev/shm "$HALF"; }
parse_dbench_tmpfs() { dbench_parse; }
