#!/usr/bin/env bash
# scripts/lava refuses bad input in one line before LAVA starts: not root, a missing
# kernel, root filesystem or kselftest tarball (each named, with what makes
# it), unknown options and values, a --results log that is not LAVA's. A
# job whose kernel does not boot runs through lava-run and ends with LAVA's
# own error and a non-zero exit.
# check: uses lava
. "$(dirname "$0")/lib.sh"
need_kernel
LAVA=$SCRIPTS/lava

# refused WANT-EXIT TEXT ARGS...: exit WANT-EXIT, one line holding TEXT, and
# no lava-run started (no job log in the output directory).
refused() {
	local want=$1 text=$2 out rc
	shift 2
	rm -rf "$TMP/out"
	out=$("$LAVA" --out "$TMP/out" "$@" 2>&1)
	rc=$?
	[ "$rc" = "$want" ] && [ "$(grep -c . <<<"$out")" = 1 ] && grep -qF -- "$text" <<<"$out" ||
		fail "scripts/lava $*: wanted exit $want and one line with '$text', got exit $rc: $out"
	! ls "$TMP"/out/*.log >/dev/null 2>&1 || fail "scripts/lava $*: LAVA ran although the input was bad"
	echo "refused: $out"
}

printf 'not a kernel\n' >"$TMP/notakernel"
out=$(as_nobody "$LAVA" --out "$TMP/nobody" 2>&1)
rc=$?
[ "$rc" = 1 ] && [ "$(grep -c . <<<"$out")" = 1 ] && grep -q "must run as root" <<<"$out" ||
	fail "not root: wanted exit 1 and one line, got exit $rc: $out"
echo "refused: $out"
refused 1 "no kernel at $TMP/none; run 'make kernel'" --kernel "$TMP/none"
refused 1 "no root filesystem at $TMP/none; run 'scripts/debroot --ramdisk" --rootfs "$TMP/none"
refused 1 "no kselftest tarball at $TMP/none; run 'scripts/install-selftests --tar'" \
	--jobs kselftest --rootfs "$TMP/notakernel" --kselftest "$TMP/none"
refused 2 "unknown option '--bogus'" --bogus
refused 2 "--jobs is kselftest, ab or both, not 'boot'" --jobs boot
refused 2 "no workload 'nosuch' (scripts/bench --list)" --workloads hackbench-process-pipe,nosuch
refused 2 "--iterations must be a positive integer, not '0'" --iterations 0
refused 2 "--duration must be a positive number of seconds, not 'x'" --duration x
refused 2 "no configurations file 'nosuch.configs' in scripts/config" --configs nosuch.configs
refused 2 "--url takes an http(s):// or file:// URL, not 'ftp://lab/x'" --url ftp://lab/x
refused 2 "--iterations needs a value" --iterations
refused 2 "no LAVA log at '$TMP/none'" --results "$TMP/none"
printf 'plain text\n' >"$TMP/plain.log"
refused 1 "holds no A/B job's configurations and metrics" --results "$TMP/plain.log"

# A kernel that does not boot: LAVA deploys it, QEMU refuses it, and LAVA's
# own error comes back with exit 1. A root filesystem and a kselftest
# tarball of one file each keep LAVA's repacking short.
mkdir -p "$TMP/root" && echo x >"$TMP/root/x" &&
	(cd "$TMP/root" && echo x | cpio -o -H newc --quiet | gzip >"$TMP/tiny.cpio.gz") ||
	fail "cannot make a small cpio"
tar -C "$TMP/root" -czf "$TMP/kst.tar.gz" x || fail "cannot make a small tarball"
rm -rf "$TMP/out"
out=$(timeout 600 "$LAVA" --jobs kselftest --out "$TMP/out" --kernel "$TMP/notakernel" \
	--rootfs "$TMP/tiny.cpio.gz" --kselftest "$TMP/kst.tar.gz" 2>&1)
rc=$?
echo "$out" | tail -n 8
[ "$rc" = 1 ] || fail "a kernel that does not boot: exit $rc, wanted 1"
[ -s "$TMP/out/kselftest.log" ] || fail "lava-run left no log"
grep -q "LAVA job kselftest failed: " <<<"$out" || fail "no line with LAVA's error"
grep -q "lava: lava job fail" <<<"$out" || fail "LAVA's own job result line is not shown"
echo "no boot: exit $rc, $(grep 'LAVA job kselftest failed' <<<"$out")"
