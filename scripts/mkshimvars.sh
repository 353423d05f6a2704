#!/bin/bash
# Make $BUILD/vars/shim-VARS.fd: the project store (project-VARS.fd: PK, KEK,
# db, dbx enrolled, SecureBoot=1) with the project's MOK certificate
# ($KEYS/mok.der) enrolled the way users do it, through the real shim chain
# (scripts/shim-esp.sh).  Never by writing MokList or MokListRT from the OS:
# MokList is a boot-services-only variable that only MokManager writes here.
#
#   boot 1  shim -> systemd-boot -> the db-signed kernel with the test
#           initramfs, lktest.scenario=mokenroll: the harness runs
#           "mokutil --generate-hash=PASSWORD > F" and "mokutil --import
#           /usr/lib/lktest/keys/mok.der --hash-file F" (MokNew, MokAuth)
#   boot 2  shim sees MokNew and starts MokManager on the serial console;
#           expect drives it: a key at "Press any key", Enroll MOK, Continue,
#           Yes, the password, Reboot (-no-reboot: QEMU exits)
#   boot 3  on a copy of the result: a kernel signed only with the MOK key
#           ($BUILD/bzImage.mok-signed) boots through shim, its console shows
#           "Loading X.509 certificate: UEFI:MokListRT (MOKvar table)" then
#           "Loaded X.509 cert 'Lockdown Test mok: ...'", and the harness
#           (lktest.mokstep=verify) passes
#
# The store is installed only when all three pass.  Serial logs (console;
# KTAP from the second port): $BUILD/vars/shim.*.log.  Skips every boot when the inputs are unchanged.
#   FORCE=1 mkshimvars.sh     enroll again anyway
#   MOK_PASSWORD=...          the MokManager password (default lktest-mok)
set -euo pipefail
HERE=$(cd "$(dirname "$0")" && pwd)
. "$HERE/lib.sh"
. "$HERE/shim-esp.sh"

KERNEL=${KERNEL:-$OBJ/arch/x86/boot/bzImage}
SIGNED=${SIGNED:-$BUILD/bzImage.signed}
MOK_SIGNED=${MOK_SIGNED:-$BUILD/bzImage.mok-signed}
INITRD=${INITRD:-$BUILD/initramfs.img}
SHIM_VARS=${SHIM_VARS:-$BUILD/vars/shim-VARS.fd}
VARS=$(dirname "$SHIM_VARS")
NAME=$(basename "$SHIM_VARS" .fd)
# Logs and work store: $VARS/shim.* for shim-VARS.fd.
P=$VARS/${NAME%-VARS}
WORK=$BUILD/shimwork/$NAME
MOK_PASSWORD=${MOK_PASSWORD:-lktest-mok}
MOK_CERT_GUEST=usr/lib/lktest/keys/mok.der
BOOT_SECS=${BOOT_SECS:-300}
# MokManager: seconds to wait for each prompt (its own countdown is 10 s).
MM_STEP_SECS=${MM_STEP_SECS:-120}
CMDLINE="console=ttyS0 panic=-1 oops=panic rd.shell=0 lktest.scenario=mokenroll"

for f in "$PROJECT_VARS" "$SIGNED" "$KERNEL" "$INITRD" "$KEYS/mok.key" \
	"$KEYS/mok.crt" "$KEYS/mok.der"; do
	[ -s "$f" ] || die "$f missing: run make (mkkeys.sh, mkvars.sh, mkinitramfs.sh)"
done
command -v expect >/dev/null || die "expect missing: run scripts/install-deps.sh"
# dracut --no-compress: the image is a plain cpio archive.
cpio -it --quiet <"$INITRD" 2>/dev/null | grep -x "$MOK_CERT_GUEST" >/dev/null ||
	die "$INITRD has no /$MOK_CERT_GUEST (scripts/mkinitramfs.sh puts it there)"

