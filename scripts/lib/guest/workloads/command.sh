# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash
# Your own workload (scripts/bench --command CMD --metric REGEX): CMD runs
# with bash -c under every configuration, and its figure is the first
# parenthesised group of REGEX (extended, as grep -E) in the last match in
# its output. Declared only when a command is given.

[ -n "${BENCH_COMMAND:-}" ] &&
	workload command 0 "value ${BENCH_UNIT:-units} ${BENCH_BETTER:-lo}"

run_command() { bash -c "$BENCH_COMMAND" 2>&1; }
parse_command() {
	local d=$'\001'
	# The match alone first: a leading .* would take digits of the group.
	grep -oE -- "$BENCH_METRIC" | tail -n 1 |
		sed -E -n "s${d}^${BENCH_METRIC}\$${d}value \\1${d}p"
}
