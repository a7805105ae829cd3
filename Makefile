# sched-wakeup: the series, its selftests and the tooling that proves them.
# 'make run' is the main job, 'make check' the test suite; see README.md.

SHELL := /bin/bash
S := scripts

.PHONY: help deps tree export kernel run check clean

help:
	@echo "make run     deps, tree, kernel, boot 8 CPUs (2 LLCs x 4), run the selftests"
	@echo "make check   static checks, tooling tests and guest tests; ends 'N passed, N failed'"
	@echo "make deps    install the Debian packages (root)"
	@echo "make tree    build/linux: Debian's 6.12 source as git, series applied"
	@echo "make export  build/linux commits back into patches/ and the new files"
	@echo "make kernel  configure and build build/obj/arch/x86/boot/bzImage"
	@echo "make clean   remove build/ (refuses while build/linux holds un-exported work)"

deps:
	@$(S)/deps

tree: deps
	@$(S)/tree

export:
	@$(S)/export

kernel: tree
	@$(S)/build

run: kernel
	@$(S)/run

check: deps
	@$(S)/check

clean:
	@$(S)/tree --check-clean && rm -rf build
