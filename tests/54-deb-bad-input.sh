#!/usr/bin/env bash
# make deb, make deb-boot and scripts/debroot refuse bad input in one line
# before any build: a base configuration not of the kernel line, too little space,
# a missing mmdebstrap, no package to boot; a Debian base whose mmdebstrap
# failed half way is not reused.
. "$(dirname "$0")/lib.sh"
# refused CODE TEXT CMD...: exit CODE and one line containing TEXT.
refused() {
	local code=$1 want=$2 out rc
	shift 2
	out=$("$@" 2>&1)
	rc=$?
	[ "$rc" = "$code" ] && [ "$(grep -c . <<<"$out")" = 1 ] && grep -q -- "$want" <<<"$out" ||
		fail "wanted exit $code and one line with '$want', got exit $rc: $out"
	echo "refused: $out"
}
printf '#\n# Automatically generated file; DO NOT EDIT.\n# Linux/x86 6.1.0 Kernel Configuration\n#\nCONFIG_SMP=y\n' >"$TMP/config-6.1"
SW_BUILD=$TMP/b1 SW_KSRC=$KSRC refused 1 "is not a $SW_BASE kernel configuration" "$SCRIPTS/deb" --baseconfig "$TMP/config-6.1"
refused 2 "no readable base configuration" "$SCRIPTS/deb" --baseconfig "$TMP/none"
refused 2 "is debian or vm" "$SCRIPTS/deb" --config other
mkdir -p "$TMP/small"
if mount -t tmpfs -o size=20m tmpfs "$TMP/small" 2>/dev/null; then
	SW_BUILD=$TMP/small SW_KSRC=$KSRC refused 1 "MB free" "$SCRIPTS/deb" --config vm
	umount "$TMP/small"
else
	echo "(no tmpfs mount here: the space check not exercised)"
fi
# No mmdebstrap on PATH.
mkdir -p "$TMP/bin"
for c in bash sh dpkg chroot id cat cp mkdir rm ls grep sed awk head tail dirname basename date mv tr cut sort find xargs uname nproc mktemp realpath readlink; do
	ln -sf "$(command -v "$c")" "$TMP/bin/$c"
done
echo x >"$TMP/fake.deb"
SW_BUILD=$TMP/b2 PATH=$TMP/bin refused 1 "'mmdebstrap' not found" "$SCRIPTS/debroot" --deb "$TMP/fake.deb"
# An mmdebstrap that fails half way: nothing is kept, the next run starts over.
printf '#!/bin/sh\nmkdir -p "$4/usr"; echo "E: simulated network failure"; exit 1\n' >"$TMP/bin/mmdebstrap"
chmod +x "$TMP/bin/mmdebstrap"
out=$(SW_BUILD=$TMP/b2 PATH=$TMP/bin "$SCRIPTS/debroot" --deb "$TMP/fake.deb" 2>&1 >/dev/null)
rc=$?
[ "$rc" = 1 ] && [ "$out" = "debroot: error: mmdebstrap failed: E: simulated network failure" ] ||
	fail "a failing mmdebstrap: wanted exit 1 and its error in one line on stderr, got exit $rc: $out"
echo "refused: $out"
[ ! -e "$TMP/b2/debroot/base" ] && [ ! -e "$TMP/b2/debroot/base.tmp" ] || fail "a half-made base was left behind"
echo "no half-made base left in $TMP/b2/debroot"
# make deb-boot: no packages built, an unknown configuration.
SW_BUILD=$TMP/b3 refused 1 "found 0 (make deb CONFIG=vm)" "$SCRIPTS/deb-boot" --config vm
# A topology is options itself, as README gives it: accepted, then no package.
SW_BUILD=$TMP/b3 refused 1 "found 0 (make deb CONFIG=vm)" "$SCRIPTS/deb-boot" --config vm \
	--topology "--cpus 12 --sockets 3"
refused 2 "--topology '--cpus twelve': CPUS must be a positive integer" "$SCRIPTS/deb-boot" --topology "--cpus twelve"
refused 2 "'--bogus' is not one of --cpus, --sockets" "$SCRIPTS/deb-boot" --topology "--cpus 8 --bogus 2"
refused 2 "3 sockets x 2 cores x 1 threads is 6 CPUs, not 8" "$SCRIPTS/deb-boot" --topology "--cpus 8 --sockets 3"
refused 2 "needs a value" "$SCRIPTS/deb-boot" --topology
refused 2 "is debian or vm" "$SCRIPTS/deb-boot" --config other
refused 2 "needs a value" "$SCRIPTS/deb-boot" --out
