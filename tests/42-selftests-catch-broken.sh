#!/usr/bin/env bash
# The selftests fail on kernels that are wrong on purpose (build_mutant in
# tests/lib.sh), each in the cells of the matrix named. On the mainline line:
#   noop      (every flag compiled to its default), SMT and NUMA cells: every
#             test of a non-default direction fails, the default ones pass
#             (the NUMA cell: idlest_util's);
#   inverted  (on behaves as off), CPU numbers with a hole: every test fails.
#   PROTECT_ELIGIBLE's variants (ineligible.protect_*, protect_wakeup.*)
#   fail under both but the custom-slice ones, which expect the same runs
#   and waits with the flag on and off;
#   quantum   (PROTECT_ELIGIBLE without its quantum), 2 LLCs x 4: the HRTICK
#             variants of ineligible fail (runs under half the quantum), the
#             tick one passes (the tick is its floor), so does the custom
#             slice; protect_wakeup passes (its hog has run the quantum);
#   wakeup    (PROTECT_ELIGIBLE without its wakeup hunk), 2 LLCs x 4:
#             protect_wakeup fails but its custom slice and the wakees
#             that never preempt, ineligible passes;
#   scope     (the wakeup hunk also for wakees the base never lets preempt),
#             2 LLCs x 4: protect_wakeup's SCHED_BATCH, SCHED_IDLE and fork
#             wakees fail, every other case passes;
#   min-quantum, hrtick-repick (the fix of mainline's minimum quantum, or
#             the 7.3.y equivalent of c72945693b90, undone), 2 LLCs x 4:
#             the protect_base case of that fix fails, the others pass;
#   flag-hrtick (PROTECT_ELIGIBLE without its hrtick for the end of the
#             protection), 2 LLCs x 4: protect_base.short_slice_flag fails
#             (the runs end at the tick, as without the flag), the base's
#             short_slice and ineligible.protect_hrtick pass;
#   v2        (PROTECT_ELIGIBLE as posted before 2026-12-07), 2 LLCs x 4:
#             protect_base's _flag variants of short_slice (the flag pushes
#             back PREEMPT_SHORT's end) and repick (a timer storm) fail, the
#             no_parity one and the base's cases pass.
# The 6.12.y line's EEVDF flags, tested by that line's own ineligible.c,
# are checked there:
#   root, leaf (INELIGIBLE judged on the root runqueue, or on the task's own
#             runqueue only), 2 LLCs x 4: the layouts where the hogs meet
#             elsewhere fail, the others pass;
#   slice     (a task's own long slice cut too), 2 LLCs x 4: only the
#             custom-slice test fails.
# make check runs the mainline line's; make check-full both lines'.
# The mutants of a line are built first, then booted one guest per host CPU
# at once, each running only the cases its verdict names; the verdicts
# print in order, with each build's and guest's seconds.
# The custom-slice test expects the same runs with the flag on and off, so
# it passes under every mutant but the last.
# check: cpus all
# check: after 01 41
# check: uses mutant-tree
. "$(dirname "$0")/lib.sh"
bad=0
# The 6.12.y line's ineligible variants (its own ineligible.c).
ine="tick wakeup tick_siblings wakeup_siblings tick_tree wakeup_tree tick_autogroup wakeup_autogroup tick_autogroups wakeup_autogroups tick_custom_slice"
pro="protect_hrtick protect_hrtick_siblings protect_hrtick_autogroups protect_tick"
pwa="hrtick hrtick_siblings hrtick_autogroups tick"
pwk="batch_wakee idle_wakee fork_wakee"

# protect_broken: PROTECT_ELIGIBLE's variants fail, the custom-slice ones pass.
protect_broken() {
	local v
	for v in $pro; do
		printf 'ineligible.%s.runs:fail ' "$v"
	done
	printf 'ineligible.protect_custom_slice.runs:pass '
	protect_wakeup_want fail
}

# protect_wakeup_want WANT [NEVER]: protect_wakeup's variants give WANT,
# the custom-slice one passes, those of wakees that never preempt give
# NEVER (default pass).
protect_wakeup_want() {
	local v
	for v in $pwa; do
		printf 'protect_wakeup.%s.waits:%s ' "$v" "$1"
	done
	printf 'protect_wakeup.custom_slice.waits:pass '
	for v in $pwk; do
		printf 'protect_wakeup.%s.waits:%s ' "$v" "${2:-pass}"
	done
}

# ineligible_want PASSING...: every ineligible variant fails but those named.
ineligible_want() {
	local v w
	for v in $ine; do
		w=fail
		[[ " $* " == *" $v "* ]] && w=pass
		printf 'ineligible.%s.runs:%s ' "$v" "$w"
	done
}

