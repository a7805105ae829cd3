# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash
# Sourced by a PID 1 of ours (guest/init, lava-init): what an init system
# and udev would give the machine before anything runs.

# mount_kernel_fs: proc, sysfs, devtmpfs with what bash's <(...) needs
# (/dev/fd), /dev/shm and /dev/pts.
mount_kernel_fs() {
	mount -t proc proc /proc
	mount -t sysfs sysfs /sys
	mount -t devtmpfs devtmpfs /dev
	mkdir -p /dev/shm /dev/pts
	ln -sfn /proc/self/fd /dev/fd
	ln -sf /proc/self/fd/0 /dev/stdin
	ln -sf /proc/self/fd/1 /dev/stdout
	ln -sf /proc/self/fd/2 /dev/stderr
	mount -t tmpfs -o mode=1777 shm /dev/shm
	mount -t devpts devpts /dev/pts 2>/dev/null
}

# mount_debug_fs: debugfs (the sched features), tracefs and cgroup v2.
mount_debug_fs() {
	mount -t debugfs debugfs /sys/kernel/debug 2>/dev/null
	mount -t tracefs tracefs /sys/kernel/tracing 2>/dev/null
	mount -t cgroup2 cgroup2 /sys/fs/cgroup 2>/dev/null
}
