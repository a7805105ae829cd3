#!/usr/bin/env bash
# make hw (scripts/hw): refused in one line when not root, on a kernel
# without the series and where debugfs cannot be read; on the series' kernel
# in an 8-CPU guest it mounts debugfs, says which situations the machine can
# build, runs a selftest through the kselftest runner, writes report.md and
# a report.json that parses, and leaves the features line and the debugfs
# mount as it found them, also on Ctrl-C.
# check: after 01
# check: uses selftests
. "$(dirname "$0")/lib.sh"
need_kernel
ST=$(install_selftests) || exit 1
# one_line_refusal TEXT CMD...: exit 1 and one line containing TEXT.
one_line_refusal() {
	local want=$1 out rc
	shift
	out=$("$@" 2>&1)
	rc=$?
	[ "$rc" = 1 ] && [ "$(grep -c . <<<"$out")" = 1 ] && grep -q "$want" <<<"$out" ||
		fail "wanted one line with '$want' and exit 1, got exit $rc: $out"
	echo "refused: $out"
}
one_line_refusal "must run as root" as_nobody "$SCRIPTS/hw"

cat >"$TMP/guest.sh" <<GUEST
set -u
f=/sys/kernel/debug/sched/features
hw() { "$SCRIPTS/hw" --dir "${ST%/*}" "\$@"; }
# debugfs as a box may have it: not mounted.
umount /sys/kernel/debug
# A kernel without the series: its features line, read through a bind mount.
mount -t debugfs debugfs /sys/kernel/debug
sed -e 's/ [A-Z_]*INELIGIBLE//g' -e 's/ [A-Z_]*IDLEST_UTIL[A-Z_]*//g' -e 's/ [A-Z_]*WA_IDLE_PREV//g' \$f >/tmp/features
mount --bind /tmp/features \$f
out=\$(hw --out $TMP/no 2>&1); rc=\$?
echo "no series: exit \$rc: \$out"
[ "\$rc" = 1 ] && [ "\$(echo "\$out" | grep -c .)" = 1 ] && echo "\$out" | grep -q "does not carry the series" || exit 1
umount \$f
before=\$(cat \$f)
umount /sys/kernel/debug
# The run, from a machine without debugfs mounted.
hw --out $TMP/hw --tests wa_idle_prev || { echo "hw failed"; exit 1; }
grep -q ' /sys/kernel/debug ' /proc/mounts && { echo "debugfs left mounted"; exit 1; }
mount -t debugfs debugfs /sys/kernel/debug
[ "\$(cat \$f)" = "\$before" ] || { echo "features line changed"; exit 1; }
# Ctrl-C in the middle of a selftest: SIGINT to the whole process group,
# as a terminal sends it (job control gives the run a group of its own).
set -m
hw --out $TMP/int --tests idlest_util >/dev/null 2>&1 &
pid=\$!
# The first flag is written after the preflight, whose time depends on the
# machine (20 s were too few for a loaded TCG host): wait for the change as
# long as the run lives, bounded by the guest's timeout.
t0=\$SECONDS
while [ "\$(cat \$f)" = "\$before" ] && kill -0 \$pid 2>/dev/null && [ \$((SECONDS - t0)) -lt 240 ]; do
	sleep 0.1
done
[ "\$(cat \$f)" != "\$before" ] || { echo "the run never changed a flag in \$((SECONDS - t0)) s"; exit 1; }
echo "first flag changed after \$((SECONDS - t0)) s"
kill -INT -- -\$pid
wait \$pid
echo "Ctrl-C: exit \$?"
sleep 2
[ "\$(cat \$f)" = "\$before" ] || { echo "features line not restored after Ctrl-C"; exit 1; }
pgrep -f "${ST}/" >/dev/null && { echo "selftest processes left behind"; exit 1; }
echo "features line restored after Ctrl-C"
GUEST
"$SCRIPTS/vm" --cpus 8 --sockets 2 --timeout 600 --out "$TMP" -- bash "$TMP/guest.sh" || fail "make hw in the guest"
cat "$TMP/hw/report.md" >"$BUILD/logs/hw-report-sample.md"
[ -s "$TMP/hw/report.md" ] || fail "no report.md"
python3 -m json.tool "$TMP/hw/report.json" >/dev/null || fail "report.json does not parse"
grep -q '"verdict": "pass"' "$TMP/hw/report.json" || fail "report.json verdict is not pass"
grep -q '^| wa_idle_prev\.on\.placement | pass |' "$TMP/hw/report.md" || fail "report.md lacks the test's verdict"
grep -q '^  wa_idle_prev\.on\.placement  *can run$' "$TMP/hw/preflight.txt" ||
	fail "the preflight does not say that wa_idle_prev can run on 2 LLCs x 4: $(cat "$TMP/hw/preflight.txt")"
grep -q '"test": "wa_idle_prev.off.placement", "can_run": true' "$TMP/hw/report.json" ||
	fail "report.json lacks the situation of wa_idle_prev.off.placement"
grep -q '"test": "wa_idle_prev.on.placement", "verdict": "pass"' "$TMP/hw/report.json" ||
	fail "report.json lacks the verdict of wa_idle_prev.on.placement"
echo "report: $(head -n 1 "$TMP/hw/report.md"); $(grep -c '^| wa_idle_prev' "$TMP/hw/report.md") test lines"
