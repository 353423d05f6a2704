#!/bin/bash
# Boot one scenario of the test matrix (DESIGN.md) in QEMU and judge it.
#
#   scripts/boot.sh SCENARIO
#
# The guest's harness writes KTAP to the second serial port
# ($LOGS/SCENARIO.ktap); the kernel console goes to the first
# ($LOGS/SCENARIO.console). Exit status 0 only when the KTAP is complete
# and all ok, and the console shows no BUG, WARNING, Oops, panic or
# Call Trace. A summary "SCENARIO PASS FAIL TOTAL SECONDS" is written to
# $LOGS/SCENARIO.result.
set -euo pipefail
. "$(dirname "$0")/lib.sh"

scenario=${1:?usage: boot.sh SCENARIO}
LOGS=${LOGS:-$BUILD/logs}
KERNEL=${KERNEL:-$OBJ/arch/x86/boot/bzImage}
INITRD=${INITRD:-$BUILD/initramfs.img}
TIMEOUT=${TIMEOUT:-300}
OVMF_CODE=/usr/share/OVMF/OVMF_CODE_4M.secboot.fd
# scripts/bench.sh boots other stores and kernels (stock, big key store).
PROJECT_VARS=${PROJECT_VARS:-$BUILD/vars/project-VARS.fd}
SIGNED_KERNEL=${SIGNED_KERNEL:-$BUILD/bzImage.signed}

base_cmdline="console=ttyS0 panic=-1 oops=panic msr.allow_writes=on rd.shell=0 lktest.scenario=$scenario"
firmware=bios
extra=
case "$scenario" in
open|runtime)	;;
integrity)	extra="lockdown=integrity" ;;
confidentiality) extra="lockdown=confidentiality" ;;
emulated)	extra="secureboot_enable=1" ;;
sbparam_0)	extra="secureboot_enable=0" ;;
sbparam_yes)	extra="secureboot_enable=yes" ;;
sbparam_2)	extra="secureboot_enable=2" ;;
sbparam_empty)	extra="secureboot_enable=" ;;
sbparam_long)	extra="secureboot_enable=$(printf 'x%.0s' {1..300})" ;;
ldparam_foo)	extra="lockdown=foo" ;;
ldparam_empty)	extra="lockdown=" ;;
ldparam_long)	extra="lockdown=$(printf 'y%.0s' {1..300})" ;;
race|race_writers) ;;
firmware|demo)	firmware=secureboot ;;
baddb)		firmware=secureboot PROJECT_VARS=$BUILD/vars/baddb-VARS.fd ;;
setupmode)	firmware=setupmode ;;
bench_none)	;;
bench_integrity) extra="lockdown=integrity" ;;
bench_keys)	firmware=secureboot extra="initcall_debug nokaslr log_buf_len=1M" ;;
*)		die "unknown scenario '$scenario'" ;;
esac

mkdir -p "$LOGS"
console=$LOGS/$scenario.console
ktap=$LOGS/$scenario.ktap
rm -f "$console" "$ktap" "$LOGS/$scenario.result"

qemu=(qemu-system-x86_64 -m 512 -smp 1 -display none -monitor none
	-no-reboot -serial "file:$console" -serial "file:$ktap"
	-device pci-testdev -initrd "$INITRD")
case $firmware in
bios)
	qemu+=(-machine q35 -accel "${ACCEL:-$("$TOP/scripts/accel.sh" "$KERNEL")}" -kernel "$KERNEL")
	;;
secureboot|setupmode)
	# OVMF's Secure Boot build needs SMM, which KVM cannot give here.
	vars=$LOGS/$scenario-VARS.fd
	if [ $firmware = secureboot ]; then
		[ -f "$PROJECT_VARS" ] ||
			die "$PROJECT_VARS missing: run scripts/mkvars.sh (or mkstore.sh)"
		cp "$PROJECT_VARS" "$vars"
		[ -f "$SIGNED_KERNEL" ] && KERNEL=$SIGNED_KERNEL
	else
		cp /usr/share/OVMF/OVMF_VARS_4M.fd "$vars"
	fi
	qemu+=(-machine q35,smm=on -accel tcg
		-global driver=cfi.pflash01,property=secure,value=on
		-drive "if=pflash,format=raw,unit=0,readonly=on,file=$OVMF_CODE"
		-drive "if=pflash,format=raw,unit=1,file=$vars"
		-kernel "$KERNEL")
	;;
esac

start=$(date +%s.%N)
set +e
timeout "$TIMEOUT" "${qemu[@]}" -append "$base_cmdline $extra" >"$LOGS/$scenario.qemu" 2>&1
rc=$?
set -e
secs=$(printf '%.1f' "$(echo "$(date +%s.%N) - $start" | bc)")

problems=()
[ $rc -eq 124 ] && problems+=("timed out after ${TIMEOUT}s")
[ $rc -ne 0 ] && [ $rc -ne 124 ] && problems+=("qemu exited $rc: $(tail -1 "$LOGS/$scenario.qemu")")
# Any report fails the boot: BUG, WARNING, Oops, panic, a trace, and what
# the debug kernel (make check-debug) adds: UBSAN ("UBSAN: shift-out-of-
# bounds in ..."), KASAN and KFENCE ("BUG: KASAN: ...", "BUG: KFENCE: ..."),
# lockdep ("WARNING: possible circular locking dependency detected",
# "INFO: trying to register non-static key", ...), DEBUG_LIST ("list_add
# corruption") and DEBUG_LOCKS_WARN_ON.
reports='BUG:|WARNING:|Oops|Kernel panic|Call Trace|UBSAN:|KASAN:|KFENCE:'
reports+='|possible circular locking|possible recursive locking|inconsistent lock state'
reports+='|INFO: |list_(add|del) corruption|DEBUG_LOCKS_WARN_ON'
if bad=$(grep -aE "$reports" "$console" | head -3) &&
   [ -n "$bad" ]; then
	problems+=("kernel reported: $bad")
fi

pass=0 fail=0 total=0
if [ -s "$ktap" ]; then
	json=$LOGS/$scenario.json
	python3 "$SRC/tools/testing/kunit/kunit.py" parse --json="$json" \
		<"$ktap" >"$LOGS/$scenario.parsed" 2>&1 || true
	read -r pass fail total < <(python3 "$TOP/scripts/ktap-count.py" "$json")
	[ "$total" -gt 0 ] || problems+=("KTAP has no results")
else
	problems+=("no KTAP from the guest")
fi

for p in "${problems[@]}"; do
	msg "$scenario: $p"
done
[ ${#problems[@]} -eq 0 ] && ok=1 || ok=0
echo "$scenario $pass $fail $total $secs $ok" >"$LOGS/$scenario.result"
[ "$fail" -eq 0 ] && [ $ok -eq 1 ]
