#!/usr/bin/env bash
# shellcheck on the tooling, when it is installed.
. "$(dirname "$0")/lib.sh"
command -v shellcheck >/dev/null || skip "shellcheck not installed (make deps)"
cd "$TOP" || exit 1
files=$(grep -rlE '^#!/usr/bin/env bash|^#!/bin/bash' scripts tests .ci | sort)
# SC1091: sourced files are followed with -x; SC2086 is left to review.
shellcheck -x -S warning $files || fail "shellcheck found problems"
echo "$(echo "$files" | wc -l) scripts clean"
