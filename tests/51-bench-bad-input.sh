#!/usr/bin/env bash
# scripts/bench refuses bad input with one line and a non-zero exit, before
# any guest boots: an unknown option, an unknown sched feature in a
# configurations file (named with its line), an unknown workload, a
# configurations file without a variant, --native as a non-root user, your
# own workload without its figure, a --metric that is no regex or has no
# (group), a --command that is no shell command line, a bad --param, an
# experiment file's configuration for a kernel line that does not exist,
# the database workloads without a data disk, a bad data disk size or
# client count, a bad experiment setting, a guest command line that would
# end the kernel's parameters or is given to --native.
# check: uses bench
. "$(dirname "$0")/lib.sh"
before=$(find "$BUILD/bench" -maxdepth 1 2>/dev/null | wc -l)
printf 'baseline -\ntypo NO_WA_IDLE_PREVV\n' >"$TMP/typo.configs"
printf 'baseline -\n' >"$TMP/one.configs"
printf 'topology --cpus 4 --sockets 2\nconfig A -\nconfig[5.4] B NO_WA_IDLE_PREV\n' >"$TMP/line.exp"
expect_refusal "unknown option '--bogus'" "$SCRIPTS/bench" --bogus
expect_refusal "typo.configs:2: unknown sched feature 'NO_WA_IDLE_PREVV'" "$SCRIPTS/bench" --configs "$TMP/typo.configs"
expect_refusal "unknown workload 'nosuch'" "$SCRIPTS/bench" --workloads hackbench-thread-pipe,nosuch
expect_refusal "needs a baseline and at least one variant" "$SCRIPTS/bench" --configs "$TMP/one.configs"
expect_refusal "--iterations must be a positive integer" "$SCRIPTS/bench" --iterations 0
expect_refusal "--command needs --metric REGEX" "$SCRIPTS/bench" --command 'true'
expect_refusal "--metric needs --command" "$SCRIPTS/bench" --metric '([0-9]+)'
expect_refusal "--metric '.0-9.. ops' is not an extended regular expression with a .group." \
	"$SCRIPTS/bench" --command 'true' --metric '[0-9]+ ops'
expect_refusal "--metric '.x' is not an extended regular expression" \
	"$SCRIPTS/bench" --command 'true' --metric '(x'
expect_refusal "--command 'echo .' is not a valid shell command line" \
	"$SCRIPTS/bench" --command 'echo (' --metric '([0-9]+)'
expect_refusal "--param takes BENCH_NAME=VALUE, not 'FOO=1'" "$SCRIPTS/bench" --param FOO=1
expect_refusal "--duration must be a positive number of seconds" "$SCRIPTS/bench" --duration 0.0
expect_refusal "line.exp:3: no kernel line '5.4' .one of: $SW_LINES." "$SCRIPTS/bench" --experiment "$TMP/line.exp"
expect_refusal "must run as root" as_nobody "$SCRIPTS/bench" --native
expect_refusal "--db needs a data disk for the servers' data .--data MIB." "$SCRIPTS/bench" --db
expect_refusal "--data takes a size in MiB, 16 or more, not '8'" "$SCRIPTS/bench" --data 8
expect_refusal "BENCH_OLTP_CLIENTS: 'x' is not a client count" "$SCRIPTS/bench" --db --data 64 \
	--param BENCH_OLTP_CLIENTS=x
printf 'topology --cpus 4 --sockets 2\ndb yes\nconfig A -\nconfig B NO_WA_IDLE_PREV\n' >"$TMP/db.exp"
expect_refusal "db.exp:2: db takes no value" "$SCRIPTS/bench" --experiment "$TMP/db.exp"
expect_refusal "--append 'preempt=full -- x': '--' would end the kernel's parameters" \
	"$SCRIPTS/bench" --append 'preempt=full -- x'
expect_refusal "--append is the guest's command line; natively, boot this machine with it" \
	"$SCRIPTS/bench" --native --append preempt=full
[ "$(find "$BUILD/bench" -maxdepth 1 2>/dev/null | wc -l)" = "$before" ] ||
	fail "a refused run left a results directory in $BUILD/bench"
