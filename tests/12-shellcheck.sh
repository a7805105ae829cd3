#!/usr/bin/env bash
# The tooling passes shellcheck (skipped when it is not installed).
. "$(dirname "$0")/lib.sh"
command -v shellcheck >/dev/null || skip "shellcheck not installed (make deps)"
cd "$TOP" || exit 1
files=$({ grep -rlE '^#!/usr/bin/env bash|^#!/bin/bash' scripts tests .ci
	ls scripts/lib/*.sh scripts/lib/guest/*.sh scripts/lib/guest/workloads/*.sh tests/lib.sh; } | sort -u)
# Settings in .shellcheckrc.
# shellcheck disable=SC2086
shellcheck -S warning $files || fail "shellcheck found problems"
echo "$(echo "$files" | wc -l) scripts clean"
