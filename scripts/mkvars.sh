#!/bin/bash
# Make $BUILD/vars/project-VARS.fd: Debian's empty OVMF variable store
# (OVMF_VARS_4M.fd, SetupMode=1) with the project's keys enrolled (PK, KEK,
# db = db+both, dbx = dbx+both), so that OVMF's Secure Boot code boots with
# SecureBoot=1, SetupMode=0.  No MOK: only shim's MokManager enrolls one
# (scripts/mkshimvars.sh); a MokListRT written from the OS is an attack.
#
# How: one provisioning boot of the test kernel (QEMU's -kernel) with a tiny
# busybox initramfs whose /init (scripts/provision/init) writes the variables
# through efivarfs, PK last; then a verification boot on a copy of the result.
# The store is only installed when both pass; copy it for every run.
# Also signs the kernel ($BUILD/bzImage.signed, scripts/sign-kernel.sh), and a
# copy with the attacker key ($BUILD/bzImage.attacker-signed).
#
# Skips the boots when keys, initramfs sources and firmware are unchanged.
#   FORCE=1 mkvars.sh    provision again anyway
set -euo pipefail
HERE=$(cd "$(dirname "$0")" && pwd)
. "$HERE/lib.sh"
. "$HERE/provision/qemu.sh"

KERNEL=${KERNEL:-$OBJ/arch/x86/boot/bzImage}
SIGNED=$BUILD/bzImage.signed
# Work files per store, so that variant stores (KEYS=DIR PROJECT_VARS=FILE,
# see mkkeys.sh) can be made side by side.
NAME=$(basename "$PROJECT_VARS" .fd)
PROV=$BUILD/provision/$NAME
VARS=$(dirname "$PROJECT_VARS")
BOOT_SECS=${BOOT_SECS:-300}


"$HERE/mkkeys.sh"
[ -s "$KERNEL" ] || die "no kernel at $KERNEL: build it first (scripts/build-kernel.sh)"
"$HERE/sign-kernel.sh" "$KERNEL" "$SIGNED"
# What root signs with its own key (scenario attack_kexec).
"$HERE/sign-kernel.sh" "$KERNEL" "$BUILD/bzImage.attacker-signed" attacker

h=$(inputs_hash "$KEYS" "$HERE/provision" "$HERE/mkvars.sh" "$HERE/mkkeys.sh" \
	/usr/bin/busybox "$OVMF_CODE_SB" "$OVMF_VARS_EMPTY")
if [ -z "${FORCE:-}" ] && stamp_ok "vars-$NAME" "$h" && [ -s "$PROJECT_VARS" ]; then
	msg "$PROJECT_VARS is up to date"
	exit 0
fi

# --- the provisioning initramfs ---------------------------------------------
# attrs HEX: the 4 attribute bytes (little endian) of an efivarfs file.
attrs() { printf '%b' "\\x$1\\x00\\x00\\x00"; }

mkinitramfs() {
	local root=$PROV/root k=$KEYS
	rm -rf "$root"
	mkdir -p "$root"/{bin,dev,proc,sys,prov}
	cp /usr/bin/busybox "$root/bin/busybox"
	cp "$HERE/provision/init" "$root/init"
	chmod 755 "$root/init"
	# /dev/console for the kernel's initial console (needs root; /init falls
	# back to devtmpfs otherwise).
	mknod -m 600 "$root/dev/console" c 5 1 2>/dev/null || true

	# NAME.var: what /init writes (attributes + authenticated update);
	# NAME.expect: what the variable then reads back (attributes + lists).
	# 0x27 = NV|BS|RT|TIME_BASED_AUTHENTICATED_WRITE_ACCESS; 0x07 = NV|BS|RT.
	{ attrs 27; cat "$k/PK.auth"; } >"$root/prov/PK.var"
	{ attrs 27; cat "$k/PK.esl"; } >"$root/prov/PK.expect"
	{ attrs 27; cat "$k/KEK.auth"; } >"$root/prov/KEK.var"
	{ attrs 27; cat "$k/KEK.esl"; } >"$root/prov/KEK.expect"
	{ attrs 27; cat "$k/db.auth"; } >"$root/prov/db.var"
	{ attrs 27; cat "$k/db.list"; } >"$root/prov/db.expect"
	{ attrs 27; cat "$k/dbx.auth"; } >"$root/prov/dbx.var"
	{ attrs 27; cat "$k/dbx.list"; } >"$root/prov/dbx.expect"

	(cd "$root" && find . -mindepth 1 | LC_ALL=C sort |
		cpio --quiet -o -H newc -R 0:0 --reproducible) |
		gzip -9n >"$PROV/initramfs.cpio.gz.tmp"
	mv "$PROV/initramfs.cpio.gz.tmp" "$PROV/initramfs.cpio.gz"
}

# boot MODE VARS LOG: one boot of the signed kernel with prov.mode=MODE; shows
# the "prov:" lines; fails unless the guest printed "prov: RESULT PASS".
boot() {
	local mode=$1 vars=$2 log=$3 t0 rc=0
	t0=$(date +%s.%N)
	qemu_sb "$BOOT_SECS" "$vars" "$log" \
		-kernel "$SIGNED" -initrd "$PROV/initramfs.cpio.gz" \
		-append "console=ttyS0 loglevel=4 panic=-1 prov.mode=$mode" || rc=$?
	msg "$mode boot: $(printf '%.1f' "$(echo "$(date +%s.%N) - $t0" | bc)") s, qemu status $rc, log $log"
	log_text "$log" | grep -a '^prov: ' | grep -av '^prov: var: ' |
		sed 's/^/  /' >&2 || true
	[ "$rc" -ne 124 ] || die "$mode boot timed out after ${BOOT_SECS}s (see $log)"
	log_text "$log" | grep -aq '^prov: RESULT PASS' ||
		die "$mode boot failed: no 'prov: RESULT PASS' (see $log)"
}

mkdir -p "$PROV" "$VARS"
mkinitramfs

# --- provisioning boot, on a fresh copy of the empty store -------------------
cp "$OVMF_VARS_EMPTY" "$VARS/$NAME.work.fd"
boot write "$VARS/$NAME.work.fd" "$VARS/$NAME.provision.log"

# --- verification boot, on a copy of the result -----------------------------
cp "$VARS/$NAME.work.fd" "$VARS/$NAME.verify.fd"
boot verify "$VARS/$NAME.verify.fd" "$VARS/$NAME.verify.log"
rm -f "$VARS/$NAME.verify.fd"

# The DER certificates must be in the store's flash image, too.
for n in PK KEK db dbx both; do
	grep -qaF "Lockdown Test $n" "$VARS/$NAME.work.fd" ||
		die "'Lockdown Test $n' not found in $VARS/$NAME.work.fd"
done

rm -f "$PROJECT_VARS"
mv "$VARS/$NAME.work.fd" "$PROJECT_VARS"
stamp_set "vars-$NAME" "$h"
msg "made $PROJECT_VARS: PK, KEK, db, dbx enrolled; SecureBoot=1 SetupMode=0"
