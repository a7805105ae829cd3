#!/usr/bin/env bash
# Bad input is refused before any work, on a fresh clone (no build/, no
# tree): each make variable and script argument below exits 2 with one
# line and no line of the tree, a build or apt, in under 2 s of CPU time
# (wall time is reported; make check runs tests side by side). --help
# works in every script, and BASE= selects the line for the scripts as
# for make.
. "$(dirname "$0")/lib.sh"
clone=$TMP/clone
git clone -q "$TOP" "$clone" || fail "cannot clone $TOP"
cd "$clone" || exit 1
refuse() {
	local out rc t0 cpu
	t0=$(date +%s%N)
	out=$( { TIMEFORMAT='%U %S'; time "$@" 2>&1; } 2>"$TMP/cpu")
	rc=$?
	cpu=$(awk '{ printf "%.2f", $1 + $2 }' "$TMP/cpu")
	printf '# %s -> exit %s, %s s CPU, %d ms: %s\n' "$*" "$rc" "$cpu" \
		$((($(date +%s%N) - t0) / 1000000)) "$out"
	[ "$rc" = 2 ] || fail "'$*' exited $rc, not 2"
	[ "$(grep -c . <<<"$out")" = 1 ] || fail "'$*' printed more than one line"
	! grep -qE '^(tree|build|deps):|apt' <<<"$out" || fail "'$*' started work before refusing"
	awk -v c="$cpu" 'BEGIN { exit !(c < 2) }' || fail "'$*' took $cpu s of CPU time"
	[ ! -d build/linux ] || fail "'$*' made a tree"
}
refuse make matrix CELLS=bogus
refuse make torture DURATION=5x
refuse make bench ITERATIONS=0
refuse make seeds SEEDS=bogus
refuse make lava JOBS=bogus
refuse make kernel DEBUG=yes
refuse make run KSRC=/nonexistent
refuse make invariants QUICK=yes
refuse scripts/trace --clock bogus --selftest ineligible
refuse scripts/trace --features NO_BOGUS --selftest ineligible
refuse scripts/trace --events x:y --selftest ineligible
refuse scripts/torture --flags NO_SUCH_FLAG
refuse scripts/invariants --configs bogus
for s in scripts/*; do
	[ -f "$s" ] && [ -x "$s" ] || continue
	"$s" --help >"$TMP/help" 2>&1 || fail "$s --help exited non-zero: $(head -n 1 "$TMP/help")"
	grep -qi '^usage' "$TMP/help" || fail "$s --help printed no usage"
done
echo "every script answers --help with its usage"
[ "$(env -u SW_BASE BASE=6.12 scripts/matrix --list | grep -c none2x4)" = 1 ] ||
	fail "BASE=6.12 scripts/matrix --list does not list the 6.12.y line's cells"
echo "BASE=6.12 selects the 6.12.y line for the scripts"
