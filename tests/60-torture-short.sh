#!/usr/bin/env bash
# The short torture: the debug kernel (make kernel DEBUG=1: lockdep,
# PREEMPT, atomic-sleep, list and UBSAN checks, lockup/hung/RCU-stall
# detectors) runs 60 s per topology (2 LLCs; 2 NUMA nodes) of random flag
# flips every 5 ms under stress-ng, hackbench, CPU hotplug, cgroup, affinity
# and nice churn. Passes when no splat reached the console, every worker
# exited 0, the features line and all CPUs came back, every kind of churn
# actually happened, and the report carries the seed that replays it.
# check: cpus all
# check: full
. "$(dirname "$0")/lib.sh"
dbg=$KOBJ_DEBUG
"$SCRIPTS/build" --debug >"$TMP/build.log" 2>&1 ||
	{ tail -n 20 "$TMP/build.log"; fail "the debug kernel does not build"; }
tail -n 1 "$TMP/build.log"
# Results (consoles included) under build/, not in the temporary directory:
# a failure must leave its console behind to be read.
out=$BUILD/torture-check
rm -rf "$out"
seed=$((RANDOM * 32768 + RANDOM + 1))
"$SCRIPTS/torture" --duration 120 --seed "$seed" --kernel "$dbg/arch/x86/boot/bzImage" --out "$out" \
	>"$TMP/log" 2>&1
rc=$?
sed -n '/^torture (/,$p' "$TMP/log" | sed 's/^/# /'
[ "$rc" = 0 ] || { grep -E 'FAIL|error' "$TMP/log" | head -n 10; fail "torture failed (exit $rc)"; }
for t in llc numa; do
	[ "$(cat "$out/$t/splats")" = 0 ] || fail "$t: splats on the console (replay: --seed $seed)"
	[ "$(awk -F'\t' '$1 == "seed" {print $2}' "$out/$t/summary.tsv")" = "$seed" ] ||
		fail "$t: the summary does not carry the seed $seed"
	for k in flips hotplug_cycles cgroup_moves cgroups_created_removed affinity_changes \
		nice_changes hackbench_process_runs hackbench_thread_runs; do
		v=$(awk -F'\t' -v k="$k" '$1 == k {print $2}' "$out/$t/summary.tsv")
		[ "${v:-0}" -gt 0 ] || fail "$t: no $k"
	done
	for k in write_errors unexpected_errors; do
		[ "$(awk -F'\t' -v k="$k" '$1 == k {print $2}' "$out/$t/summary.tsv")" = 0 ] ||
			fail "$t: $k is not 0"
	done
done
