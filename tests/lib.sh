# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash
# Helpers for the tests in tests/. Sourced by each test.
set -uo pipefail
PROG=$(basename "$0" .sh)
. "$(dirname "$0")/../scripts/lib/common.sh"
SCRIPTS=$TOP/scripts
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT

fail() {
	echo "FAIL: $*"
	exit 1
}

skip() {
	echo "SKIP: $*"
	exit 4
}

# need_kernel: the tests that boot a guest need the kernel of 'make kernel'.
need_kernel() {
	[ -r "$KOBJ/arch/x86/boot/bzImage" ] || fail "no $KOBJ/arch/x86/boot/bzImage (the kernel build test failed)"
}

# install_selftests: the kselftest install of scripts/install-selftests; prints the
# directory of its sched-wakeup programs.
install_selftests() {
	"$SCRIPTS/install-selftests" >"$TMP/selftests.log" 2>&1 || { cat "$TMP/selftests.log"; fail "the selftests do not build"; } >&2
	echo "$BUILD/selftests/sched-wakeup"
}

# build_mutant NAME: the line's kernel with one deliberate defect, built in
# obj-mutant from the line's tree's fair.c, which is restored at once;
# prints the bzImage's path (mutants/NAME.bzImage in the line's build
# directory). The defects:
#   noop      every flag of the series compiled to its default
#   inverted  every flag's test inverted: on behaves as off and off as on
#   root      the INELIGIBLE flags judge eligibility on the root runqueue
#   leaf      ... on the current task's own runqueue only
#   slice     ... and cut a task that asked for a long slice too
#   quantum   PROTECT_ELIGIBLE without its quantum: a run ends at the
#             crossing, and HRTICK is armed there
#   wakeup    PROTECT_ELIGIBLE without its wakeup hunk: a wakeup that does
#             not preempt leaves the protection as it was
#   scope     PROTECT_ELIGIBLE's wakeup hunk also where the base never
#             preempts (after the update: label: fork, BATCH, IDLE wakees)
#   min-quantum   mainline's fix (patch 1) undone: NO_RUN_TO_PARITY with
#             PREEMPT_SHORT gives no minimum quantum
#   hrtick-repick the 7.3.y equivalent of c72945693b90 (patch 2) undone: no
#             hrtick for the current task picked again
#   flag-hrtick   PROTECT_ELIGIBLE without its hrtick for the end of the
#             protection: armed for the deadline alone, as by default
#   v2        PROTECT_ELIGIBLE as posted before 2026-12-07, on the series
#             of then: the hrtick armed for the end of the protection
#             whatever the flag (that series' patch 2), and under the flag
#             for the later of that end and the quantum, even over an
#             earlier end the base set and for a point already passed (a
#             storm of 10 us firings on a repick), and re-armed on another
#             CPU at a wakeup (an IPI)
# (root, leaf, slice: the 6.12.y line's flags; quantum, wakeup, scope and
# the fixes: the mainline's).
build_mutant() {
	local name=$1 f=$KSRC/kernel/sched/fair.c want n
	local SW_FLAGS
	SW_FEAT_KERNEL=$SW_BASE . "$TOP/scripts/lib/features.sh"
	[ -z "$(git -C "$KSRC" status --porcelain --untracked-files=no)" ] || fail "$KSRC is not clean" >&2
	local flags="WA_IDLE_PREV|IDLEST_UTIL|IDLEST_UTIL_LOCAL|TICK_INELIGIBLE|WAKEUP_INELIGIBLE|PROTECT_ELIGIBLE"
	case $name in
	noop)
		# Each line of fair.c that tests a flag changes: at least one per flag.
		want=$(grep -cE "sched_feat\(($flags)\)" "$f")
		[ "$want" -ge "$(wc -w <<<"$SW_FLAGS")" ] || want=-1
		perl -pi -e 's/sched_feat\((WA_IDLE_PREV|IDLEST_UTIL)\)/true/g;
			s/sched_feat\((IDLEST_UTIL_LOCAL|TICK_INELIGIBLE|WAKEUP_INELIGIBLE|PROTECT_ELIGIBLE)\)/false/g' "$f" ;;
	inverted)
		want=$(grep -cE "sched_feat\(($flags)\)" "$f")
		[ "$want" -ge "$(wc -w <<<"$SW_FLAGS")" ] || want=-1
		perl -pi -e "s/sched_feat\\(($flags)\\)/!sched_feat(\$1)/g" "$f" ;;
	root)
		want=1
		perl -0pi -e 's/\treturn cfs_rq->h_nr_runnable > below && !entity_eligible\(cfs_rq, curr\);/\treturn rq_of(cfs_rq)->cfs.curr && rq_of(cfs_rq)->cfs.h_nr_runnable > 1 \&\&\n\t       !entity_eligible(&rq_of(cfs_rq)->cfs, rq_of(cfs_rq)->cfs.curr);/' "$f" ;;
	leaf)
		want=1
		perl -0pi -e 's/\treturn cfs_rq->h_nr_runnable > below && !entity_eligible\(cfs_rq, curr\);/\treturn cfs_rq_of(task_se)->nr_running > 1 \&\& !entity_eligible(cfs_rq_of(task_se), task_se);/' "$f" ;;
	quantum)
		want=1
		perl -pi -e 's/^\tu64 quantum = min_t\(u64, normalized_sysctl_sched_base_slice, se->slice\);/\tu64 quantum = 0;/' "$f" ;;
	wakeup)
		want=1
		perl -0pi -e 's/\tif \(sched_feat\(PROTECT_ELIGIBLE\)\) \{\n\t\tprotect_eligible_wakeup\(/\tif (false) {\n\t\tprotect_eligible_wakeup(/' "$f" ;;
	scope)
		# Lines added, none removed: the count is of 0 removals.
		want=0
		perl -0pi -e 's/\nupdate:\n/\nupdate:\n\tif (sched_feat(PROTECT_ELIGIBLE))\n\t\tprotect_eligible_wakeup(rq, cfs_rq, se);\n/' "$f"
		git -C "$KSRC" diff --quiet -- kernel/sched/fair.c && want=-1 ;;
	min-quantum)
		want=1
		perl -pi -e 's/^\t\tif \(sched_feat\(PREEMPT_SHORT\) && sched_feat\(RUN_TO_PARITY\)\)$/\t\tif (sched_feat(PREEMPT_SHORT))/' "$f" ;;
	flag-hrtick)
		want=1
		perl -pi -e 's/^\tif \(sched_feat\(PROTECT_ELIGIBLE\) && protect_slice\(se\) &&$/\tif (false \&\& protect_slice(se) \&\&/' "$f" ;;
	hrtick-repick)
		want=1
		perl -pi -e 's/^\tif \(task_current_donor\(rq, p\) && hrtick_enabled_fair\(rq\)\)$/\tif (false)/' "$f" ;;
	v2)
		# The gate of the vprot hrtick (one line), the early return for
		# another CPU (two) and the test for an end reached (two)
		# removed; one hunk added, and the hrtick re-armed at a wakeup.
		want=5
		perl -0pi -e 's/\tif \(sched_feat\(PROTECT_ELIGIBLE\) && protect_slice\(se\) &&\n/\tif (protect_slice(se) \&\&\n/;
			s/\t\tvdelta = se->vprot - se->vruntime;\n/\t\tvdelta = se->vprot - se->vruntime;\n\tif (sched_feat(PROTECT_ELIGIBLE) && !se->custom_slice) {\n\t\tu64 q = min_t(u64, normalized_sysctl_sched_base_slice, se->slice);\n\t\tu64 ran = se->sum_exec_runtime - se->prev_sum_exec_runtime;\n\t\tu64 vq = ran >= q ? se->vruntime : se->vruntime + calc_delta_fair(q - ran, se);\n\n\t\tvdelta = min_vruntime(se->deadline, max_vruntime(se->vprot, vq)) - se->vruntime;\n\t}\n/;
			s/\tif \(cpu_of\(rq\) != smp_processor_id\(\)\)\n\t\treturn;\n//;
			s/\tif \(!vruntime_cmp\(se->vruntime \+ calc_delta_fair\(PROTECT_WAKEUP_NEAR_NS, se\),\n\t\t\t  "<", se->vprot\)\)\n\t\tresched_curr_lazy\(rq\);\n/\tif (!protect_slice(se))\n\t\tresched_curr_lazy(rq);\n\telse if (hrtick_enabled_fair(rq))\n\t\thrtick_start_fair(rq, task_of(se));\n/' "$f" ;;
	slice)
		want=2
		perl -0pi -e 's/\tif \(task_se->custom_slice && task_se->slice > sysctl_sched_base_slice\)\n\t\treturn false;\n//' "$f" ;;
	*) fail "no mutant '$name'" >&2 ;;
	esac
	n=$(git -C "$KSRC" diff --numstat -- kernel/sched/fair.c | cut -f2)
	if [ "$n" != "$want" ]; then
		git -C "$KSRC" checkout -q -- kernel/sched/fair.c
		fail "mutant $name: changed ${n:-no} line(s) of fair.c, expected $want (has the code moved?)" >&2
	fi
	mkdir -p "$BUILD/mutants"
	"$SCRIPTS/build" --obj "$BUILD/obj-mutant" >"$TMP/mutant.log" 2>&1
	local rc=$?
	git -C "$KSRC" checkout -q -- kernel/sched/fair.c
	[ "$rc" = 0 ] || { tail -n 5 "$TMP/mutant.log"; fail "mutant $name does not build"; } >&2
	cp "$BUILD/obj-mutant/arch/x86/boot/bzImage" "$BUILD/mutants/$name.bzImage"
	echo "$BUILD/mutants/$name.bzImage"
}

