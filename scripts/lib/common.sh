# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash
# Shared helpers for the scripts in scripts/ that run on the host. Sourced,
# never executed; scripts/lib/guest/lib.sh is their counterpart on the
# machine under test.
#
# The error-handling rule, for every script here and in lib/:
#   - 'set -uo pipefail', never 'set -e': -e is ignored inside conditions,
#     in functions called from them and in command substitutions, and where
#     it does act it exits without a word. A command whose failure matters
#     is followed by '|| die "what failed"' (or its status is tested).
#   - Every failure ends in one line on stderr, "PROG: error: ...": die
#     exits 1, usage_error (bad option or value) exits 2. A script that
#     runs a guest passes on scripts/vm's own codes (124 hang, 125 guest
#     or QEMU failure).
#   - Options take their values in the "needs a value" style of need_value
#     (scripts/lib/args.sh), and every value is checked before a kernel
#     is built or a guest boots.

TOP=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
. "$TOP/scripts/lib/args.sh"
PROG=${PROG:-$(basename "$0")}
SW_T0=${SW_T0:-$(date +%s)}

. "$TOP/scripts/lib/line.sh"

# cells FILE: the rows of a cells file (scripts/config/*.cells) that apply to
# this line, without comments and blank lines. A row that starts with
# "[LINE...]" applies to those lines only; the prefix is removed.
cells() {
	local row
	sed -e 's/#.*//' -e '/^[[:space:]]*$/d' "$1" | while IFS= read -r row; do
		if [[ $row =~ ^[[:space:]]*\[([^]]*)\][[:space:]]*(.*)$ ]]; then
			[[ " ${BASH_REMATCH[1]} " == *" $SW_BASE "* ]] || continue
			row=${BASH_REMATCH[2]}
		fi
		printf '%s\n' "$row"
	done
}

# line_fragment: the guest configuration's fragment for this line
# (scripts/config/line-LINE.config: options that exist in one line only).
line_fragment() {
	echo "$TOP/scripts/config/line-$SW_BASE.config"
}

warn() {
	printf '%s: warning: %s\n' "$PROG" "$*" >&2
}

info() {
	printf '%s: %s\n' "$PROG" "$*"
}

elapsed() {
	local s=$(($(date +%s) - SW_T0))
	printf '%dm%02ds' $((s / 60)) $((s % 60))
}

# make_jobs: the -j of a build, and the guests at a time of a matrix: the
# host's CPUs, or SW_JOBS when set (scripts/check sets it to the CPUs a test
# was given, so that a test running beside another keeps to its share).
make_jobs() {
	case ${SW_JOBS:-} in
	'') nproc ;;
	*[!0-9]* | 0*) die "SW_JOBS is a positive count, not '$SW_JOBS'" ;;
	*) echo "$SW_JOBS" ;;
	esac
}

# step I N TEXT: one progress line for a long job.
step() {
	printf '%s: [%s/%s] %s (%s elapsed)\n' "$PROG" "$1" "$2" "$3" "$(elapsed)"
}

need_cmd() {
	local c
	for c in "$@"; do
		command -v "$c" >/dev/null 2>&1 ||
			die "'$c' not found; run 'make deps' (scripts/deps) or install it"
	done
}

need_root() {
	[ "$(id -u)" = 0 ] || die "must run as root ($*)"
}

# base_version DIR: VERSION.PATCHLEVEL.SUBLEVEL of the kernel tree in DIR.
base_version() {
	awk -F' *= *' '/^VERSION =/ {v=$2} /^PATCHLEVEL =/ {p=$2}
		/^SUBLEVEL =/ {s=$2; print v "." p "." s; exit}' "$1/Makefile"
}

# Fixed identity and timestamps so that commits and builds are reproducible.
export KBUILD_BUILD_TIMESTAMP=${KBUILD_BUILD_TIMESTAMP:-Sun Nov 17 00:00:00 UTC 2024}
SW_GIT_DATE='2024-11-17T00:00:00+0000'
export KBUILD_BUILD_USER=${KBUILD_BUILD_USER:-sched-wakeup}
export KBUILD_BUILD_HOST=${KBUILD_BUILD_HOST:-build}
# A make that runs the kernel's or the selftests' build must not inherit the
# flags of 'make -s check' (a silent build shows no progress) or its jobserver.
unset MAKEFLAGS MFLAGS MAKELEVEL

# ccache hits across checkouts in different folders (CI clones afresh):
# absolute paths below the checkout are hashed as relative ones.
export CCACHE_BASEDIR=${CCACHE_BASEDIR:-$TOP} CCACHE_NOHASHDIR=${CCACHE_NOHASHDIR:-1}

sw_git() {
	git -c user.name="sched-wakeup tooling" -c user.email=tooling@sched-wakeup.invalid \
		-c core.autocrlf=false -c advice.detachedHead=false "$@"
}

# The LLVM toolchain of the clang builds (scripts/build --llvm, the robot's
# llvm cells): Debian 12's clang-19, as the kernel's LLVM=-19 names it.
LLVM_SUFFIX=${SW_LLVM_SUFFIX:--19}

# feature_known TOKEN: a sched feature of the line's kernel, with or
# without NO_: from the tree's features.h where there is a tree, else from
# patches/LINE/sched-features, which scripts/export writes from it (so that
# a name is checked on a fresh clone too, before any tree or build).
feature_known() {
	local name=${1#NO_} fh=$KSRC/kernel/sched/features.h
	[[ $name =~ ^[A-Z][A-Z0-9_]*$ ]] || return 1
	if [ -r "$fh" ]; then
		grep -q "^SCHED_FEAT($name," "$fh"
	else
		grep -qx "$name" "$PATCHES/sched-features" 2>/dev/null
	fi
}

# build_tools NAME...: compile scripts/src/NAME.c into $BUILD/bin/NAME when
# the binary is missing or older than its source; one set of flags for all.
build_tools() {
	local p src bin=$BUILD/bin
	need_cmd gcc
	mkdir -p "$bin" || die "cannot create $bin"
	for p in "$@"; do
		src=$TOP/scripts/src/$p.c
		[ -x "$bin/$p" ] && [ ! "$src" -nt "$bin/$p" ] && continue
		# A name of its own: two tests may build the same tool at once.
		gcc -O2 -Wall -Wextra -Werror -Wno-format-truncation -pthread -o "$bin/$p.tmp$$" \
			"$src" -lm || { rm -f "$bin/$p.tmp$$"; die "cannot build $src"; }
		mv "$bin/$p.tmp$$" "$bin/$p"
	done
}
