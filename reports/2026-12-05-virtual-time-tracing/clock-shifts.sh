#!/usr/bin/env bash
# The guest clock's shift, measured: for each clock (host time, icount at
# shifts 0-3), hackbench eight times in a 4-CPU guest and the selftests in
# make run's 8-CPU cell; wall time of each guest, hackbench's times, the
# ineligible cases' figures. One guest at a time. Run from the repository
# root after 'make kernel': reports/2026-12-05-virtual-time-tracing/clock-shifts.sh OUT
# (KERNEL=bzImage: another kernel than make kernel's)
set -uo pipefail
out=${1:?results directory}
clocks=${CLOCKS:-host icount:0 icount:1 icount:2 icount:3}
kernel=${KERNEL:-build/obj/arch/x86/boot/bzImage}
mkdir -p "$out"
n=$(wc -w <<<"$clocks") i=0 t0=$(date +%s)
for c in $clocks; do
	i=$((i + 1))
	d=$out/${c/:/}
	mkdir -p "$d"
	echo "[$i/$n] $c: hackbench ($(( $(date +%s) - t0 )) s elapsed)"
	s=$(date +%s)
	scripts/vm --kernel "$kernel" --cpus 4 --sockets 1 --clock "$c" --log "$d/hb-vm" --quiet -- \
		'for r in 1 2 3 4 5 6 7 8; do hackbench -g 4 -l 200 | sed -n "s/^Time: /time /p"; done' \
		>"$d/hackbench.log" 2>&1
	echo "hackbench_wall $(( $(date +%s) - s ))" >"$d/wall.txt"
	grep -a '^time' "$d/hb-vm/output.log" >"$d/hackbench.txt"
	echo "[$i/$n] $c: selftests, llc2x4 ($(( $(date +%s) - t0 )) s elapsed)"
	s=$(date +%s)
	SW_CLOCK=$c scripts/matrix --kernel "$kernel" --cells llc2x4 --out "$d/matrix" >"$d/matrix.log" 2>&1
	echo "selftests_rc $?" >>"$d/wall.txt"
	echo "selftests_wall $(( $(date +%s) - s ))" >>"$d/wall.txt"
done
echo "done in $(( $(date +%s) - t0 )) s"
