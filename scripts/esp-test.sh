#!/bin/bash
# Prove that OVMF enforces Secure Boot with the project's variable store.
#
# QEMU's -kernel path is never signature-checked by this OVMF, so each case
# boots from an ESP instead: a folder served as a FAT disk holding a db-signed
# systemd-boot as \EFI\BOOT\BOOTX64.EFI whose default entry (loader.conf
# "default" + "timeout 0", no menu) loads a kernel through the firmware:
#
#   unsigned  the unsigned bzImage            -> firmware refuses it
#   db        the db-signed bzImage           -> boots, SecureBoot=1 in the guest
#   revoked   bzImage signed by "both" (cert in db AND dbx) -> refused
#
# Prints KTAP; exits non-zero when a case fails or gives no result.
#   esp-test.sh [CASE...]    default: unsigned db revoked
set -euo pipefail
HERE=$(cd "$(dirname "$0")" && pwd)
. "$HERE/lib.sh"
. "$HERE/provision/qemu.sh"

KERNEL=${KERNEL:-$OBJ/arch/x86/boot/bzImage}
SIGNED=$BUILD/bzImage.signed
INITRD=$BUILD/provision/project-VARS/initramfs.cpio.gz
SDBOOT=${SDBOOT:-/usr/lib/systemd/boot/efi/systemd-bootx64.efi}
ESP=$BUILD/esp
CASE_SECS=${CASE_SECS:-300}
# What systemd-boot prints when the firmware's LoadImage() refuses a kernel
# (measured: "Error loading \vmlinuz: Access Denied"; systemd-boot then exits
# and OVMF's BdsDxe adds "failed to start Boot0001 ...: Access Denied").
REFUSED_RE='Error loading .*vmlinuz: (Access Denied|Security Violation)'

"$HERE/mkvars.sh"	# keys, signed kernel, project store, initramfs
[ -s "$PROJECT_VARS" ] || die "no $PROJECT_VARS"
[ -s "$INITRD" ] || die "no $INITRD"
if sbverify --list "$KERNEL" 2>/dev/null | grep -q 'signature [0-9]'; then
	die "$KERNEL is signed; the 'unsigned' case needs an unsigned kernel"
fi

mkdir -p "$ESP"
sbsign --key "$KEYS/db.key" --cert "$KEYS/db.crt" \
	--output "$ESP/systemd-boot.signed" "$SDBOOT" >/dev/null 2>&1 ||
	die "sbsign failed on $SDBOOT"
sbsign --key "$KEYS/both.key" --cert "$KEYS/both.crt" \
	--output "$ESP/bzImage.both" "$KERNEL" >/dev/null 2>&1 ||
	die "sbsign failed on $KERNEL"

# mkesp CASE KERNEL: the ESP folder of one case.
mkesp() {
	local d=$ESP/$1
	rm -rf "$d"
	mkdir -p "$d/EFI/BOOT" "$d/loader/entries"
	cp "$ESP/systemd-boot.signed" "$d/EFI/BOOT/BOOTX64.EFI"
	cp "$2" "$d/vmlinuz"
	cp "$INITRD" "$d/initrd"
	printf 'default test.conf\ntimeout 0\neditor no\nrandom-seed-mode off\n' \
		>"$d/loader/loader.conf"
	cat >"$d/loader/entries/test.conf" <<-EOF
	title esp-test $1
	linux /vmlinuz
	initrd /initrd
	options console=ttyS0 panic=-1 prov.mode=status
	EOF
}

# run CASE: boot the case's ESP on a copy of the project store; stop QEMU as
# soon as the console shows a refusal or the guest's result.  Sets $verdict,
# $secs and $log.
run() {
	local c=$1 vars=$ESP/$1.vars.fd pidf=$ESP/$1.pid t0 pid rc=0 text
	log=$ESP/$c.log
	cp "$PROJECT_VARS" "$vars"
	chmod u+w "$vars"
	rm -f "$pidf"
	: >"$log"
	t0=$(date +%s.%N)
	qemu_sb "$CASE_SECS" "$vars" "$log" -pidfile "$pidf" \
		-drive if=virtio,format=raw,readonly=on,file=fat:"$ESP/$c" \
		2>"$ESP/$c.qemu.err" &
	pid=$!
	while kill -0 "$pid" 2>/dev/null; do
		text=$(log_text "$log")
		if grep -aqE "$REFUSED_RE|^prov: RESULT |Kernel panic" <<<"$text"; then
			sleep 2	# let the rest of the line arrive
			[ -s "$pidf" ] && kill "$(cat "$pidf")" 2>/dev/null
			break
		fi
		sleep 1
	done
	wait "$pid" || rc=$?
	secs=$(printf '%.1f' "$(echo "$(date +%s.%N) - $t0" | bc)")
	rm -f "$vars" "$pidf"
	text=$(log_text "$log")
	if [ "$rc" -eq 124 ]; then
		verdict=timeout
	elif grep -aqE "$REFUSED_RE" <<<"$text"; then
		verdict=refused
	elif grep -aq '^prov: RESULT PASS' <<<"$text"; then
		verdict=booted
	elif grep -aq 'Linux version' <<<"$text"; then
		verdict=booted-but-failed
	else
		verdict=no-result
	fi
}

cases=("$@")
[ ${#cases[@]} -gt 0 ] || cases=(unsigned db revoked)

echo "KTAP version 1"
echo "1..${#cases[@]}"
n=0 passed=0 failed=0
for c in "${cases[@]}"; do
	n=$((n + 1))
	case $c in
	unsigned) mkesp "$c" "$KERNEL"; want=refused
		name=esp_unsigned_kernel_refused ;;
	db) mkesp "$c" "$SIGNED"; want=booted
		name=esp_db_signed_kernel_boots ;;
	revoked) mkesp "$c" "$ESP/bzImage.both"; want=refused
		name=esp_dbx_revoked_kernel_refused ;;
	*) die "unknown case $c (unsigned, db, revoked)" ;;
	esac
	run "$c"
	echo "# $c: $verdict after $secs s (want $want; log $log)"
	log_text "$log" | grep -aE "$REFUSED_RE|Linux version|^prov: |Secure boot|[Ll]ockdown" |
		grep -av 'prov: dmesg: ' | sed 's/^/#   /' | head -n 12
	if [ "$verdict" = "$want" ]; then
		echo "ok $n $name"
		passed=$((passed + 1))
	else
		sed 's/^/#   qemu: /' "$ESP/$c.qemu.err"
		echo "not ok $n $name"
		failed=$((failed + 1))
	fi
done
echo "# esp-test: $passed passed, $failed failed"
[ "$failed" -eq 0 ]
