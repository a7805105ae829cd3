# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash
# Reading patches/series. Sourced, never executed.
#
# Format: one patch per line, in the order 'git am' applies them, optionally
# followed by the new files (or new directories) that the same commit adds.
# Those are kept as real files at their kernel path in this repository,
# shared by every line, and are also in the exported patch (so that 'git am'
# gives the whole series); the copy here is the one edited, and
# scripts/tree folds it in over the patch's. A line that
# needs its own copy of such a file keeps it at the same path under
# patches/LINE/new/ (its PATCHES/new): there it replaces the shared copy,
# for that line only. '#' starts a comment; '# base: X.Y.Z (PKG
# VERSION)' names the kernel the series was exported against and the Debian
# source package it came from.

# series_entries FILE: print "patch [path...]" lines without comments.
series_entries() {
	sed -e 's/#.*//' -e 's/[[:space:]]*$//' -e '/^[[:space:]]*$/d' "$1"
}

# series_base FILE: the base version recorded by the last export, if any.
series_base() {
	sed -n 's/^# base: *\([0-9.]*\).*/\1/p' "$1" | head -n 1
}

# series_source FILE: the version of Debian's source package recorded by the
# last export ("# base: 7.3.4 (linux-source-7.3 7.3.4-1~bpo13+1)").
series_source() {
	sed -n 's/^# base: *[0-9.]* *([^ ]* \([^)]*\)).*/\1/p' "$1" | head -n 1
}

# source_pkg_version: the installed version of the line's source package
# ("unknown" where dpkg does not know it, a tarball given by SW_TARBALL).
source_pkg_version() {
	dpkg-query -W -f='${Version}' "$SRC_PKG" 2>/dev/null || echo unknown
}

tarball_id() {
	stat -L -c '%n %s %Y' "$TARBALL"
}

# new_view ROOT DIR: the new file or directory ROOT as the line has it,
# copied to DIR/ROOT: the shared copy at NEWFROM/ROOT (what git does not
# ignore there; every file where NEWFROM is no repository), each file of
# PATCHES/new/ROOT in place of the shared one or beside it. Fails when
# neither has ROOT.
new_view() {
	local root=$1 dir=$2 from f
	rm -rf "${dir:?}/$root"
	[ -e "$NEWFROM/$root" ] || [ -e "$PATCHES/new/$root" ] || return 1
	for from in "$NEWFROM" "$PATCHES/new"; do
		[ -e "$from/$root" ] || continue
		(cd "$from" && if [ "$from" = "$NEWFROM" ] && git rev-parse --git-dir >/dev/null 2>&1; then
			git ls-files -co --exclude-standard -- "$root"
		else
			find "$root" -type f
		fi) | while IFS= read -r f; do
			mkdir -p "$(dirname "$dir/$f")" && cp -p "$from/$f" "$dir/$f" || exit 1
		done || return 1
	done
}

# line_own ROOT: the files of ROOT the line keeps its own copy of (under
# PATCHES/new), one per line.
line_own() {
	[ -e "$PATCHES/new/$1" ] || return 0
	(cd "$PATCHES/new" && find "$1" -type f | sort)
}

# inputs_id: a fingerprint of everything the tree is made from (the base,
# the series and the new files as the line has them), to tell when
# re-applying is needed.
inputs_id() {
	local line p view
	view=$(mktemp -d) || return 1
	{
		tarball_id
		cat "$SERIES"
		series_entries "$SERIES" | while read -r line; do
			set -- $line
			sha256sum "$PATCHES/$1"
			shift
			for p in "$@"; do
				new_view "$p" "$view" &&
					(cd "$view" && find "$p" -type f -print0 | sort -z | xargs -0r sha256sum)
			done
		done
	} | sha256sum | cut -d' ' -f1
	rm -rf "$view"
}

# cover_fill SRC FILE: fill the subject and blurb placeholders of the
# cover letter FILE that git format-patch wrote with the subject and text of
# the cover letter SRC (patches/LINE/cover-letter); with cover_date
# and cover_author set in the environment, its Date: and From: lines too,
# and with cover_keep_cc=1 SRC's Cc: header (the people of the threads the
# series answers, which get_maintainer.pl cannot know).
cover_fill() {
	local src=$1 file=$2
	awk -v src="$src" -v date="${cover_date:-}" -v author="${cover_author:-}" \
		-v keepcc="${cover_keep_cc:-}" '
	BEGIN {
		while ((getline l < src) > 0) {
			if (!hdone && l ~ /^Cc: /) { cc = cc l "\n"; incc = 1; continue }
			if (incc && l ~ /^[ \t]/) { cc = cc l "\n"; continue }
			incc = 0
			if (!hdone && l ~ /^Subject: /) { subj = l; sub(/^Subject: (\[[^]]*\] )?/, "", subj); insub = 1; continue }
			if (insub && l ~ /^ /) { subj = subj l; continue }
			insub = 0
			if (!hdone && l == "") { hdone = 1; continue }
			if (hdone && !bend) {
				if (l ~ /^[^ ].* \([0-9]+\):$/) { bend = 1; continue }
				blurb = blurb l "\n"
			}
		}
		sub(/\n+$/, "\n", blurb)
	}
	!fhdone && $0 == "" { fhdone = 1; if (keepcc != "") printf "%s", cc }
	date != "" && /^Date: / { print "Date: " date; next }
	author != "" && /^From: / { print "From: " author; next }
	/\*\*\* SUBJECT HERE \*\*\*/ { sub(/\*\*\* SUBJECT HERE \*\*\*/, subj) }
	/^\*\*\* BLURB HERE \*\*\*$/ { printf "%s\n", blurb; next }
	{ print }' "$file" >"$file.tmp" && mv "$file.tmp" "$file"
}

# cover_cc SRC: the addresses of the Cc: header of the cover letter SRC,
# one per line ("Name <addr>").
cover_cc() {
	[ -f "$1" ] || return 0
	awk '/^$/ { exit } /^Cc: / { incc = 1; sub(/^Cc: /, ""); printf "%s", $0; next }
		incc && /^[ \t]/ { printf "%s", $0; next } { incc = 0 }' "$1" |
		tr ',' '\n' | sed -e 's/^[[:space:]]*//' -e 's/[[:space:]]*$//' -e '/^$/d'
}
