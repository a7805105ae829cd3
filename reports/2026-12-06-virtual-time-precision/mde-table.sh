#!/usr/bin/env bash
# The MDE of every row of two runs of one experiment side by side, from the
# tables scripts/bench writes (summary.md or report.md, see cells()).
#   mde-table.sh BEFORE.md AFTER.md [TITLE-BEFORE TITLE-AFTER]
# Prints a markdown table: workload, metric, configuration, the effect
# (ratio or delta) and MDE before and after, and the MDE ratio
# after/before; then, on stderr, the median of that ratio.
set -uo pipefail
[ $# -ge 2 ] && [ -r "$1" ] && [ -r "$2" ] || { echo "usage: mde-table.sh BEFORE.md AFTER.md [TITLE TITLE]" >&2; exit 2; }
tb=${3:-before} ta=${4:-after}
# cells FILE: "workload metric configuration effect mde" per row, from
# either form scripts/bench writes: summary.md (a column per
# configuration, cells "RATIO (MDE% [r])") or report.md (a table per
# configuration under "### NAME (...)", columns delta and MDE).
cells() {
	awk -F'|' '
		/^### / { v = $0; sub(/^### /, "", v); sub(/ .*/, "", v); next }
		/^\| workload \| metric \| lower is better\? \|/ { rep = 1; next }
		/^\| workload \| metric \|/ { rep = 0; for (i = 5; i < NF; i++) { h = $i; sub(/^ */, "", h); sub(/ \/.*/, "", h); cfg[i] = h }; next }
		/^\| [a-z]/ && NF >= 6 {
			w = $2; m = $3; gsub(/^ +| +$/, "", w); gsub(/^ +| +$/, "", m); sub(/ \(.*/, "", m)
			if (rep) {
				d = $7; e = $8; gsub(/[ *%]/, "", d); gsub(/[ %]/, "", e)
				if (e ~ /^[0-9.]+$/) print w "\t" m "\t" v "\t" d "%\t" e
				next
			}
			for (i = 5; i < NF; i++) {
				c = $i; gsub(/\*/, "", c)
				if (match(c, /[0-9.]+ \([0-9.]+%/)) {
					x = substr(c, RSTART, RLENGTH); split(x, p, " \\(")
					sub(/%/, "", p[2]); print w "\t" m "\t" cfg[i] "\t" p[1] "\t" p[2]
				}
			}
		}' "$1"
}
echo "| workload | metric | configuration | $tb: effect (MDE) | $ta: effect (MDE) | MDE $ta/$tb |"
echo "|---|---|---|---|---|---:|"
join -t $'\t' <(cells "$1" | awk -F'\t' '{ print $1"|"$2"|"$3 "\t" $4 "\t" $5 }' | sort) \
	<(cells "$2" | awk -F'\t' '{ print $1"|"$2"|"$3 "\t" $4 "\t" $5 }' | sort) |
	awk -F'\t' '{ split($1, k, "|"); r = $3 > 0 ? $5 / $3 : 0
		printf "| %s | %s | %s | %s (%s%%) | %s (%s%%) | %.2f |\n", k[1], k[2], k[3], $2, $3, $4, $5, r
		print r > "/dev/stderr" }' 2> >(sort -g | awk '{ a[NR] = $1 } END { if (NR) printf "\nrows: %d; median MDE ratio %s/%s: %.2f\n", NR, "'"$ta"'", "'"$tb"'", (NR % 2 ? a[(NR + 1) / 2] : (a[NR / 2] + a[NR / 2 + 1]) / 2) }' >&2)