# --- the kernel signed only with the MOK key ---------------------------------
if sbverify --list "$KERNEL" 2>/dev/null | grep -q 'signature [0-9]'; then
	die "$KERNEL is signed already; the MOK kernel must carry the MOK signature only"
fi
"$HERE/sign-kernel.sh" "$KERNEL" "$MOK_SIGNED" mok

h=$( {
	inputs_hash "$PROJECT_VARS" "$SIGNED" "$MOK_SIGNED" "$INITRD" "$KEYS/mok.der" \
		"$SHIM_EFI" "$SHIM_MM_EFI" "$SHIM_SDBOOT" "$OVMF_CODE_SB" \
		"$HERE/mkshimvars.sh" "$HERE/shim-esp.sh" "$HERE/provision/qemu.sh"
	echo "$MOK_PASSWORD $CMDLINE $SHIM_ESP_MODE"
} | sha256sum | cut -c1-16)
if [ -z "${FORCE:-}" ] && stamp_ok "vars-$NAME" "$h" && [ -s "$SHIM_VARS" ]; then
	msg "$SHIM_VARS is up to date"
	exit 0
fi

mkdir -p "$WORK" "$VARS"
rm -f "$P".*.log "$P".*.log.qemu
store=$P.work.fd
cp "$PROJECT_VARS" "$store"
chmod u+w "$store"

# ktap_ok KTAP LOG WHAT: the harness's KTAP is complete and all ok.
ktap_ok() {
	local ktap=$1 log=$2 what=$3

	sed -n '/^TAP version/,$s/^/  /p' "$ktap" >&2
	grep -q '^not ok' "$ktap" && die "$what: a check failed (see $ktap, $log)"
	grep -qE '^# totals: pass:[1-9][0-9]* fail:0 ' "$ktap" ||
		die "$what: no complete KTAP from the harness (see $ktap, $log)"
}

# --- boot 1: mokutil --import in the guest -----------------------------------
log=$P.1-import.log
shim_esp "$WORK/esp" "$SIGNED" "$INITRD" \
	"$CMDLINE lktest.mokstep=import lktest.mokpw=$MOK_PASSWORD"
rc=0
shim_boot "$BOOT_SECS" "$store" "$log" "$WORK/esp" \
	-serial "file:$P.1-import.ktap.log" || rc=$?
msg "boot 1 (mokutil --import): $SHIM_SECS s, qemu status $rc, log $log"
[ "$rc" -ne 124 ] || die "boot 1 timed out after ${BOOT_SECS}s (see $log)"
ktap_ok "$P.1-import.ktap.log" "$log" "boot 1"

# --- boot 2: MokManager, driven over the serial console ----------------------
log=$P.2-mokmanager.log
cat >"$WORK/mokmanager.exp" <<'EOF'
# expect -f mokmanager.exp -- QEMU COMMAND...: enroll the pending MOK.
# Environment: MM_PASSWORD, MM_STEP_SECS.
log_user 0
# A screen is ~4 KB of box drawing: keep it whole (-d: for the spawned QEMU).
match_max -d 100000
set timeout $env(MM_STEP_SECS)
proc say {s} { puts stderr "mokmanager: $s" }
proc fail {code s} {
	say $s
	catch { exec kill [exp_pid] }
	exit $code
}
# await RE WHAT: the console shows RE before the step timeout.
proc await {re what} {
	expect {
		-re $re { say "saw $what" }
		timeout { fail 2 "no $what within $::timeout s" }
		eof { fail 3 "QEMU ended before $what" }
	}
}
# key BYTES WHAT: send BYTES in one write (an escape sequence must arrive
# whole, or the firmware's terminal reads a lone ESC, which leaves the menu).
proc key {bytes what} {
	sleep 1
	send -- $bytes
	say "sent $what"
}
set down "\033\[B"
spawn -noecho {*}$argv
# One character per byte: MokManager draws its boxes in CP437, which read as
# UTF-8 would merge bytes and make the matches depend on how reads split.
fconfigure $spawn_id -encoding iso8859-1
await {Press any key to perform MOK management} {"Press any key to perform MOK management"}
send -- " "
say "sent a key"
await {Enroll hash from disk} {the menu (Continue boot, Enroll MOK, ...)}
key $down "down"
key "\r" "Enter on \"Enroll MOK\""
await {View key 0} {"[Enroll MOK]": "View key 0"}
await {Continue} {"[Enroll MOK]": "Continue"}
key $down "down"
key "\r" "Enter on \"Continue\""
await {Enroll the key} {"Enroll the key(s)?"}
await {Yes} {"Enroll the key(s)?": "Yes"}
key $down "down"
key "\r" "Enter on \"Yes\""
await {Password} {the password prompt}
sleep 1
foreach c [split $env(MM_PASSWORD) ""] {
	send -- $c
	after 200
}
key "\r" "the password and Enter"
await {Reboot} {"Reboot"}
key "\r" "Enter on \"Reboot\""
expect {
	eof { say "QEMU exited (the reboot, with -no-reboot)" }
	timeout { fail 4 "QEMU still running $::timeout s after Reboot" }
}
catch wait result
exit [lindex $result 3]
EOF
shim_qemu "$store"
SHIM_QEMU+=(-chardev "stdio,id=con,signal=off,logfile=$log" -serial chardev:con
	-drive "$(shim_drive "$WORK/esp")")
