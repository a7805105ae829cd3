#!/usr/bin/env bash
# make bench's whole pipeline, briefly (scripts/bench --smoke: every workload,
# the baseline and one variant, one 1 s run each, in the default guest):
# every workload yields its samples, your own --command workload included,
# each run records the kernel's mechanism counters, the raw outputs are kept
# and parse again to the same samples (--parse), the statistics, tables
# (with the minimum detectable effect), JSON and plots are written and well
# formed, each run's features line is the one its configuration asks for,
# and the features line is restored at the end; a run whose tool is killed
# by a signal is run once more, and noted. Not a performance assertion.
# check: after 01
# check: uses bench
. "$(dirname "$0")/lib.sh"
need_kernel
out=$TMP/smoke
# Your own workload: the figure is the (group), in the last match. Its
# first run kills itself with SIGSEGV, as perf bench once did on exit.
cmd='[ -e /tmp/sw-crashed ] || { touch /tmp/sw-crashed; kill -SEGV $$; }
for i in 1 2; do perf bench sched pipe -l 2000; done'
"$SCRIPTS/bench" --smoke --out "$out" --command "$cmd" --metric '([0-9.]+) usecs/op' \
	--unit us/op >"$TMP/log" 2>&1 || { tail -n 20 "$TMP/log"; fail "scripts/bench --smoke failed"; }
tail -n 1 "$TMP/log"
for f in samples.tsv runs.tsv configs.tsv env.tsv report.txt report.md results.json \
	delta.dat cdf.svg features.end; do
	[ -s "$out/$f" ] || fail "no $f"
done
list=$(printf '%s\ncommand\n' "$("$SCRIPTS/bench" --list)")
nw=$(wc -l <<<"$list")
# The workloads the issues asked for, each present.
for w in hackbench-process-pipe hackbench-process-socket hackbench-thread-pipe \
	hackbench-thread-socket hackbench-seed004 perf-sched-pipe perf-sched-messaging \
	perf-futex-wake sysbench-threads sysbench-mutex sysbench-cpu sysbench-memory cyclictest \
	cyclictest-cg10 cyclictest-cgtree cyclictest-seed004 cyclictest-seed004-cg10 \
	cyclictest-seed004-cgtree tbench sockperf-tcp-pingpong sockperf-tcp-pingpong-pinned \
	sockperf-udp-stream sockperf-tcp-stream dbench-tmpfs dbench-1 dbench-8 fork exec spawn \
	wakelat command; do
	grep -qx -- "$w" <<<"$list" || fail "workload $w is not listed"
done
# Every declared metric of every workload was measured.
"$SCRIPTS/bench" --list-metrics | while IFS=$'\t' read -r w m _; do
	awk -F'\t' -v w="$w" -v m="$m" '$1 == w && $2 == m {f = 1} END {exit !f}' "$out/samples.tsv" ||
		fail "no $w $m sample"
done || exit 1
# The command's figure is the last match in its output: the second pipe run's.
for c in $(cut -f1 "$out/configs.tsv"); do
	last=$(grep -oE '[0-9.]+ usecs/op' "$out/logs/command/$c.1.raw" | tail -n 1 | cut -d' ' -f1)
	awk -F'\t' -v v="$last" -v c="$c" '$1 == "command" && $2 == "value" && $5 == c {f = ($7 == v)}
		END {exit !f}' "$out/samples.tsv" || fail "the command's figure in $c is not its last match ($last)"
done
# The mechanism counters, for every run (system-wide counts: a run without
# any wakeup or timeslice does not happen).
for m in ctxsw migrations lb-moved wake-remote wake-xllc wake-affine rundelay sys-cpu timer-irqs; do
	n=$(awk -F'\t' -v m="$m" '$2 == m && $4 == "info"' "$out/samples.tsv" | wc -l)
	[ "$n" = $((2 * nw)) ] || fail "$m recorded for $n runs of $((2 * nw))"
done
# Wakeups onto another LLC are a share of those onto another CPU.
awk -F'\t' '$2 == "wake-remote" {r[$1 $5] = $7} $2 == "wake-xllc" {x[$1 $5] = $7}
	END {for (k in x) if (x[k] > r[k] + 0.01) exit 1}' "$out/samples.tsv" ||
	fail "wake-xllc above wake-remote"
# The crashed run, run again once.
[ "$(cut -f1,4 "$out/runs-retried.tsv" 2>/dev/null)" = "command	signal 11" ] ||
	fail "the crashed run is not noted once in runs-retried.tsv: $(cat "$out/runs-retried.tsv" 2>&1)"
