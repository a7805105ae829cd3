# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash
# OLTP against real database servers: seed 003's mysql and pgsql rows.
# Declared only when BENCH_DB_ROOT names a root with the servers in it
# (scripts/debroot --db; scripts/bench --db gives it): MariaDB and
# PostgreSQL run chrooted into that root, their data in BENCH_DB_DIR
# (default: the guest's data disk, scripts/vm --data, mounted at /mnt),
# and the host's sysbench is the client, over TCP on the loopback.
#
#   oltp-SERVER-TEST-N   SERVER mariadb or pgsql, TEST rw (sysbench's
#                        oltp_read_write) or ps (oltp_point_select, the
#                        latency-bound case), N clients
#
# Parameters, with their defaults:
#   BENCH_OLTP_CLIENTS     "1 8"  client counts (seed 003: 1 to 256);
#                          sysbench 1.0 gives its clients a fixed 30 s to
#                          connect, which 32 PostgreSQL clients missed in
#                          an 8-vCPU TCG guest on a busy 2-core host
#   BENCH_OLTP_SERVERS     "mariadb pgsql"
#   BENCH_OLTP_TESTS       "rw ps"
#   BENCH_OLTP_TABLES      4      sysbench --tables
#   BENCH_OLTP_TABLE_SIZE  10000  sysbench --table-size (rows a table)
#   BENCH_MARIADB_OPTS, BENCH_PGSQL_OPTS   extra server options
#
# Every configuration starts from the same data: each server's database is
# made and prepared once (the first workload's setup.log has it), shut
# down and copied; every workload starts its server from that copy, and
# before every rw run (which writes) the server is stopped, the copy
# restored and the server started again, outside the measured interval.
# The servers' own logs are kept beside the raw outputs
# (logs/WORKLOAD/SERVER.log). A server that does not start, a prepare
# that fails, a full data disk or a server that dies in a run is one error
# line naming the server and its log, and the run ends without samples.

[ -n "${BENCH_DB_ROOT:-}" ] || return 0

OLTP_PORT_mariadb=23306 OLTP_PORT_pgsql=25432
OLTP_MAXCONN=100
for n in ${BENCH_OLTP_CLIENTS:-1 8}; do
	valid_count "$n" || die "BENCH_OLTP_CLIENTS: '$n' is not a client count"
	[ $((n + 20)) -le "$OLTP_MAXCONN" ] || OLTP_MAXCONN=$((n + 20))
done
for srv in ${BENCH_OLTP_SERVERS:-mariadb pgsql}; do
	case $srv in mariadb | pgsql) ;; *) die "BENCH_OLTP_SERVERS: no server '$srv' (mariadb, pgsql)" ;; esac
	for t in ${BENCH_OLTP_TESTS:-rw ps}; do
		case $t in rw | ps) ;; *) die "BENCH_OLTP_TESTS: no test '$t' (rw, ps)" ;; esac
		for n in ${BENCH_OLTP_CLIENTS:-1 8}; do
			w=oltp-$srv-$t-$n
			workload "$w" 0 'tps tx/s hi' 'lat-avg ms lo' 'lat-p95 ms lo' 'errors /s info'
			eval "setup_${w//-/_}() { oltp_setup $srv $w; }
			      run_${w//-/_}() { oltp_run $srv $t $n; }
			      parse_${w//-/_}() { oltp_parse; }"
			[ "$t" = ps ] || eval "prerun_${w//-/_}() { oltp_restore $srv; }"
		done
	done
done
unset srv t n w

OLTP_R="" OLTP_D="" OLTP_MOUNTED=0 OLTP_PID="" OLTP_LOG=""

# oltp_chroot [USER] COMMAND...: COMMAND in the servers' root, as USER
# (mysql, postgres) when given.
oltp_chroot() {
	case $1 in
	mysql | postgres) chroot --userspec="$1:$1" "$OLTP_R" "${@:2}" ;;
	*) chroot "$OLTP_R" "$@" ;;
	esac
}

