#!/usr/bin/env bash
# The selftests can fail: on a kernel where every flag of the series is
# listed but does nothing (each sched_feat() test replaced by the default),
# the test of each flag must fail in the direction that flag changes, and
# the default-direction variants must still pass.
. "$(dirname "$0")/lib.sh"
need_kernel
ST=$(build_selftests) || exit 1
F=kernel/sched/fair.c
[ -z "$(git -C "$KSRC" status --porcelain --untracked-files=no)" ] || fail "$KSRC is not clean"

restore() {
	git -C "$KSRC" checkout -q -- "$F"
	"$S/build" >/dev/null 2>&1 || echo "WARNING: rebuilding the real kernel failed; run make kernel"
}
trap 'restore; rm -rf "$TMP"' EXIT
sed -i -e 's/sched_feat(WA_IDLE_PREV)/true/' -e 's/sched_feat(IDLEST_UTIL)/true/' \
	-e 's/sched_feat(IDLEST_UTIL_LOCAL)/false/' -e 's/sched_feat(TICK_INELIGIBLE)/false/' \
	-e 's/sched_feat(WAKEUP_INELIGIBLE)/false/' "$KSRC/$F"
n=$(git -C "$KSRC" diff --numstat -- "$F" | cut -f1)
[ "$n" = 5 ] || fail "expected 5 sched_feat() tests of the series in $F, changed $n"
"$S/build" >"$TMP/build.log" 2>&1 || { tail -n 5 "$TMP/build.log"; fail "the broken kernel does not build"; }
cp "$KOBJ/arch/x86/boot/bzImage" "$TMP/broken-bzImage"
echo "built a kernel whose five flags do nothing"

# expect CPUS SOCKETS "TEST..." "test:ok|fail ...": run the tests, compare.
expect() {
	local cpus=$1 sockets=$2 tests=$3 want=$4 t res got bad=0
	"$S/vm" --kernel "$TMP/broken-bzImage" --cpus "$cpus" --sockets "$sockets" \
		--timeout 900 --quiet --out "$TMP" -- \
		bash -c "cd $ST && for t in $tests; do ./\$t > $TMP/\$t-$cpus.tap 2>&1; done; true" ||
		fail "the broken kernel's guest failed"
	for t in $want; do
		res=${t#*:}
		t=${t%:*}
		got=$(cat "$TMP"/*-"$cpus".tap | sed -n -e "s/^ok [0-9]* $t # SKIP.*/skip/p" \
			-e "s/^ok [0-9]* $t$/ok/p" -e "s/^not ok [0-9]* $t$/fail/p")
		[ -n "$got" ] || got=missing
		printf '  %d CPUs: %-40s want %-4s got %s\n' "$cpus" "$t" "$res" "$got"
		# nopass: a fail, or a skip saying the run could not tell;
		# nofail: a pass, or such a skip (a tie broken by a stray task).
		case $res/$got in "$got/$got" | nopass/fail | nopass/skip | nofail/ok | nofail/skip) ;;
		*) bad=1 ;;
		esac
	done
	grep -h -E "woke on|L2\+|in L0|mean handoffs" "$TMP"/*-"$cpus".tap | sed 's/^# [^:]*:[0-9]*:[^:]*:/    /'
	[ $bad = 0 ] || fail "the selftests did not catch a broken flag as predicted"
}
expect 8 2 "wa_idle_prev idlest_util ineligible" "wa_idle_prev.on.placement:ok wa_idle_prev.off.placement:fail
	idlest_util_local.on.fork_placement:fail idlest_util_local.off.fork_placement:nofail
	ineligible.tick.handoffs:fail ineligible.wakeup.handoffs:nopass"
expect 6 3 idlest_util "idlest_util.on.fork_placement:ok idlest_util.off.fork_placement:fail"
