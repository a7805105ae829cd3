# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash
# The QEMU command line of scripts/vm, built from variables and nothing else,
# so that --dry-run and the tests see exactly what would run. Sourced.
#
# In:  VM_KERNEL VM_CPUS VM_SOCKETS VM_CORES VM_THREADS VM_NODES VM_MEM (MiB)
#      VM_ACCEL (kvm|tcg) VM_TCG (single|multi: TCG threads)
#      VM_CLOCK (icount|host) VM_SHIFT (icount's shift: 2^SHIFT ns an
#      instruction)
#      VM_RUN (run directory) VM_OUT (results dir or "")
#      VM_DISK (an ext4 image to boot as the root, or "": the 9p root)
#      VM_INITRD (the initramfs for VM_DISK)
#      VM_DATA (an ext4 image for the guest's data, mounted at /mnt, or "")
#      VM_APPEND (extra kernel command line) VM_INIT (guest init path)
#      VM_AMD (1 on an AMD host)
# Out: QEMU_CMD (array)

# The one form every job takes a guest's topology in: scripts/vm's options
# --cpus N, --sockets N (or --llcs N: a socket is an LLC), --cores N (per
# socket; default CPUs / sockets / threads), --threads N (per core: SMT),
# --numa N (nodes over the sockets), given to a job as one word
# (--topology "--cpus 8 --sockets 2"; "topology --cpus 8 ..." in an
# experiment file; a scripts/config/matrix.cells column).
SW_TOPOLOGY_DEFAULT="--cpus 8 --sockets 2"

# topology_parse OPTS: OPTS into VM_CPUS, VM_SOCKETS, VM_CORES, VM_THREADS and
# VM_NODES (the defaults of SW_TOPOLOGY_DEFAULT for what OPTS leaves out),
# checked with vm_check_topology (VM_MEM as set, else 2048); one line on
# stderr and status 1 when OPTS is not that form or cannot be built.
topology_parse() {
	local -a a
	read -ra a <<<"$1"
	VM_CPUS=8 VM_SOCKETS=2 VM_CORES="" VM_THREADS=1 VM_NODES=0 VM_MEM=${VM_MEM:-2048}
	while [ ${#a[@]} -gt 0 ]; do
		case ${a[0]} in
		--cpus | --sockets | --llcs | --cores | --threads | --numa) ;;
		*)
			echo "bad topology: '${a[0]}' is not one of --cpus, --sockets, --cores, --threads, --numa" >&2
			return 1 ;;
		esac
		if [ ${#a[@]} -lt 2 ] || [[ ${a[1]} == --* ]]; then
			echo "bad topology: ${a[0]} needs a value" >&2
			return 1
		fi
		case ${a[0]} in
		--cpus) VM_CPUS=${a[1]} ;; --sockets | --llcs) VM_SOCKETS=${a[1]} ;;
		--cores) VM_CORES=${a[1]} ;; --threads) VM_THREADS=${a[1]} ;; --numa) VM_NODES=${a[1]} ;;
		esac
		a=("${a[@]:2}")
	done
	vm_default_cores
	vm_check_topology
}

# vm_default_cores: VM_CORES, when not given, from the CPUs, sockets and
# threads, when they are numbers at all (vm_check_topology judges them).
vm_default_cores() {
	[ -z "$VM_CORES" ] || return 0
	VM_CORES=0
	case $VM_CPUS/$VM_SOCKETS/$VM_THREADS in
	*[!0-9/]* | */0/* | */0 | //* | */ | /*) ;;
	*) VM_CORES=$((VM_CPUS / VM_SOCKETS / VM_THREADS)) ;;
	esac
}

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

# The shift of the instruction-counted clock when none is asked for: each
# instruction is 2^SHIFT ns of guest time
# (reports/2026-12-05-virtual-time-tracing.md: the wall time and the
# figures at shifts 0-3).
VM_ICOUNT_SHIFT_DEFAULT=1

# vm_parse_clock SPEC: VM_CLOCK and VM_SHIFT from host, icount or
# icount:SHIFT; one line on stderr and status 1 for anything else.
vm_parse_clock() {
	case $1 in
	host) VM_CLOCK=host VM_SHIFT="" ;;
	icount) VM_CLOCK=icount VM_SHIFT=$VM_ICOUNT_SHIFT_DEFAULT ;;
	icount:[0-9] | icount:10) VM_CLOCK=icount VM_SHIFT=${1#icount:} ;;
	*) echo "the clock is host, icount or icount:SHIFT (SHIFT 0-10), not '$1'" >&2
		return 1 ;;
	esac
}

# vm_wall_factor CPUS: how many wall-clock seconds to allow per second of
# guest time in which CPUS vCPUs are busy. On the host's clock, one. On
# virtual time QEMU's one TCG thread runs every vCPU and each instruction
# advances the guest clock by 2^SHIFT ns, so a busy guest second costs
# about CPUS x 2^-SHIFT x 10^9 instructions: seed 004 (4 vCPUs, shift 1)
# took 13 wall seconds per guest second beside four other guests on a
# 2-core host (reports/2026-12-06-virtual-time-precision.md). Allowed:
# 4 x CPUS / 2^SHIFT, at least 1.
vm_wall_factor() {
	local f
	if [ "$VM_CLOCK" != icount ]; then
		echo 1
		return
	fi
	f=$(( (4 * $1) >> VM_SHIFT ))
	echo $(( f < 1 ? 1 : f ))
}

