# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash
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

# build_selftests: make the sched-wakeup selftests of the tree; print their
# directory. Fails the test, with the build's output, when they do not build.
build_selftests() {
	local st=$KSRC/tools/testing/selftests/sched-wakeup
	# Called as $(build_selftests): the diagnosis goes to stderr.
	[ -f "$st/Makefile" ] || fail "no selftests in $KSRC" >&2
	make -s -C "$st" >"$TMP/build.log" 2>&1 || { cat "$TMP/build.log"; fail "selftests do not build"; } >&2
	echo "$st"
}

# run_selftests CPUS SOCKETS [TEST...]: build the sched-wakeup selftests and
# run them (default: all) in a guest of that topology, through the report
# scripts/run uses. The
# guest fails when a test fails or the features line is not restored; the
# runner fails on any kernel error on the console.
run_selftests() {
	local st rc
	need_kernel
	st=$(build_selftests) || exit 1
	"$S/vm" --cpus "$1" --sockets "$2" --timeout 900 --out "$TMP" -- \
		bash "$S/lib/guest-report" "$TMP" "$st" "${@:3}"
	rc=$?
	[ "$rc" = 0 ] || fail "selftests failed in the $1-CPU guest (exit $rc)"
}

# vm_fails RC REGEX MAXSECS VM-ARGS...: scripts/vm must exit RC within
# MAXSECS seconds, its last line matching REGEX (the one-line diagnosis).
vm_fails() {
	local want=$1 re=$2 max=$3 t0 dt out rc
	shift 3
	t0=$(date +%s)
	out=$("$S/vm" "$@" 2>&1)
	rc=$?
	dt=$(($(date +%s) - t0))
	echo "$out" | tail -n 1
	[ "$rc" = "$want" ] || fail "exit $rc, want $want"
	echo "$out" | tail -n 1 | grep -qE "$re" || fail "last line does not say /$re/"
	[ "$dt" -lt "$max" ] || fail "took ${dt}s, limit ${max}s"
	echo "  (exit $rc after ${dt}s)"
}

# expect_refusal REGEX CMD...: CMD must exit non-zero and print exactly one
# line, matching REGEX (the tools' one-line refusals of bad input).
expect_refusal() {
	local re=$1 out rc
	shift
	out=$("$@" 2>&1)
	rc=$?
	echo "# $out"
	[ "$rc" != 0 ] || fail "'$*' succeeded"
	[ "$(wc -l <<<"$out")" = 1 ] || fail "'$*' printed more than one line"
	grep -qE -- "$re" <<<"$out" || fail "'$*': unexpected message"
}

# small_vm_bg LOGDIR TIMEOUT COMMAND: scripts/vm with a 2-CPU, 512 MiB guest
# running COMMAND in the background (its pid is then $!), logs in LOGDIR,
# output in $TMP/out. For the tests that hurt QEMU while it runs.
small_vm_bg() {
	"$S/vm" --cpus 2 --sockets 1 --mem 512 --timeout "$2" --log "$1" --quiet -- "$3" \
		>"$TMP/out" 2>&1 &
}
