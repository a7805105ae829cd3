#!/usr/bin/env bash
# Ctrl-C of a native A/B run restores the features line. The guest plays the
# machine booted into the patched kernel: 'scripts/bench --native' runs there
# as on real hardware; once a variant's features are set, SIGINT goes to its
# whole process group, as a terminal's Ctrl-C does. Then the features line
# must be the starting one, no workload process may be left, and the run
# must say it was interrupted. (Whether the runner had to write anything
# depends on where the signal lands: between runs the baseline may be set.)
# check: after 01
# check: uses bench
. "$(dirname "$0")/lib.sh"
need_kernel
printf 'baseline -\nvariant NO_WA_IDLE_PREV IDLEST_UTIL_LOCAL NO_RUN_TO_PARITY\n' >"$TMP/ab.configs"
cat >"$TMP/guest.sh" <<GUEST
f=/sys/kernel/debug/sched/features
start=\$(cat \$f)
set -m
SW_BUILD=$TMP/build "$SCRIPTS/bench" --native --configs "$TMP/ab.configs" --iterations 50 \
	--workloads wakelat,cyclictest --out "$TMP/r" >"$TMP/bench.log" 2>&1 &
pid=\$!
for i in \$(seq 1200); do
	[ "\$(cat \$f)" != "\$start" ] && break
	sleep 0.1
done
[ "\$(cat \$f)" != "\$start" ] || { echo "no variant was applied within 120 s"; exit 1; }
echo "variant applied after \$((i / 10)) s: \$(cat \$f | tr ' ' '\n' | grep -xE 'NO_WA_IDLE_PREV|IDLEST_UTIL_LOCAL|NO_RUN_TO_PARITY' | paste -sd' ')"
kill -INT -- -\$pid
wait \$pid
echo "rc=\$?"
now=\$(cat \$f)
[ "\$now" = "\$start" ] && echo "features: restored" || echo "features: NOT restored: \$now"
left=\$(pgrep -x 'wakelat|cyclictest|hackbench' | wc -l)
echo "left: \$left"
GUEST
out=$("$SCRIPTS/vm" --timeout 400 --out "$TMP" -- bash "$TMP/guest.sh" 2>&1)
rc=$?
echo "$out" | grep -E '^(variant|rc=|features|left)' | sed 's/^/# /'
tail -n 3 "$TMP/bench.log" | sed 's/^/# bench: /'
[ "$rc" = 0 ] || fail "guest failed (exit $rc)"
grep -q '^rc=130$' <<<"$out" || fail "the interrupted run did not exit 130"
grep -q '^features: restored$' <<<"$out" || fail "features line not restored"
grep -q '^left: 0$' <<<"$out" || fail "workload processes left running"
grep -q 'bench: interrupted' "$TMP/bench.log" || fail "the run did not say it was interrupted"