# oltp_mount: the servers' root ready to run them: scratch /run and /tmp,
# the kernel's /dev and /proc, and the data directory at /sw-data. Once.
oltp_mount() {
	[ "$OLTP_MOUNTED" = 0 ] || return 0
	OLTP_R=$BENCH_DB_ROOT OLTP_D=${BENCH_DB_DIR:-${SW_DATA:-}}
	[ -x "$OLTP_R/usr/sbin/mariadbd" ] && [ -d "$OLTP_R/sw-data" ] ||
		{ echo "oltp: $OLTP_R is not a database root (scripts/debroot --db makes one)" >&2; return 1; }
	[ -n "$OLTP_D" ] ||
		{ echo "oltp: no data directory: boot with a data disk (scripts/bench --data MIB) or give BENCH_DB_DIR" >&2; return 1; }
	[ -d "$OLTP_D" ] && [ -w "$OLTP_D" ] ||
		{ echo "oltp: data directory $OLTP_D is not a writable directory" >&2; return 1; }
	on_exit oltp_umount
	OLTP_MOUNTED=1
	mount -t tmpfs -o mode=755 tmpfs "$OLTP_R/run" && mount -t tmpfs -o mode=1777 tmpfs "$OLTP_R/tmp" &&
		mount --rbind /dev "$OLTP_R/dev" && mount -t proc proc "$OLTP_R/proc" &&
		mount --bind "$OLTP_D" "$OLTP_R/sw-data" &&
		mkdir -p "$OLTP_R/run/mysqld" "$OLTP_R/run/postgresql" &&
		oltp_chroot chown mysql:mysql /run/mysqld && oltp_chroot chown postgres:postgres /run/postgresql ||
		{ echo "oltp: cannot prepare the mounts of $OLTP_R" >&2; return 1; }
}
oltp_umount() {
	local m
	[ "$OLTP_MOUNTED" = 1 ] || return 0
	oltp_stop
	for m in sw-data proc dev tmp run; do
		umount -R "$OLTP_R/$m" 2>/dev/null || umount -l "$OLTP_R/$m" 2>/dev/null
	done
	OLTP_MOUNTED=0
}

