# shellcheck shell=bash
# The real shim boot chain, as Debian boots it, on an ESP folder that QEMU
# serves as a FAT disk.  Sourced after lib.sh, not run; sources
# provision/qemu.sh.
#
#   \EFI\BOOT\BOOTX64.EFI   shim-unsigned's shimx64.efi, signed with the db key
#   \EFI\BOOT\grubx64.efi   systemd-boot, signed with the db key (shim starts
#                           grubx64.efi from its own folder)
#   \EFI\BOOT\mmx64.efi     shim's MokManager, signed with the db key
#   (no fbx64.efi: shim as BOOTX64.EFI would run the fallback first)
#   \loader\loader.conf     default entry, timeout 0, no editor, no seed
#   \loader\entries\lktest.conf, \vmlinuz, \initrd
#
# OVMF verifies shim against db; shim verifies systemd-boot (db again, plus
# its SBAT); systemd-boot loads the kernel through the firmware with shim's
# shim_lock protocol as the security override, so the kernel may be signed
# with a db key or a MOK (MokList).  Shim hands the MOK state to the kernel
# as the MOKvar configuration table and volatile MokListRT, MokListXRT and
# MokListTrustedRT.
#
#   shim_esp DIR KERNEL INITRD CMDLINE   make (or remake) the ESP folder DIR
#   shim_drive DIR                       print the -drive value that serves it
#   shim_boot SECS VARS LOG DIR [QEMU ARGS...]
#                                        boot it (qemu_sb: OVMF Secure Boot,
#                                        console in LOG); SHIM_STOP_RE stops
#                                        QEMU early when the console shows it
#   shim_qemu VARS                       the same QEMU command without a
#                                        serial port, in the array SHIM_QEMU,
#                                        for a caller that talks to the
#                                        console (expect, MokManager)

# shellcheck source=provision/qemu.sh
. "$TOP/scripts/provision/qemu.sh"

SHIM_EFI=${SHIM_EFI:-/usr/lib/shim/shimx64.efi}
SHIM_MM_EFI=${SHIM_MM_EFI:-/usr/lib/shim/mmx64.efi}
SHIM_SDBOOT=${SHIM_SDBOOT:-/usr/lib/systemd/boot/efi/systemd-bootx64.efi}
# db-signed copies of the three binaries, re-signed only when an input changes.
SHIM_SIGNED=${SHIM_SIGNED:-$BUILD/shim-signed}
# Shim's vendor GUID: MokList, MokListRT, MokNew, MokAuth, ...
# shellcheck disable=SC2034 # for the caller
SHIM_GUID=605dab50-e046-4300-abb6-3dd810dd8b23
# ESP served read-write ("fat:rw:"): shim, MokManager and systemd-boot write
# only variables, never files, and a read-only ESP boots the same chain
# (measured), but a chain that writes (fallback, a random seed) needs rw.
# SHIM_ESP_MODE=ro serves it read-only.
SHIM_ESP_MODE=${SHIM_ESP_MODE:-rw}
# What the console shows when shim (through systemd-boot) refuses the kernel.
# shellcheck disable=SC2034 # for the caller
SHIM_REFUSED_RE='Error loading .*vmlinuz: (Security Policy Violation|Access Denied|Security Violation)'

# shim_sign NAME IN: "$SHIM_SIGNED/NAME", IN signed with the db key; printed.
shim_sign() {
	local in=$2 out=$SHIM_SIGNED/$1

	[ -s "$in" ] || die "$in missing (install-deps.sh: shim-unsigned, systemd-boot-efi)"
	mkdir -p "$SHIM_SIGNED"
	"$TOP/scripts/sign-kernel.sh" "$in" "$out" db >&2 || die "signing $in failed"
	echo "$out"
}

# shim_esp DIR KERNEL INITRD CMDLINE: the ESP folder DIR (made afresh) whose
# chain boots KERNEL with INITRD and CMDLINE.
shim_esp() {
	local dir=${1:?shim_esp: no folder} kernel=$2 initrd=$3 cmdline=$4 f

	for f in "$kernel" "$initrd"; do
		[ -s "$f" ] || die "shim_esp: $f missing"
	done
	rm -rf "$dir"
	mkdir -p "$dir/EFI/BOOT" "$dir/loader/entries"
	cp "$(shim_sign shimx64.efi "$SHIM_EFI")" "$dir/EFI/BOOT/BOOTX64.EFI"
	cp "$(shim_sign grubx64.efi "$SHIM_SDBOOT")" "$dir/EFI/BOOT/grubx64.efi"
	cp "$(shim_sign mmx64.efi "$SHIM_MM_EFI")" "$dir/EFI/BOOT/mmx64.efi"
	cp "$kernel" "$dir/vmlinuz"
	cp "$initrd" "$dir/initrd"
	printf 'default lktest.conf\ntimeout 0\neditor no\nrandom-seed-mode off\n' \
		>"$dir/loader/loader.conf"
	printf 'title lktest shim chain\nlinux /vmlinuz\ninitrd /initrd\noptions %s\n' \
		"$cmdline" >"$dir/loader/entries/lktest.conf"
}

