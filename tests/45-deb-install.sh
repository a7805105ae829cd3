#!/usr/bin/env bash
# The real-machine path end to end: make deb CONFIG=vm packages the series'
# kernel, dpkg -i installs it in a Debian 12 root filesystem made by
# mmdebstrap, and that root, booted with its installed kernel in an 8-CPU
# guest, runs make hw: every selftest passes or skips with its reason, and
# the report names the packaged kernel.
. "$(dirname "$0")/lib.sh"
ST=$(install_selftests) || exit 1
"$SCRIPTS/deb" --config vm || fail "make deb CONFIG=vm failed"
mapfile -t img < <(ls "$BUILD"/deb/vm/linux-image-*-sched-wakeup_*.deb 2>/dev/null)
[ "${#img[@]}" = 1 ] || fail "expected one linux-image package in $BUILD/deb/vm, found ${#img[@]}"
dpkg-deb -c "${img[0]}" >"$TMP/contents" && grep -q '/boot/vmlinuz-.*-sched-wakeup$' "$TMP/contents" || fail "the package has no /boot/vmlinuz"
out=$("$SCRIPTS/debroot" --deb "${img[0]}" --selftests "${ST%/*}" --out "$BUILD/debroot/root") ||
	fail "debroot failed: $out"
echo "$out"
kernel=$(tail -n 1 <<<"$out")
rel=${kernel##*/vmlinuz-}
mkdir -p "$TMP/res"
"$SCRIPTS/vm" --root "$BUILD/debroot/root" --kernel "$kernel" --cpus 8 --sockets 2 --timeout 500 \
	--out "$TMP/res" -- "cat /etc/debian_version; $SCRIPTS/hw --dir ${ST%/*} --out $TMP/res/hw" ||
	fail "make hw in the Debian root with the installed kernel failed"
grep -q "\"kernel\": \"$rel\"" "$TMP/res/hw/report.json" || fail "the report does not name kernel $rel"
python3 -m json.tool "$TMP/res/hw/report.json" >/dev/null || fail "report.json does not parse"
cp "$TMP/res/hw/report.md" "$BUILD/logs/deb-install-report.md"
echo "installed $(basename "${img[0]}") in a Debian $(cat "$BUILD/debroot/root/etc/debian_version") root; make hw there: $(head -n 1 "$TMP/res/hw/report.md")"
