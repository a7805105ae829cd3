#!/usr/bin/env bash
# The 6.12.y stable fix (patch 1 of that line): a write of a CPU's fair
# server runtime in debugfs stops the server whatever its state, and a CPU
# that runs no fair task has its server stopped already, lazily, or by the
# write before. Without the fix each such write runs the server's dequeue
# accounting again, and task_non_contending() takes its bandwidth off
# running_bw a second time: __sub_running_bw() warns of the underflow
# ("dl_rq->running_bw > old"). The guest, pinned to CPU 0, writes the runtime of CPUs 1-3 down
# and back up 20 times; the kernel must not warn, and every write must be
# taken. Mainline guards dl_server_stop() itself: only the 6.12.y line runs.
# check: after 41
. "$(dirname "$0")/lib.sh"
export SW_BASE=6.12
. "$TOP/scripts/lib/common.sh"
need_kernel

cat >"$TMP/guest.sh" <<GUEST
mount -t debugfs none /sys/kernel/debug 2>/dev/null
d=/sys/kernel/debug/sched/fair_server
[ -w \$d/cpu1/runtime ] || { echo "no writable \$d/cpu1/runtime"; exit 2; }
rt=\$(cat \$d/cpu1/runtime) n=0 bad=0
for i in \$(seq 20); do
	for c in 1 2 3; do
		for v in \$((rt / 2)) \$rt; do
			if echo \$v >\$d/cpu\$c/runtime; then n=\$((n + 1)); else bad=\$((bad + 1)); fi
		done
	done
	sleep 0.05
done
echo "writes taken: \$n, refused: \$bad (runtime \$rt ns and half of it, CPUs 1-3)"
dmesg >$TMP/dmesg.txt
[ "\$bad" = 0 ]
GUEST
# scripts/vm fails a guest whose kernel warned, naming the first warning.
out=$("$SCRIPTS/vm" --cpus 4 --sockets 1 --timeout 300 --out "$TMP" -- taskset -c 0 bash "$TMP/guest.sh" 2>&1)
rc=$?
echo "$out"
w=$(grep -m1 -o 'WARNING: .*' <<<"$out")
[ -z "$w" ] || fail "the kernel warned after the fair server's runtime writes: $w"
[ "$rc" = 0 ] || fail "the guest could not write the fair server's runtime (exit $rc, see above)"
[ -s "$TMP/dmesg.txt" ] || fail "no kernel log from the guest"
warns=$(grep -cE 'WARNING:|running_bw' "$TMP/dmesg.txt")
if [ "$warns" != 0 ]; then
	grep -E -A3 'WARNING:|running_bw' "$TMP/dmesg.txt" | head -n 20
	fail "$warns warning line(s) after the fair server's runtime writes"
fi
echo "6.12: 120 runtime writes on idle CPUs, no warning in the kernel log"
