#!/usr/bin/env bash
# The kernel builds, with every option the fragments request (scripts/build).
# check: cpus all
. "$(dirname "$0")/lib.sh"
"$SCRIPTS/build" || fail "scripts/build failed"
need_kernel
