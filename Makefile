# sched-wakeup: the series, its selftests and the tooling that proves them.
# 'make run' is the main job, 'make check' the test suite; see README.md.

SHELL := /bin/bash
SCRIPTS := scripts

# The kernel line: 7.3 (mainline, the default; built in build/) or 6.12 (the
# 6.12.y backport; built in build/6.12/). Every target but check takes it;
# check covers both lines.
ifdef BASE
export SW_BASE := $(BASE)
endif

.PHONY: help deps have-deps tree export submit robot deb deb-boot hw kernel run matrix invariants bench bench-native seeds torture upstream-selftests lava check check-full clean

help:
	@echo "BASE=7.3     the mainline line (default), BASE=6.12 the 6.12.y backport line:"
	@echo "             patches/BASE/, built in build/ (mainline) or build/BASE/"
	@echo "make run     deps, tree, kernel, boot 8 CPUs (2 LLCs x 4) and 6 (3 LLCs x 2),"
	@echo "             run the selftests; KSRC=DIR: your own tree (the series applied"
	@echo "             by git am) built with the guest configuration instead"
	@echo "             (make run is the one target that installs packages; the"
	@echo "             others name the missing ones and point to make deps)"
	@echo "make check   both lines: static checks, tooling tests and guest tests; ends"
	@echo "             'N passed, N failed, N skipped'; tests side by side as the host's CPUs"
	@echo "             allow (SW_CHECK_CPUS=1: one at a time); what must hold for every change"
	@echo "make check-full  make check and the second tier: robot, six-cell matrix, 6.12.y"
	@echo "             mutants, packaged kernel from disk, LAVA, short torture; before posting"
	@echo "make matrix  the selftests in every cell of scripts/config/matrix.cells (topologies,"
	@echo "             HZ=250, preempt modes); REPEAT=N runs each cell N times, CELLS=\"a b\" some"
	@echo "make invariants  what must hold in every configuration, from traces: no timer"
	@echo "             storm, no run or wait the line's EEVDF flags make longer, no IPI they"
	@echo "             add; flags off/on x RUN_TO_PARITY x PREEMPT_SHORT x HRTICK over ten"
	@echo "             scenarios (QUICK=1: make check's subset); build/invariants/latest/"
	@echo "make deps    install the missing Debian packages (root), saying first what it"
	@echo "             changes: trixie-backports in apt's sources, pinned to two"
	@echo "             packages (scripts/deps --list: the packages)"
	@echo "make tree    build/linux: Debian's source of the line as git, its series applied"
	@echo "make export  the tree's commits back into patches/BASE/ and the new files"
	@echo "make submit  the postings in build/submit/ under your git identity: the flags"
	@echo "             as an RFC with a cover letter, the fixes (build/submit/fixes/) or"
	@echo "             the stable fixes (build/submit/stable/) apart; To/Cc filled in;"
	@echo "             BASE_COMMIT=<upstream id of the base> adds base-commit:"
	@echo "make robot   kernel/sched/ with W=1 (and sparse) at every commit in the"
	@echo "             configurations of scripts/config/robot.cells (gcc, and clang 19"
	@echo "             with LLVM=1 in its cell); CELLS=\"a b\" some"
	@echo "make kernel  configure and build build/obj/arch/x86/boot/bzImage"
	@echo "             DEBUG=1: the debug kernel (lockdep, PREEMPT, UBSAN...) in build/obj-debug"
	@echo "make bench   A/B of scripts/config/bench.configs in one 8-CPU guest boot"
	@echo "             (ITERATIONS=5 DURATION=1 seconds per run, CONFIGS=file); report"
	@echo "             in build/bench/latest/ (report.md, report.txt, results.json, SVG)"
	@echo "make bench-native  the same on this machine's running kernel (root)"
	@echo "make seeds   the seed threads' experiments (scripts/config/seeds/*.exp), one"
	@echo "             guest boot each; results in build/seeds/<seed>/, build/6.12/seeds/ for"
	@echo "             BASE=6.12 (SEEDS=\"000 004\" some)"
	@echo "make torture flags flipped at random under load, hotplug and cgroup churn on"
	@echo "             the debug kernel, 8 CPUs as 2 LLCs then 2 NUMA nodes (DURATION=30m;"
	@echo "             SEED=N replays a run's random choices, printed in its report)"
	@echo "make upstream-selftests  upstream selftests (futex cpu-hotplug rseq sched timers) on"
	@echo "             the base, the series, and the series with its flags inverted; table"
	@echo "             in build/upstream-selftests/compare.md"
	@echo "make deb     Debian packages of the series' kernel (linux-image, linux-headers);"
	@echo "             base config BASECONFIG=file, else the running kernel's if of the line,"
	@echo "             else Debian's"
	@echo "             (FLAVOUR=amd64|cloud-amd64); CONFIG=vm: the guest configuration"
	@echo "make deb-boot  those packages installed by dpkg -i in a Debian 12 root, booted"
	@echo "             from its disk image (SMT, 2 NUMA nodes), make hw run there; report in"
	@echo "             build/deb-boot/<config>/hw/ (CONFIG=vm|debian, as make deb;"
	@echo "             TOPOLOGY=\"--cpus 12 --sockets 3\": another guest)"
	@echo "make hw      on a box booted into that kernel (root): preflight, the selftests,"
	@echo "             HW_BENCH=1 the A/B benchmarks too; report.md and report.json"
	@echo "make lava    the selftests and the flag A/B as LAVA jobs run by LAVA's own dispatcher"
	@echo "             (lava-run) on a QEMU device: kernel, Debian root as initramfs, kselftest"
	@echo "             tarball; JOBS=kselftest|ab, WORKLOADS=, ITERATIONS=; LAVA_URL=URL only"
	@echo "             writes the jobs for a lab (artifacts served under URL); build/lava/latest/"
	@echo "make clean   remove build/ (refuses while a line's tree holds un-exported work)"

