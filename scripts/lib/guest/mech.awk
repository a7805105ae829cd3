# SPDX-License-Identifier: GPL-2.0
# The kernel's counters behind run-bench's mechanism rows, summed over CPUs
# and domains from /proc/schedstat, the "cpu" line of /proc/stat and the LOC,
# CAL and RES lines of /proc/interrupts, read in that order as one input.
# Prints one line:
#   ttwu_count ttwu_local run_delay pcount wake_remote wake_remote_xllc
#   move_affine lb_moved sys_jiffies local_timer_irqs call_irqs resched_irqs
# Variable levels: "CPU:LEVEL ..." -- the highest domain of each CPU that
# shares its LLC (-1: none); wakeups counted above it are cross-LLC.
#
# /proc/schedstat's domain lines by version (kernel/sched/stats.c):
#   15, 16: "domainN MASK", then per idle type (3) 8 load-balance counters,
#           lb_gained the 5th;
#   17 (v6.16 on): "domainN NAME MASK", then per idle type 11 counters
#           (lb_imbalance split in four), lb_gained the 8th.
# Both end in alb_count alb_failed alb_pushed, sbe_* (3), sbf_* (3),
# ttwu_wake_remote ttwu_move_affine ttwu_move_balance. Any other version,
# or a domain line of another length, is an error (exit 1, one line on
# stderr): a sum of the wrong columns is worse than no row.
BEGIN {
	n = split(levels, a, " ")
	for (i = 1; i <= n; i++) { split(a[i], b, ":"); llc[b[1]] = b[2] }
	first = 0
}
/^version / {
	ver = $2 + 0
	if (ver == 15 || ver == 16) { first = 3; per = 8; gained = 4 }
	else if (ver == 17) { first = 4; per = 11; gained = 7 }
	else { printf "mech.awk: /proc/schedstat version %s is not one this parser knows (15-17)\n", $2 > "/dev/stderr"; bad = 1; exit 1 }
	want = first - 1 + 3 * per + 12
	next
}
/^cpu[0-9]+ / { cpu = substr($1, 4); tw += $6; tl += $7; rd += $9; pc += $10; next }
/^domain[0-9]+ / {
	if (!first) { print "mech.awk: a domain line before the version line" > "/dev/stderr"; bad = 1; exit 1 }
	if (NF != want) {
		printf "mech.awk: schedstat version %d wants %d fields on a domain line, got %d\n", ver, want, NF > "/dev/stderr"
		bad = 1; exit 1
	}
	lvl = substr($1, 7)
	for (t = 0; t < 3; t++) lb += $(first + per * t + gained)
	lb += $(first + 3 * per + 2)	# alb_pushed
	wr += $(NF - 2); ma += $(NF - 1)
	if (lvl + 0 > llc[cpu] + 0) wx += $(NF - 2)
	next
}
/^cpu / { sys = $4 }
/^ *LOC:/ { for (i = 2; i <= NF && $i ~ /^[0-9]+$/; i++) loc += $i }
/^ *CAL:/ { for (i = 2; i <= NF && $i ~ /^[0-9]+$/; i++) cal += $i }
/^ *RES:/ { for (i = 2; i <= NF && $i ~ /^[0-9]+$/; i++) res += $i }
# %.0f: the %d of mawk stops at 2^31, and run_delay is in ns.
END {
	if (bad) exit 1
	if (!first) { print "mech.awk: no /proc/schedstat version line" > "/dev/stderr"; exit 1 }
	printf "%.0f %.0f %.0f %.0f %.0f %.0f %.0f %.0f %.0f %.0f %.0f %.0f\n", tw, tl, rd, pc, wr, wx, ma, lb, sys, loc, cal, res
}
