#!/usr/bin/env bash
# The lab files: scripts/lava writes both jobs and the device dictionary,
# and LAVA's own validation (lava-run --validate) accepts each job on that
# device; --url jobs point at the lab's URLs only. The jobs' result
# converters, run on known input with LAVA's helpers stood in for: every
# TAP test case and program becomes one result, with its measurements, and the A/B's
# samples come back through a LAVA log to the same samples.tsv
# (scripts/lava --results). The KernelCI and LKP entries, which cannot run
# here: valid YAML, the keys their engines document, names that exist.
# check: uses lava selftests
. "$(dirname "$0")/lib.sh"
need_kernel
LAVA=$SCRIPTS/lava
"$SCRIPTS/install-selftests" --tar >"$TMP/st.log" 2>&1 || { cat "$TMP/st.log"; fail "scripts/install-selftests --tar failed"; }
# Any file stands in for the root filesystem: nothing boots here.
printf 'x\n' >"$TMP/rootfs.cpio.gz"

# --- generation and LAVA's validation ------------------------------------------
"$LAVA" --generate --out "$TMP/gen" --rootfs "$TMP/rootfs.cpio.gz" >"$TMP/gen.log" 2>&1 ||
	{ cat "$TMP/gen.log"; fail "scripts/lava --generate failed"; }
for j in kselftest ab; do
	[ -s "$TMP/gen/jobs/$j.yaml" ] || fail "no job $j"
	grep -q '"lvl": "results", "msg": {"case": "validate", "definition": "lava", "result": "pass"}' \
		"$TMP/gen/$j.validate.log" || fail "lava-run --validate did not pass $j: $(tail -n 3 "$TMP/gen/$j.validate.log")"
	! grep -n '@[A-Z_]*@' "$TMP/gen/jobs/$j.yaml" || fail "job $j: a field left unfilled"
done
grep -q "^  - -smp 8,sockets=2,cores=4\|'-smp 8,sockets=2,cores=4'" "$TMP/gen/device.yaml" ||
	fail "the rendered device lacks the guest topology"
grep -q "qemu-system-x86_64" "$TMP/gen/device.yaml" || fail "the rendered device is not lava-server's qemu type"
# Virtual time at the shift scripts/vm uses.
. "$SCRIPTS/lib/qemu.sh"
grep -q -- "-icount shift=$VM_ICOUNT_SHIFT_DEFAULT,sleep=on,align=off" "$TMP/gen/device.yaml" ||
	fail "the rendered device does not run on virtual time at shift $VM_ICOUNT_SHIFT_DEFAULT (lava/devices/sw-qemu.jinja2)"
echo "generated and validated by lava-run: $(cd "$TMP/gen" && ls jobs | paste -sd' ')"

"$LAVA" --url https://lab.example/sw/ --out "$TMP/url" --rootfs "$TMP/rootfs.cpio.gz" >"$TMP/url.log" 2>&1 ||
	{ cat "$TMP/url.log"; fail "scripts/lava --url failed"; }
urls=$(grep -ho "url: '[^']*'" "$TMP/url/jobs/"*.yaml | sort -u)
echo "$urls"
! grep -q "file://" <<<"$urls" || fail "--url jobs still point at local files"
for a in bzImage rootfs.cpio.gz kselftest.tar.gz harness.tar.gz; do
	grep -qF "url: 'https://lab.example/sw/$a'" <<<"$urls" || fail "--url jobs lack $a under the lab's URL"
done

# --- the selftest job's TAP converter ---------------------------------------------
# step N of a job's inline test definition, as the DUT's shell gets it.
step() {
	python3 - "$1" "$2" <<'PY'
import sys, yaml
job = yaml.safe_load(open(sys.argv[1]))
test = [a["test"] for a in job["actions"] if "test" in a][0]
print(test["definitions"][0]["repository"]["run"]["steps"][int(sys.argv[2])])
PY
}
mkdir -p "$TMP/bin"
# LAVA's helpers, standing in: each call written as a LAVA log line would be.
cat >"$TMP/bin/lava-test-case" <<'SH'
#!/bin/bash
name=$1 result="" m="" u=""
shift
while [ $# -gt 0 ]; do
	case $1 in --result) result=$2 ;; --measurement) m=$2 ;; --units) u=$2 ;; esac
	shift 2