# Bad input is refused before any work, in one line: each target's
# variables go to its script's --check while the Makefile is read, and a
# refusal stops make there (exit 2). Only then come the packages (make run
# installs the missing ones, the other targets name them and point to make
# deps), the tree, the kernel and the guests.
# check_args GOAL,COMMAND: COMMAND's refusal, when GOAL is asked for.
check_args = $(if $(filter $(1),$(MAKECMDGOALS)),$(eval _e := $(shell $(2) 2>&1 >/dev/null))$(if $(_e),$(error $(_e))))

ifneq ($(filter-out 0 1,$(DEBUG)),)
$(error DEBUG takes 1 (the debug kernel) or 0, not '$(DEBUG)')
endif
ifneq ($(filter-out 0 1,$(QUICK) $(HW_BENCH)),)
$(error QUICK and HW_BENCH take 1 or 0, not '$(QUICK)$(HW_BENCH)')
endif

MATRIX_ARGS := $(if $(CELLS),--cells "$(CELLS)") $(if $(REPEAT),--repeat $(REPEAT))
ROBOT_ARGS := $(if $(CELLS),--cells "$(CELLS)")
BENCH_ARGS := $(if $(ITERATIONS),--iterations $(ITERATIONS)) \
	$(if $(DURATION),--duration $(DURATION)) $(if $(CONFIGS),--configs $(CONFIGS))
DEB_ARGS := $(if $(CONFIG),--config $(CONFIG)) $(if $(FLAVOUR),--flavour $(FLAVOUR)) \
	$(if $(BASECONFIG),--baseconfig $(BASECONFIG))
DEBBOOT_ARGS := $(if $(CONFIG),--config $(CONFIG)) $(if $(TOPOLOGY),--topology "$(TOPOLOGY)")
SEEDS_ARGS := $(if $(SEEDS),--seeds "$(SEEDS)")
TORTURE_ARGS := $(if $(DURATION),--duration $(DURATION)) $(if $(SEED),--seed $(SEED))
LAVA_ARGS := $(if $(JOBS),--jobs $(JOBS)) $(if $(WORKLOADS),--workloads $(WORKLOADS)) \
	$(if $(ITERATIONS),--iterations $(ITERATIONS)) $(if $(DURATION),--duration $(DURATION)) \
	$(if $(LAVA_URL),--url $(LAVA_URL))
