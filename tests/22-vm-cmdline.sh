#!/usr/bin/env bash
# scripts/vm: the QEMU command line (--dry-run), and bad topologies refused
# with one line before QEMU starts.
. "$(dirname "$0")/lib.sh"
. "$SCRIPTS/lib/qemu.sh"
printf '#!/bin/sh\ntouch %s/qemu-ran\n' "$TMP" >"$TMP/qemu"
chmod +x "$TMP/qemu"
export QEMU=$TMP/qemu
touch "$TMP/bzImage"
vm() { "$SCRIPTS/vm" --kernel "$TMP/bzImage" --accel tcg "$@"; }

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
cmd=$(vm --dry-run --tcg-threads multi --clock host -- true) || fail "multi-threaded TCG dry run failed"
grep -qF -- "-accel tcg,thread=multi" <<<"$cmd" || fail "--tcg-threads multi not passed to QEMU"
echo "dry runs: default, NUMA, SMT and multi-threaded TCG command lines as expected"
# The clock: virtual time by default (icount; idle time follows the host's,
# sleep=on; the RTC on it too),
# SW_CLOCK or --clock for another shift or the host's time.
cmd=$(SW_CLOCK="" vm --dry-run -- true) || fail "default clock dry run failed"
grep -qF -- "-icount shift=$VM_ICOUNT_SHIFT_DEFAULT,sleep=on,align=off -rtc clock=vm" <<<"$cmd" ||
	fail "the default is not virtual time at shift $VM_ICOUNT_SHIFT_DEFAULT: $cmd"
cmd=$(vm --dry-run --clock icount:3 -- true) && grep -qF -- "-icount shift=3,sleep=on" <<<"$cmd" ||
	fail "--clock icount:3 not passed: $cmd"
cmd=$(SW_CLOCK=icount:0 vm --dry-run -- true) && grep -qF -- "-icount shift=0," <<<"$cmd" ||
	fail "SW_CLOCK=icount:0 not passed: $cmd"
cmd=$(SW_CLOCK=icount:0 vm --dry-run --clock host -- true) && ! grep -qF -- "-icount" <<<"$cmd" ||
	fail "--clock host still counts instructions: $cmd"
echo "clock: icount at shift $VM_ICOUNT_SHIFT_DEFAULT by default; --clock and SW_CLOCK choose another shift or host time"
# Paths with commas: QEMU reads a comma as the end of a value unless doubled.
mkdir -p "$TMP/run,1" "$TMP/out,2"
cmd=$(vm --dry-run --log "$TMP/run,1" --out "$TMP/out,2" -- true) || fail "dry run with commas failed"
for want in "path=$TMP/run,,1/console.log" "path=$TMP/run,,1,security_model" \
	"path=$TMP/out,,2,security_model"; do
	grep -qF -- "$want" <<<"$cmd" || fail "comma not doubled: want '$want' in: $cmd"
done
echo "paths with commas: doubled on the QEMU command line"
# A root of its own booted from a disk: virtio-blk, its initramfs, no 9p.
root=$TMP/root,r
mkdir -p "$root$SCRIPTS/lib/guest" "$root/boot"
cp "$SCRIPTS/lib/guest/init" "$root$SCRIPTS/lib/guest/"
touch "$root/boot/vmlinuz-6.12.0-x"
cmd=$("$SCRIPTS/vm" --kernel "$root/boot/vmlinuz-6.12.0-x" --accel tcg --root "$root" --disk \
	--log "$TMP/run,3" --dry-run -- true 2>&1)
[ $? = 2 ] && grep -q "no initramfs .*initrd.img-6.12.0-x" <<<"$cmd" || fail "--disk without an initramfs: $cmd"
touch "$root/boot/initrd.img-6.12.0-x"
cmd=$("$SCRIPTS/vm" --kernel "$root/boot/vmlinuz-6.12.0-x" --accel tcg --root "$root" --disk \
	--log "$TMP/run,3" --dry-run -- true) || fail "--disk dry run failed"
for want in "root=/dev/vda rootfstype=ext4 rw" "-initrd $root/boot/initrd.img-6.12.0-x" \
	"file=$TMP/run,,3/root.img,if=none,id=root,format=raw" "virtio-blk-pci,drive=root"; do
	grep -qF -- "$want" <<<"$cmd" || fail "--disk dry run lacks '$want': $cmd"
done
! grep -qF -- "9p" <<<"$cmd" || fail "--disk dry run still shares over 9p: $cmd"
echo "--disk: the image on virtio-blk with its initramfs, no 9p; refused without an initramfs"
# A data disk: a second virtio-blk device, found by its serial number, both
# beside the 9p root and beside a disk root.
cmd=$(vm --dry-run --data 64 --log "$TMP/run4" -- true) || fail "--data dry run failed"
for want in "file=$TMP/run4/data.img,if=none,id=data,format=raw" "virtio-blk-pci,drive=data,serial=sw-data" \
	"mount_tag=/dev/root"; do
	grep -qF -- "$want" <<<"$cmd" || fail "--data dry run lacks '$want': $cmd"
done
cmd=$("$SCRIPTS/vm" --kernel "$root/boot/vmlinuz-6.12.0-x" --accel tcg --root "$root" --disk \
	--data 64 --log "$TMP/run,3" --dry-run -- true) || fail "--disk --data dry run failed"
grep -qF -- "virtio-blk-pci,drive=root -drive file=$TMP/run,,3/data.img" <<<"$cmd" ||
	fail "--disk --data: the data disk is not the second disk: $cmd"
echo "--data: a second virtio disk with the serial number sw-data"

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
bad --clock wall
bad --clock icount:11
bad --clock icount:
bad --tcg-threads multi
SW_CLOCK=bogus bad
bad --bogus
bad --kernel "$root/boot/vmlinuz-6.12.0-x" --root "$root" --disk --out "$TMP/o" --log "$TMP/o/run"
bad --disk
bad --data 8
bad --data lots
# An option without its value, last or followed by the next option: one
# line and exit 2, not bash's own message.
for o in --cpus --sockets --timeout --out --kernel --log --append --data --clock; do
	out=$(vm "$o" 2>&1)
	rc=$?
	[ "$rc" = 2 ] && [ "$out" = "vm: error: $o needs a value (see --help)" ] ||
		fail "vm $o: exit $rc, '$out'"
	bad "$o" --quiet
done
echo "  refused: options without a value, last or before another option"
# --check: the options alone, no kernel and no command; what a boot would
# refuse, --check refuses the same way (scripts/matrix checks its cells so
# before it builds a kernel).
out=$("$SCRIPTS/vm" --kernel "$TMP/no-such-bzImage" --check --cpus 12 --sockets 6 --numa 2 2>&1) ||
	fail "vm --check refused a good topology: $out"
[ -z "$out" ] || fail "vm --check printed on success: $out"
out=$("$SCRIPTS/vm" --check --cpus 8 --sockets 3 2>&1)
rc=$?
[ "$rc" = 2 ] && [ "$(wc -l <<<"$out")" = 1 ] && grep -q '^vm: error: bad topology' <<<"$out" ||
	fail "vm --check --cpus 8 --sockets 3: exit $rc, '$out'"
echo "--check: a good topology passes without a kernel; a bad one: $out"
