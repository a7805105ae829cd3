#!/usr/bin/env bash
# What BTF costs the guest kernel: two builds of the 7.3 line's guest
# kernel (scripts/build, -j$(nproc)), ccache off so that both compile every
# object, one as make kernel configures it and one with
# scripts/config/btf.config merged last; their wall and CPU times, the
# image sizes and the BTF section's. (bt.sh, the bpftrace run on both
# kernels, and incremental.txt, a relink after touching fair.c, were run
# by hand: see the report.)
# Run from the repository root after 'make tree':
#   reports/2026-12-07-btf-cost/run.sh OUT
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
out=${1:?results directory}
mkdir -p "$out" || exit 1
out=$(realpath "$out")
n=2 i=0
for v in base btf; do
	i=$((i + 1))
	frag=()
	[ "$v" = base ] || frag=(--fragment "$here/../../scripts/config/btf.config")
	rm -rf "$out/obj-$v"
	echo "[$i/$n] $v build started $(date -u +%H:%M:%S)"
	CCACHE_DISABLE=1 /usr/bin/time -f "%e %U %S %M" -o "$out/$v.time" \
		scripts/build --obj "$out/obj-$v" "${frag[@]}" >"$out/$v.log" 2>&1 ||
		{ echo "$v: build failed, see $out/$v.log" >&2; exit 1; }
	read -r wall user sys rss <"$out/$v.time"
	o=$out/obj-$v
	btf=$(objdump -h "$o/vmlinux" | awk '$2 == ".BTF" { print strtonum("0x" $3) }')
	printf '%s\twall %s s\tuser %s s\tsys %s s\tmaxrss %s KiB\tvmlinux %s\tbzImage %s\tBTF %s\tobj dir %s\n' \
		"$v" "$wall" "$user" "$sys" "$rss" "$(stat -c %s "$o/vmlinux")" \
		"$(stat -c %s "$o/arch/x86/boot/bzImage")" "${btf:-0}" "$(du -sb "$o" | cut -f1)" |
		tee -a "$out/results.tsv"
done
