#!/usr/bin/env bash
# A checkout under one of the directories the guest covers with a scratch
# tmpfs (a clone in /tmp, in root's home) stays visible in the guest: its
# scripts and its build directory, read-only, with the results directory
# writable on top.
# check: after 01
. "$(dirname "$0")/lib.sh"
need_kernel
case $TMP in /tmp/*) ;; *) skip "the temporary directory $TMP is not under /tmp" ;; esac
top=$TMP/clone
mkdir -p "$top/build/selftests" "$top/res" || fail "cannot set up $top"
cp -a "$TOP/scripts" "$top/" || fail "cannot copy scripts/ to $top"
echo marker >"$top/build/selftests/marker"
out=$(SW_BUILD=$top/build "$top/scripts/vm" --kernel "$KOBJ/arch/x86/boot/bzImage" --cpus 2 \
	--sockets 1 --mem 512 --timeout 120 --out "$top/res" -- \
	"test -r '$top/scripts/lib/common.sh' && cat '$top/build/selftests/marker' >'$top/res/seen'" 2>&1)
rc=$?
[ "$rc" = 0 ] || fail "the guest did not see the checkout in $top (exit $rc): $out"
grep -qx marker "$top/res/seen" || fail "the build directory's file did not reach the results"
echo "checkout in $top: scripts and build directory visible in the guest, results written"
