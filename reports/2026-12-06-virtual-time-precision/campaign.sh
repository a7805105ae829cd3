#!/usr/bin/env bash
# Issue 41's precision campaign on virtual time (the default clock of
# scripts/vm), three things at once on the 2-core host:
#  - the timing selftests (ineligible) in make run's two cells, 20 runs
#    each, the two cells' guests side by side (each the other's second
#    guest): scripts/matrix --repeat 20 --jobs 2;
#  - a host CPU hog (stress-ng --cpu 1) for as long as the matrix runs;
#  - the benchmark experiments whose MDEs are compared with their
#    host-time runs of 2026-12-04, one guest after another: seed 004,
#    the PROTECT_ELIGIBLE cost experiment (its EEVDF-again row is the A/A)
#    and seed 000.
# Run from the repository root after 'make kernel':
#   reports/2026-12-06-virtual-time-precision/campaign.sh OUT
# (KERNEL=bzImage: another kernel than make kernel's)
set -uo pipefail
out=${1:?results directory}
mkdir -p "$out"
# The kernel, copied: the campaign boots this one even if build/obj is
# rebuilt meanwhile.
mkdir -p "$out/kobj/arch/x86/boot"
cp "${KERNEL:-build/obj/arch/x86/boot/bzImage}" "$out/kobj/arch/x86/boot/bzImage" || exit 1
SW_KOBJ=$(realpath "$out/kobj") && export SW_KOBJ
t0=$(date +%s)
el() { echo "$(( ($(date +%s) - t0) / 60 )) min $(( ($(date +%s) - t0) % 60 )) s"; }

stress-ng --cpu 1 --timeout 0 --quiet &
hog=$!
trap 'kill $hog 2>/dev/null' EXIT

(
	s=$(date +%s)
	scripts/matrix --kernel "$SW_KOBJ/arch/x86/boot/bzImage" --cells "llc2x4 llc3x2" \
		--tests ineligible --repeat 20 --jobs 2 \
		--out "$out/twenty" >"$out/twenty.log" 2>&1
	echo "matrix rc $? in $(( $(date +%s) - s )) s" >"$out/twenty.rc"
) &
mat=$!

exps="scripts/config/seeds/seed-004.exp scripts/config/protect-eligible-cost.exp scripts/config/seeds/seed-000.exp"
n=$(wc -w <<<"$exps") i=0
for e in $exps; do
	i=$((i + 1))
	name=$(basename "$e" .exp)
	echo "[$i/$n] $name ($(el) elapsed)"
	s=$(date +%s)
	scripts/bench --experiment "$e" --out "$out/$name" >"$out/$name.log" 2>&1
	echo "$name rc $? in $(( $(date +%s) - s )) s" | tee -a "$out/bench.rc"
done
echo "experiments done ($(el) elapsed); waiting for the matrix"
wait $mat
cat "$out/twenty.rc"
echo "done ($(el) elapsed)"