ls "$out"/logs/command/*.crashed.raw >/dev/null 2>&1 || fail "the crashed attempt's output is not kept"
echo "retried: $(cat "$out/runs-retried.tsv")"
# The raw outputs parse again to the same samples.
cp "$out/samples.tsv" "$TMP/samples.first"
"$SCRIPTS/bench" --parse "$out" --command "$cmd" --metric '([0-9.]+) usecs/op' --unit us/op \
	>"$TMP/parse.log" 2>&1 || { tail -n 5 "$TMP/parse.log"; fail "--parse failed"; }
cmp -s <(sort "$TMP/samples.first") <(sort "$out/samples.tsv") ||
	fail "--parse gave other samples than the run"
grep -q '| MDE |' "$out/report.md" || fail "report.md has no MDE column"
# cyclictest measures the three nice levels of seed 004 in each run.
for n in -19 0 19; do
	awk -F'\t' -v m="nice$n-avg" '$1 == "cyclictest-cgtree" && $2 == m {f = 1} END {exit !f}' \
		"$out/samples.tsv" || fail "no cyclictest-cgtree sample at nice $n"
done
# Every workload has at least one measured metric and a ctxsw row, for both
# configurations.
for w in $list; do
	for c in $(cut -f1 "$out/configs.tsv"); do
		n=$(awk -F'\t' -v w="$w" -v c="$c" '$1 == w && $5 == c && $2 != "ctxsw"' "$out/samples.tsv" | wc -l)
		[ "$n" -ge 1 ] || fail "no sample of $w in $c"
		awk -F'\t' -v w="$w" -v c="$c" '$1 == w && $5 == c && $2 == "ctxsw" {f = 1} END {exit !f}' \
			"$out/samples.tsv" || fail "no context-switch rate for $w in $c"
	done
done
echo "# $nw workloads, $(grep -vc '^#' "$out/samples.tsv") samples"
# Each run's features line holds its configuration's features; the baseline's
# is the starting line, and the line is the starting one at the end.
start=$(awk -F'\t' '$1 == "features_start" {print $2}' "$out/env.tsv")
[ -n "$start" ] || fail "env.tsv has no features_start"
while IFS=$'\t' read -r c feats; do
	awk -F'\t' -v c="$c" '!/^#/ && $2 == c {print $5}' "$out/runs.tsv" >"$TMP/lines"
	[ -s "$TMP/lines" ] || fail "no run of configuration $c"
	if [ -z "$feats" ]; then
		grep -vxF -- "$start" "$TMP/lines" && fail "a $c run did not have the starting features"
	else
		for t in $feats; do
			grep -vqw -- "$t" "$TMP/lines" || continue
			fail "a $c run did not have $t"
		done
	fi
done <"$out/configs.tsv"
[ "$(cat "$out/features.end")" = "$start" ] || fail "features not restored: $(cat "$out/features.end")"
# Tables: a mean row per metric in report.txt, the variant's section in
# report.md, valid JSON with the environment and the raw samples.
rows=$(awk -F'\t' '!/^#/ {print $1 ":" $2}' "$out/samples.tsv" | sort -u | wc -l)
means=$(grep -cE '^(Amean|Hmean) ' "$out/report.txt")
[ "$means" = "$rows" ] || fail "report.txt has $means mean rows for $rows metrics"
variant=$(sed -n 2p "$out/configs.tsv" | cut -f1)
grep -q "^### $variant " "$out/report.md" || fail "report.md has no section for $variant"
grep -q '| lower is better? |' "$out/report.md" || fail "report.md has no 'lower is better?' column"
python3 - "$out/results.json" "$rows" <<'PY' || fail "results.json is malformed"
import json, sys
d = json.load(open(sys.argv[1]))
for k in ("kernel", "accel", "topology", "features_start", "series"):
    assert k in d["env"], k
assert len(d["rows"]) == int(sys.argv[2]), "rows"
for r in d["rows"]:
    for c in d["configs"]:
        cell = r["configs"][c["name"]]
        assert cell["n"] == len(cell["samples"]) >= 1, (r["workload"], c["name"])
PY
for f in "$out"/*.svg; do
	grep -q '<svg' "$f" || fail "$(basename "$f") is not SVG"
done
echo "# $rows metric rows; report.txt, report.md, results.json, $(ls "$out"/*.svg | wc -l) SVG plots"
