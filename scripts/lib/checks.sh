# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash
# Checks of option values, sourced by the host scripts (common.sh) and the
# runners on the machine under test (guest-lib.sh), so that a value the
# host accepts is one the guest accepts: a bad option fails before a boot.

# need_value OPTION ARGC VALUE: an option's value is there, and is not the
# next option; one style everywhere:
#   --out) need_value "$1" $# "${2:-}"; OUT=$2; shift 2 ;;
# (usage_error, defined by the caller's library, exits 2).
need_value() {
	[ "$2" -ge 2 ] && [[ $3 != --* ]] || usage_error "$1 needs a value"
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
