#!/usr/bin/env bash
# The default guest has 8 CPUs in two 4-CPU LLCs, and every flag of the
# series is listed in the features file and toggles both ways.
# check: after 01
. "$(dirname "$0")/lib.sh"
need_kernel
SW_FEAT_KERNEL=$SW_BASE . "$TOP/scripts/lib/features.sh"
cat >"$TMP/guest.sh" <<GUEST
f=/sys/kernel/debug/sched/features
echo "cpus: \$(nproc)"
echo "llcs: \$(cat /sys/devices/system/cpu/cpu*/cache/index3/shared_cpu_list | sort -u | paste -sd' ')"
orig=\$(cat \$f)
for want in $SW_FLAG_DEFAULTS; do
	grep -qw "\$want" \$f || { echo "missing or wrong default: \$want"; exit 1; }
	name=\${want#NO_}
	for v in NO_\$name \$name \$want; do
		echo \$v > \$f || { echo "write \$v refused"; exit 1; }
		grep -qw "\$v" \$f || { echo "write \$v did not take"; exit 1; }
	done
done
[ "\$(cat \$f)" = "\$orig" ] || { echo "features not restored"; exit 1; }
echo "flags: $SW_FLAG_DEFAULTS (defaults, toggled both ways)"
GUEST
out=$("$SCRIPTS/vm" --timeout 120 --out "$TMP" -- bash "$TMP/guest.sh" 2>&1)
rc=$?
echo "$out"
[ "$rc" = 0 ] || fail "guest check failed (exit $rc)"
grep -q "^cpus: 8$" <<<"$out" || fail "not 8 CPUs"
grep -q "^llcs: 0-3 4-7$" <<<"$out" || fail "not two 4-CPU LLCs"
