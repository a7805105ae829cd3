#!/usr/bin/env bash
# Issue 41's seed experiments and the 6.12.y line's A/A again, on virtual
# time (the default clock of scripts/vm), two guests at a time on the
# 2-core host, for their MDEs against the host-time runs of 2026-12-02 and
# 2026-12-04. Run from the repository root after 'make kernel' and
# 'make kernel BASE=6.12':
#   reports/2026-12-06-virtual-time-seeds/run.sh OUT [JOB...]
# A job is LINE:NAME, NAME an experiment of scripts/config/seeds/ or "aa"
# (aa.configs here: all workloads, 5 rounds of 1 s, as the host-time A/A);
# default: 7.3:seed-000 6.12:aa 7.3:seed-003 6.12:seed-000.
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
out=${1:?results directory}
shift
jobs_=("$@")
[ ${#jobs_[@]} -gt 0 ] || jobs_=(7.3:seed-000 6.12:aa 7.3:seed-003 6.12:seed-000)
mkdir -p "$out" || exit 1
out=$(realpath "$out")
t0=$(date +%s)
el() { echo "$(( ($(date +%s) - t0) / 60 )) min $(( ($(date +%s) - t0) % 60 )) s"; }
# Each line's kernel, copied: the runs boot these even if build/ is
# rebuilt meanwhile.
for l in 7.3 6.12; do
	src=build/obj
	[ "$l" = 7.3 ] || src=build/$l/obj
	mkdir -p "$out/kobj-$l/arch/x86/boot"
	cp "$src/arch/x86/boot/bzImage" "$out/kobj-$l/arch/x86/boot/bzImage" || exit 1
done
run() {
	local l=${1%%:*} name=${1#*:} s args
	s=$(date +%s)
	if [ "$name" = aa ]; then
		args=(--configs "$here/aa.configs")
	else
		args=(--experiment "scripts/config/seeds/$name.exp")
	fi
	SW_BASE=$l SW_KOBJ=$out/kobj-$l scripts/bench "${args[@]}" --out "$out/$l-$name" \
		>"$out/$l-$name.log" 2>&1
	echo "$l:$name rc $? in $(( $(date +%s) - s )) s" | tee -a "$out/rc"
}
n=${#jobs_[@]} i=0
for j in "${jobs_[@]}"; do
	i=$((i + 1))
	[ "$(jobs -rp | wc -l)" -lt 2 ] || wait -n
	echo "[$i/$n] $j started ($(el) elapsed)"
	run "$j" &
done
wait
echo "done ($(el) elapsed)"
