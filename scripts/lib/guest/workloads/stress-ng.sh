# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash
# Process creation, the placement IDLEST_UTIL and IDLEST_UTIL_LOCAL decide
# (sched_balance_find_dst_group() runs for every fork and exec): stress-ng's
# fork, exec and spawn stressors, one instance per CPU, each creating
# processes as fast as it can; the rate is stress-ng's bogo ops per second
# of real time (a fork, exec or posix_spawn and the child's exit). Dietmar
# asked for UnixBench's spawn and execl (seed 000); these are the same
# operations, from a Debian package.

workload fork 0 'rate ops/s hi'
workload exec 0 'rate ops/s hi'
workload spawn 0 'rate ops/s hi'

# The exec and spawn stressors refuse to run as root: all three run as
# nobody, in a temporary directory of their own.
# "stress-ng: metrc: [123] fork  3873  2.00  0.91  0.90  1936.01  2146.15"
stressng_run() {
	local dir rc
	dir=$(mktemp -d /tmp/sw-stress-ng.XXXXXX) && chmod 777 "$dir" || return 1
	setpriv --reuid=65534 --regid=65534 --clear-groups \
		stress-ng --"$1" "$NCPU" --timeout "${RUN_WHOLE_SECS}s" --metrics-brief \
		--temp-path "$dir" 2>&1
	rc=$?
	rm -rf "$dir"
	return $rc
}
stressng_parse() { awk -v s="$1" '$2 == "metrc:" && $4 == s && $5 ~ /^[0-9]+$/ {print "rate", $9}'; }
for s in fork exec spawn; do
	eval "run_$s() { stressng_run $s; }; parse_$s() { stressng_parse $s; }"
done
