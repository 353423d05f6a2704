#!/bin/bash
# "make check-debug": the boot matrix of "make check" (scripts/checklib.sh)
# on a debug kernel: KASAN, UBSAN, KFENCE, lockdep
# (PROVE_LOCKING), DEBUG_ATOMIC_SLEEP and DEBUG_LIST, from
# configs/debug.config.  Any report of theirs on the console fails its
# boot (scripts/boot.sh judges the console).
#
# A separate build: the tree's output in build/obj-debug, everything else
# (initramfs, test modules, signed kernel, logs) in build/debug (under
# build/$KVER/ for a tree other than 6.1).  The main build's keys and OVMF
# variable stores (build/keys, build/vars) are used
# through symlinks, never made here: run "make check" once first.
#
# Prints each stage's time, the per-scenario table, the operation counts
# the tests report ("lktest-ops:" lines), and "N passed, N failed" last;
# exit status 1 on any failure.
#   SCENARIOS="a b"   boot only these (default: the matrix but DEBUG_SKIP;
#                     "all": the whole matrix, make check-debug-full)
#   TIMEOUT=SECONDS   per boot (default 900: the debug kernel is slow)
#   STALL=SECONDS     stop a boot whose console stays silent this long
#                     (default 300: three times the longest silent test)
set -uo pipefail
TOP=$(cd "$(dirname "$0")/.." && pwd)
# The main build of this tree (KVER): build/ or build/$KVER/.
MAIN=$(unset BUILD SRC OBJ && . "$TOP/scripts/lib.sh" && echo "$BUILD") || exit 1
export SRC=${SRC:-$MAIN/src}
export OBJ=${DEBUG_OBJ:-$MAIN/obj-debug}
export BUILD=${DEBUG_BUILD:-$MAIN/debug}
export CCACHE_DIR=${CCACHE_DIR:-$TOP/build/ccache}
export TIMEOUT=${TIMEOUT:-900}
export STALL=${STALL:-300}
# Every debug boot with two vCPUs: lockdep and KASAN see real concurrency.
export BOOT_SMP=${BOOT_SMP:-2}
# And 1 GiB: KASAN's shadow and KFENCE reserve half of 512 MB, and
# attack_kexec's guest, which holds its initramfs, two kernels and the
# initramfs packed again in tmpfs (half of what is left), ran out of room.
export BOOT_MEM=${BOOT_MEM:-1024}
. "$TOP/scripts/lib.sh"

LOGS=$BUILD/logs
asked=${SCENARIOS:-}
. "$TOP/scripts/checklib.sh"
# CI's share of the matrix: every kernel path the series adds but
# hibernation's, once.  Left
# out, for "make check-debug-full" (SCENARIOS=all), which CI does not run:
# owner_workflow (what it adds to owner_tpm and firmware is user space and
# the host's steps between boots), hibernate (six boots, writing and
# reading a 60 MB image twice), demo (a subset of firmware), shim_vendor
# and attack_shim (the MOKvar hand-over shim takes, with another
# certificate, or with a forged MokListRT that attack_nv already shows
# ignored), setupmode (decided in the EFI stub, which KASAN does not
# instrument), attack_nv itself (the kernel reads only the forged
# MokListRT's attributes, never its contents), runtime (its raise
# through securityfs, with every task losing CAP_COMPROMISE_KERNEL, is
# race's, there while guarded operations run), emulated
# (lockdown_secure_boot(), which firmware's boot takes; the parsing of
# its parameter is badparams') and confidentiality (its refusals go
# through the hook integrity's take, for other reasons; race_writers
# raises the level to it), and attack_kexec (its kexec_file_load() of a
# db-signed kernel, and the kexec, are owner_tpm's too; the forged
# MokListRT the kernel after it ignores, attack_nv's).
# The last nine took 81 to 321 s each on the debug kernel, about 21
# minutes in all (two at a time: 11), minutes CI does not have.
DEBUG_SKIP="owner_workflow hibernate demo shim_vendor attack_shim setupmode attack_nv"
DEBUG_SKIP+=" runtime emulated confidentiality attack_kexec"
# CI's share in the order of their boots' length on the debug kernel
# (measured: owner_tpm 560 s to race_writers 59 s), so that the last guest
# running is a short one.
DEBUG_SHARE="owner_tpm firmware integrity shim open efivar_ssdt baddb badparams race"
DEBUG_SHARE+=" race_writers"
if [ "$asked" = all ]; then
	SCENARIOS=$MATRIX
elif [ -z "$asked" ]; then
	SCENARIOS=$DEBUG_SHARE
	for s in $MATRIX; do
		case " $DEBUG_SHARE $DEBUG_SKIP " in
		*" $s "*) ;;
		*) die "scenario $s is in neither DEBUG_SHARE nor DEBUG_SKIP" ;;
		esac
	done
fi

# The main build's keys and stores, shared read-only.
link_main() {
	local f

	for f in keys/db.key keys/db.crt vars/project-VARS.fd vars/baddb-VARS.fd \
		vars/shim-VARS.fd; do
		[ -s "$MAIN/$f" ] || die "$MAIN/$f missing: run make check first"
	done
	ln -sfn "$MAIN/keys" "$BUILD/keys"
	ln -sfn "$MAIN/vars" "$BUILD/vars"
}

stage deps	"$TOP/scripts/install-deps.sh"
# The main build's tree, judged by its own stamp: up to date after make check.
stage tree	env BUILD="$MAIN" "$TOP/scripts/tree.sh"
stage links	link_main
stage config	"$TOP/scripts/configure.sh" "$TOP/configs/debug.config"
stage kernel	"$TOP/scripts/build-kernel.sh"
# The debug kernel signed as the scenarios want it: with the db key, the
# MOK key (the shim chain), the attacker's key (attack_kexec).
sign_all() {
	local k=$OBJ/arch/x86/boot/bzImage

	"$TOP/scripts/sign-kernel.sh" &&
		"$TOP/scripts/sign-kernel.sh" "$k" "$BUILD/bzImage.mok-signed" mok &&
		"$TOP/scripts/sign-kernel.sh" "$k" "$BUILD/bzImage.attacker-signed" attacker
}
stage sign	sign_all
stage initramfs	"$TOP/scripts/mkinitramfs.sh"
[[ " ${SCENARIOS//[$'\t\n']/ } " != *" hibernate "* ]] ||
	stage stock-debian "$TOP/scripts/stock-debian.sh"

matrix
kunit
finish