done
set_=$(cat "$LAVA_SET_FILE" 2>/dev/null)
# LAVA keeps a measurement as a decimal string ("40.0" for 40), the unit
# under "units", and tags strings in its log lines ('! "40.0"').
[[ $m =~ ^-?[0-9]+$ ]] && m=$m.0
printf '{"dt": "x", "lvl": "results", "msg": {"case": "%s", "definition": "0_%s", "result": "%s"%s%s}}\n' \
	"$name" "$LAVA_DEF" "$result" "${set_:+, \"set\": \"$set_\"}" \
	"${m:+, \"measurement\": ! \"$m\", \"units\": \"$u\"}" >>"$LAVA_OUT"
SH
cat >"$TMP/bin/lava-test-set" <<'SH'
#!/bin/bash
case $1 in start) echo "$2" >"$LAVA_SET_FILE" ;; stop) rm -f "$LAVA_SET_FILE" ;; esac
SH
chmod +x "$TMP/bin/"*
export PATH=$TMP/bin:$PATH LAVA_SET_FILE=$TMP/set

cat >"$TMP/kselftest.tap" <<'END_TAP'
TAP version 13
1..2
# selftests: sched-wakeup: wa_idle_prev
# TAP version 13
# 1..2
# #  RUN           wa_idle_prev.on.placement ...
# # wa_idle_prev.c:216:placement:measured woke_on_prev 40 wakeups
# # wa_idle_prev.c:217:placement:measured woke_on_waker 0 wakeups
# #            OK  wa_idle_prev.on.placement
# ok 1 wa_idle_prev.on.placement
# #  RUN           wa_idle_prev.off.placement ...
# # wa_idle_prev.c:216:placement:measured woke_on_prev 31 wakeups
# #          FAIL  wa_idle_prev.off.placement
# not ok 2 wa_idle_prev.off.placement
ok 1 selftests: sched-wakeup: wa_idle_prev
# selftests: sched-wakeup: idlest_util
# #  RUN           idlest_util.on.fork_placement ...
# ok 1 idlest_util.on.fork_placement # SKIP needs 3 LLCs in one NUMA node
not ok 2 selftests: sched-wakeup: idlest_util # TIMEOUT 600 seconds
END_TAP
step "$TMP/gen/jobs/kselftest.yaml" 4 | sed "s|/tmp/kselftest.tap|$TMP/kselftest.tap|" >"$TMP/tap2lava.sh"
LAVA_OUT=$TMP/tap.results LAVA_DEF=sched-wakeup sh "$TMP/tap2lava.sh" || fail "the TAP converter failed"
got=$(sed 's/": ! "/": "/g' "$TMP/tap.results" |
	jq -r '.msg | "\(.case) \(.result) \(.measurement // "-") \(.units // "-")"')
echo "$got"
want="wa_idle_prev.on.placement pass - -
wa_idle_prev.on.placement.woke_on_prev pass 40.0 wakeups
wa_idle_prev.on.placement.woke_on_waker pass 0.0 wakeups
wa_idle_prev.off.placement fail - -
wa_idle_prev.off.placement.woke_on_prev fail 31.0 wakeups
wa_idle_prev pass - -
idlest_util.on.fork_placement skip - -
idlest_util fail - -
sched-wakeup-tap pass - -"
[ "$got" = "$want" ] || fail "the TAP converter's results differ; wanted:
$want"

# --- the A/B job's converter, and back through --results ---------------------------
# The job's paths (/tmp/ab) moved into this test's directory.
ab=$TMP/ab
mkdir -p "$ab"
printf '# workload\tmetric\tunit\tbetter\tconfig\titeration\tvalue\n' >"$ab/samples.tsv"
for it in 1 2 3; do
	for c in baseline no-wa-idle-prev; do
		printf 'hackbench-process-pipe\ttime\ts\tlo\t%s\t%s\t1.%s%s\n' "$c" "$it" "$it" "${#c}"
		printf 'hackbench-process-pipe\tmigrations\t/s\tinfo\t%s\t%s\t%s00\n' "$c" "$it" "$it"
	done
