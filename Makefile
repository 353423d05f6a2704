# One entry point. See README.md and ../shared/DESIGN.md.
#
#   make          build everything and boot the firmware Secure Boot demo
#   make check    build, boot the whole test matrix, "N passed, N failed"
#   make series   export the change as a git format-patch series
#   make boot S=  boot one scenario (open, integrity, confidentiality,
#                 runtime, setupmode, firmware) and show its KTAP
#   make clean    remove build output (keeps the unpacked tree and ccache)

S ?= firmware
SCRIPTS := scripts

.PHONY: all run check series boot deps tree kernel initramfs clean distclean

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

run: initramfs
	@$(SCRIPTS)/mkkeys.sh
	@$(SCRIPTS)/mkvars.sh
	@$(SCRIPTS)/demo.sh

boot: initramfs
	@$(SCRIPTS)/boot.sh $(S); rc=$$?; cat build/logs/$(S).ktap; exit $$rc

check:
	@$(SCRIPTS)/check.sh

series: tree
	@$(SCRIPTS)/series.sh

clean:
	rm -rf build/logs build/obj build/initramfs.img build/series build/.stamp-*

distclean:
	rm -rf build
