#!/usr/bin/env bash
# run-bench's mechanism counters (scripts/lib/guest/mech.awk) from /proc/schedstat
# of both formats: version 16 (6.12: no domain name, 8 load-balance counters
# per idle type) and 17 (7.3: a domain name, 11). Real samples taken in
# guests of both lines (tests/data/schedstat-v16.txt, -v17.txt) against
# their sums computed here column by column, and synthetic lines where
# every column holds a different figure, so that a sum of the wrong column
# cannot come out right. A version it does not know, or a domain line of
# the other version's length, is refused with one line.
. "$(dirname "$0")/lib.sh"
cd "$TOP" || exit 1
AWK=scripts/lib/guest/mech.awk

# tail_lines: the /proc/stat and /proc/interrupts lines mech.awk reads too
# (one it must not count between them).
tail_lines() {
	printf 'cpu  10 0 20 30 0 0 0 0 0 0\n'
	printf '  LOC:   5   7   Local timer interrupts\n'
	printf '  IWI:   1   2   IRQ work interrupts\n'
	printf '  RES:  11  13   Rescheduling interrupts\n'
	printf '  CAL:  17  19   Function call interrupts\n'
}
# domain VERSION LEVEL: one synthetic domain line; lb_gained of idle type t
# is 1000 + t, alb_pushed 500, ttwu_wake_remote 40, ttwu_move_affine 3; all
# other columns are 7000 + their position.
domain() {
	local v=$1 per g t i line
	if [ "$v" = 17 ]; then per=11 g=8 line="domain$2 MC ff"; else per=8 g=5 line="domain$2 ff"; fi
	for t in 0 1 2; do
		for ((i = 1; i <= per; i++)); do
			if [ "$i" = "$g" ]; then line+=" $((1000 + t))"; else line+=" $((7000 + per * t + i))"; fi
		done
	done
	line+=" 7101 7102 500 7104 7105 7106 7107 7108 7109 40 3 7112"
	echo "$line"
}
sample() {
	printf 'version %s\ntimestamp 1\n' "$1"
	printf 'cpu0 0 0 0 0 11 12 0 100 1\n'
	domain "$1" 0
	domain "$1" 1
	printf 'cpu1 0 0 0 0 21 22 0 200 2\n'
	domain "$1" 0
	domain "$1" 1
	tail_lines
}
# cpu0's LLC is domain 0: its domain 1 wakeups are cross-LLC; cpu1's is 1.
# Per domain line: lb 1000+1001+1002+500 = 3503, remote 40, affine 3.
want="32 34 300 3 160 40 12 14012 20 12 36 24"
for v in 16 17; do
	got=$(sample $v | awk -v levels="0:0 1:1" -f "$AWK") || fail "version $v sample refused"
	[ "$got" = "$want" ] || fail "version $v: got '$got', want '$want'"
	echo "synthetic version $v: $got"
done

# Each real sample against its sums taken here from its own columns.
for v in 16 17; do
	f=tests/data/schedstat-v$v.txt
	[ -r "$f" ] || fail "no sample $f"
	grep -q "^version $v\$" "$f" || fail "$f is not version $v"
	if [ "$v" = 17 ]; then off=4 per=11 g=8; else off=3 per=8 g=5; fi
	lb=$(awk -v o=$off -v p=$per -v g=$g '/^domain/ { for (t = 0; t < 3; t++) s += $(o + p * t + g - 1); s += $(o + 3 * p + 2) } END { print s + 0 }' "$f")
	wr=$(awk '/^domain/ { s += $(NF - 2) } END { print s + 0 }' "$f")
	got=$(awk -v levels="" -f "$AWK" "$f") || fail "real version $v sample refused"
	read -r _ _ _ _ gwr _ _ glb _ <<<"$got"
	[ "$glb" = "$lb" ] && [ "$gwr" = "$wr" ] ||
		fail "real version $v: lb_moved $glb, wake_remote $gwr; want $lb and $wr"
	echo "real version $v ($(grep -c '^domain' "$f") domain lines): lb_moved $glb, wake_remote $gwr"
done

# refused TEXT WHY: mech.awk exits non-zero with one line naming WHY.
refused() {
	local out rc
	out=$(awk -v levels="" -f "$AWK" <<<"$1" 2>&1 >/dev/null)
	rc=$?
	[ "$rc" != 0 ] || fail "accepted: $2"
	[ "$(wc -l <<<"$out")" = 1 ] && grep -q "$2" <<<"$out" || fail "refusal of '$2' said: $out"
	echo "refused: $out"
}
refused "$(sample 18)" "version 18 is not one this parser knows"
refused "$(sample 16 | sed 's/^version 16/version 17/')" "version 17 wants 48 fields on a domain line, got 38"
refused "$(sample 17 | sed 's/^version 17/version 16/')" "version 16 wants 38 fields on a domain line, got 48"
refused "$(sample 17 | grep -v '^version')" "a domain line before the version line"
