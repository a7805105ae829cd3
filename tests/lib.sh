# SPDX-License-Identifier: GPL-2.0
# Helpers for the tests in tests/. Sourced by each test.
set -uo pipefail
PROG=$(basename "$0" .sh)
. "$(dirname "$0")/../scripts/lib/common.sh"
S=$TOP/scripts
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT

fail() {
	echo "FAIL: $*"
	exit 1
}

skip() {
	echo "SKIP: $*"
	exit 4
}

# need_kernel: the tests that boot a guest need the kernel of 'make kernel'.
need_kernel() {
	[ -r "$KOBJ/arch/x86/boot/bzImage" ] || fail "no $KOBJ/arch/x86/boot/bzImage (the kernel build test failed)"
}

# run_capture RCVAR OUTVAR CMD...: run CMD, keep its exit status and output.
run_capture() {
	local -n _rc=$1 _out=$2
	shift 2
	_out=$("$@" 2>&1)
	_rc=$?
}
