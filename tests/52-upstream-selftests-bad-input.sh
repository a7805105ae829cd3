#!/usr/bin/env bash
# scripts/upstream-selftests refuses bad input with one line and a non-zero exit,
# before it builds or boots anything: an unknown option, a selftest
# collection the tree does not have, a bad per-test timeout, an odd CPU
# count (the guest has 2 LLCs).
. "$(dirname "$0")/lib.sh"
expect_refusal "unknown option '--bogus'" "$SCRIPTS/upstream-selftests" --bogus
expect_refusal "no selftest collection 'nosuch'" "$SCRIPTS/upstream-selftests" --collections "futex nosuch"
expect_refusal "--timeout must be whole seconds, not '0'" "$SCRIPTS/upstream-selftests" --timeout 0
expect_refusal "--out needs a value" "$SCRIPTS/upstream-selftests" --out
expect_refusal "--cpus must be an even number" "$SCRIPTS/upstream-selftests" --cpus 3
