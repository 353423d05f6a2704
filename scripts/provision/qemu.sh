# QEMU + OVMF Secure Boot helpers for the host-side scripts.  Sourced after
# lib.sh, not run.
# shellcheck shell=bash

OVMF_CODE_SB=${OVMF_CODE_SB:-/usr/share/OVMF/OVMF_CODE_4M.secboot.fd}
OVMF_VARS_EMPTY=${OVMF_VARS_EMPTY:-/usr/share/OVMF/OVMF_VARS_4M.fd}
# The store with the project's keys enrolled (made by scripts/mkvars.sh).
# Read-only: copy it for every run.
PROJECT_VARS=${PROJECT_VARS:-$BUILD/vars/project-VARS.fd}
KEYS=${KEYS:-$BUILD/keys}

# qemu_sb SECS VARS LOG [QEMU ARGS...]: boot the OVMF Secure Boot firmware
# (SMM, secure pflash; without smm=on it hangs silently) with the writable
# variable store VARS, firmware and guest console on the serial port into LOG.
# Killed after SECS seconds (status 124).  TCG only: KVM cannot run OVMF here.
qemu_sb() {
	local secs=$1 vars=$2 log=$3
	shift 3
	: >"$log"
	timeout -k 5 "$secs" qemu-system-x86_64 \
		-accel tcg -machine q35,smm=on -smp 1 -m 512M \
		-nodefaults -no-user-config -display none -monitor none \
		-no-reboot \
		-global driver=cfi.pflash01,property=secure,value=on \
		-drive if=pflash,format=raw,unit=0,readonly=on,file="$OVMF_CODE_SB" \
		-drive if=pflash,format=raw,unit=1,file="$vars" \
		-serial file:"$log" "$@"
}

# log_text LOG: the serial log without CRs and ANSI escapes.
log_text() {
	tr -d '\r' <"$1" | sed 's/\x1b\[[0-9;?]*[A-Za-z]//g; s/\x1b[()][A-Z0-9]//g'
}
