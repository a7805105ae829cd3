#!/usr/bin/env bash
# The KVM probe's verdict is cached by what it depends on: a guest kernel
# that fails under KVM (here a stand-in QEMU that writes a panic) is
# recorded for that kernel only, and the next kernel is probed afresh; a
# probe that hangs is recorded for the host, and no kernel probes again.
. "$(dirname "$0")/lib.sh"
[ -w /dev/kvm ] || skip "no writable /dev/kvm here: the probe never runs"
export XDG_CACHE_HOME=$TMP/cache QEMU=$TMP/qemu SW_KVM_PROBE_TIMEOUT=3
cat >"$QEMU" <<QEMU
#!/bin/bash
[ "\$1" = --version ] && { echo "QEMU emulator version 0.0 (stand-in)"; exit 0; }
echo probe >>"$TMP/probes"
[ -e "$TMP/hang" ] && exec sleep 60
for a in "\$@"; do
	case \$a in file,id=console,path=*) echo "Kernel panic - not syncing: stand-in" >"\${a#*path=}" ;; esac
done
QEMU
chmod +x "$QEMU"
for k in A B C; do echo "kernel $k" >"$TMP/$k"; done
probe() {
	"$SCRIPTS/vm" --kernel "$TMP/$1" --dry-run -- true >"$TMP/out" 2>&1 || { cat "$TMP/out"; fail "dry run failed"; }
	grep -q "accel tcg" "$TMP/out" || fail "kernel $1: not TCG after a failed probe"
	probes=$(wc -l <"$TMP/probes" 2>/dev/null || echo 0)
	echo "  kernel $1: $probes probe(s) so far"
}
probe A
[ "$probes" = 1 ] || fail "kernel A was not probed"
probe A
[ "$probes" = 1 ] || fail "kernel A was probed again: its failure was not cached"
probe B
[ "$probes" = 2 ] || fail "kernel B was not probed: one kernel's failure stopped KVM for all"
touch "$TMP/hang"
probe C
[ "$probes" = 3 ] || fail "kernel C was not probed"
rm "$TMP/hang"
echo "kernel D" >"$TMP/D"
probe D
[ "$probes" = 3 ] || fail "kernel D was probed although KVM hangs on this host"
sed 's/^/  cache: /' "$XDG_CACHE_HOME/sched-wakeup/kvm-probe"
