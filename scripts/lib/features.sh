# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash
# Sourced by the scripts that read or write /sys/kernel/debug/sched/features:
# the series' flags; the line as found is saved once,
# every write is read back, and feat_restore puts the saved line back, which
# each runner calls on every exit path. The caller sets PROG.

FEAT=/sys/kernel/debug/sched/features

# The series' flags and their defaults (the behaviour without the series):
# the one list every script reads. They depend on the kernel line: the
# running kernel's, where the scripts run on the machine under test (a
# guest, a box booted into the series), or SW_FEAT_KERNEL, which a host
# script preparing a guest of its line sets to SW_BASE before sourcing this.
case ${SW_FEAT_KERNEL:-$(uname -r)} in
6.12 | 6.12.*)
	SW_FLAG_DEFAULTS="WA_IDLE_PREV IDLEST_UTIL NO_IDLEST_UTIL_LOCAL NO_TICK_INELIGIBLE NO_WAKEUP_INELIGIBLE" ;;
*)
	SW_FLAG_DEFAULTS="WA_IDLE_PREV IDLEST_UTIL NO_IDLEST_UTIL_LOCAL NO_PROTECT_ELIGIBLE" ;;
esac
SW_FLAGS=${SW_FLAG_DEFAULTS//NO_/}

# feat_read: the features line into FEAT_NOW, without starting a process
# (each one costs tens of milliseconds in a TCG guest).
feat_read() { IFS= read -r FEAT_NOW <"$FEAT"; }

# feat_save: the line as found into FEAT_START.
feat_save() {
	feat_read
	FEAT_START=$FEAT_NOW
}

# feat_write TOKEN: write one feature and read it back.
feat_write() {
	echo "$1" >"$FEAT" 2>/dev/null || return 1
	feat_read
	[[ " $FEAT_NOW " == *" $1 "* ]]
}

# feat_apply TOKEN...: the saved line, then the given tokens. Only the tokens
# that differ from the current line are written (a write costs a static-key
# flip). feat_restore calls it with none, run-bench with a configuration's.
# shellcheck disable=SC2120
feat_apply() {
	local now t
	feat_read
	now=" $FEAT_NOW "
	for t in $FEAT_START; do
		[[ $now == *" $t "* ]] || feat_write "$t" || return 1
	done
	for t in "$@"; do
		feat_write "$t" || return 1
	done
}

# feat_restore: the saved line back, if it changed; one line on stderr
# either way; non-zero if the line could not be restored.
feat_restore() {
	feat_read
	[ "$FEAT_NOW" = "$FEAT_START" ] && return 0
	if feat_apply && feat_read && [ "$FEAT_NOW" = "$FEAT_START" ]; then
		echo "$PROG: sched features restored" >&2
		return 0
	fi
	echo "$PROG: error: could not restore the sched features to: $FEAT_START" >&2
	return 1
}