# expect_results DIR "TEST:WANT..." : the results.tsv of one matrix run must
# give each TEST the result WANT (pass, fail or skip); prints the table.
expect_results() {
	local d=$1 t want got bad=0
	for t in $2; do
		want=${t##*:}
		t=${t%:*}
		got=$(awk -F'\t' -v t="$t" '$1 == t { print $2 }' "$d/results.tsv")
		printf '  %-40s want %-4s got %s\n' "$t" "$want" "${got:-missing}"
		[ "$got" = "$want" ] || bad=1
	done
	return $bad
}

# other_lines_flags: the series' flags of the lines other than this one.
other_lines_flags() {
	local l
	for l in $SW_LINES; do
		[ "$l" = "$SW_BASE" ] ||
			(SW_FEAT_KERNEL=$l . "$TOP/scripts/lib/features.sh" && echo "$SW_FLAGS")
	done | tr '\n' ' '
}

# every_test_passes TSV: in a matrix.tsv (scripts/matrix), every test
# passed in at least one cell, or skipped in every cell for a sched feature
# the line does not have (SW_FLAGS, from features.sh) or for a mechanism
# newer than the line's base ("... since vX.Y"); prints the latter. A test
# that skipped for a flag of another line fails: each line tests its own.
every_test_passes() {
	local tsv=$1 t flag since
	for t in $(cut -f3 "$tsv" | sort -u); do
		since=$(awk -F'\t' -v t="$t" '$3 == t && $4 == "skip" &&
			match($5, / since v[0-9]+\.[0-9]+/) { print substr($5, RSTART + 8, RLENGTH - 8); exit }' "$tsv")
		if [ -n "$since" ]; then
			[ "$(printf '%s\n' "$SW_BASE" "$since" | sort -V | head -n 1)" = "$SW_BASE" ] &&
				[ "$SW_BASE" != "$since" ] || fail "$t: skipped for a mechanism of v$since, which the $SW_BASE line has"
			awk -F'\t' -v t="$t" '$3 == t && $4 != "skip" { bad = 1 } END { exit bad }' "$tsv" ||
				fail "$t: ran in some cell although the $SW_BASE line predates v$since"
			echo "$t: skipped in every cell: the $SW_BASE line predates v$since"
			continue
		fi
		flag=$(awk -F'\t' -v t="$t" '$3 == t && $4 == "skip" &&
			match($5, /sched feature [A-Z_]+ missing/) { print substr($5, RSTART + 14, RLENGTH - 22); exit }' "$tsv")
		if [ -n "$flag" ]; then
			[[ " $SW_FLAGS " != *" $flag "* ]] || fail "$t: skipped for a missing $flag, which the $SW_BASE line has"
			# Each line tests its own flags: another line's belong in its copy.
			[[ " $(other_lines_flags) " != *" $flag "* ]] ||
				fail "$t tests $flag, a flag of another line (it belongs in that line's patches/LINE/new/)"
			awk -F'\t' -v t="$t" '$3 == t && $4 != "skip" { bad = 1 } END { exit bad }' "$tsv" ||
				fail "$t: ran in some cell although $flag is missing in others"
			echo "$t: skipped in every cell: $flag is not in the $SW_BASE line"
			continue
		fi
		grep -q "	$t	pass	" "$tsv" || fail "$t passed in no cell of the $SW_BASE line"
	done
}

# vm_fails RC REGEX MAXSECS VM-ARGS...: scripts/vm must exit RC within
# MAXSECS seconds, its last line matching REGEX (the one-line diagnosis).
vm_fails() {
	local want=$1 re=$2 max=$3 t0 dt out rc
	shift 3
	t0=$(date +%s)
	out=$("$SCRIPTS/vm" "$@" 2>&1)
	rc=$?
	dt=$(($(date +%s) - t0))
	echo "$out" | tail -n 1
	[ "$rc" = "$want" ] || fail "exit $rc, want $want"
	echo "$out" | tail -n 1 | grep -qE "$re" || fail "last line does not say /$re/"
	[ "$dt" -lt "$max" ] || fail "took ${dt}s, limit ${max}s"
	echo "  (exit $rc after ${dt}s)"
}

# expect_refusal REGEX CMD...: CMD must exit non-zero and print exactly one
# line, matching REGEX (the tools' one-line refusals of bad input).
expect_refusal() {
	local re=$1 out rc
	shift
	out=$("$@" 2>&1)
	rc=$?
	echo "# $out"
	[ "$rc" != 0 ] || fail "'$*' succeeded"
	[ "$(wc -l <<<"$out")" = 1 ] || fail "'$*' printed more than one line"
	grep -qE -- "$re" <<<"$out" || fail "'$*': unexpected message"
}

# as_nobody SCRIPT [ARG...]: one of scripts/ run as user nobody (65534), for
# the "must run as root" refusals. Where nobody cannot reach this clone (a
# clone in root's home, mode 0700), a copy of scripts/ in $TMP runs instead:
# what is tested is the script's refusal, not the clone's path.
as_nobody() {
	local s=$1 copy=$TMP/nobody-top
	shift
	chmod o+rx "$TMP"
	if ! setpriv --reuid=65534 --regid=65534 --clear-groups test -x "$s" 2>/dev/null; then
		if [ ! -d "$copy/scripts" ]; then
			mkdir -p "$copy" && cp -r "$TOP/scripts" "$copy/" && chmod -R o+rX "$copy" ||
				fail "cannot copy scripts/ to $copy"
		fi
		s=$copy/scripts/${s#"$TOP"/scripts/}
	fi
	setpriv --reuid=65534 --regid=65534 --clear-groups "$s" "$@"
}

# small_vm_bg LOGDIR TIMEOUT COMMAND: scripts/vm with a 2-CPU, 512 MiB guest
# running COMMAND in the background (its pid is then $!), logs in LOGDIR,
# output in $TMP/out. For the tests that hurt QEMU while it runs.
small_vm_bg() {
	"$SCRIPTS/vm" --cpus 2 --sockets 1 --mem 512 --timeout "$2" --log "$1" --quiet -- "$3" \
		>"$TMP/out" 2>&1 &
}
