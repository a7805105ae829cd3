#!/usr/bin/env bash
# scripts/vm: the QEMU command line (--dry-run), and bad topologies refused
# with one line before QEMU starts.
. "$(dirname "$0")/lib.sh"
printf '#!/bin/sh\ntouch %s/qemu-ran\n' "$TMP" >"$TMP/qemu"
chmod +x "$TMP/qemu"
export QEMU=$TMP/qemu
touch "$TMP/bzImage"
vm() { "$S/vm" --kernel "$TMP/bzImage" --accel tcg "$@"; }

cmd=$(vm --dry-run -- true) || fail "dry run failed"
for want in "-smp 8,sockets=2,cores=4,threads=1" "-accel tcg,thread=single -cpu max" \
	"-no-reboot" "panic=-1" "msize=524288" "multidevs=remap" "readonly=on" \
	"path=/," "mount_tag=/dev/root"; do
	grep -qF -- "$want" <<<"$cmd" || fail "dry run lacks '$want': $cmd"
done
cmd=$(vm --dry-run --cpus 8 --sockets 2 --numa 2 --mem 2048 -- true) || fail "NUMA dry run failed"
for want in "node,nodeid=1,memdev=mem1" "cpu,node-id=1,socket-id=1" "size=1024M"; do
	grep -qF -- "$want" <<<"$cmd" || fail "NUMA dry run lacks '$want'"
done
cmd=$(vm --dry-run --cpus 8 --sockets 1 --cores 4 --threads 2 -- true) || fail "SMT dry run failed"
grep -qF -- "-smp 8,sockets=1,cores=4,threads=2" <<<"$cmd" || fail "SMT topology wrong"
cmd=$(vm --dry-run --tcg-threads multi -- true) || fail "multi-threaded TCG dry run failed"
grep -qF -- "-accel tcg,thread=multi" <<<"$cmd" || fail "--tcg-threads multi not passed to QEMU"
echo "dry runs: default, NUMA, SMT and multi-threaded TCG command lines as expected"

bad() {
	out=$(vm "$@" -- true 2>&1)
rc=$?
	[ "$rc" = 2 ] || fail "vm $* exited $rc, want 2"
	[ "$(echo "$out" | wc -l)" = 1 ] || fail "vm $* printed more than one line: $out"
	grep -q "^vm: error: " <<<"$out" || fail "vm $*: no error line: $out"
	[ ! -e "$TMP/qemu-ran" ] || fail "vm $* started QEMU"
	echo "  refused: $*: $out"
}
bad --cpus 8 --sockets 3
bad --cpus 8 --sockets 2 --cores 2
bad --cpus 0
bad --cpus x
bad --cpus 8 --sockets 2 --numa 3
bad --mem 100
bad --cpus 128 --sockets 2
bad --tcg-threads many
bad --bogus
