# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash
# The QEMU command line of scripts/vm, built from variables and nothing else,
# so that --dry-run and the tests see exactly what would run. Sourced.
#
# In:  VM_KERNEL VM_CPUS VM_SOCKETS VM_CORES VM_THREADS VM_NODES VM_MEM (MiB)
#      VM_ACCEL (kvm|tcg) VM_TCG (single|multi: TCG threads)
#      VM_RUN (run directory) VM_OUT (results dir or "")
#      VM_APPEND (extra kernel command line) VM_INIT (guest init path)
#      VM_AMD (1 on an AMD host)
# Out: QEMU_CMD (array)

# vm_check_topology: one line on stderr and status 1 when the requested
# topology cannot be built; nothing otherwise.
vm_check_topology() {
	local v
	for v in VM_CPUS VM_SOCKETS VM_THREADS VM_CORES VM_NODES VM_MEM; do
		case ${!v} in
		'' | *[!0-9]* | 0*)
			[ "$v" = VM_NODES ] && [ "${!v}" = 0 ] && continue
			echo "bad topology: ${v#VM_} must be a positive integer, got '${!v}'" >&2
			return 1
			;;
		esac
	done
	if [ $((VM_SOCKETS * VM_CORES * VM_THREADS)) -ne "$VM_CPUS" ]; then
		echo "bad topology: $VM_SOCKETS sockets x $VM_CORES cores x $VM_THREADS threads is $((VM_SOCKETS * VM_CORES * VM_THREADS)) CPUs, not $VM_CPUS" >&2
		return 1
	fi
	if [ "$VM_CPUS" -gt 64 ]; then
		echo "bad topology: at most 64 CPUs, got $VM_CPUS" >&2
		return 1
	fi
	if [ "$VM_NODES" -gt 0 ] && { [ "$VM_NODES" -gt "$VM_SOCKETS" ] || [ $((VM_SOCKETS % VM_NODES)) -ne 0 ]; }; then
		echo "bad topology: $VM_NODES NUMA nodes cannot split $VM_SOCKETS sockets evenly" >&2
		return 1
	fi
	if [ "$VM_NODES" -gt 0 ] && [ $((VM_MEM % VM_NODES)) -ne 0 ]; then
		echo "bad topology: ${VM_MEM} MiB of memory cannot be split over $VM_NODES nodes" >&2
		return 1
	fi
	if [ "$VM_MEM" -lt 256 ]; then
		echo "bad topology: at least 256 MiB of memory, got $VM_MEM" >&2
		return 1
	fi
}

vm_build_cmd() {
	local append i s spn
	append="console=ttyS0 root=/dev/root rootfstype=9p ro"
	append+=" rootflags=trans=virtio,version=9p2000.L,cache=loose,msize=524288"
	append+=" panic=-1 printk.devkmsg=on init=$VM_INIT"
	[ -n "$VM_APPEND" ] && append+=" $VM_APPEND"
	append+=" -- $VM_RUN"

	QEMU_CMD=("${QEMU:-qemu-system-x86_64}" -M pc -nodefaults -no-user-config
		-display none -no-reboot)
	if [ "$VM_ACCEL" = kvm ]; then
		QEMU_CMD+=(-accel kvm -cpu "host${VM_AMD:+,topoext=on}")
	else
		QEMU_CMD+=(-accel "tcg,thread=${VM_TCG:-single}" -cpu max)
	fi
	QEMU_CMD+=(-smp "$VM_CPUS,sockets=$VM_SOCKETS,cores=$VM_CORES,threads=$VM_THREADS"
		-m "$VM_MEM")
	if [ "$VM_NODES" -gt 0 ]; then
		spn=$((VM_SOCKETS / VM_NODES))
		for ((i = 0; i < VM_NODES; i++)); do
			QEMU_CMD+=(-object "memory-backend-ram,id=mem$i,size=$((VM_MEM / VM_NODES))M"
				-numa "node,nodeid=$i,memdev=mem$i")
		done
		for ((s = 0; s < VM_SOCKETS; s++)); do
			QEMU_CMD+=(-numa "cpu,node-id=$((s / spn)),socket-id=$s")
		done
	fi
	QEMU_CMD+=(-kernel "$VM_KERNEL" -append "$append"
		-chardev "file,id=console,path=$VM_RUN/console.log" -serial chardev:console
		-chardev "file,id=output,path=$VM_RUN/output.log" -serial chardev:output
		-chardev "file,id=status,path=$VM_RUN/status" -serial chardev:status
		-fsdev "local,id=root,path=/,security_model=none,readonly=on,multidevs=remap"
		-device "virtio-9p-pci,fsdev=root,mount_tag=/dev/root"
		-fsdev "local,id=run,path=$VM_RUN,security_model=none,multidevs=remap"
		-device "virtio-9p-pci,fsdev=run,mount_tag=swrun")
	if [ -n "$VM_OUT" ]; then
		QEMU_CMD+=(-fsdev "local,id=out,path=$VM_OUT,security_model=none,multidevs=remap"
			-device "virtio-9p-pci,fsdev=out,mount_tag=swout")
	fi
}

# vm_scan_console FILE [all]: print "CATEGORY<TAB>line" for the first kernel
# error in a console log (with "all": for every one, a line once); print
# nothing when there is none.
vm_scan_console() {
	awk -v all="${2:-}" '
	function hit(c) { printf "%s\t%s\n", c, $0; if (all == "") exit; h = 1 }
	{ h = 0 }
	!h && /Kernel panic - not syncing/                          { hit("panic") }
	!h && /(possible circular|possible recursive) locking|inconsistent lock state|suspicious RCU usage|lock held when returning|INFO: lockdep/ { hit("lockdep report") }
	!h && /rcu: INFO: .*stall|rcu_(sched|preempt) (self-)?detected stall/ { hit("RCU stall") }
	!h && /INFO: task .* blocked for more than/                 { hit("hung task") }
	!h && /soft lockup|hard LOCKUP/                             { hit("soft lockup") }
	!h && /Oops[: ]/                                            { hit("Oops") }
	!h && /BUG: |kernel BUG at/                                 { hit("BUG") }
	!h && /UBSAN: /                                             { hit("UBSAN report") }
	!h && /WARNING: /                                           { hit("WARNING") }
	' "$1" | tr -d '\r'
}
