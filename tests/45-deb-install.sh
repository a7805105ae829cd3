#!/usr/bin/env bash
# The real-machine path end to end: make deb CONFIG=vm packages the series'
# kernel, and make deb-boot installs it with dpkg -i in a Debian 12 root
# filesystem made by mmdebstrap (its postinst has initramfs-tools make the
# initramfs) and boots that root as a machine boots -- an ext4 image on a
# virtio disk, the installed kernel and initramfs -- in an 8-CPU guest with
# SMT and two NUMA nodes, where make hw runs: every selftest passes or
# skips with its reason, and the report names the packaged kernel and shows
# the guest's topology.
# check: cpus all
# check: full
. "$(dirname "$0")/lib.sh"
"$SCRIPTS/deb" --config vm || fail "make deb CONFIG=vm failed"
mapfile -t img < <(ls "$BUILD"/deb/vm/linux-image-*-sched-wakeup_*.deb 2>/dev/null)
[ "${#img[@]}" = 1 ] || fail "expected one linux-image package in $BUILD/deb/vm, found ${#img[@]}"
dpkg-deb -c "${img[0]}" >"$TMP/contents" && grep -q '/boot/vmlinuz-.*-sched-wakeup$' "$TMP/contents" || fail "the package has no /boot/vmlinuz"
rel=$(sed -n 's|.*/boot/vmlinuz-||p' "$TMP/contents")
res=$TMP/res
"$SCRIPTS/deb-boot" --config vm --out "$res" --timeout 500 || fail "make deb-boot CONFIG=vm failed"
grep -q "^root: /dev/vda ext4" "$res/vm/output.log" || fail "the root was not the ext4 disk: $(grep '^root:' "$res/vm/output.log")"
grep -q "Freeing initrd memory" "$res/vm/console.log" || fail "the kernel did not boot through the initramfs"
grep -q "^smt: *up to 2 thread" "$res/hw/report.md" || fail "the report shows no SMT: $(grep '^smt:' "$res/hw/report.md")"
[ "$(sed -n 's/^nodes: *//p' "$res/hw/report.md" | wc -w)" = 2 ] ||
	fail "the report does not show two NUMA nodes: $(grep '^nodes:' "$res/hw/report.md")"
grep -q "\"kernel\": \"$rel\"" "$res/hw/report.json" || fail "the report does not name kernel $rel"
python3 -m json.tool "$res/hw/report.json" >/dev/null || fail "report.json does not parse"
cp "$res/hw/report.md" "$BUILD/logs/deb-install-report.md"
echo "installed $(basename "${img[0]}") in a Debian $(sed -n 's/^debian: //p' "$res/vm/output.log") root, booted from its disk; make hw there: $(head -n 1 "$res/hw/report.md")"
