# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash
# cyclictest (rt-tests; SCHED_OTHER, one thread, 1 ms period) under a
# hackbench load, without cgroups, in 10 sibling cgroups (cg10) or in the 8
# leaves of a binary cgroup tree of depth 4 (cgtree). Seed 004's LNICE rows:
# the measured task at nice -19, 0 and 19. The three run at once, as three
# cyclictest processes in the first cgroup: each sleeps 1 ms between
# wakeups, so together they add about 1% to the load, and one run answers
# for all three nice levels.
#
# Two loads. cyclictest*: about two tasks per CPU (one hackbench group of
# NCPU senders and NCPU receivers; 2 tasks in each cgroup). cyclictest-seed004*:
# seed 004's, 160 processes: 4 groups of 20 + 20, or 16 in each of the 10
# sibling cgroups, or 20 in each of the 8 leaves.
#
# The load is started once per workload (setup_*) and kept stopped (SIGSTOP)
# between runs: a run starts the cyclictests on the quiet system, continues
# the load for --duration seconds, stops it again and ends them (SIGINT),
# because starting the load, or a nice-19 cyclictest under it, is slow. The
# quiet moments at both ends add a few samples.

CYCLIC_NICE=(-19 0 19)
CYCLIC_METRICS=()
for n in "${CYCLIC_NICE[@]}"; do
	CYCLIC_METRICS+=("nice$n-avg us lo" "nice$n-max us lo")
done
for load in "" seed004; do
	for l in "" cg10 cgtree; do
		name=cyclictest${load:+-$load}${l:+-$l}
		workload "$name" 0 "${CYCLIC_METRICS[@]}"
		f=${name//-/_}
		eval "setup_$f() { cyclic_setup '$l' '$load'; }
		      run_$f() { cyclic_run '$l'; }
		      parse_$f() { cyclic_parse; }"
	done
done

cyclic_leaves() {
	local i
	case $1 in
	cg10) for i in $(seq 0 9); do echo "$CG/s$i"; done ;;
	cgtree) for i in 0 1 2 3 4 5 6 7; do echo "$CG/t/l$((i / 4))/m$((i / 2))/n$i"; done ;;
	esac
}

# cyclic_setup LAYOUT LOAD: start the load, stopped.
cyclic_setup() {
	local cg leaves fds
	if [ -z "$1" ]; then
		if [ "$2" = seed004 ]; then
			bg_start "" hackbench -g 4 -f 20 -l 1000000000
		else
			bg_start "" hackbench -g 1 -f "$NCPU" -s 4096 -l 1000000000
		fi
	else
		mapfile -t leaves <<<"$(cyclic_leaves "$1")"
		cg_make "${leaves[@]}" || return 1
		fds=1
		[ "$2" = seed004 ] && fds=$((160 / ${#leaves[@]} / 2))
		for cg in "${leaves[@]}"; do
			bg_start "$cg" hackbench -g 1 -f "$fds" -s 4096 -l 1000000000
		done
	fi
	sleep 1
	bg_signal STOP
}

# cyclic_run LAYOUT: the three cyclictests, each one's output after a
# "== nice N" line.
cyclic_run() {
	local cg n i ready ct=()
	cg=$(cyclic_leaves "$1" | head -n 1)
	for n in "${CYCLIC_NICE[@]}"; do
		# shellcheck disable=SC2016 # $$ and $@ are the child shell's
		sh -c '[ -z "$0" ] || echo $$ >"$0/cgroup.procs" && exec "$@"' "$cg" \
			nice -n "$n" cyclictest -q -i 1000 -m --policy=other -t 1 \
			>"$RUNLOG.cyclictest$n" &
		ct+=($!)
	done
	# Measuring from here: every measuring thread exists.
	for i in $(seq 500); do
		ready=0
		for n in "${ct[@]}"; do
			[ "$(find "/proc/$n/task" -mindepth 1 -maxdepth 1 2>/dev/null | wc -l)" -ge 2 ] &&
				ready=$((ready + 1))
		done
		[ "$ready" = "${#ct[@]}" ] && break
		sleep 0.01
	done
	bg_signal CONT
	sleep "$RUN_SECS"
	bg_signal STOP
	kill -INT "${ct[@]}" 2>/dev/null
	for i in "${!ct[@]}"; do
		wait "${ct[$i]}" || { echo "cyclictest at nice ${CYCLIC_NICE[$i]} failed" >&2; return 1; }
	done
	for n in "${CYCLIC_NICE[@]}"; do
		echo "== nice $n"
		cat "$RUNLOG.cyclictest$n"
		rm -f "$RUNLOG.cyclictest$n"
	done
}

# Each summary: "T: 0 (  pid) P: 0 I:1000 C:  972 Min:  5 Act:  9 Avg:  12
# Max:  345" (wide values run into the label: "Avg:11929").
cyclic_parse() {
	awk '/^== nice / { n = $3 }
	     /^T: *0 / {
		if (match($0, /Avg: *[0-9]+/)) print "nice" n "-avg", substr($0, RSTART + 4, RLENGTH - 4) + 0
		if (match($0, /Max: *[0-9]+/)) print "nice" n "-max", substr($0, RSTART + 4, RLENGTH - 4) + 0
	     }'
}