# check MUTANT CELL TESTS WANT: boot the mutant (built by build_mutant) in
# the cell and compare, in the background: one guest per host CPU at once,
# each with one QEMU thread. The guest runs only the cases WANT names. A
# guest that failed itself (no results: scripts/vm's error line in
# results.tsv) is named and booted once more. verdicts prints the verdicts
# in order.
queued=()
check() {
	local v=$out/$1-$2.verdict cases try t0
	cases=$(for t in $4; do printf '%s|' "${t%:*}"; done)
	[ "$(jobs -rp | wc -l)" -lt "$jobs" ] || wait -n
	{
		echo "$SW_BASE: $1 in $2:"
		for try in 1 2; do
			t0=$(date +%s)
			"$SCRIPTS/matrix" --kernel "$BUILD/mutants/$1.bzImage" --cells "$2" ${3:+--tests "$3"} \
				--cases "${cases%|}" --out "$out/$1-$2" >"$out-$1-$2.log" 2>&1
			echo "  (guest: $(($(date +%s) - t0)) s)"
			grep -q $'^guest\tfail' "$out/$1-$2/$2/1/results.tsv" 2>/dev/null || break
			[ "$try" = 2 ] || echo "  the guest failed itself ($(grep $'^guest\tfail' \
				"$out/$1-$2/$2/1/results.tsv" | cut -f3)): booted once more"
		done
		expect_results "$out/$1-$2/$2/1" "$4" || {
			echo "  ^ $1 in $2: not caught as predicted; the matrix said:"
			grep -E 'FAIL|error' "$out-$1-$2.log" | sed 's/^/    /'
			touch "$v.bad"
		}
	} >"$v" 2>&1 &
	queued+=("$v")
}

verdicts() {
	local v
	wait
	for v in "${queued[@]}"; do
		cat "$v"
		[ ! -e "$v.bad" ] || bad=1
	done
	queued=()
}

# mutants NAME...: build each (one kernel build at a time, every CPU).
mutants() {
	local m t0
	for m; do
		t0=$(date +%s)
		build_mutant "$m" >/dev/null || exit 1
		echo "mutant $m built in $(($(date +%s) - t0)) s"
	done
}

jobs=$(nproc)
# The mainline line.
need_kernel
out=$BUILD/check-mutants
rm -rf "$out" && mkdir -p "$out"
mutants noop inverted quantum wakeup scope min-quantum hrtick-repick flag-hrtick v2
# One install for all the matrices that run side by side: each installing
# its own removed the files under the other's guest ("cannot open
# ./kselftest/runner.sh", no results, 2026-12-05).
install_selftests >/dev/null
export SW_SELFTESTS_INSTALLED=1
check noop smt2x4 "" "wa_idle_prev.on.placement:pass wa_idle_prev.off.placement:fail
	idlest_util_local.on.fork_placement:fail idlest_util_local.off.fork_placement:pass
	$(protect_broken)"
# The NUMA cell for idlest_util: LLCs of a node with another node beside;
# smt2x4 has checked the rest.
check noop numa2x3x2 idlest_util "idlest_util.on.fork_placement:pass
	idlest_util.off.fork_placement:fail"
check inverted holes3x4 "" "wa_idle_prev.on.placement:fail wa_idle_prev.off.placement:fail
	idlest_util.on.fork_placement:fail idlest_util.off.fork_placement:fail
	idlest_util_local.on.fork_placement:fail idlest_util_local.off.fork_placement:fail
	$(protect_broken)"
check quantum llc2x4 ineligible "ineligible.protect_hrtick.runs:fail
	ineligible.protect_hrtick_siblings.runs:fail ineligible.protect_hrtick_autogroups.runs:fail
	ineligible.protect_tick.runs:pass ineligible.protect_custom_slice.runs:pass
	$(protect_wakeup_want pass)"
check wakeup llc2x4 ineligible "$(protect_wakeup_want fail)
	ineligible.protect_hrtick.runs:pass ineligible.protect_hrtick_siblings.runs:pass
	ineligible.protect_hrtick_autogroups.runs:pass ineligible.protect_tick.runs:pass
	ineligible.protect_custom_slice.runs:pass"
check scope llc2x4 ineligible "$(protect_wakeup_want pass fail)
	ineligible.protect_hrtick.runs:pass ineligible.protect_tick.runs:pass"
# Each fix of mainline's protected slice undone: its own case fails.
check min-quantum llc2x4 ineligible "protect_base.no_parity.runs:fail
	protect_base.short_slice.runs:pass protect_base.repick.runs:pass"
check hrtick-repick llc2x4 ineligible "protect_base.repick.runs:fail
	protect_base.short_slice.runs:pass protect_base.no_parity.runs:pass"
check flag-hrtick llc2x4 ineligible "protect_base.short_slice_flag.runs:fail
	protect_base.short_slice.runs:pass ineligible.protect_hrtick.runs:pass"
check v2 llc2x4 ineligible "protect_base.short_slice_flag.runs:fail
	protect_base.repick_flag.runs:fail protect_base.no_parity_flag.runs:pass
	protect_base.short_slice.runs:pass protect_base.repick.runs:pass"
verdicts

# The 6.12.y line's mutants are the second tier's (make check-full).
if [ "${SW_CHECK_TIER:-full}" != full ]; then
	[ $bad = 0 ] || fail "the selftests did not catch a broken kernel as predicted (logs in $out)"
	echo "the 6.12.y line's mutants: make check-full"
	exit 0
fi

# The 6.12.y line: its EEVDF flags (its kernel: tests/41).
export SW_BASE=6.12
. "$TOP/scripts/lib/common.sh"
need_kernel
out=$BUILD/check-mutants
rm -rf "$out" && mkdir -p "$out"
mutants root leaf slice
install_selftests >/dev/null
check root llc2x4 ineligible "$(ineligible_want tick wakeup tick_autogroups wakeup_autogroups tick_custom_slice)"
check leaf llc2x4 ineligible "$(ineligible_want tick wakeup tick_autogroup wakeup_autogroup tick_custom_slice)"
check slice llc2x4 ineligible "$(ineligible_want ${ine% tick_custom_slice})"
verdicts
[ $bad = 0 ] || fail "the selftests did not catch a broken kernel as predicted (logs in $out)"
