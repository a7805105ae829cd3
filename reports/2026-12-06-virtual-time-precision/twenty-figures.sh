#!/usr/bin/env bash
# The figures of a scripts/matrix --repeat run, per cell, test and figure:
# how many runs measured it, its minimum, median and maximum over the runs,
# and the spread (max - min) relative to the median. The figures are the
# selftests' "measured NAME VALUE UNIT" TAP lines.
#   twenty-figures.sh MATRIX-DIR
set -uo pipefail
dir=${1:?usage: twenty-figures.sh MATRIX-DIR}
compgen -G "$dir/*/[0-9]*/tap.log" >/dev/null || { echo "twenty-figures.sh: no CELL/RUN/tap.log in $dir" >&2; exit 2; }
for tap in "$dir"/*/[0-9]*/tap.log; do
	cell=${tap%/*/tap.log}; cell=${cell##*/}
	awk -v cell="$cell" '
		/#  RUN / { t = $4 }
		/:measured / { sub(/.*:measured /, ""); print cell "\t" t "\t" $1 "\t" $2 "\t" $3 }' "$tap"
done | sort -t $'\t' -k1,1 -k2,2 -k3,3 -k4,4g |
awk -F'\t' '
	function flush() {
		if (!n) return
		med = n % 2 ? v[(n + 1) / 2] : (v[n / 2] + v[n / 2 + 1]) / 2
		printf "| %s | %s | %s | %d | %g | %g | %g | %s | %s |\n", pc, pt, pm, n, v[1], med, v[n], pu, med ? sprintf("%.3f%%", 100 * (v[n] - v[1]) / med) : "-"
	}
	BEGIN { print "| cell | test | figure | runs | min | median | max | unit | spread |"; print "|---|---|---|---:|---:|---:|---:|---|---:|" }
	{ k = $1 "|" $2 "|" $3; if (k != pk) { flush(); n = 0 } ; pk = k; pc = $1; pt = $2; pm = $3; pu = $5; v[++n] = $4 }
	END { flush() }'
