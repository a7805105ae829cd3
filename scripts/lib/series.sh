# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash
# Reading patches/series. Sourced, never executed.
#
# Format: one patch per line, in the order 'git am' applies them, optionally
# followed by the new files (or new directories) that the same commit adds.
# Those are kept as real files at their kernel path in this repository and are
# left out of the exported patch. '#' starts a comment; '# base: X.Y.Z (PKG
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

# inputs_id: a fingerprint of everything the tree is made from (the base,
# the series and the new files), to tell when re-applying is needed.
inputs_id() {
	local line p
	{
		tarball_id
		cat "$SERIES"
		series_entries "$SERIES" | while read -r line; do
			set -- $line
			sha256sum "$PATCHES/$1"
			shift
			for p in "$@"; do
				(cd "$NEWFROM" && find "$p" -type f -print0 | sort -z |
					xargs -0r sha256sum)
			done
		done
	} | sha256sum | cut -d' ' -f1
}

# cover_fill SRC FILE: fill the subject and blurb placeholders of the
# cover letter FILE that git format-patch wrote with the subject and text of
# the cover letter SRC (patches/0000-cover-letter.patch); with cover_date
# and cover_author set in the environment, its Date: and From: lines too.
cover_fill() {
	local src=$1 file=$2
	awk -v src="$src" -v date="${cover_date:-}" -v author="${cover_author:-}" '
	BEGIN {
		while ((getline l < src) > 0) {
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
	date != "" && /^Date: / { print "Date: " date; next }
	author != "" && /^From: / { print "From: " author; next }
	/\*\*\* SUBJECT HERE \*\*\*/ { sub(/\*\*\* SUBJECT HERE \*\*\*/, subj) }
	/^\*\*\* BLURB HERE \*\*\*$/ { printf "%s\n", blurb; next }
	{ print }' "$file" >"$file.tmp" && mv "$file.tmp" "$file"
}