# vm_clock_name: the clock as results record it ("icount shift=1", "host").
vm_clock_name() {
	if [ "$VM_CLOCK" = icount ]; then
		echo "icount shift=$VM_SHIFT"
	else
		echo host
	fi
}

# QEMU's option lists separate items with commas; a comma inside a value
# (a path, here) is written twice. One helper per device kind, each quoting
# what it is given.

# qarg VALUE: VALUE for an option list.
qarg() {
	printf '%s' "${1//,/,,}"
}

# q_serial_file ID PATH: a serial port writing to PATH.
q_serial_file() {
	QEMU_CMD+=(-chardev "file,id=$1,path=$(qarg "$2")" -serial "chardev:$1")
}

# q_9p ID PATH TAG [ro]: the host directory PATH as a virtio-9p share TAG.
q_9p() {
	QEMU_CMD+=(-fsdev "local,id=$1,path=$(qarg "$2"),security_model=none${4:+,readonly=on},multidevs=remap"
		-device "virtio-9p-pci,fsdev=$1,mount_tag=$(qarg "$3")")
}

# q_disk ID IMAGE [SERIAL]: the raw disk image IMAGE on a virtio-blk
# device, with the serial number the guest finds it by.
q_disk() {
	QEMU_CMD+=(-drive "file=$(qarg "$2"),if=none,id=$1,format=raw,cache=unsafe"
		-device "virtio-blk-pci,drive=$1${3:+,serial=$3}")
}

# q_numa NODES: NODES nodes, each a whole number of sockets and of memory.
q_numa() {
	local i s spn=$((VM_SOCKETS / $1))
	for ((i = 0; i < $1; i++)); do
		QEMU_CMD+=(-object "memory-backend-ram,id=mem$i,size=$((VM_MEM / $1))M"
			-numa "node,nodeid=$i,memdev=mem$i")
	done
	for ((s = 0; s < VM_SOCKETS; s++)); do
		QEMU_CMD+=(-numa "cpu,node-id=$((s / spn)),socket-id=$s")
	done
}

vm_build_cmd() {
	local append
	if [ -n "${VM_DISK:-}" ]; then
		# The initramfs mounts the disk's root read-write: the command's
		# results are written there and read back from the image.
		append="console=ttyS0 root=/dev/vda rootfstype=ext4 rw"
	else
		append="console=ttyS0 root=/dev/root rootfstype=9p ro"
		append+=" rootflags=trans=virtio,version=9p2000.L,cache=loose,msize=524288"
	fi
	append+=" panic=-1 printk.devkmsg=on init=$VM_INIT"
	[ -n "$VM_APPEND" ] && append+=" $VM_APPEND"
	# init's arguments: the run directory, then the host paths the guest
	# must see even when they lie under a scratch tmpfs (guest/init).
	append+=" -- $VM_RUN $TOP $BUILD"

	QEMU_CMD=("${QEMU:-qemu-system-x86_64}" -M pc -nodefaults -no-user-config
		-display none -no-reboot)
	if [ "$VM_ACCEL" = kvm ]; then
		QEMU_CMD+=(-accel kvm -cpu "host${VM_AMD:+,topoext=on}")
	else
		QEMU_CMD+=(-accel "tcg,thread=${VM_TCG:-single}" -cpu max)
		# Virtual time: while a vCPU runs, the clocks count
		# instructions, never paced to the host (align=off); while all
		# vCPUs idle they follow the host's time (sleep=on). sleep=off
		# would jump to the next timer instead, also while the guest
		# waits for the host (a 9p read, a disk): a first 'perf
		# --version' then took 20.5 s of guest time against 0.59 s on
		# the host's clock, and guest timeouts expired early (report of
		# 2026-12-05). The RTC follows the guest clock too.
		[ "${VM_CLOCK:-host}" = icount ] &&
			QEMU_CMD+=(-icount "shift=$VM_SHIFT,sleep=on,align=off" -rtc clock=vm)
	fi
	QEMU_CMD+=(-smp "$VM_CPUS,sockets=$VM_SOCKETS,cores=$VM_CORES,threads=$VM_THREADS"
		-m "$VM_MEM")
	[ "$VM_NODES" -gt 0 ] && q_numa "$VM_NODES"
	QEMU_CMD+=(-kernel "$VM_KERNEL" -append "$append")
	[ -n "${VM_DISK:-}" ] && QEMU_CMD+=(-initrd "$VM_INITRD")
	q_serial_file console "$VM_RUN/console.log"
	q_serial_file output "$VM_RUN/output.log"
	q_serial_file status "$VM_RUN/status"
	# The monitor on a pair of FIFOs (monitor.in, monitor.out), made by
	# scripts/vm: its state of a guest that froze is read from there.
	QEMU_CMD+=(-chardev "pipe,id=monitor,path=$(qarg "$VM_RUN/monitor")"
		-mon "chardev=monitor,mode=readline")
	if [ -n "${VM_DISK:-}" ]; then
		q_disk root "$VM_DISK"
		[ -n "${VM_DATA:-}" ] && q_disk data "$VM_DATA" sw-data
		return 0
	fi
	[ -n "${VM_DATA:-}" ] && q_disk data "$VM_DATA" sw-data
	q_9p root "${VM_ROOT:-/}" /dev/root ro
	q_9p run "$VM_RUN" swrun
	[ -n "$VM_OUT" ] && q_9p out "$VM_OUT" swout
	return 0
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