done >>"$ab/samples.tsv"
printf 'baseline\t\nno-wa-idle-prev\tNO_WA_IDLE_PREV\n' >"$ab/configs.tsv"
printf 'kernel\ttest\naccel\tQEMU tcg guest\n' >"$ab/env.tsv"
cp "$ab/samples.tsv" "$TMP/samples.orig"
{
	# The marked lines, as LAVA logs the DUT's output ("target").
	sh -c "$(step "$TMP/gen/jobs/ab.yaml" 3 | sed "s|/tmp/ab/|$ab/|g")" |
		jq -R -c '{dt: "x", lvl: "target", msg: .}'
	LAVA_OUT=/dev/stdout LAVA_DEF=sched-wakeup-ab sh -c "$(step "$TMP/gen/jobs/ab.yaml" 4 | sed "s|/tmp/ab/|$ab/|g")"
} >"$TMP/ab.log" 2>"$TMP/ab.err" || { cat "$TMP/ab.err"; fail "the A/B converter failed"; }
grep -c '"set": "round-' "$TMP/ab.log" | grep -qx 12 || fail "wanted 12 measurements in round sets: $(cat "$TMP/ab.log")"
"$LAVA" --results "$TMP/ab.log" --out "$TMP/back" >"$TMP/back.log" 2>&1 ||
	{ cat "$TMP/back.log"; fail "scripts/lava --results failed"; }
# The same samples, values compared as numbers (LAVA writes 40 as 40.0).
num() { grep -v '^#' "$1" | awk -F '\t' -v OFS='\t' '{$7 = $7 + 0; print}' | sort; }
diff <(num "$TMP/samples.orig") <(num "$TMP/back/samples.tsv") ||
	fail "the samples that came back through LAVA's log differ"
[ -s "$TMP/back/report.md" ] || fail "no benchstat report from the LAVA results"
echo "A/B: 12 samples to LAVA measurements and back, identical; benchstat report written"

# --- KernelCI and LKP ----------------------------------------------------------------
SW_FEAT_KERNEL=$SW_BASE . "$TOP/scripts/lib/features.sh"
python3 - "$TOP/lava/kernelci/sched-wakeup.yaml" "$TOP/lava/lkp/hackbench-wa-idle-prev.yaml" \
	"$KSRC/kernel/sched/features.h" "$BUILD/selftests/kselftest-list.txt" "$SW_FLAGS" <<'PY' || fail "the KernelCI or LKP entry"
import re, sys, yaml
kci, lkp, feats, kst, line_flags = sys.argv[1:6]
k = yaml.safe_load(open(kci))
jobs = k["jobs"]
assert list(jobs) == ["kselftest-sched-wakeup"], jobs
j = jobs["kselftest-sched-wakeup"]
# kernelci-pipeline's config reference: template, kind and kcidb_test_suite
# are mandatory for a job of kind "job".
for key in ("template", "kind", "kcidb_test_suite", "params"):
    assert key in j, "KernelCI job lacks " + key
assert j["template"] == "kselftest.jinja2" and j["kind"] == "job"
assert j["params"]["collections"] == "sched-wakeup"
assert j["kcidb_test_suite"] == "kselftest." + j["params"]["collections"]
collections = {l.split(":")[0] for l in open(kst) if ":" in l}
assert j["params"]["collections"] in collections, "collection not in the kselftest install"
s = k["scheduler"][0]
assert s["job"] in jobs and s["runtime"]["type"] == "lava" and s["platforms"]
l = yaml.safe_load(open(lkp))
flags = set(re.findall(r"^SCHED_FEAT\((\w+),", open(feats).read(), re.M))
series = set(line_flags.split())
assert series <= flags, "the line's flags are not all in its features.h"
fs = l["sched_feature"]["feature"]
assert len(fs) == 2 and {f.removeprefix("NO_") for f in fs} <= series, fs
assert set(fs) == {fs[0].removeprefix("NO_"), "NO_" + fs[0].removeprefix("NO_")}, "not one flag on and off"
# lkp-tests' programs/hackbench/meta.yaml documents these parameters.
assert set(l["hackbench"]) <= {"runtime", "nr_threads", "mode", "ipc", "iterations"}, l["hackbench"]
assert l["suite"] == "hackbench" and l["testcase"] == "hackbench"
print("KernelCI job kselftest-sched-wakeup and LKP job on", " and ".join(fs), "check out")
PY
