#!/usr/bin/env bash
# make submit: refused in one line without a poster identity and under the
# project's role address; with one, for each kernel line, the feature series
# re-applied on the base without the postings apart, under the poster's
# From: and Signed-off-by: only, To/Cc filled in: on the mainline line the
# fixes (Fixes: trailer) as a [PATCH] posting of their own, on the 6.12.y
# line each stable fix as one; a commit marked "[ X.Y.y only ... ]" is in
# none. The feature mails are an RFC ([RFC PATCH i/N], replies to the cover
# letter, whose text is at most 80 lines on the mainline line), carry the threads' people of the
# cover letter's Cc: on every patch, and --base-commit ends the cover letter
# with base-commit: (a tag instead of an id is refused in one line).
# check: uses tree
. "$(dirname "$0")/lib.sh"
[ -d "$KSRC/.git" ] || fail "no tree (the tree test failed)"
home=$TMP/home
mkdir -p "$home"
sub() { HOME=$home GIT_CONFIG_NOSYSTEM=1 "$SCRIPTS/submit" --out "$TMP/out" 2>&1; }

out=$(sub)
rc=$?
[ "$rc" = 1 ] && [ "$(grep -c . <<<"$out")" = 1 ] && grep -q "no poster identity" <<<"$out" ||
	fail "no identity: wanted one line and exit 1, got exit $rc: $out"
echo "no identity: $out"
git config -f "$home/.gitconfig" user.name "Project" &&
	git config -f "$home/.gitconfig" user.email maintainers@users.noreply.a-seed-f82ce5fe.example
out=$(sub)
rc=$?
[ "$rc" = 1 ] && grep -q "role address" <<<"$out" || fail "role address accepted (exit $rc): $out"
echo "role address: $out"

git config -f "$home/.gitconfig" user.name "Jane Poster" &&
	git config -f "$home/.gitconfig" user.email jane@example.org
out=$(HOME=$home GIT_CONFIG_NOSYSTEM=1 "$SCRIPTS/submit" --out "$TMP/out" --base-commit v7.3.4 2>&1)
rc=$?
[ "$rc" = 2 ] && [ "$(grep -c . <<<"$out")" = 1 ] && grep -q "takes a commit id" <<<"$out" ||
	fail "a tag as --base-commit: wanted one line and exit 2, got exit $rc: $out"
