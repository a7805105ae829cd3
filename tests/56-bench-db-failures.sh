#!/usr/bin/env bash
# The OLTP workloads' failures end the run with one error line that names
# the server and its log, and leave no samples: a server that does not
# start (an option it does not know), through scripts/bench, which then
# makes no report; a server killed in the middle of a run; a data disk that
# fills up under sysbench's prepare. The servers' root is scripts/debroot
# --db (made once: about 2 minutes and 800 MB). Two 4-CPU guests.
# check: after 01
# check: uses bench
. "$(dirname "$0")/lib.sh"
need_kernel
"$SCRIPTS/debroot" --db >"$TMP/debroot.log" 2>&1 || { tail -n 5 "$TMP/debroot.log"; fail "scripts/debroot --db failed"; }
root=$(tail -n 1 "$TMP/debroot.log")
printf 'baseline -\nagain -\n' >"$TMP/configs"

# want NAME LOG 'ERE'...: the run NAME failed (exit 1), its last line is
# the error and matches every ERE, and it left no samples.
want() {
	local name=$1 log=$2 last re
	shift 2
	last=$(tail -n 1 "$log")
	for re in "$@"; do
		grep -qE -- "$re" <<<"$last" || { tail -n 8 "$log"; fail "$name: the last line does not match '$re': $last"; }
	done
	echo "$name: $last"
}

# 1. Through scripts/bench: MariaDB refuses an option it does not know.
out=$TMP/badopt
"$SCRIPTS/bench" --db --data 512 --topology "--cpus 4 --sockets 2" --mem 2048 --configs "$TMP/configs" \
	--iterations 1 --duration 2 --workloads oltp-mariadb-ps-1 --param BENCH_OLTP_SERVERS=mariadb \
	--param BENCH_MARIADB_OPTS=--no-such-option --out "$out" >"$TMP/badopt.log" 2>&1
rc=$?
[ "$rc" = 1 ] || { tail -n 8 "$TMP/badopt.log"; fail "badopt: scripts/bench exited $rc, want 1"; }
want badopt "$TMP/badopt.log" '^bench: error: the benchmark run failed \(exit 1\): setup of workload oltp-mariadb-ps-1 failed: oltp: mariadb did not start' \
	"no-such-option" "its log: $out/logs/oltp-mariadb-ps-1/mariadb.log" 'no report made'
grep -q "no-such-option" "$out/logs/oltp-mariadb-ps-1/mariadb.log" || fail "badopt: the server's log was not kept"
for f in samples.tsv report.md report.txt results.json summary.md; do
	[ ! -e "$out/$f" ] || fail "badopt: a failed run left $f"
done

# 2 and 3 in one guest, the guest half (run-bench) run directly: the
# killer waits for sysbench's run and kills the server one second in; the
# full disk is the guest's 80 MiB data disk.
res=$TMP/res
mkdir -p "$res" && cp "$TMP/configs" "$res/configs"
cat >"$res/guest.sh" <<GUEST
br() {
	local name=\$1
	shift
	bash "$SCRIPTS/lib/guest/run-bench" --out "$res/\$name" --bin "$BUILD/bin" --configs "$res/configs" \
		--iterations 1 --duration 2 --no-warmup --param BENCH_DB_ROOT="$root" "\$@" >"$res/\$name.log" 2>&1
	echo \$? >"$res/\$name.rc"
}
mkdir -p /tmp/db
( for i in \$(seq 1200); do pgrep -f 'sysbench oltp_point_select' >/dev/null && break; sleep 0.5; done
  sleep 1; pkill -KILL -x mariadbd ) &
br crash --workloads oltp-mariadb-ps-1 --duration 60 --param BENCH_OLTP_SERVERS=mariadb \
	--param BENCH_OLTP_TESTS=ps --param BENCH_OLTP_CLIENTS=1 --param BENCH_DB_DIR=/tmp/db
wait
br full --workloads oltp-pgsql-ps-1 --param BENCH_OLTP_SERVERS=pgsql --param BENCH_OLTP_TESTS=ps \
	--param BENCH_OLTP_CLIENTS=1 --param BENCH_OLTP_TABLE_SIZE=400000
GUEST
build_tools wakelat benchstat
"$SCRIPTS/vm" --cpus 4 --sockets 2 --mem 2048 --data 80 --timeout 900 --out "$res" --quiet \
	-- bash "$res/guest.sh" >"$TMP/vm.log" 2>&1 || { cat "$TMP/vm.log"; fail "the guest failed"; }
for name in crash full; do
	[ "$(cat "$res/$name.rc" 2>/dev/null)" = 1 ] || { tail -n 8 "$res/$name.log"; fail "$name: run-bench exited $(cat "$res/$name.rc" 2>/dev/null), want 1"; }
	[ ! -e "$res/$name/samples.tsv" ] || fail "$name: a failed run left samples.tsv"
done
want crash "$res/crash.log" '^bench: error: workload oltp-mariadb-ps-1 failed in configuration (baseline|again) \(iteration 1, exit [0-9]+\): oltp: mariadb died during the run \(killed by signal 9, SIGKILL;' \
	"its log: $res/crash/logs/oltp-mariadb-ps-1/mariadb.log"
want full "$res/full.log" '^bench: error: setup of workload oltp-pgsql-ps-1 failed: oltp: pgsql: ' \
	'(the data directory is full|No space left on device)' "server log: $res/full/logs/oltp-pgsql-ps-1/pgsql.log"
