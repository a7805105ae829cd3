# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash
# The error exits and the checks of option values: sourced by the host
# scripts (scripts/lib/common.sh) and by the programs that run on the machine
# under test (scripts/lib/guest/lib.sh), so that both fail the same way and a
# value the host accepts is one the guest accepts: a bad option fails before
# a boot. The caller sets PROG.

# die TEXT: a failure; one line on stderr, exit 1.
die() {
	printf '%s: error: %s\n' "$PROG" "$*" >&2
	exit 1
}

# usage_error TEXT: bad usage (an unknown option, a missing or bad value):
# one line on stderr, exit 2.
usage_error() {
	printf '%s: error: %s (see --help)\n' "$PROG" "$*" >&2
	exit 2
}

# need_value OPTION ARGC VALUE: an option's value is there, and is not the
# next option (but for --topology, whose value is scripts/vm's options:
# there, not empty); one style everywhere:
#   --out) need_value "$1" $# "${2:-}"; OUT=$2; shift 2 ;;
need_value() {
	if [ "$1" = --topology ]; then
		[ "$2" -ge 2 ] && [ -n "$3" ] || usage_error "$1 needs a value"
	else
		[ "$2" -ge 2 ] && [[ $3 != --* ]] || usage_error "$1 needs a value"
	fi
}

# valid_count N: a positive whole number.
valid_count() {
	[[ $1 =~ ^[1-9][0-9]*$ ]]
}

# valid_seconds S: a positive number of seconds (2, 0.5, .5).
valid_seconds() {
	[[ $1 =~ ^([0-9]+(\.[0-9]*)?|\.[0-9]+)$ ]] && [[ $1 =~ [1-9] ]]
}

# valid_seed N: a seed for the torture's random choices, 1 to 2^31-1.
valid_seed() {
	[[ $1 =~ ^[1-9][0-9]{0,9}$ ]] && [ "$1" -le 2147483647 ]
}

# valid_cases LIST: selftest cases by full name, FIXTURE.VARIANT.TEST (the
# harness's -r), separated by '|'.
valid_cases() {
	[[ $1 =~ ^[A-Za-z0-9_]+\.[A-Za-z0-9_.]+(\|[A-Za-z0-9_]+\.[A-Za-z0-9_.]+)*$ ]]
}

# command_check CMD REGEX UNIT: scripts/bench's --command, --metric and
# --unit. Nothing, or why they cannot be used (status 1).
command_check() {
	local d=$'\001'
	if [ -z "$1" ]; then
		echo "--metric needs --command"
	elif [ -z "$2" ]; then
		echo "--command needs --metric REGEX"
	elif ! bash -n -c "$1" 2>/dev/null; then
		echo "--command '$1' is not a valid shell command line"
	elif ! sed -E -n "s${d}^$2\$${d}\\1${d}p" </dev/null >/dev/null 2>&1; then
		echo "--metric '$2' is not an extended regular expression with a (group) for the figure"
	elif [[ ! $3 =~ ^[^[:space:]]+$ ]]; then
		echo "--unit must be one word, not '$3'"
	else
		return 0
	fi
	return 1
}