echo "bad base commit: $out"
base=0123456789abcdef0123456789abcdef01234567
for line in $SW_LINES; do
(
export SW_BASE=$line
. "$TOP/scripts/lib/common.sh"
. "$TOP/scripts/lib/series.sh"
rm -rf "$TMP/out"
out=$(HOME=$home GIT_CONFIG_NOSYSTEM=1 "$SCRIPTS/submit" --out "$TMP/out" --base-commit $base 2>&1) ||
	fail "$line: submit failed: $out"
# What each commit is: kept on the line (not posted), a fix, a stable fix.
nkept=0 nfix=0 nstable=0
for c in $(git -C "$KSRC" rev-list "$BASE_TAG..HEAD"); do
	msg=$(git -C "$KSRC" log -1 --format=%B "$c")
	if grep -qE '^\[ [0-9]+\.[0-9]+\.y only' <<<"$msg"; then
		nkept=$((nkept + 1))
	elif [ "$line" = "$SW_MAINLINE" ] && grep -q '^Fixes: ' <<<"$msg"; then
		nfix=$((nfix + 1))
	elif [ "$line" != "$SW_MAINLINE" ] && grep -qi '^Cc: *stable@vger\.kernel\.org' <<<"$msg"; then
		nstable=$((nstable + 1))
	fi
done
nall=$(git -C "$KSRC" rev-list --count "$BASE_TAG..HEAD")
mapfile -t feat < <(find "$TMP/out" -maxdepth 1 -name '[0-9]*.patch' ! -name '0000-*' | sort)
nfeat=${#feat[@]}
mapfile -t stab < <(find "$TMP/out/stable" -name '*.patch' | sort)
ns=${#stab[@]}
mapfile -t fixp < <(find "$TMP/out/fixes" -name '*.patch' | sort)
nf=${#fixp[@]}
[ "$ns" = "$nstable" ] || fail "$ns stable posting(s) for $nstable stable fix(es)"
[ "$nf" = "$nfix" ] || fail "$nf fix patch(es) for $nfix fix(es)"
[ "$nfeat" = $((nall - nstable - nfix - nkept)) ] ||
	fail "$nfeat feature patches for $((nall - nstable - nfix - nkept)) feature commits"
for p in "${fixp[@]}"; do
	grep -qE "^Subject: \[PATCH( [0-9]+/[0-9]+)?\] " "$p" || fail "$(basename "$p"): not a [PATCH] posting"
	grep -q "^Fixes: " "$p" || fail "$(basename "$p"): no Fixes: in a fix"
	! grep -qE '^\[ [0-9]+\.[0-9]+\.y only' "$p" || fail "$(basename "$p"): a line-only commit posted"
done
for p in "${feat[@]}"; do
	! grep -qE '^\[ [0-9]+\.[0-9]+\.y only' "$p" || fail "$(basename "$p"): a line-only commit posted"
done
# The mainline RFC's cover letter text (before the shortlog): at most 80
# lines.
ntext=$(sed -n '/^$/,$p' "$TMP/out/0000-cover-letter.patch" | sed '/^.* ([0-9]*):$/,$d' | grep -c '')
[ "$line" != "$SW_MAINLINE" ] || [ "$ntext" -le 80 ] ||
	fail "the cover letter's text is $ntext lines, over 80"
echo "$line: $nf fix posting(s), $nkept commit(s) kept on the line, a cover letter of $ntext lines"
[ -f "$TMP/out/0000-cover-letter.patch" ] || fail "no cover letter"
! grep -q "SUBJECT HERE\|BLURB HERE" "$TMP/out/0000-cover-letter.patch" || fail "cover letter placeholders left"
for p in "$TMP"/out/*.patch "${stab[@]}" "${fixp[@]}"; do
	! grep -q "a-seed-f82ce5fe" "$p" || fail "$(basename "$p") still carries the project's address"
	grep -q "^From: Jane Poster <jane@example.org>" "$p" || fail "$(basename "$p"): From: is not the poster"
	grep -q "^To: " "$p" || fail "$(basename "$p"): no To:"
	case $p in */0000-cover-letter.patch) continue ;; esac
	grep -q "^Signed-off-by: Jane Poster <jane@example.org>" "$p" || fail "$(basename "$p"): not signed off by the poster"
done
for p in "${stab[@]}"; do
	grep -q "^Subject: \[PATCH $line.y\]" "$p" && grep -q "stable@vger.kernel.org" "$p" ||
		fail "$(basename "$p"): not a $line.y posting to stable"
done
# The mails' headers: an RFC numbered n/N, threaded under the cover
# letter, every thread person of the cover letter's Cc: on every patch, the
# base named once, at the end of the cover letter.
cover=$TMP/out/0000-cover-letter.patch
hdr() { sed '/^$/q' "$1"; }
# git format-patch pads the numbers to the width of the count (01/10).
num() { printf '%0*d' ${#nfeat} "$1"; }
grep -q "^Subject: \[RFC PATCH $(num 0)/$nfeat\] " "$cover" || fail "cover letter: not [RFC PATCH $(num 0)/$nfeat]"
msgid=$(hdr "$cover" | sed -n 's/^Message-Id: //p')
[ -n "$msgid" ] || fail "cover letter: no Message-Id"
mapfile -t people < <(cover_cc "$PATCHES/cover-letter")
i=0
for p in "${feat[@]}"; do
	i=$((i + 1))
	hdr "$p" | grep -q "^Subject: \[RFC PATCH $(num $i)/$nfeat\] " || fail "$(basename "$p"): not [RFC PATCH $(num $i)/$nfeat]"
	hdr "$p" | grep -qxF "In-Reply-To: $msgid" || fail "$(basename "$p"): not a reply to the cover letter"
	for who in "${people[@]}"; do
		hdr "$p" | sed -n '/^Cc:/,/^[^ ]/p' | grep -qF "$who" || fail "$(basename "$p"): $who not in Cc:"
	done
done
[ "$(tail -n 1 "$cover")" = "base-commit: $base" ] || fail "cover letter: no base-commit: $base at its end"
[ "$(grep -c '^base-commit:' "$TMP"/out/*.patch | awk -F: '{ n += $2 } END { print n }')" = 1 ] ||
	fail "base-commit: in other mails than the cover letter"
echo "$line: [RFC PATCH $(num 1)/$nfeat]..[RFC PATCH $nfeat/$nfeat] threaded under $msgid, ${#people[@]} thread people in every Cc:, base-commit at the end of the cover letter"
# The postings apply: the feature series on the bare base, mail by mail, in
# a private index of the base (a checkout of a kernel tree costs minutes).
export GIT_INDEX_FILE=$TMP/index
git -C "$KSRC" read-tree "$BASE_TAG" || fail "cannot read $BASE_TAG into an index"
for p in "${feat[@]}"; do
	git -C "$KSRC" mailinfo "$TMP/mi-msg" "$TMP/mi-patch" <"$p" >/dev/null ||
		fail "$(basename "$p"): not a mail git am can read"
	git -C "$KSRC" apply --cached "$TMP/mi-patch" 2>"$TMP/apply.log" ||
		fail "$(basename "$p") does not apply on $BASE_TAG after the ones before it: $(head -n 1 "$TMP/apply.log")"
done
unset GIT_INDEX_FILE
echo "$line: $nfeat feature patches + cover letter, $nf fix(es), $ns stable posting(s); all From/Signed-off-by Jane Poster; the series applies on the base alone"
) || exit 1
done