SUBMIT_ARGS := $(if $(BASE_COMMIT),--base-commit $(BASE_COMMIT))
INV_ARGS := $(if $(filter 1,$(QUICK)),--quick)
RUN_ARGS := $(if $(KSRC),--ksrc "$(KSRC)")

$(call check_args,matrix,$(SCRIPTS)/matrix --check $(MATRIX_ARGS))
$(call check_args,robot,$(SCRIPTS)/robot --check $(ROBOT_ARGS))
$(call check_args,bench,$(SCRIPTS)/bench --check $(BENCH_ARGS))
$(call check_args,bench-native,$(SCRIPTS)/bench --check --native $(BENCH_ARGS))
$(call check_args,deb,$(SCRIPTS)/deb --check $(DEB_ARGS))
$(call check_args,deb-boot,$(SCRIPTS)/deb-boot --check $(DEBBOOT_ARGS))
$(call check_args,seeds,$(SCRIPTS)/seeds --check $(SEEDS_ARGS))
$(call check_args,torture,$(SCRIPTS)/torture --check $(TORTURE_ARGS))
$(call check_args,lava,$(SCRIPTS)/lava --check $(LAVA_ARGS))
$(call check_args,submit,$(SCRIPTS)/submit --check $(SUBMIT_ARGS))
$(call check_args,invariants,$(SCRIPTS)/invariants --check $(INV_ARGS))
$(call check_args,run,$(SCRIPTS)/run --check $(RUN_ARGS))

deps:
	@$(SCRIPTS)/deps

# have-deps: the packages are there, or a one-line pointer to make deps.
have-deps:
	@$(SCRIPTS)/deps --check

tree: have-deps
	@$(SCRIPTS)/tree

export:
	@$(SCRIPTS)/export

submit: tree
	@$(SCRIPTS)/submit $(SUBMIT_ARGS)

robot: tree
	@$(SCRIPTS)/robot $(ROBOT_ARGS)

kernel: tree
	@$(SCRIPTS)/build $(if $(filter 1,$(DEBUG)),--debug)

bench: kernel
	@$(SCRIPTS)/bench $(BENCH_ARGS)

deb: tree
	@$(SCRIPTS)/deb $(DEB_ARGS)

deb-boot: tree
	@$(SCRIPTS)/deb-boot $(DEBBOOT_ARGS)

hw:
	@$(SCRIPTS)/hw $(if $(filter 1,$(HW_BENCH)),--bench)

bench-native:
	@$(SCRIPTS)/bench --native $(BENCH_ARGS)

seeds: kernel
	@$(SCRIPTS)/seeds $(SEEDS_ARGS)

torture: tree
	@$(SCRIPTS)/build --debug
	@$(SCRIPTS)/torture $(TORTURE_ARGS)

upstream-selftests: tree
	@$(SCRIPTS)/upstream-selftests

# The artifacts first (each step says what it reuses), then the jobs.
lava: kernel
	@$(SCRIPTS)/install-selftests --tar
	@$(SCRIPTS)/debroot --ramdisk build/lava/rootfs.cpio.gz
	@$(SCRIPTS)/lava $(LAVA_ARGS)

# make run sets everything up: the packages it lacks, the tree, the kernel
# (or, with KSRC=DIR, that tree's kernel with the guest configuration).
run:
	@$(SCRIPTS)/deps
	@$(if $(KSRC),,$(MAKE) --no-print-directory kernel)
	@$(SCRIPTS)/run $(RUN_ARGS)

invariants: tree
	@$(SCRIPTS)/invariants $(INV_ARGS)

matrix: tree
	@$(SCRIPTS)/matrix $(MATRIX_ARGS)

check: have-deps
	@$(SCRIPTS)/check

check-full: have-deps
	@$(SCRIPTS)/check --full

clean:
	@for l in $(notdir $(patsubst %/series,%,$(wildcard patches/*/series))); do \
		SW_BASE=$$l $(SCRIPTS)/tree --check-clean || exit 1; done && rm -rf build
