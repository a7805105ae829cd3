#!/usr/bin/env bash
# benchstat's statistics on samples with known answers: the minimum
# detectable effect of Welch's test (n = 5 and 5, sd 1: (t(.975, 8) +
# t(.8, 8)) x sqrt(2/5) = 2.02% of a mean of 100); the paired test over
# rounds chosen when rounds drift together, and then finding a 1% shift
# that the drift hides from Welch's test; an A/A copy with the same drift
# not significant; the preemption model in the header where recorded.
. "$(dirname "$0")/lib.sh"
cd "$TOP" || exit 1
bin=$TMP/bin
mkdir -p "$bin" "$TMP/r"
gcc -O2 -Wall -Wextra -Werror -Wno-format-truncation -o "$bin/benchstat" scripts/src/benchstat.c -lm ||
	fail "benchstat does not build"
printf 'base\t\naa\t\nshift\tX\n' >"$TMP/r/configs.tsv"
printf 'kernel\tk\naccel\ttest\ntopology\tt\niterations\t5\nduration\t1 s\n' >"$TMP/r/env.tsv"
{
	printf '# workload\tmetric\tunit\tbetter\tconfig\titeration\tvalue\n'
	# Welch: the variant's values in the opposite round order (pairing does not help).
	i=0
	for d in -1.264911 -0.632456 0 0.632456 1.264911; do
		i=$((i + 1))
		printf 'w\tm\ts\tlo\tbase\t%d\t%s\n' $i "$(echo "100 + $d" | bc -l)"
		printf 'w\tm\ts\tlo\taa\t%d\t%s\n' $((6 - i)) "$(echo "100 + $d" | bc -l)"
		printf 'w\tm\ts\tlo\tshift\t%d\t%s\n' $((6 - i)) "$(echo "100 + $d" | bc -l)"
	done
	# Drift of +-10 between rounds, shared by the configurations of a round.
	# Within a round, noise of mean 0 (A/A) or 1 (shift) with sd 0.02.
	i=0
	for d in -10 4 9 -3 0; do
		i=$((i + 1))
		e=$(cut -d' ' -f$i <<<"0.02 -0.03 0.01 -0.01 0.01")
		printf 'drift\tm\ts\tlo\tbase\t%d\t%s\n' $i "$((100 + d))"
		printf 'drift\tm\ts\tlo\taa\t%d\t%s\n' $i "$(echo "100 + $d + $e" | bc -l)"
		printf 'drift\tm\ts\tlo\tshift\t%d\t%s\n' $i "$(echo "101 + $d + $e" | bc -l)"
	done
} >"$TMP/r/samples.tsv"
"$bin/benchstat" report "$TMP/r" >/dev/null || fail "benchstat report failed"
python3 - "$TMP/r/results.json" <<'PY' || fail "unexpected statistics (above)"
import json, sys
d = json.load(open(sys.argv[1]))
rows = {r["workload"]: r["configs"] for r in d["rows"]}
w = rows["w"]["aa"]
print(f"# welch: test {w['test']}, p {w['p']:.3f}, MDE {w['mde_pct']:.3f}%")
assert w["test"] == "welch" and abs(w["mde_pct"] - 2.02) < 0.02 and w["p"] > 0.99
s = rows["drift"]["shift"]
print(f"# drift + 1%: test {s['test']}, p {s['p']:.2g}, significant {s['significant']}, MDE {s['mde_pct']:.3f}%")
assert s["test"] == "paired" and s["significant"] and s["mde_pct"] < 0.5
a = rows["drift"]["aa"]
print(f"# drift, A/A: test {a['test']}, p_adj {a['p_adj']:.3f}, significant {a['significant']}")
assert not a["significant"]
PY
grep -q '| MDE |' "$TMP/r/report.md" || fail "report.md has no MDE column"
# The thread-shaped table: the shift's ratio, bold (significant), paired.
"$bin/benchstat" columns "$TMP/r" >"$TMP/cols" || fail "benchstat columns failed"
cat "$TMP/cols" | sed 's/^/# /'
grep -qE '^\| drift \| m \(s, lower is better\) \| 100 \| [0-9.]+ \(.*\) \| \*\*1\.0(0|1)[0-9]\*\* \([0-9.]+% r\) \|$' "$TMP/cols" ||
	fail "benchstat columns: no bold ratio of about 1.01 for the shift"
# The preemption model, where the run recorded one (older runs did not).
! grep -q preemption "$TMP/r/report.md" || fail "report.md names a preemption model env.tsv lacks"
printf 'preempt\tfull (dynamic)\n' >>"$TMP/r/env.tsv"
"$bin/benchstat" report "$TMP/r" >/dev/null || fail "benchstat report failed"
head -1 "$TMP/r/report.md" | grep -q ', preemption full (dynamic);' ||
	fail "report.md does not name the preemption model: $(head -1 "$TMP/r/report.md")"
