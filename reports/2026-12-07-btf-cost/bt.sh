# What the guest ran on both kernels (scripts/vm --kernel K --cpus 2 --sockets 1 -- bash bt.sh):
# bpftrace kfunc/kretfunc probes with typed arguments, beside hackbench.
ls -la /sys/kernel/btf/vmlinux
bpftrace -e 'kretfunc:select_task_rq_fair { @placed[retval == args->prev_cpu ? "prev_cpu" : "other"] = count(); }
kfunc:pick_eevdf { @queued = lhist(args->cfs_rq->h_nr_queued, 0, 16, 1); }
interval:s:2 { exit(); }' &
sleep 1
hackbench -g 2 -l 300 >/dev/null
wait