t0=$(date +%s.%N)
rc=0
MM_PASSWORD=$MOK_PASSWORD MM_STEP_SECS=$MM_STEP_SECS \
	timeout -k 5 "$BOOT_SECS" expect -f "$WORK/mokmanager.exp" -- "${SHIM_QEMU[@]}" \
	2>"$P.2-mokmanager.expect.log" || rc=$?
sed 's/^/  /' "$P.2-mokmanager.expect.log" >&2
msg "boot 2 (MokManager): $(printf '%.1f' "$(echo "$(date +%s.%N) - $t0" | bc)") s, status $rc, log $log"
[ "$rc" -ne 124 ] || die "boot 2 timed out after ${BOOT_SECS}s (see $log)"
[ "$rc" -eq 0 ] || die "MokManager enrollment failed (status $rc; see $log and $P.2-mokmanager.expect.log)"

# --- boot 3: the MOK-signed kernel, on a copy of the result ------------------
log=$P.3-verify.log
cp "$store" "$P.verify.fd"
shim_esp "$WORK/esp" "$MOK_SIGNED" "$INITRD" "$CMDLINE lktest.mokstep=verify"
rc=0
shim_boot "$BOOT_SECS" "$P.verify.fd" "$log" "$WORK/esp" \
	-serial "file:$P.3-verify.ktap.log" || rc=$?
rm -f "$P.verify.fd"
msg "boot 3 (MOK-signed kernel): $SHIM_SECS s, qemu status $rc, log $log"
[ "$rc" -ne 124 ] || die "boot 3 timed out after ${BOOT_SECS}s (see $log)"
log_text "$log" | grep -aE 'Error loading|Access Denied|Security Violation|Linux version|MOKvar|MokListRT|Lockdown Test mok' |
	sed 's/^/  /' >&2 || true
# The MOK certificate loaded from the MOKvar table: its line follows the
# "Loading ... (MOKvar table)" one.
log_text "$log" | awk '
	/Loading X\.509 certificate: UEFI:MokListRT \(MOKvar table\)/ { table = 1 }
	table && /Loaded X\.509 cert .Lockdown Test mok: / { found = 1 }
	END { exit !found }' ||
	die "boot 3: no \"Loaded X.509 cert 'Lockdown Test mok: ...'\" after \"Loading X.509 certificate: UEFI:MokListRT (MOKvar table)\" (see $log)"
ktap_ok "$P.3-verify.ktap.log" "$log" "boot 3"

mv "$store" "$SHIM_VARS"
stamp_set "vars-$NAME" "$h"
msg "made $SHIM_VARS: the project store with the MOK 'Lockdown Test mok' enrolled by MokManager"
