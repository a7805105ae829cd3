#!/usr/bin/env bash
# scripts/vm returns the guest command's exit status, 0 and non-zero, and
# the guest can write to the results directory, also when the results and
# log directories have commas in their paths.
# check: after 01
. "$(dirname "$0")/lib.sh"
need_kernel
vm() { "$SCRIPTS/vm" --cpus 2 --sockets 1 --mem 512 --timeout 120 "$@"; }
res=$TMP/res,with,commas
out=$(vm --out "$res" --log "$TMP/log,1" -- 'echo hello from $(uname -r) > '"'$res/hi'"'; exit 0' 2>&1)
rc=$?
[ "$rc" = 0 ] || fail "exit 0 came back as $rc: $out"
grep -q "hello from" "$res/hi" || fail "the guest did not write the results directory"
echo "exit 0 -> $rc; results directory with commas written: $(cat "$res/hi")"
out=$(vm -- sh -c 'echo "two words"; exit 7' 2>&1)
rc=$?
[ "$rc" = 7 ] || fail "exit 7 came back as $rc: $out"
grep -q "^two words" <<<"$out" || fail "argv form: output lost: $out"
echo "argv form: exit 7 -> $rc, output kept"
echo "$out" | grep '^vm:'
