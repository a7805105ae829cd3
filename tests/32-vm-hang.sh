#!/usr/bin/env bash
# A guest command that never finishes is stopped at the timeout and reported
# as a hang; so is a guest that never boots (a "kernel" of zeroes that never
# prints anything). The command sleeps forever: a finite sleep ends early
# on a guest clock that skips idle time (icount with sleep=off, the first
# default: 'sleep 1000' ended after 9 s of host time).
# check: after 01
. "$(dirname "$0")/lib.sh"
need_kernel
vm_fails 124 "guest hang: command did not finish within 25s" 45 \
	--cpus 2 --sockets 1 --mem 512 --timeout 25 -- 'sleep infinity'
head -c 4096 /dev/zero >"$TMP/notakernel"
vm_fails 124 "guest hang: no boot within 6s" 20 \
	--kernel "$TMP/notakernel" --cpus 1 --sockets 1 --mem 256 --timeout 6 -- true
