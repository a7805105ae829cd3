#!/usr/bin/env bash
# The table of a clock-shifts.sh run: per clock, hackbench's mean, standard
# deviation and coefficient of variation with the guest's wall time, the
# selftests' result and wall time, and the measured figures of some timing
# cases (their 'measured' TAP lines).
#   reports/2026-12-05-virtual-time-tracing/clock-shifts-table.sh OUT
set -uo pipefail
out=${1:?the results directory of clock-shifts.sh}
[ -d "$out" ] || { echo "clock-shifts-table: error: no directory $out" >&2; exit 2; }
fig() { # TAP CASE KEY: the value of 'measured KEY' in the case CASE
	awk -v c="$2" -v k="$3" '/#  RUN / {on = index($0, " " c " ") > 0}
		on && $0 ~ ":measured " k " " {for (i = 1; i < NF; i++) if ($i ~ ":measured$") {print $(i + 2); exit}}' "$1"
}
printf '| clock | hackbench mean | sd | CV | hackbench wall | selftests | selftests wall | protect_hrtick off/on | protect_tick off/on | repick | no_parity |\n'
printf '|---|---|---|---|---|---|---|---|---|---|---|\n'
for d in "$out"/*/; do
	c=$(basename "$d")
	[ -f "$d/wall.txt" ] || continue
	hb=$(awk '{x[NR] = $2; s += $2} END {if (NR < 2) exit; m = s / NR; for (i = 1; i <= NR; i++) v += (x[i] - m) ^ 2
		sd = sqrt(v / (NR - 1)); printf "%.3f s | %.3f s | %.1f%%", m, sd, 100 * sd / m}' "$d/hackbench.txt")
	w() { awk -v k="$1" '$1 == k {print $2}' "$d/wall.txt"; }
	tap=$(find "$d/matrix" -name tap.log | head -n 1)
	res=$(find "$d/matrix" -name results.tsv | head -n 1)
	st="-"
	[ -n "$res" ] && st=$(awk -F'\t' '{n[$2]++} END {printf "%d pass, %d fail, %d skip", n["pass"], n["fail"], n["skip"]}' "$res")
	f1="-" f2="-" f3="-" f4="-"
	if [ -n "$tap" ]; then
		f1="$(fig "$tap" ineligible.protect_hrtick.runs median_run_off)/$(fig "$tap" ineligible.protect_hrtick.runs median_run_on)"
		f2="$(fig "$tap" ineligible.protect_tick.runs median_run_off)/$(fig "$tap" ineligible.protect_tick.runs median_run_on)"
		f3=$(fig "$tap" protect_base.repick.runs median_run)
		f4=$(fig "$tap" protect_base.no_parity.runs median_run)
	fi
	printf '| %s | %s | %s s | %s | %s s | %s | %s | %s | %s |\n' "$c" "${hb:-- | - | -}" "$(w hackbench_wall)" \
		"$st (rc $(w selftests_rc))" "$(w selftests_wall)" "$f1" "$f2" "$f3" "$f4"
done
