#!/usr/bin/env bash
# A guest kernel panic ends QEMU at once and is reported as such.
# check: after 01
. "$(dirname "$0")/lib.sh"
need_kernel
vm_fails 125 "guest kernel panic: .*sysrq triggered crash" 100 \
	--cpus 2 --sockets 1 --mem 512 --timeout 120 -- 'echo c > /proc/sysrq-trigger; sleep 100'
