#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# The fork-placement selftests on 7.3 with cache-aware load balancing on (the
# default: llc_balancing/enabled 1) and off, N guests each way, alternating,
# in the two cells where the forks cross LLCs (3 LLCs x 2: idlest_util;
# 2 LLCs x 4: idlest_util_local). Per run: the verdicts and the forks the
# test did not count, by reason (the parent moved by the balancer is the one
# SCHED_CACHE could change). Output: OUT/results.tsv and a summary.
#
# usage: sched-cache.sh [N] [OUT]     (from a checkout with 'make kernel' done)
set -uo pipefail
TOP=$(cd "$(dirname "$0")/../.." && pwd)
N=${1:-10}
OUT=${2:-$TOP/build/sched-cache}
KERNEL=$TOP/build/obj/arch/x86/boot/bzImage
[ -r "$KERNEL" ] || { echo "sched-cache.sh: error: no $KERNEL (make kernel)" >&2; exit 1; }
"$TOP/scripts/selftests" >/dev/null || exit 1
ST=$TOP/build/selftests
rm -rf "$OUT" && mkdir -p "$OUT" || exit 1
printf 'cell\trun\tllc_balancing\ttest\tresult\tmoved_before_ran\thelper_woke\tother_cpu_ran\tparent_moved\n' >"$OUT/results.tsv"
for ((r = 1; r <= N; r++)); do
	for cell in "llc3x2|--cpus 6 --sockets 3" "llc2x4|--cpus 8 --sockets 2"; do
		name=${cell%%|*}
		for v in 1 0; do
			d=$OUT/$name-$v-$r
			mkdir -p "$d"
			echo "sched-cache: [$r/$N] $name llc_balancing/enabled=$v"
			# shellcheck disable=SC2086
			"$TOP/scripts/vm" --kernel "$KERNEL" ${cell#*|} --timeout 600 --out "$d" \
				--log "$d/vm" --quiet -- bash -c "mount -t debugfs none /sys/kernel/debug 2>/dev/null
f=/sys/kernel/debug/sched/llc_balancing/enabled
old=\$(cat \$f); echo $v >\$f && echo llc_balancing/enabled: \$(cat \$f)
bash $TOP/scripts/lib/guest-selftests --dir $ST --out $d --tests idlest_util; rc=\$?
echo \$old >\$f; exit \$rc" >"$d/host.log" 2>&1
			awk -F'\t' -v c="$name" -v r="$r" -v v="$v" -v tap="$d/tap.log" '
			BEGIN {
				# the "not counted" lines of each test case, in order
				while ((getline l < tap) > 0) {
					if (l ~ /RUN +idlest_util/) { split(l, a, /RUN +/); split(a[2], b, " "); t = b[1] }
					if (l ~ /not counted:/) { match(l, /[0-9]+ moved before/); m[t] += substr(l, RSTART, RLENGTH) + 0
						match(l, /[0-9]+ forked as/); h[t] += substr(l, RSTART, RLENGTH) + 0 }
					if (l ~ /as the parent was moved/) { match(l, /[0-9]+ while/); o[t] += substr(l, RSTART, RLENGTH) + 0
						match(l, /[0-9]+ as the parent/); p[t] += substr(l, RSTART, RLENGTH) + 0 }
				}
			}
			$2 != "skip" { print c "\t" r "\t" v "\t" $1 "\t" $2 "\t" m[$1] + 0 "\t" h[$1] + 0 "\t" o[$1] + 0 "\t" p[$1] + 0 }
			' "$d/results.tsv" >>"$OUT/results.tsv"
		done
	done
done
echo
awk -F'\t' 'NR > 1 { k = $4 " llc_balancing=" $3; n[k]++; if ($5 == "pass") ok[k]++
	for (i = 6; i <= 9; i++) s[k, i] += $i }
END { printf "%-45s %6s %8s %8s %8s %8s\n", "test, setting", "passed", "moved", "woke", "otherran", "parent"
	for (k in n) printf "%-45s %3d/%-3d %8d %8d %8d %8d\n", k, ok[k], n[k], s[k, 6], s[k, 7], s[k, 8], s[k, 9] }' \
	"$OUT/results.tsv" | sort | tee "$OUT/summary.txt"
