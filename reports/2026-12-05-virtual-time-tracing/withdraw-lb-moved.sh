#!/usr/bin/env bash
# Withdraws the lb-moved rows of every report measured on the 7.3 line
# before 2026-12-05: bench-run read 7.3's /proc/schedstat (version 17: a
# domain name, 11 load-balance counters per idle type) as version 16, so
# the row summed lb_imbalance_* and other unrelated columns (on one sample
# of tests/data/schedstat-v17.txt: 36607 where lb_gained + alb_pushed is
# 63). The raw counters were not kept, so the rows cannot be recomputed:
# markdown rows say so, samples.tsv and results.json lose them. Run once
# from the repository root; idempotent.
set -uo pipefail
note='withdrawn 2026-12-05: parsed as schedstat v16 from v17, see reports/2026-12-05-virtual-time-tracing.md'
dirs=$(grep -l $'^kernel\t7\.3' reports/*/env.tsv reports/*/*/env.tsv reports/*/*/*/env.tsv reports/*/*/*/*/env.tsv 2>/dev/null | xargs -r -n1 dirname)
dirs+=" reports/2026-12-04-protect-eligible-cost"
n=0
for d in $dirs; do
	for f in "$d"/*.md; do
		[ -f "$f" ] && grep -q '| lb-moved (/s) |' "$f" || continue
		# Keep the first two cells (workload, metric), replace the rest.
		sed -i -E "s#^(\\| [^|]+ \\| lb-moved \\(/s\\) \\|).*#\\1 $note |#" "$f"
		n=$((n + 1))
	done
	[ -f "$d/samples.tsv" ] && sed -i -E '/^[^\t]+\tlb-moved\t/d' "$d/samples.tsv"
	[ -f "$d/results.json" ] && python3 - "$d/results.json" <<'PY'
# Rows are blocks from '    {"workload"' to '    }}' (benchstat's layout):
# drop the lb-moved ones, keep every other byte as it was.
import sys
p = sys.argv[1]
lines = open(p).read().split("\n")
out, block = [], None
for line in lines:
    if block is None and line.startswith('    {"workload"'):
        block = [line]
    elif block is not None:
        block.append(line)
    else:
        out.append(line)
    if block is not None and line.startswith("    }}"):
        if '"metric": "lb-moved"' not in block[0]:
            out.extend(block)
        elif not line.endswith(",") and out and out[-1].startswith("    }},"):
            out[-1] = out[-1][:-1]
        block = None
open(p, "w").write("\n".join(out))
PY
done
echo "lb-moved withdrawn in $n markdown files under: $(echo $dirs | wc -w) directories"
