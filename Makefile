# One entry point. See README.md and ../shared/DESIGN.md.
#
#   make          build everything and boot the firmware Secure Boot demo
#   make check    build, boot the whole test matrix, "N passed, N failed"
#   make check-debug  the same matrix on a KASAN/UBSAN/KFENCE/lockdep kernel
#                 (build/obj-debug, build/debug); run make check first.
#                 CI's share: each kernel path once (scripts/check-debug.sh)
#   make check-debug-full  the whole matrix on it (not in CI: 12 more minutes)
#   make series   export the change as a git format-patch series
#   make fuzz     fuzz the EFI signature-list and owner-policy parsers
#                 (libFuzzer, ASan, UBSan; 10 million executions each)
#   make buildcheck  build the series as a build robot does: each config
#                 of configs/buildcheck/, every patch in turn, sparse and
#                 W=1 (not in CI: hours cold; resumes where it stopped)
#   make bench    guarded-syscall, UEFI key import and hibernation cost,
#                 ours vs the stock tree (prints figures, never fails on
#                 speed; after make)
#   make boot S=  boot one scenario (open, integrity, confidentiality,
#                 runtime, emulated, firmware, baddb, setupmode, demo, ...)
#                 and show its KTAP
#   make clean    remove build output (keeps the unpacked tree and ccache)
#
# KVER= picks the Debian tree every target works on: 6.1 (the default,
# built in build/) or 6.12 (built in build/6.12/), e.g. make check KVER=6.12.

S ?= firmware
KVER ?= 6.1
export KVER
SCRIPTS := scripts
BUILDDIR := build$(if $(filter-out 6.1,$(KVER)),/$(KVER))

.PHONY: all run check check-debug check-debug-full buildcheck series fuzz bench boot deps tree kernel initramfs vars stores clean distclean

all: run

deps:
	@$(SCRIPTS)/install-deps.sh

tree: deps
	@$(SCRIPTS)/tree.sh

kernel: tree
	@$(SCRIPTS)/configure.sh
	@$(SCRIPTS)/build-kernel.sh

initramfs: kernel
	@$(SCRIPTS)/mkinitramfs.sh

# The OVMF variable stores with the project's keys enrolled.
vars: kernel
	@$(SCRIPTS)/mkvars.sh

stores: vars
	@$(SCRIPTS)/mkstore.sh baddb

run:
	@$(SCRIPTS)/run.sh

boot: initramfs stores
	@$(SCRIPTS)/boot.sh $(S); rc=$$?; cat $(BUILDDIR)/logs/$(S).ktap; exit $$rc

check:
	@$(SCRIPTS)/check.sh

check-debug: tree
	@$(SCRIPTS)/check-debug.sh

check-debug-full: tree
	@SCENARIOS=all $(SCRIPTS)/check-debug.sh

buildcheck: deps
	@$(SCRIPTS)/buildcheck.sh

series: tree
	@$(SCRIPTS)/series.sh

fuzz: tree
	@$(SCRIPTS)/fuzz.sh

bench: deps
	@$(SCRIPTS)/bench.sh

clean:
	rm -rf $(addprefix $(BUILDDIR)/,logs obj initramfs.img series .stamp-* \
		checkpatch-passed am-check.passed \
		obj-debug debug obj-late)

distclean:
	rm -rf build