oltp_pgbin() {
	local d
	for d in "$OLTP_R"/usr/lib/postgresql/*/bin; do :; done
	echo "${d#"$OLTP_R"}"
}

# oltp_start SERVER: the server on its data, in the background, its output
# appended to OLTP_LOG; waits until it answers (3 minutes at most).
oltp_start() {
	local srv=$1 port i ready pg
	port=OLTP_PORT_$srv port=${!port}
	echo "--- $(date -u +%H:%M:%S) $PROG: starting" >>"$OLTP_LOG"
	if [ "$srv" = mariadb ]; then
		# shellcheck disable=SC2086 # the options are words
		setsid chroot "$OLTP_R" /usr/sbin/mariadbd --user=mysql --datadir=/sw-data/mariadb \
			--bind-address=127.0.0.1 --port="$port" --socket=/run/mysqld/sw.sock \
			--max-connections="$OLTP_MAXCONN" --skip-name-resolve ${BENCH_MARIADB_OPTS:-} \
			>>"$OLTP_LOG" 2>&1 </dev/null &
		ready=(oltp_chroot mariadb-admin --protocol=tcp -h127.0.0.1 -P"$port" -uroot ping)
	else
		pg=$(oltp_pgbin)
		# shellcheck disable=SC2086
		setsid chroot --userspec=postgres:postgres "$OLTP_R" "$pg/postgres" -D /sw-data/pgsql \
			-c listen_addresses=127.0.0.1 -c port="$port" -c unix_socket_directories=/run/postgresql \
			-c max_connections="$OLTP_MAXCONN" ${BENCH_PGSQL_OPTS:-} \
			>>"$OLTP_LOG" 2>&1 </dev/null &
		ready=(oltp_chroot "$pg/pg_isready" -q -h 127.0.0.1 -p "$port")
	fi
	OLTP_PID=$!
	for i in $(seq 900); do
		"${ready[@]}" >/dev/null 2>&1 && return 0
		if ! kill -0 "$OLTP_PID" 2>/dev/null; then
			wait "$OLTP_PID"
			echo "oltp: $srv did not start (exit $?): $(oltp_log_error); its log: $OLTP_LOG" >&2
			OLTP_PID=""
			return 1
		fi
		sleep 0.2
	done
	echo "oltp: $srv did not answer within 3 minutes; its log: $OLTP_LOG" >&2
	oltp_stop
	return 1
}

# oltp_stop: the running server shut down (SIGTERM: MariaDB's shutdown,
# PostgreSQL's smart shutdown), waited for.
oltp_stop() {
	[ -n "$OLTP_PID" ] || return 0
	kill -TERM "$OLTP_PID" 2>/dev/null
	wait "$OLTP_PID" 2>/dev/null
	OLTP_PID=""
}

# The last error line of the server's log (MariaDB's closing "Aborting"
# aside), or its last line, without its time stamp.
oltp_log_error() {
	local l
	l=$(grep -aE '\[ERROR\]|FATAL|PANIC|ERROR:' "$OLTP_LOG" | grep -av '\] Aborting$' | tail -n 1)
	[ -n "$l" ] || l=$(grep -av '^---' "$OLTP_LOG" | tail -n 1)
	l=$(sed -E 's/^[0-9]{4}-[0-9]{2}-[0-9]{2} [0-9:.]+( UTC)? (\[[0-9]+\]|[0-9]+) //' <<<"$l")
	echo "${l:-(empty)}"
}

oltp_sysbench_args() {
	local port=OLTP_PORT_$1
	port=${!port}
	if [ "$1" = mariadb ]; then
		echo "--db-driver=mysql --mysql-host=127.0.0.1 --mysql-port=$port --mysql-user=root --mysql-db=sbtest"
	else
		echo "--db-driver=pgsql --pgsql-host=127.0.0.1 --pgsql-port=$port --pgsql-user=postgres --pgsql-db=sbtest"
	fi
	echo "--tables=${BENCH_OLTP_TABLES:-4} --table-size=${BENCH_OLTP_TABLE_SIZE:-10000}"
}

# oltp_full_hint: ", the data disk is full (...)" when it is nearly.
oltp_full_hint() {
	df -Pm "$OLTP_D" 2>/dev/null | awk 'NR == 2 && $4 < 0.05 * $2 + 4 {
		printf ", the data directory is full (%d of %d MiB free)", $4, $2 }'
}

# oltp_make SERVER: a new database, prepared, shut down and copied to
# SERVER.snap in the data directory.
oltp_make() {
	local srv=$1 out
	rm -rf "${OLTP_D:?}/$srv" "$OLTP_D/$srv.snap" "$OLTP_D/$srv.tmp"
	mkdir -p "$OLTP_D/$srv" || { echo "oltp: cannot make $OLTP_D/$srv$(oltp_full_hint)" >&2; return 1; }
	echo "$PROG: $srv: a new database in $OLTP_D/$srv"
	if [ "$srv" = mariadb ]; then
		oltp_chroot chown mysql:mysql /sw-data/mariadb &&
			oltp_chroot mariadb-install-db --user=mysql --datadir=/sw-data/mariadb \
				--auth-root-authentication-method=normal --skip-test-db >>"$OLTP_LOG" 2>&1
	else
		oltp_chroot chown postgres:postgres /sw-data/pgsql &&
			oltp_chroot postgres "$(oltp_pgbin)/initdb" -D /sw-data/pgsql -A trust -U postgres \
				>>"$OLTP_LOG" 2>&1
	fi || { echo "oltp: $srv: making the database failed$(oltp_full_hint): $(oltp_log_error); its log: $OLTP_LOG" >&2; return 1; }
	oltp_start "$srv" || return 1
	if [ "$srv" = mariadb ]; then
		out=$(oltp_chroot mariadb --protocol=tcp -h127.0.0.1 -P"$OLTP_PORT_mariadb" -uroot \
			-e 'CREATE DATABASE sbtest' 2>&1)
	else
		out=$(oltp_chroot postgres "$(oltp_pgbin)/createdb" -h 127.0.0.1 -p "$OLTP_PORT_pgsql" \
			-U postgres sbtest 2>&1)
	fi || { echo "oltp: $srv: creating the database sbtest failed: $out; server log: $OLTP_LOG" >&2; return 1; }
	echo "$PROG: $srv: sysbench oltp_read_write prepare $(oltp_sysbench_args "$srv" | tail -n 1)"
	# shellcheck disable=SC2046 # the arguments are words
	out=$(sysbench oltp_read_write $(oltp_sysbench_args "$srv") prepare 2>&1)
	if [ $? != 0 ]; then
		printf '%s\n' "$out"
		echo "oltp: $srv: sysbench prepare failed$(oltp_full_hint): $(grep -m1 -E 'FATAL|error' <<<"$out" | sed 's/^FATAL: //'); server log: $OLTP_LOG" >&2
		return 1
	fi
	oltp_stop
	cp -a "$OLTP_D/$srv" "$OLTP_D/$srv.tmp" && mv "$OLTP_D/$srv.tmp" "$OLTP_D/$srv.snap" ||
		{ echo "oltp: $srv: cannot copy the prepared database$(oltp_full_hint)" >&2; return 1; }
	echo "$PROG: $srv: prepared ($(du -sm "$OLTP_D/$srv.snap" | cut -f1) MiB), copy kept"
}

# oltp_setup SERVER WORKLOAD: the server running on a fresh copy of its
# prepared database (made first if there is none), logging beside
# WORKLOAD's raw outputs.
oltp_setup() {
	local srv=$1
	oltp_mount || return 1
	oltp_stop
	OLTP_LOG=$OUT/logs/$2/$srv.log
	: >"$OLTP_LOG" || return 1
	[ -d "$OLTP_D/$srv.snap" ] || oltp_make "$srv" || return 1
	oltp_restore "$srv"
}

# oltp_restore SERVER: stop, the prepared copy back, start.
oltp_restore() {
	oltp_stop
	rm -rf "${OLTP_D:?}/$1" && cp -a "$OLTP_D/$1.snap" "$OLTP_D/$1" ||
		{ echo "oltp: $1: cannot restore the prepared database$(oltp_full_hint)" >&2; return 1; }
	oltp_start "$1"
}

# oltp_run SERVER TEST CLIENTS
oltp_run() {
	local srv=$1 test=oltp_read_write rc st how out
	[ "$2" = ps ] && test=oltp_point_select
	# shellcheck disable=SC2046
	out=$(sysbench "$test" $(oltp_sysbench_args "$srv") --threads="$3" --time="$RUN_WHOLE_SECS" \
		--percentile=95 run 2>&1)
	rc=$?
	printf '%s\n' "$out"
	if [ -z "$OLTP_PID" ] || ! kill -0 "$OLTP_PID" 2>/dev/null; then
		wait "$OLTP_PID" 2>/dev/null
		st=$?
		how="exit $st"
		[ "$st" -le 128 ] || how="killed by signal $((st - 128)), SIG$(kill -l $((st - 128)))"
		OLTP_PID=""
		echo "oltp: $srv died during the run ($how; its log's last error: $(oltp_log_error)); its log: $OLTP_LOG" >&2
		return 1
	fi
	[ "$rc" = 0 ] ||
		echo "oltp: sysbench $test against $srv failed (exit $rc)$(oltp_full_hint): $(grep -m1 -E 'FATAL|error' <<<"$out" | sed 's/^FATAL: //'); server log: $OLTP_LOG" >&2
	return "$rc"
}

# "transactions:  17  (5.14 per sec.)", "ignored errors: 0 (0.00 per sec.)",
# "avg:  186.93", "95th percentile:  314.45" (ms)
oltp_parse() {
	awk '/^ *transactions:/ {v = $3; sub("[(]", "", v); print "tps", v}
	     /^ *ignored errors:/ {v = $4; sub("[(]", "", v); print "errors", v}
	     /^ *avg:/ {print "lat-avg", $2}
	     /^ *95th percentile:/ {print "lat-p95", $3}'
}
