#!/usr/bin/env bash
# Disk full while results are written: benchstat and wakelat write each file
# under a temporary name and rename it when complete, so they fail in one
# line and a reader never finds half a file (nor a temporary left behind).
. "$(dirname "$0")/lib.sh"
[ "$(id -u)" = 0 ] || skip "needs root to mount a small tmpfs"
(build_tools benchstat wakelat) || fail "the programs do not build"
d=$TMP/full
mkdir -p "$d"
mount -t tmpfs -o size=256k sw-full "$d" || skip "cannot mount tmpfs"
trap 'umount "$d" 2>/dev/null; rm -rf "$TMP"' EXIT
# Inputs: 3 configurations, 60 metrics, 5 samples each.
printf 'base\t\nsame\t\nvar\tNO_X\n' >"$d/configs.tsv"
printf 'kernel\ttest\naccel\tnone\ntopology\t-\niterations\t5\nduration\t-\n' >"$d/env.tsv"
awk 'BEGIN {OFS = "\t"; for (w = 1; w <= 60; w++) for (i = 1; i <= 5; i++) {
	print "w" w, "m", "s", "lo", "base", i, 1 + i / 100
	print "w" w, "m", "s", "lo", "same", i, 1 + i / 90
	print "w" w, "m", "s", "lo", "var", i, 2 + i / 80 }}' >"$d/samples.tsv"
# A working run first: the size of what it writes.
"$BUILD/bin/benchstat" report "$d" || fail "benchstat failed with space left"
need=$(du -sk "$d" | cut -f1)
rm -f "$d"/report.* "$d"/results.json "$d"/delta* "$d"/cdf*
# Leave 24 KiB: report.txt and report.md fit, results.json does not.
avail=$(df -k --output=avail "$d" | tail -n 1)
dd if=/dev/zero of="$d/fill" bs=1k count=$((avail - 24)) status=none 2>/dev/null
out=$("$BUILD/bin/benchstat" report "$d" 2>&1)
rc=$?
echo "# benchstat: $out (results needed ~${need} KiB)"
[ "$rc" != 0 ] || fail "benchstat succeeded on a full disk"
[ "$(wc -l <<<"$out")" = 1 ] && grep -q 'benchstat: error: cannot write' <<<"$out" ||
	fail "not one 'cannot write' line"
[ -z "$(find "$d" -name '.*.tmp')" ] || fail "temporary files left: $(find "$d" -name '.*.tmp')"
[ ! -e "$d/results.json" ] || fail "a results.json was left on a full disk"
# wakelat -j: the same.
rm -f "$d/fill"
avail=$(df -k --output=avail "$d" | tail -n 1)
dd if=/dev/zero of="$d/fill" bs=1k count=$((avail)) status=none 2>/dev/null
out=$("$BUILD/bin/wakelat" -m 1 -t 1 -r 0.2 -w 0 -j "$d/w.json" 2>&1 >/dev/null)
rc=$?
echo "# wakelat: $out"
[ "$rc" != 0 ] || fail "wakelat succeeded on a full disk"
grep -q "wakelat: error: cannot write $d/w.json" <<<"$out" || fail "unexpected wakelat message"
[ ! -e "$d/w.json" ] && [ -z "$(find "$d" -name 'w.json.tmp*')" ] || fail "wakelat left a file"
