#!/usr/bin/env bash
# A results directory that cannot be written is refused before any guest
# boots, in one line, by scripts/vm, scripts/bench and scripts/torture, and
# by the in-guest runner.
. "$(dirname "$0")/lib.sh"
need_kernel
bad=/proc/sw-no-such-dir/results
# expect RC-NOT-0 REGEX CMD...
expect() {
	local re=$1 out rc
	shift
	out=$("$@" 2>&1)
	rc=$?
	echo "# $out"
	[ "$rc" != 0 ] || fail "'$*' succeeded"
	[ "$(wc -l <<<"$out")" = 1 ] || fail "'$*' printed more than one line"
	grep -qE -- "$re" <<<"$out" || fail "'$*': unexpected message"
}
expect "results directory $bad is not writable" "$S/vm" --out "$bad" -- true
expect "results directory .* is not writable" "$S/bench" --smoke --out "$bad"
expect "cannot create $bad or not writable" "$S/torture" --duration 60 --out "$bad"
mkdir -p "$TMP/bin" && touch "$TMP/bin/wakelat" "$TMP/bin/benchstat" && chmod +x "$TMP/bin"/*
expect "results directory $bad is not writable" bash "$S/lib/bench-run" --out "$bad" --bin "$TMP/bin"
