# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash
# wakelat (scripts/src/wakelat.c): a schbench-style wakeup latency test,
# NCPU/4 message threads with 4 workers each; its JSON goes to
# wakelat/CONFIG.ITERATION.json for the latency CDF plots.

workload wakelat 0 'p50 us lo' 'p90 us lo' 'p99 us lo' 'p99.9 us lo' 'requests ops/s hi'

run_wakelat() {
	local json=$OUT/wakelat/$CFG.$IT.json
	[ "$IT" = warm ] && json=$RUNLOG.json
	"$BIN/wakelat" -m $(((NCPU + 3) / 4)) -t 4 -r "$RUN_SECS" -w 0.3 -j "$json" >&2 || return 1
	"$BIN/benchstat" flat "$json"
}
parse_wakelat() {
	awk '$1 == "p50_us" || $1 == "p90_us" || $1 == "p99_us" || $1 == "p99.9_us" {
		sub("_us$", "", $1); print $1, $2 }
	     $1 == "rps" {print "requests", $2}'
}
