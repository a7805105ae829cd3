#!/usr/bin/env bash
# scripts/trace end to end: two CPU-bound tasks pinned to one CPU of the
# default cell's guest, recorded with the sched and hrtimer tracepoints and
# summarised by tracesum. Their runs must last the base slice the guest
# reports (RUN_TO_PARITY and equal weights: each runs its slice; HRTICK on
# ends it there, HRTICK off at the first tick after it, HZ from the
# kernel's configuration), and with HRTICK the hrtick must be armed, fire
# and end runs. Not every firing ends one: a task whose peer is still
# ineligible at its deadline is picked again (10-40% of the firings in
# three runs on 2026-12-05, reports/2026-12-05-virtual-time-tracing.md).
# Bad input: one line and exit 2, from both programs.
# check: after 01
. "$(dirname "$0")/lib.sh"
need_kernel

out=$("$SCRIPTS/trace" --selftest nosuch 2>&1)
rc=$?
[ "$rc" = 2 ] && [ "$(grep -c . <<<"$out")" = 1 ] ||
	fail "an unknown selftest: wanted one line and exit 2, got exit $rc: $out"
echo "bad input: $out"
build_tools tracesum
out=$("$BUILD/bin/tracesum" --long soon </dev/null 2>&1)
rc=$?
[ "$rc" = 2 ] && [ "$(grep -c . <<<"$out")" = 1 ] ||
	fail "tracesum --long soon: wanted one line and exit 2, got exit $rc: $out"
echo "bad input: $out"

t=$TMP/trace
"$SCRIPTS/trace" --out "$t" --comm stress-ng-cpu -- sh -c \
	'cat /sys/kernel/debug/sched/base_slice_ns
	grep -o "\(NO_\)\?HRTICK " /sys/kernel/debug/sched/features
	cd /tmp && stress-ng --cpu 2 --taskset 1 -t 1 -q' >"$TMP/log" 2>&1 ||
	{ tail -n 20 "$TMP/log"; fail "scripts/trace failed"; }
[ -s "$t/trace.dat" ] && [ -s "$t/summary.txt" ] && [ -s "$t/runs.tsv" ] ||
	fail "no trace.dat, summary.txt or runs.tsv in $t"
sed 's/^/# /' "$t/summary.txt"
slice=$(grep -m1 -x '[0-9]*' "$t/command.log")
hrtick=$(grep -m1 -o '^\(NO_\)\?HRTICK' "$t/command.log")
hz=$(sed -n 's/^CONFIG_HZ=//p' "$KOBJ/.config")
[ -n "$slice" ] && [ -n "$hrtick" ] || fail "the guest did not report its base slice and HRTICK: $(head -n 3 "$t/command.log")"
read -r n med < <(awk '$1 == "stress-ng-cpu" && NF == 6 {print $2, $4}' "$t/summary.txt")
[ "${n:-0}" -ge 50 ] || fail "only ${n:-0} runs of stress-ng-cpu traced, want 50 or more"
if [ "$hrtick" = HRTICK ]; then
	lo=$slice hi=$((slice * 11 / 10))
	read -r armed fired switched < <(sed -n 's/^hrtick: armed \([0-9]*\), cancelled [0-9]*, fired \([0-9]*\); a switch within [0-9]* us of a firing: \([0-9]*\)$/\1 \2 \3/p' "$t/summary.txt")
	[ "${armed:-0}" -gt 0 ] && [ "${fired:-0}" -gt 0 ] && [ "${switched:-0}" -gt 0 ] ||
		fail "HRTICK on, but the hrtick was armed ${armed:-0} and fired ${fired:-0} times, ${switched:-0} followed by a switch"
else
	[ -n "$hz" ] || fail "NO_HRTICK and no CONFIG_HZ in $KOBJ/.config"
	tick=$((1000000000 / hz))
	lo=$slice hi=$(((slice + tick - 1) / tick * tick + tick / 10))
fi
awk -v m="$med" -v lo="$lo" -v hi="$hi" 'BEGIN {m *= 1e6; exit !(m >= lo * 0.98 && m <= hi)}' ||
	fail "median run $med ms, want $(awk -v a="$lo" -v b="$hi" 'BEGIN {printf "%.3f-%.3f", a / 1e6, b / 1e6}') ms (base slice $slice ns, $hrtick)"
echo "# $n runs, median $med ms; base slice $slice ns, $hrtick${armed:+; hrtick armed $armed, fired $fired, switch after $switched}"
