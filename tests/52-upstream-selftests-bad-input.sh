#!/usr/bin/env bash
# scripts/upstream-selftests refuses bad input with one line and a non-zero exit,
# before it builds or boots anything: an unknown option, a selftest
# collection the tree does not have, a bad per-test timeout, a topology
# scripts/vm cannot build or that is not its options.
. "$(dirname "$0")/lib.sh"
expect_refusal "unknown option '--bogus'" "$SCRIPTS/upstream-selftests" --bogus
expect_refusal "no selftest collection 'nosuch'" "$SCRIPTS/upstream-selftests" --collections "futex nosuch"
expect_refusal "--timeout must be whole seconds, not '0'" "$SCRIPTS/upstream-selftests" --timeout 0
expect_refusal "--out needs a value" "$SCRIPTS/upstream-selftests" --out
expect_refusal "--topology '--cpus 3': 2 sockets x 1 cores x 1 threads is 2 CPUs, not 3" \
	"$SCRIPTS/upstream-selftests" --topology "--cpus 3"
expect_refusal "--topology '4': '4' is not one of --cpus" "$SCRIPTS/upstream-selftests" --topology 4
