# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash
# The kernel line and its directories: the one place that decides them.
# Sourced with TOP and PROG set, by scripts/lib/common.sh (every host
# script) and by scripts/hw (a box booted into the series' kernel).
#
# Each line is a series in patches/LINE/ on Debian's linux-source-LINE.
# SW_MAINLINE is the line posted upstream, the default of every script
# (make's BASE= sets SW_BASE); it builds in build/. The others are
# backports and build in build/LINE/. Whatever does not depend on the line
# (the Debian roots' base, the tools built for the host) lives in $SHARED:
# build/, or SW_BUILD where a test gives one.
SW_MAINLINE=7.3
SW_LINES="7.3 6.12"
# BASE= works for the scripts as for make (make exports it as SW_BASE).
SW_BASE=${SW_BASE:-${BASE:-$SW_MAINLINE}}
case " $SW_LINES " in
*" $SW_BASE "*) ;;
*) printf '%s: error: no kernel line %s (BASE= takes one of: %s)\n' "$PROG" "'$SW_BASE'" "$SW_LINES" >&2
	exit 2 ;;
esac
export SW_BASE
SHARED=${SW_SHARED:-${SW_BUILD:-$TOP/build}}
if [ "$SW_BASE" = "$SW_MAINLINE" ]; then
	BUILD=${SW_BUILD:-$TOP/build}
else
	BUILD=${SW_BUILD:-$TOP/build/$SW_BASE}
fi
KSRC=${SW_KSRC:-$BUILD/linux}
# The guest kernel (make kernel) and the debug kernel (make kernel DEBUG=1,
# the torture's): both configured from the same fragments, the debug one
# with scripts/config/debug.config merged last.
KOBJ=${SW_KOBJ:-$BUILD/obj}
KOBJ_DEBUG=$BUILD/obj-debug
DEBUG_FRAGMENT=$TOP/scripts/config/debug.config
PATCHES=${SW_PATCHES:-$TOP/patches/$SW_BASE}
SRC_PKG=linux-source-$SW_BASE
TARBALL=${SW_TARBALL:-/usr/src/$SRC_PKG.tar.xz}
BASE_TAG=sched-wakeup-base
SYNC_REF=refs/sched-wakeup/synced