# shim_vendor_efi IN CERT OUT: OUT is shim IN with CERT (DER) as its built-in
# vendor certificate, in place of Debian's CA, and shim's own vendor dbx
# kept: what shim's .vendor_cert section holds, four u32s (size of the
# certificate, size of the dbx, their offsets in the section) and the
# data.  The section keeps its size, so the PE layout does not change;
# OUT is then signed like shim itself.  For a key that stands in for a
# distribution's CA, which shim hands over to the kernel as it hands over
# Debian's.
shim_vendor_efi() {
	local in=$1 cert=$2 out=$3 off hdr csize

	off=$(objdump -h "$in" | awk '$2 == ".vendor_cert" { print $6 }')
	[ -n "$off" ] || die "$in has no .vendor_cert section"
	read -r -a hdr < <(od -An -tu4 -N16 -j $((0x$off)) "$in")
	csize=$(stat -c %s "$cert")
	[ "${hdr[2]}" = 16 ] && [ "$csize" -le "${hdr[0]}" ] ||
		die "$cert ($csize bytes) does not fit shim's vendor certificate (${hdr[0]} at ${hdr[2]})"
	cp "$in" "$out.tmp"
	# The new size, then the certificate over the old one, zeros after it.
	# shellcheck disable=SC2059 # octal escapes made just above
	printf "$(printf '\\%03o' $((csize & 255)) $((csize >> 8 & 255)) \
		$((csize >> 16 & 255)) $((csize >> 24 & 255)))" |
		dd of="$out.tmp" bs=1 seek=$((0x$off)) conv=notrunc status=none
	head -c "${hdr[0]}" /dev/zero |
		dd of="$out.tmp" bs=1 seek=$((0x$off + 16)) conv=notrunc status=none
	dd if="$cert" of="$out.tmp" bs=1 seek=$((0x$off + 16)) conv=notrunc status=none
	mv "$out.tmp" "$out"
}

# shim_drive DIR: the value of QEMU's -drive that serves DIR as the ESP.
shim_drive() {
	if [ "$SHIM_ESP_MODE" = ro ]; then
		echo "if=virtio,format=raw,readonly=on,file=fat:$(realpath "$1")"
	else
		echo "if=virtio,format=raw,file=fat:rw:$(realpath "$1")"
	fi
}

# shim_boot SECS VARS LOG DIR [QEMU ARGS...]: boot the ESP folder DIR with
# OVMF Secure Boot and the writable variable store VARS; the console (the
# first serial port) goes to LOG, QEMU's own messages to LOG.qemu.  Status as
# qemu_sb (124: timed out); with SHIM_STOP_RE set, QEMU is stopped 2 s after
# the console shows it, and the status is 0.  A refused kernel never ends the
# run by itself: the console shows "Verification failed: Security Policy
# Violation", "Error loading \vmlinuz: Security Policy Violation", "start_image()
# returned Security Policy Violation", then BdsDxe waits at "Press any key to
# enter the Boot Manager Menu." (SHIM_REFUSED_RE matches it).  Sets SHIM_SECS,
# the boot's wall time.
shim_boot() {
	local secs=$1 vars=$2 log=$3 dir=$4 pidf=$3.pid pid rc=0 t0
	shift 4

	rm -f "$pidf"
	t0=$(date +%s.%N)
	qemu_sb "$secs" "$vars" "$log" -pidfile "$pidf" \
		-drive "$(shim_drive "$dir")" "$@" 2>"$log.qemu" &
	pid=$!
	while [ -n "${SHIM_STOP_RE:-}" ] && kill -0 "$pid" 2>/dev/null; do
		if [ -s "$log" ] && log_text "$log" | grep -aqE "$SHIM_STOP_RE"; then
			sleep 2		# the rest of the line
			[ -s "$pidf" ] && kill "$(cat "$pidf")" 2>/dev/null
			break
		fi
		sleep 1
	done
	wait "$pid" || rc=$?
	rm -f "$pidf"
	# shellcheck disable=SC2034 # for the caller
	SHIM_SECS=$(printf '%.1f' "$(echo "$(date +%s.%N) - $t0" | bc)")
	return "$rc"
}

# shim_qemu VARS: SHIM_QEMU, the QEMU command of qemu_sb (OVMF Secure Boot
# with VARS) without timeout and serial port: the caller adds the console
# (-chardev stdio,... -serial chardev:...) and the ESP (shim_drive).
shim_qemu() {
	# shellcheck disable=SC2034,SC2054 # for the caller; commas are QEMU's
	SHIM_QEMU=(qemu-system-x86_64
		-accel tcg -machine q35,smm=on -smp 1 -m 512M
		-nodefaults -no-user-config -display none -monitor none
		-no-reboot
		-global driver=cfi.pflash01,property=secure,value=on
		-drive "if=pflash,format=raw,unit=0,readonly=on,file=$OVMF_CODE_SB"
		-drive "if=pflash,format=raw,unit=1,file=$1")
}
