# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash
# Loopback networking: tbench (dbench package; BENCH_TBENCH_CLIENTS clients,
# default NCPU/2; seed 003 ran 8), and sockperf: TCP ping-pong (seed 003's netperf TCP_RR,
# unpinned, and pinned: server and client each on a CPU of their own, two
# CPUs of the first LLC where it has two), UDP and TCP streams.

workload tbench 0 'throughput MB/s hi'
workload sockperf-tcp-pingpong 0 'latency us lo' 'p99 us lo'
workload sockperf-tcp-pingpong-pinned 0 'latency us lo' 'p99 us lo'
workload sockperf-udp-stream 0 'sent msg/s hi'
workload sockperf-tcp-stream 0 'sent msg/s hi'

setup_tbench() {
	bg_start "" tbench_srv
	sleep 0.5
}
# As dbench (same engine): nothing is reported for runs under 3 s.
run_tbench() {
	tbench -t $((RUN_WHOLE_SECS < 3 ? 3 : RUN_WHOLE_SECS)) "${BENCH_TBENCH_CLIENTS:-$HALF}" 127.0.0.1
}
parse_tbench() { awk '/^Throughput/ {print "throughput", $2}'; }

SOCKPERF_PORT=21917
# sockperf_server [CPU] OPTION...: a server, pinned to CPU when it is a number.
sockperf_server() {
	local pin=()
	[[ ${1:-} =~ ^[0-9]+$ ]] && { pin=(taskset -c "$1"); shift; }
	bg_start "" "${pin[@]}" sockperf sr -i 127.0.0.1 -p $SOCKPERF_PORT "$@"
	sleep 0.5
}
sockperf_client() {
	sockperf "$1" -i 127.0.0.1 -p $SOCKPERF_PORT -t "$RUN_WHOLE_SECS" "${@:2}" 2>&1
}

# cpu_list_expand "0-3,8": one CPU number a line.
cpu_list_expand() {
	local r
	for r in ${1//,/ }; do
		seq "${r%-*}" "${r#*-}"
	done
}

# The pinned pair: the first two CPUs of the first CPU's LLC, or the first
# two online CPUs when that LLC has one.
pinned_pair() {
	local llc cpus
	llc=$(cat /sys/devices/system/cpu/cpu0/cache/index3/shared_cpu_list 2>/dev/null)
	cpus=$(cpu_list_expand "${llc:-$(cat /sys/devices/system/cpu/online)}" | head -n 2)
	[ "$(wc -l <<<"$cpus")" = 2 ] ||
		cpus=$(cpu_list_expand "$(cat /sys/devices/system/cpu/online)" | head -n 2)
	paste -sd' ' <<<"$cpus"
}

pingpong_parse() {
	awk '/Summary: Latency is/ {print "latency", $(NF - 1)}
	     /percentile 99.000 =/ {print "p99", $NF}'
}

setup_sockperf_tcp_pingpong() { sockperf_server --tcp; }
run_sockperf_tcp_pingpong() { sockperf_client pp --tcp; }
parse_sockperf_tcp_pingpong() { pingpong_parse; }

setup_sockperf_tcp_pingpong_pinned() {
	read -r PP_SERVER PP_CLIENT <<<"$(pinned_pair)"
	[ -n "$PP_CLIENT" ] || { echo "pinned ping-pong needs two CPUs" >&2; return 1; }
	sockperf_server "$PP_SERVER" --tcp
}
run_sockperf_tcp_pingpong_pinned() {
	echo "# server on CPU $PP_SERVER, client on CPU $PP_CLIENT"
	taskset -c "$PP_CLIENT" sockperf pp -i 127.0.0.1 -p $SOCKPERF_PORT -t "$RUN_WHOLE_SECS" --tcp 2>&1
}
parse_sockperf_tcp_pingpong_pinned() { pingpong_parse; }

# Sender's message rate: UDP over loopback drops what the receiver cannot
# take, so this is the rate the sender was scheduled to reach.
stream_parse() { awk '/Summary: Message Rate is/ {print "sent", $(NF - 1)}'; }
setup_sockperf_udp_stream() { sockperf_server; }
run_sockperf_udp_stream() { sockperf_client tp -m 1400; }
parse_sockperf_udp_stream() { stream_parse; }

setup_sockperf_tcp_stream() { sockperf_server --tcp; }
run_sockperf_tcp_stream() { sockperf_client tp --tcp -m 1400; }
parse_sockperf_tcp_stream() { stream_parse; }
