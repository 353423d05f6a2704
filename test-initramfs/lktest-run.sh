#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# lktest-run: the in-guest lockdown test harness.
#
# Reads lktest.scenario=NAME from /proc/cmdline, runs that scenario's plan
# ($PLANS/NAME.plan: a table of checks, one per line: "CHECK ARGS...
# EXPECTATION"; see "plans" below) and prints KTAP to /dev/ttyS1, the
# second serial port, so that it never interleaves with kernel messages on
# the console (ttyS0).  The console gets a short copy of each result.
#
# A check is a shell function check_NAME: it prints what it did (those
# lines become "# " diagnostics) and returns 0 for pass, 1 for fail, or 77
# for a test that cannot apply here (its last "SKIP: reason" line says why).
# To add a check, write check_NAME; to add a scenario, write
# test-initramfs/plans/NAME.plan (scripts/plan-check.sh checks the plans).

LOCKDOWN=/sys/kernel/security/lockdown
EFIVARS=/sys/firmware/efi/efivars
EFI_GLOBAL=8be4df61-93ca-11d2-aa0d-00e098032b8c
SHIM_GUID=605dab50-e046-4300-abb6-3dd810dd8b23	# shim's MOK variables
LKTEST_GUID=9b2a6f5e-0c1d-4f3a-8e7b-6c4b4c4b5454	# root's own variables
KEYDIR=/usr/lib/lktest/keys	# public certificates (scripts/mkinitramfs.sh)
HOSTFILES=/lktest-files	# files scripts/boot.sh appends to the initramfs
MODDIR=/usr/lib/lktest/modules
PLANS=${LKTEST_PLANS:-/usr/lib/lktest/plans}	# test-initramfs/plans
MSR=0xc0000103			# MSR_TSC_AUX: rewriting its value is harmless
PCIDEV=0000:00:00.0		# the q35 host bridge
PCIREG=0x3c			# Interrupt Line: a scratch register for software
POLICIES=/usr/lib/lktest/policies	# signed owner policies (scripts/mkpolicies.sh)
POLICY_STATUS=/sys/kernel/security/lockdown_policy_status
REFUSALS=/sys/kernel/security/lockdown_refusals
TPM_COUNTER=0x01800001		# the counter the policies name (mkpolicies.sh)
export TPM2TOOLS_TCTI=device:/dev/tpmrm0
KTAP=${LKTEST_KTAP:-/dev/ttyS1}
SWAP=/dev/vda			# the swap disk of scripts/boot.sh's swapdisk=1
HIBDIR=/run/lktest-hib		# a tmpfs the resumed session must bring back
HIB_COUNTER=0x01804c48		# CONFIG_SECURITY_LOCKDOWN_HIBERNATION_COUNTER

# Messages of the errno values the real tools print as text.
declare -A ERRTEXT=(
	[EPERM]="Operation not permitted"
	[EACCES]="Permission denied"
	[EINVAL]="Invalid argument"
	[EIO]="Input/output error"
	[ENOKEY]="Required key not available"
	[EKEYREJECTED]="Key was rejected by service"
	[EBADMSG]="Bad message"
)

# cmd CMD...: run CMD, show it and its output; output in $OUT, status in $RC.
cmd() {
	OUT=$("$@" 2>&1)
	RC=$?
	echo "\$ $* -> exit $RC"
	[ -n "$OUT" ] && printf '%s\n' "$OUT"
	return $RC
}

# expect_tool E: judge a real tool from $RC and $OUT: "ok" wants exit 0,
# an errno name wants a failure that prints that errno's message.
expect_tool() {
	local text=${ERRTEXT[$1]}

	if [ "$1" = ok ]; then
		[ "$RC" -eq 0 ] && return 0
		echo "expected success, got exit $RC"
		return 1
	fi
	[ -n "$text" ] || { echo "no message known for $1"; return 1; }
	if [ "$RC" -ne 0 ] && grep -qF "$text" <<<"$OUT"; then
		echo "refused with '$text' as expected"
		return 0
	fi
	echo "expected failure with '$text'"
	return 1
}

# --- checks -----------------------------------------------------------------

# level WORD: the lockdown file lists the three levels with WORD bracketed.
check_level() {
	local want="" l got

	for l in none integrity confidentiality; do
		[ "$l" = "$1" ] && l="[$l]"
		want+="${want:+ }$l"
	done
	got=$(cat "$LOCKDOWN" 2>&1)
	echo "$LOCKDOWN: '$got' (expected '$want')"
	[ "$got" = "$want" ]
}

# selftests: the tree's lockdown selftests (tools/testing/selftests/
# lockdown) through kselftest's runner; they read the level themselves.
# Passes when the suite ran and no test failed.
check_selftests() {
	cmd /usr/lib/kselftest/run_kselftest.sh
	grep -q '^ok 1 selftests: lockdown: lockdown_test$' <<<"$OUT" &&
		! grep -q 'not ok' <<<"$OUT"
}

# rdmsr E: msr-tools rdmsr of MSR on CPU 0.
check_rdmsr() {
	cmd rdmsr -p0 "$MSR"
	expect_tool "$1"
}

# wrmsr E [REG]: msr-tools wrmsr writes back the value rdmsr read from REG
# (default $MSR); read back.
check_wrmsr() {
	local reg=${2:-$MSR} val after

	cmd rdmsr -p0 "$reg" || { echo "rdmsr failed"; return 1; }
	val=$OUT
	cmd wrmsr -p0 "$reg" "0x$val"
	expect_tool "$1" || return 1
	after=$(rdmsr -p0 "$reg")
	echo "read back 0x$after"
	[ "$after" = "$val" ]
}

# wrmsr_xor E BITS: msr-tools wrmsr writes $MSR's value with BITS flipped;
# allowed, the new value reads back and the old one is written again (a
# second allowed write); refused, the old value stays.
check_wrmsr_xor() {
	local val new after

	cmd rdmsr -p0 "$MSR" || { echo "rdmsr failed"; return 1; }
	val=$((0x$OUT))
	new=$(printf '0x%x' $((val ^ $2)))
	cmd wrmsr -p0 "$MSR" "$new"
	expect_tool "$1" || return 1
	after=$(printf '0x%x' $((0x$(rdmsr -p0 "$MSR"))))
	echo "wrote $new over $(printf '0x%x' "$val"); reads $after"
	if [ "$1" = ok ]; then
		[ "$after" = "$new" ] || return 1
		cmd wrmsr -p0 "$MSR" "$(printf '0x%x' "$val")"
		return
	fi
	[ "$after" = "$(printf '0x%x' "$val")" ]
}

# new_window REPORT EXPECT: start a new window of the report limit (10 in
# 5 s) that writes of $MSR's own value (lktest-storm, --expect EXPECT)
# share.  11 writes at once are more than any window has room for: at
# least one is held back, so the next write logged carries REPORT, the
# line saying how many were held back, and is the first of a new window,
# with 9 left in it.  Polled every 0.25 s, for at most 80 writes (the
# window counts jiffies, and a guest short of timer ticks counts slowly).
new_window() {
	local report=$1 expect=$2 mark n

	lktest-storm -n 11 --msr "$MSR" --expect "$expect" >/dev/null ||
		{ echo "11 writes did not all give $expect"; return 1; }
	for ((n = 1; n <= 80; n++)); do
		mark=$(dmesg | wc -l)
		lktest-storm -n 1 --msr "$MSR" --expect "$expect" >/dev/null ||
			{ echo "a write did not give $expect"; return 1; }
		if dmesg | tail -n +$((mark + 1)) | grep -qF -- "$report"; then
			echo "a new report window after $n writes"
			return 0
		fi
		sleep 0.25
	done
	echo "no new report window after $((n - 1)) writes"
	return 1
}

# audit_allowed TEXT...: with audit on (no daemon: the kernel prints each
# record), msr-tools wrmsr writes $MSR's value back, which the owner policy
# allows; the audit record of that allowed write has each TEXT.  The record
# shares the owner policy's report limit (10 per 5 s) with the console
# line, and printk's own limit applies to records no daemon reads: the
# write is tried again each second until a record with TEXT 2 shows.
check_audit_allowed() {
	local rec= try t

	lktest-audit enable >/dev/null || { echo "cannot enable audit"; return 1; }
	for try in 0 1 2 3 4 5 6 7 8 9 10 11; do
		check_wrmsr ok >/dev/null || { echo "allowed write failed"; return 1; }
		sleep 0.5
		rec=$(dmesg | grep -F "lsm=lockdown allowed" | grep -F -- "$2" |
			tail -n 1)
		[ -n "$rec" ] && break
		sleep 0.5
	done
	echo "${rec:-no allowed-access record has '$2'} (after $((try + 1)) writes)"
	for t in "$@"; do
		grep -qF -- "$t" <<<"$rec" || { echo "record lacks '$t'"; return 1; }
	done
}

# allowed_burst N: lktest-storm writes $MSR's own value N times at once,
# each allowed by the owner policy, at the start of a report window
# (new_window); then one write every 0.25 s until one is logged again,
# whose report says how many were held back since the last one.  The
# burst's logged writes plus the held-back count (less the probes that
# were themselves held back) add up to N, and some of the burst was held
# back.
check_allowed_burst() {
	local mark n=0 burst logged held=0 h

	new_window "more allowed accesses were not logged" ok || return 1
	mark=$(dmesg | wc -l)
	cmd lktest-storm -n "$1" --msr "$MSR" --expect ok || return 1
	burst=$(dmesg | tail -n +$((mark + 1)) | grep -cF " allows wrmsr ")
	logged=$burst
	while [ $n -lt 80 ] && [ "$logged" -eq "$burst" ]; do
		sleep 0.25
		n=$((n + 1))
		lktest-storm -n 1 --msr "$MSR" --expect ok >/dev/null || return 1
		logged=$(dmesg | tail -n +$((mark + 1)) | grep -cF " allows wrmsr ")
	done
	dmesg | tail -n +$((mark + 1)) | grep -F "Lockdown: " | tail -n 4
	for h in $(dmesg | tail -n +$((mark + 1)) |
		sed -n 's/.*Lockdown: \([0-9]*\) more allowed accesses were not logged.*/\1/p'); do
		held=$((held + h))
	done
	echo "burst of $1: $burst logged; then $n probes, the last logged, reporting $held held back ($((held - n + 1)) of the burst)"
	[ "$logged" -eq $((burst + 1)) ] && [ $((held - n + 1)) -gt 0 ] &&
		[ $((burst + held - n + 1)) -eq "$1" ]
}

# msr OP E: lktest-msr read|pwrite|ioctl-read|ioctl-write.
check_msr() {
	cmd lktest-msr "$1" --msr "$MSR" --expect "$2"
}

# caps E: open the MSR device, drop every capability, write through the fd.
check_caps() {
	cmd lktest-caps --msr "$MSR" --expect "$1"
}

# ioport OP [ARGS...] E: lktest-ioport ioperm [FROM [NUM]]|iopl|
# devport-open|devport-write.
check_ioport() {
	cmd lktest-ioport "${@:1:$#-1}" --expect "${!#}"
}

# isadump E [ADDR DATA]: lm-sensors' isadump reads the 256 registers behind
# the index/data port pair ADDR DATA (default 0x70 0x71, the CMOS RTC)
# after ioperm() of each port.  It names the call that failed, not the
# errno (lktest-ioport checks that): refused is its ioperm() message.
check_isadump() {
	cmd isadump -y "${2:-0x70}" "${3:-0x71}"
	if [ "$1" = ok ]; then
		expect_tool ok || return 1
		grep -q '^00: ' <<<"$OUT" || { echo "no register dump"; return 1; }
		return
	fi
	if [ "$RC" -ne 0 ] && grep -qF "Could not ioperm()" <<<"$OUT"; then
		echo "refused at ioperm() as expected"
		return 0
	fi
	echo "expected isadump to fail at ioperm()"
	return 1
}

# devport_dd E [PORT]: dd reads PORT (default 0x80) through /dev/port and
# writes it back.
check_devport_dd() {
	local port=$((${2:-0x80}))

	cmd dd if=/dev/port of=/tmp/port bs=1 skip="$port" count=1
	expect_tool "$1" || return 1
	[ -s /tmp/port ] || printf '\0' >/tmp/port
	cmd dd if=/tmp/port of=/dev/port bs=1 seek="$port" count=1 conv=notrunc
	expect_tool "$1"
}

# open PATH MODE E: lktest-open, for files refused at open.
check_open() {
	cmd lktest-open "$1" "$2" --expect "$3"
}

# pci_find VENDOR DEVICE: the sysfs name of the first such PCI device.
pci_find() {
	local d

	for d in /sys/bus/pci/devices/*; do
		[ "$(cat "$d/vendor")" = "$1" ] && [ "$(cat "$d/device")" = "$2" ] &&
			{ echo "${d##*/}"; return 0; }
	done
	return 1
}

# pci OP E [OFFSET]: lktest-pci config-read|config-write|proc-read|
# proc-write|mmap, at OFFSET (default $PCIREG).
# mmap uses QEMU's pci-testdev (1b36:0005) when present, else the first
# device with a memory BAR.
check_pci() {
	local dev=(--dev "$PCIDEV") testdev

	if [ "$1" = mmap ]; then
		dev=()
		testdev=$(pci_find 0x1b36 0x0005) && dev=(--dev "$testdev")
	fi
	cmd lktest-pci "$1" "${dev[@]}" --offset "${3:-$PCIREG}" --expect "$2"
}

# setpci_read E: pciutils reads the vendor ID of the host bridge.
check_setpci_read() {
	cmd setpci -s "$PCIDEV" VENDOR_ID.w
	expect_tool "$1" || return 1
	[ "$1" != ok ] || [[ $OUT =~ ^[0-9a-f]{4}$ ]]
}

# setpci_write E [REG]: pciutils writes a different value to the Interrupt
# Line register (or REG).  setpci exits 0 even when the kernel refuses (pcilib only
# warns), so judge by the warning and by reading the register back:
# allowed means no warning and the new value, then the old one restored;
# refused means the errno's message in the warning and the old value.
check_setpci_write() {
	local old new back text=${ERRTEXT[$1]} PCIREG=${2:-$PCIREG}

	cmd setpci -s "$PCIDEV" "$PCIREG.b" || return 1
	old=$OUT
	new=$(printf '%02x' $((0x$old ^ 0x5a)))
	cmd setpci -s "$PCIDEV" "$PCIREG.b=$new"
	local warn=$OUT
	back=$(setpci -s "$PCIDEV" "$PCIREG.b")
	echo "register $PCIREG: was $old, wrote $new, reads $back"
	if [ "$1" = ok ]; then
		cmd setpci -s "$PCIDEV" "$PCIREG.b=$old"
		[ -z "$warn" ] && [ "$back" = "$new" ] && [ -z "$OUT" ] &&
			[ "$(setpci -s "$PCIDEV" "$PCIREG.b")" = "$old" ]
		return
	fi
	[ -n "$text" ] && grep -qF "$text" <<<"$warn" && [ "$back" = "$old" ]
}

# lspci E: pciutils lists the devices.
check_lspci() {
	cmd lspci -n
	expect_tool "$1" || return 1
	[ "$1" != ok ] || [ -n "$OUT" ]
}

# insmod NAME E: kmod loads $MODDIR/NAME.ko; when it loaded, rmmod it.
check_insmod() {
	local ko=$MODDIR/$1.ko

	[ -f "$ko" ] || { echo "$ko: missing from the initramfs"; return 1; }
	cmd insmod "$ko"
	expect_tool "$2" || { rmmod "$1" 2>/dev/null; return 1; }
	if [ "$2" = ok ]; then
		grep -q "^$1 " /proc/modules || { echo "$1 not in /proc/modules"; return 1; }
		dmesg | grep -F "lktest: $1 loaded" | tail -n 1 | grep . ||
			{ echo "no 'lktest: $1 loaded' in dmesg"; return 1; }
		cmd rmmod "$1" || return 1
	elif grep -q "^$1 " /proc/modules; then
		echo "$1 is loaded although insmod failed"
		return 1
	fi
	return 0
}

# modload NAME E: lktest-modload gives the exact errno of finit_module().
check_modload() {
	local ko=$MODDIR/$1.ko

	[ -f "$ko" ] || { echo "$ko: missing from the initramfs"; return 1; }
	cmd lktest-modload "$ko" "$1" --expect "$2"
}

# capsh_full: capsh sees a full capability set.
check_capsh_full() {
	cmd capsh --print || return 1
	grep -qx 'Current: =ep' <<<"$OUT"
}

# securityfs CASE E: one write to the lockdown file, level checked.
check_securityfs() {
	cmd lktest-securityfs "$1" --expect "$2"
}

# race MODE ARGS...: lktest-race, guarded operations racing a raise of the
# level ("raise") or securityfs writers racing each other ("writers"); it
# checks every operation's result against the raise's time itself.
check_race() {
	cmd lktest-race "$@"
}

# storm N E MIN MAX: N MSR writes all give E, the kernel logs between
# MIN and MAX denial lines for them, and lockdown_denials counts all N.
# With E = EPERM the storm starts a report window (new_window), so that a
# working limit (10 in 5 s) shows as "some, not all", and the next denial
# logged after the window must say how many the limit held back.
check_storm() {
	local pat='raw MSR access is restricted' before after rc held line

	local c0 c1

	if [ "$2" = EPERM ]; then
		new_window "more denials of raw MSR access were not logged" \
			EPERM || return 1
	fi
	before=$(dmesg | grep -c "$pat")
	c0=$(denials "raw MSR access")
	cmd lktest-storm -n "$1" --msr "$MSR" --expect "$2"
	rc=$RC
	after=$(dmesg | grep -c "$pat")
	c1=$(denials "raw MSR access")
	echo "'$pat' lines in dmesg: $before before, $after after: $((after - before)) new (expected $3..$4)"
	echo "lockdown_denials 'raw MSR access': $c0 before, $c1 after: $((c1 - c0)) counted (expected $1)"
	[ "$rc" -eq 0 ] && [ $((after - before)) -ge "$3" ] &&
		[ $((after - before)) -le "$4" ] && [ $((c1 - c0)) -eq "$1" ] || return 1
	[ "$2" = EPERM ] || return 0
	held=$((c1 - c0 - (after - before)))
	# One denial every 0.25 s until the window is over: each one inside
	# it is held back too, and adds one to the number the report gives.
	for ((try = 0; try < 80; try++)); do
		line="Lockdown: $((held + try)) more denials of raw MSR access were not logged"
		lktest-storm -n 1 --msr "$MSR" --expect EPERM >/dev/null || return 1
		dmesg | grep -qF "$line" && break
		sleep 0.25
	done
	echo "$try denials held back after the storm, before the window ended"
	dmesg | grep -F "more denials of raw MSR access" | tail -n 1
	dmesg | grep -qF "$line" || { echo "missing: '$line'"; return 1; }
}

# last_audit_serial: the serial of the newest audit record the log shows.
last_audit_serial() {
	dmesg | sed -n 's/.* audit([0-9.]*:\([0-9]*\)).*/\1/p' | tail -n 1
}

# audit_serial: the serial of the newest audit record in the kernel log.
# "lktest-audit enable" writes a CONFIG_CHANGE record; with no audit daemon
# the kernel prints it, within printk's rate limit (10 in 5 s): written
# again each second until one shows, for at most 20 s.  A record held back
# still took a serial, which only makes the count between two serials
# larger (by at most 5 here, for a window of 5 s), never smaller.
audit_serial() {
	local last new try

	last=$(last_audit_serial)
	for ((try = 0; try < 40; try++)); do
		((try % 2)) || lktest-audit enable >/dev/null || return 1
		sleep 0.5
		new=$(last_audit_serial)
		[ -n "$new" ] && [ "$new" != "$last" ] && break
	done
	echo "$new"
}

# probe_storm N: an unprivileged user (uid 1000, setpriv) reads
# /sys/power/state N times; each read asks lockdown about hibernation.
# Every denial is counted, but the console lines and the audit records
# (audit switched on, no daemon: every record takes a serial number) stay
# within the per-reason rate limit: 10 per 5 s, and a margin of 20.
check_probe_storm() {
	local pat='hibernation is restricted' l0 l1 c0 c1 s0 s1 t0 secs max

	s0=$(audit_serial) && [ -n "$s0" ] || { echo "no audit record serial"; return 1; }
	l0=$(dmesg | grep -c "$pat")
	c0=$(denials hibernation)
	t0=$SECONDS
	cmd setpriv --reuid=1000 --regid=1000 --clear-groups \
		lktest-readloop /sys/power/state "$1" || return 1
	secs=$((SECONDS - t0 + 1))
	l1=$(dmesg | grep -c "$pat")
	c1=$(denials hibernation)
	s1=$(audit_serial) && [ -n "$s1" ] || { echo "no audit record serial"; return 1; }
	cmd lktest-audit status
	max=$((10 * (secs / 5 + 1) + 20))
	echo "$1 reads in about $secs s: at most $max reports allowed"
	echo "'$pat' lines: $((l1 - l0)) new"
	echo "audit records: $((s1 - s0 - 1)) (serials $s0 -> $s1)"
	echo "lockdown_denials hibernation: $((c1 - c0)) counted (at least $1)"
	[ $((l1 - l0)) -le "$max" ] && [ $((s1 - s0 - 1)) -le "$max" ] &&
		[ $((c1 - c0)) -ge "$1" ]
}

# policy NAME E: lktest-policy writes $POLICIES/NAME.policy to
# lockdown_policy in one write; refused, the serial in force must stay.
check_policy() {
	cmd lktest-policy "$POLICIES/$1.policy" --expect "$2" || return 1
	dmesg | grep -F "lockdown: " | grep -E "policy|owner" | tail -n 1
}

# ioperm_outlives FROM NUM NAME: a task holds ioperm(FROM, NUM) while
# $POLICIES/NAME.policy, which no longer allows those ports, is installed;
# then the task and a child it forks still use them (lktest-ioport hold).
check_ioperm_outlives() {
	local go=/tmp/lktest-go out=/tmp/lktest-hold pid prc i

	rm -f "$go" "$out"
	lktest-ioport hold "$1" "$2" "$go" --expect ok >"$out" 2>&1 &
	pid=$!
	for ((i = 0; i < 100; i++)); do
		grep -q granted "$out" 2>/dev/null && break
		sleep 0.1
	done
	cmd lktest-policy "$POLICIES/$3.policy" --expect ok
	prc=$RC
	: >"$go"
	wait "$pid"
	RC=$?
	cat "$out"
	[ "$prc" -eq 0 ] && [ "$RC" -eq 0 ]
}

# policy_cat NAME E: the owner's way, "cat NAME.policy > lockdown_policy".
check_policy_cat() {
	cmd sh -c "cat $POLICIES/$1.policy >/sys/kernel/security/lockdown_policy"
	expect_tool "$2"
}

# policy_status LINE...: lockdown_policy_status has each LINE, whole.
check_policy_status() {
	local l

	cmd cat "$POLICY_STATUS" || return 1
	for l in "$@"; do
		grep -qxF -- "$l" <<<"$OUT" || { echo "missing line '$l'"; return 1; }
	done
}

# tpm_define KIND: NV index $TPM_COUNTER defined with tpm2_nvdefine, as
# the owner does once (counter: nt=counter, read and incremented with its
# own empty authorization), or as root forges it: an ordinary or a
# bit-field index, whose value root writes, or a counter the kernel cannot
# use with its own authorization (owner hierarchy only).
check_tpm_define() {
	local attrs

	case $1 in
	counter) attrs="authread|authwrite|nt=counter|no_da" ;;
	ordinary) attrs="authread|authwrite|no_da" ;;
	bits) attrs="authread|authwrite|nt=bits|no_da" ;;
	ownercounter) attrs="ownerread|ownerwrite|nt=counter|no_da" ;;
	*) echo "unknown index kind '$1'"; return 1 ;;
	esac
	cmd tpm2_nvdefine "$TPM_COUNTER" -C o -s 8 -a "$attrs"
}

# tpm_undefine: root deletes the index.
check_tpm_undefine() {
	cmd tpm2_nvundefine "$TPM_COUNTER" -C o
}

# tpm_clear: root clears the TPM with the empty lockout authorization
# most machines have: every index of the owner hierarchy is gone.
check_tpm_clear() {
	cmd tpm2_clear -c l
}

# tpm_zero: root writes eight zero bytes into the (ordinary) index.
check_tpm_zero() {
	cmd sh -c "head -c 8 /dev/zero | tpm2_nvwrite $TPM_COUNTER -C $TPM_COUNTER -i -"
}

# tpm_counter N: the counter reads N, through tpm2_nvread.
check_tpm_counter() {
	local v

	cmd sh -c "tpm2_nvread $TPM_COUNTER -C $TPM_COUNTER -s 8 | od -An -tu8 --endian=big" ||
		return 1
	v=$(tr -d ' \n' <<<"$OUT")
	echo "counter $TPM_COUNTER: $v (expected $1)"
	[ "$v" = "$1" ]
}

# dmesg_count PATTERN MIN MAX: lines of the kernel log containing PATTERN.
check_dmesg_count() {
	local n

	n=$(dmesg | grep -cF -- "$1")
	dmesg | grep -F -- "$1" | tail -n 3
	echo "'$1' in dmesg: $n lines (expected $2..$3)"
	[ "$n" -ge "$2" ] && [ "$n" -le "$3" ]
}

# refused TEXT...: the newest refusal in lockdown_refusals has every TEXT.
check_refused() {
	local last t

	cmd cat "$REFUSALS" || return 1
	last=$(tail -n 1 <<<"$OUT")
	for t; do
		grep -qF -- "$t" <<<"$last" || { echo "no '$t' in the newest"; return 1; }
	done
}

# draft_policy SERIAL RULE...: lockdown-status --draft-policy prints a
# policy for this machine (the SHA-256 of PK as the guide computes it)
# with serial SERIAL and exactly the rules RULE..., in printable ASCII
# only.  Its lines are printed "draft| LINE": scripts/owner-workflow.sh
# takes them from the KTAP to sign them.
check_draft_policy() {
	local pk rules want=$1

	shift
	lockdown-status --draft-policy >/tmp/draft 2>/tmp/draft.err
	RC=$?
	sed 's/^/draft| /' /tmp/draft
	cat /tmp/draft.err
	[ "$RC" -eq 0 ] || { echo "lockdown-status --draft-policy exited $RC"; return 1; }
	if LC_ALL=C grep -n '[^ -~]' /tmp/draft; then
		echo "the draft has bytes other than printable ASCII"
		return 1
	fi
	# The guide's command: efivarfs cannot seek, so tail reads a pipe.
	# shellcheck disable=SC2002
	pk=$(cat "$EFIVARS/PK-$EFI_GLOBAL" | tail -c +5 | sha256sum | cut -d' ' -f1)
	grep -qxF "machine pk-sha256:$pk" /tmp/draft || { echo "not for PK $pk"; return 1; }
	grep -qxF "serial $want" /tmp/draft || { echo "not serial $want"; return 1; }
	rules=$(grep -v -e '^#' -e '^lockdown-policy ' -e '^machine ' -e '^serial ' \
		-e '^counter ' /tmp/draft)
	[ "$rules" = "$(printf '%s\n' "$@")" ] ||
		{ echo "expected the rules:"; printf '%s\n' "$@"; return 1; }
}

# forged_comm: root names a program (a link to lktest-ioport) with a
# byte above 0x7e, a newline and a rule's text, and has iopl() refused:
# the record escapes the newline, and the draft (draft_policy) must not
# turn the name into a line or carry the byte.
check_forged_comm() {
	local link=/tmp/$'\xff\nmsr write 0x1b' last

	ln -sf /usr/bin/lktest-ioport "$link" || return 1
	"$link" iopl --expect EPERM >/dev/null 2>&1
	RC=$?
	echo "iopl() by a program named 0xff, newline, 'msr write 0x1b': exit $RC"
	[ "$RC" -eq 0 ] || return 1
	# The byte goes to the KTAP as '?': its parser wants UTF-8.
	last=$(tail -n 1 "$REFUSALS")
	printf 'newest refusal: %s\n' "$last" | LC_ALL=C tr -c '\n -~' '?'
	[[ $last == *'reason "raw io port access" comm '?'\nmsr write 0x1' ]]
}

# policy_host NAME E: the owner's way, "cat NAME > lockdown_policy", with
# a policy the host signed during the scenario ($HOSTFILES/NAME).
check_policy_host() {
	cmd sh -c "cat $HOSTFILES/$1 >/sys/kernel/security/lockdown_policy"
	expect_tool "$2"
}

# refusals_overflow: 20 refusals of 20 ports (lktest-ioport) overflow the
# record: it keeps the newest 16, in order, and counts the others as
# dropped; the same refusal again is counted on the newest entry, which
# keeps the time and pid of the first.
check_refusals_overflow() {
	local before lines after want i first

	before=$(sed -n 's/^dropped //p' "$REFUSALS")
	lines=$(grep -c '^refused ' "$REFUSALS")
	for ((i = 1; i <= 20; i++)); do
		lktest-ioport ioperm $((0x300 + i)) 1 --expect EPERM >/dev/null || return 1
	done
	cmd cat "$REFUSALS" || return 1
	after=$(sed -n 's/^dropped //p' <<<"$OUT")
	echo "dropped $before before, $after after, $lines refusals kept before"
	[ "$after" -eq $((before + lines + 20 - 16)) ] || return 1
	want=$(for ((i = 5; i <= 20; i++)); do
		printf 'access "ioport 0x%x+1" comm lktest-ioport times 1\n' $((0x300 + i))
	done)
	[ "$(sed -n 's/^refused [0-9]* pid [0-9]* times \([0-9]*\) reason "[^"]*" \(access "[^"]*" comm .*\)/\2 times \1/p' <<<"$OUT")" = "$want" ] ||
		{ echo "not the newest 16 in order:"; printf '%s\n' "$want"; return 1; }
	first=$(tail -n 1 <<<"$OUT" | cut -d' ' -f2-4)
	for ((i = 0; i < 2; i++)); do
		lktest-ioport ioperm 0x314 1 --expect EPERM >/dev/null || return 1
	done
	cmd cat "$REFUSALS" || return 1
	[ "$(grep -c '^refused ' <<<"$OUT")" -eq 16 ] &&
		tail -n 1 <<<"$OUT" | grep -q ' times 3 reason "raw io port access".* access "ioport 0x314+1" comm lktest-ioport$' || return 1
	# A run keeps its first refusal's time and pid: two processes later.
	[ "$(tail -n 1 <<<"$OUT" | cut -d' ' -f2-4)" = "$first" ] ||
		{ echo "the newest's time and pid were '$first', now not"; return 1; }
}

# efivar NAME VALUE: the last byte of the global EFI variable NAME.
check_efivar() {
	local f=$EFIVARS/$1-$EFI_GLOBAL val

	[ -d /sys/firmware/efi ] || { echo "not booted through EFI"; return 1; }
	[ -r "$f" ] || { echo "$f: missing"; return 1; }
	val=$(tail -c 1 "$f" | od -An -tu1 | tr -d ' ')
	echo "$1 = $val (expected $2)"
	[ "$val" = "$2" ]
}

# efivar_write NAME FILE E: root stores /lktest-files/FILE in a new EFI
# variable NAME (non-volatile, runtime access) of its own GUID, with dd
# through efivarfs.
check_efivar_write() {
	local data=/tmp/efivar.$1

	{ printf '\x07\x00\x00\x00'; cat "$HOSTFILES/$2"; } >"$data"
	cmd dd if="$data" of="$EFIVARS/$1-$LKTEST_GUID" bs=64k
	expect_tool "$3"
}

# efivar_has NAME FILE: root's variable NAME holds /lktest-files/FILE.
check_efivar_has() {
	local f=$EFIVARS/$1-$LKTEST_GUID

	[ -r "$f" ] || { echo "$f: missing"; return 1; }
	# efivarfs files cannot seek: read whole, then drop the attributes.
	cat "$f" >/tmp/efivar.all || return 1
	tail -c +5 /tmp/efivar.all >/tmp/efivar.read
	cmd cmp /tmp/efivar.read "$HOSTFILES/$2"
}

# acpi_table FILE present|absent: whether an ACPI table the kernel shows
# under /sys/firmware/acpi/tables (dynamic/ for tables loaded after boot)
# is /lktest-files/FILE, byte for byte.
check_acpi_table() {
	local t found=

	for t in $(find /sys/firmware/acpi/tables -type f); do
		cmp -s "$t" "$HOSTFILES/$1" && found=$t
	done
	echo "/sys/firmware/acpi/tables: ${found:-no table} is $HOSTFILES/$1 (expected $2)"
	if [ "$2" = present ]; then
		[ -n "$found" ]
	else
		[ -z "$found" ]
	fi
}

# mokutil_sb TEXT...: "mokutil --sb-state" prints every TEXT line.
check_mokutil_sb() {
	local t

	cmd mokutil --sb-state
	for t in "$@"; do
		grep -qxF "$t" <<<"$OUT" || { echo "missing line '$t'"; return 1; }
	done
}

# origin LEVEL ORIGIN: lockdown_origin says who raised the kernel to LEVEL
# ("LEVEL SECONDS ORIGIN"); "origin none" wants the file empty.
check_origin() {
	local f=/sys/kernel/security/lockdown_origin

	cmd cat "$f" || return 1
	if [ "$1" = none ]; then
		[ -z "$OUT" ]
		return
	fi
	local want="${*:2}"	# the origin may have spaces: "EFI Secure Boot"

	grep -qE "^$1 [0-9]+\.[0-9]{6} $want\$" <<<"$OUT" ||
		{ echo "no line '$1 SECONDS $want'"; return 1; }
}

# denials REASON MIN MAX: the lockdown_denials count of REASON.
denials() {
	sed -n "s|^\([0-9]*\) [a-z]* $1\$|\1|p" /sys/kernel/security/lockdown_denials
}
check_denials() {
	local n

	n=$(denials "$1")
	echo "lockdown_denials: '$1' = '$n' (expected $2..$3)"
	[ -n "$n" ] && [ "$n" -ge "$2" ] && [ "$n" -le "$3" ]
}

# sig_enforce Y|N: module signature enforcement as the module core says.
check_sig_enforce() {
	cmd cat /sys/module/module/parameters/sig_enforce || return 1
	[ "$OUT" = "$1" ]
}

# capbnd41 present|absent [PID]: bit 41 (CAP_COMPROMISE_KERNEL) of CapBnd
# (default: init's, which a boot-time lockdown lowers).
check_capbnd41() {
	local hex

	hex=$(sed -n 's/^CapBnd:\t//p' "/proc/${2:-1}/status")
	echo "/proc/${2:-1}/status CapBnd: $hex; cap_last_cap $(cat /proc/sys/kernel/cap_last_cap)"
	[ -n "$hex" ] || return 1
	if (((0x$hex >> 41) & 1)); then
		[ "$1" = present ]
	else
		[ "$1" = absent ]
	fi
}

# cap_last_cap N: the kernel's last capability.
check_cap_last_cap() {
	cmd cat /proc/sys/kernel/cap_last_cap || return 1
	[ "$OUT" = "$1" ]
}

# capsh_bound41 present|absent: capsh --print lists capability 41 in the
# bounding set (libcap names it by number or as cap_compromise_kernel).
check_capsh_bound41() {
	local line

	cmd capsh --print || return 1
	line=$(grep '^Bounding set =' <<<"$OUT")
	if grep -qE '(=|,)(cap_)?(41|compromise_kernel)(,|$)' <<<"$line"; then
		[ "$1" = present ]
	else
		[ "$1" = absent ]
	fi
}

# capstate [--userns] present|absent: CAP_COMPROMISE_KERNEL as capget(),
# PR_CAPBSET_READ and /proc/self/status report it, for a new process (or
# the set a new user namespace starts with).
check_capstate() {
	local args=()

	[ "$1" = --userns ] && { args=(--userns); shift; }
	cmd lktest-capstate "${args[@]}" --expect "$1"
}

# capwait_start BEFORE AFTER: start a process that checks it holds
# CAP_COMPROMISE_KERNEL as BEFORE says, then blocks on a FIFO until
# capwait_end; it then expects AFTER.  The process exists across
# whatever the checks between the two do (a raise at run time).
CAPWAIT=/run/lktest-capwait
check_capwait_start() {
	local i

	rm -f "$CAPWAIT".*
	# Checks run in a subshell, which cannot wait for it later: its
	# status goes to a file.
	(lktest-capstate --wait "$CAPWAIT.fifo" --before "$1" --expect "$2" \
		>"$CAPWAIT.out" 2>&1
	 echo $? >"$CAPWAIT.rc") </dev/null >/dev/null 2>&1 &
	for ((i = 0; i < 100; i++)); do
		grep -qx ready "$CAPWAIT.out" 2>/dev/null && break
		[ -e "$CAPWAIT.rc" ] && break
		sleep 0.1
	done
	cat "$CAPWAIT.out"
	grep -qx ready "$CAPWAIT.out"
}

check_capwait_end() {
	local i

	[ -p "$CAPWAIT.fifo" ] || { echo "no capwait_start"; return 1; }
	echo go >"$CAPWAIT.fifo"
	for ((i = 0; i < 100; i++)); do
		[ -s "$CAPWAIT.rc" ] && break
		sleep 0.1
	done
	cat "$CAPWAIT.out"
	echo "exit status: $(cat "$CAPWAIT.rc" 2>/dev/null)"
	[ "$(cat "$CAPWAIT.rc" 2>/dev/null)" = 0 ]
}

# modcap NAME 0|1: loading module NAME, it reports what the kernel's
# capable(CAP_COMPROMISE_KERNEL) answers for the loading task.
check_modcap() {
	local line

	cmd insmod "$MODDIR/$1.ko" || return 1
	line=$(dmesg | grep -F "lktest: $1 loaded;" | tail -n 1)
	rmmod "$1"
	echo "$line"
	grep -qF "capable(CAP_COMPROMISE_KERNEL)=$2" <<<"$line"
}

# nocap41 CHECK ARGS...: run check CHECK in a process started without
# CAP_COMPROMISE_KERNEL in its bounding set (lktest-dropbound 41).
check_nocap41() {
	cmd lktest-dropbound 41 -- bash -c \
		'LKTEST_SOURCE_ONLY=1; . /usr/bin/lktest-run;
		 check_capbnd41 absent self && check_"$@"' check "$@"
}

# dmesg_has PATTERN: the kernel log has PATTERN at least once.
# --- hibernation (plans/hib_*.plan) ------------------------------------------

# hibernation TEXT...: /sys/kernel/security/lockdown_hibernation says TEXT.
check_hibernation() {
	cmd cat /sys/kernel/security/lockdown_hibernation || return 1
	[ "$OUT" = "$*" ] || { echo "expected '$*'"; return 1; }
}

# hib_swapon: the session's tmpfs, and swap on $SWAP to hibernate to.
hib_swapon() {
	[ ! -d "$HIBDIR" ] || return 0
	mkdir -p "$HIBDIR" && mount -t tmpfs tmpfs "$HIBDIR" || return 1
	cmd mkswap "$SWAP" || return 1
	cmd swapon "$SWAP" || return 1
	cat "/sys/class/block/${SWAP#/dev/}/dev" >/sys/power/resume
}

# resume_refused DEV TEXT...: asked to resume the image on DEV, as an
# initramfs asks (/sys/power/resume), the kernel says TEXT and does not.
check_resume_refused() {
	local dev=$1 n0 n1

	shift
	n0=$(dmesg | grep -cF -- "$*")
	cat "/sys/class/block/${dev#/dev/}/dev" >/sys/power/resume || return 1
	n1=$(dmesg | grep -cF -- "$*")
	dmesg | grep -E 'PM: |hibernation' | tail -n 3
	[ "$n1" -gt "$n0" ] || { echo "the kernel did not say '$*'"; return 1; }
	echo "$dev: not resumed"
}

# hibernate TEXT E: a session to bring back (TEXT in a tmpfs file, a
# process, the denial counters), then "echo disk > /sys/power/state" with
# swap on $SWAP.  ok: the write returns once the next boot has resumed the
# image, and the session is back as it was; an errno: refused at once.
check_hibernate() {
	local pid

	hib_swapon || return 1
	printf '%s\n' "$1" >"$HIBDIR/text"
	sleep 1000000 </dev/null >/dev/null 2>&1 &
	echo $! >"$HIBDIR/pid"
	cat /sys/kernel/security/lockdown_denials >"$HIBDIR/denials"
	echo shutdown >/sys/power/disk
	cmd sh -c 'echo disk >/sys/power/state'
	expect_tool "$2" || return 1
	[ "$2" = ok ] || return 0
	pid=$(cat "$HIBDIR/pid")
	cmd cat "$HIBDIR/text"
	[ "$OUT" = "$1" ] || { echo "the tmpfs file did not come back"; return 1; }
	kill -0 "$pid" || { echo "process $pid did not come back"; return 1; }
	echo "process $pid is back"
	cmd cat /sys/kernel/security/lockdown_denials
	[ "$OUT" = "$(cat "$HIBDIR/denials")" ] ||
		{ echo "the denial counters changed: before, $(cat "$HIBDIR/denials")"; return 1; }
}

# hib_bench MB: scripts/bench.sh's hibernation: MB of random bytes in a
# tmpfs file (the same image size on every kernel, none of it
# compressible), hibernate, and after the resume the file is unchanged.
# The host takes the figures from the console.
check_hib_bench() {
	local before after

	hib_swapon || return 1
	head -c "${1}M" /dev/urandom >"$HIBDIR/fill" || return 1
	before=$(sha256sum <"$HIBDIR/fill")
	echo shutdown >/sys/power/disk
	cmd sh -c 'echo disk >/sys/power/state' || return 1
	after=$(sha256sum <"$HIBDIR/fill")
	[ "$after" = "$before" ] || { echo "the file changed"; return 1; }
	echo "resumed; the $1 MB file is unchanged"
}

# not_resumed: a boot that should have resumed the last image came here.
check_not_resumed() {
	dmesg | grep -E 'PM: |hibernation' | tail -n 10
	echo "this boot did not resume the image"
	return 1
}

# fresh: this boot is not a resumed session (no tmpfs of check_hibernate).
check_fresh() {
	! grep -q " $HIBDIR " /proc/mounts || { echo "$HIBDIR is mounted"; return 1; }
	echo "no $HIBDIR: a fresh boot"
}

# The seal in the swap header (struct lockdown_hib_header): at 56 and 58
# the sizes of the sealed key's TPM2B_PRIVATE and TPM2B_PUBLIC, which
# follow from 60 on.
HIB_SEAL=$((4096 - 40 - 1024))
HIB_PRIMARY_ATTRS="fixedtpm|fixedparent|sensitivedataorigin|adminwithpolicy|noda|restricted|decrypt"

# hib_seal_parts DIR: the sealed key of the image on $SWAP in DIR (priv,
# pub, and policy, the authPolicy of its public area), and the primary
# key the kernel seals under, made by root from the kernel's template and
# that policy (DIR/primary.ctx).
hib_seal_parts() {
	local d=$1 priv pub

	mkdir -p "$d"
	dd if="$SWAP" of="$d/seal" bs=1 skip=$HIB_SEAL count=1024 status=none || return 1
	priv=$(od -An -tu2 -j56 -N2 "$d/seal" | tr -d ' ')
	pub=$(od -An -tu2 -j58 -N2 "$d/seal" | tr -d ' ')
	echo "sealed key: TPM2B_PRIVATE $priv bytes, TPM2B_PUBLIC $pub bytes"
	[ "${priv:-0}" -gt 0 ] && [ "${pub:-0}" -gt 0 ] || return 1
	dd if="$d/seal" of="$d/priv" bs=1 skip=60 count="$priv" status=none
	dd if="$d/seal" of="$d/pub" bs=1 skip=$((60 + priv)) count="$pub" status=none
	# TPM2B_PUBLIC: size, type, nameAlg, objectAttributes, authPolicy
	dd if="$d/pub" of="$d/policy" bs=1 skip=12 count=32 status=none
	cmd tpm2_createprimary -C o -g sha256 -G ecc256:aes128cfb -L "$d/policy" \
		-a "$HIB_PRIMARY_ATTRS" -c "$d/primary.ctx"
}

# le16 N: N as two bytes, little-endian.
le16() {
	printf "\\$(printf %03o $(($1 & 255)))\\$(printf %03o $(($1 >> 8)))"
}

# hib_root_counter: root puts an ordinary NV index where the kernel's
# hibernation counter was, holding the number of the image on $SWAP, so
# that the image, written back, would look as if it had never been
# resumed.
check_hib_root_counter() {
	local d=/tmp/hibcounter idx=$HIB_COUNTER n i

	mkdir -p "$d"
	n=$(od -An -tu8 -j$((HIB_SEAL + 8)) -N8 "$SWAP" | tr -d ' ')
	echo "the image on $SWAP is number $n"
	cmd tpm2_nvreadpublic "$idx" || return 1
	cmd tpm2_nvundefine -C o "$idx" || return 1
	cmd tpm2_nvdefine -C o -s 8 -a "ownerread|ownerwrite|authread|authwrite" "$idx" || return 1
	for i in 56 48 40 32 24 16 8 0; do
		printf "\\$(printf %03o $(((n >> i) & 255)))"
	done >"$d/value"
	cmd tpm2_nvwrite -C o -i "$d/value" "$idx" || return 1
	cmd tpm2_nvreadpublic "$idx"
}

# hib_root_recounter: root deletes the index hib_root_counter defined and
# defines a counter at the handle, with the kernel's own attributes; a
# counter never incremented has no value.
check_hib_root_recounter() {
	local idx=$HIB_COUNTER

	cmd tpm2_nvundefine -C o "$idx" || return 1
	cmd tpm2_nvdefine -C o -s 8 -a "authread|authwrite|no_da|nt=counter" "$idx" ||
		return 1
	cmd tpm2_nvreadpublic "$idx"
}

# hib_root_increment: root increments that counter once, which gives it
# a value: one above the highest any counter of this TPM has held.
check_hib_root_increment() {
	local idx=$HIB_COUNTER

	cmd tpm2_nvincrement -C "$idx" "$idx" || return 1
	cmd tpm2_nvread -C "$idx" -s 8 -o /tmp/hibcounter.value "$idx" || return 1
	echo "the counter holds $(od -An -tx1 /tmp/hibcounter.value)"
}

# hib_policy_session DIR [LOC]: a policy session in DIR/s.ctx meeting
# the kernel's policy as root can: locality LOC asked for (tpm2-tools'
# name, e.g. two), then PCRs 4 and 7 as they are.
hib_policy_session() {
	cmd tpm2_startauthsession --policy-session -S "$1/s.ctx" || return 1
	[ -z "${2:-}" ] || cmd tpm2_policylocality -S "$1/s.ctx" "$2" || return 1
	cmd tpm2_policypcr -S "$1/s.ctx" -l sha256:4,7
}

# hib_root_load: root takes the sealed key from the swap header, creates
# the primary key it was sealed under (the kernel's template, with the
# policy the key's public area carries) and asks the TPM to load the key,
# satisfying every policy element it can: PCRs 4 and 7 as they are, with
# and without locality 2 asked for.  Both must fail, the second for the
# locality; a load that succeeds is followed by tpm2_unseal.
check_hib_root_load() {
	local d=/tmp/hibroot loc

	hib_seal_parts "$d" || return 1
	for loc in "" two; do
		hib_policy_session "$d" "$loc" || return 1
		cmd tpm2_load -C "$d/primary.ctx" -P session:"$d/s.ctx" -u "$d/pub" \
			-r "$d/priv" -c "$d/key.ctx"
		if [ "$RC" -eq 0 ]; then
			cmd tpm2_flushcontext "$d/s.ctx"
			hib_policy_session "$d" "$loc"
			cmd tpm2_unseal -c "$d/key.ctx" -p session:"$d/s.ctx"
			echo "root loaded the sealed key${loc:+ asking for locality $loc}"
			return 1
		fi
		if [ -n "$loc" ] && ! grep -qiE 'locality|0x907' <<<"$OUT"; then
			echo "refused, but not for the locality"
			return 1
		fi
		cmd tpm2_flushcontext "$d/s.ctx"
	done
	echo "the TPM refused root the sealed key, with and without locality 2 asked for"
}

# hib_root_seal: root seals a key of its own under the kernel's policy, for
# an image it would encrypt with that key, and puts it in the seal of the
# image on $SWAP, signature restored, for the next boot to resume.  Under
# the kernel's primary the TPM refuses root (the primary's policy asks for
# locality 2); under a primary of root's own it does not.
check_hib_root_seal() {
	local d=/tmp/hibseal priv pub

	hib_seal_parts "$d" || return 1
	head -c 32 /dev/urandom >"$d/rootkey"
	hib_policy_session "$d" two || return 1
	cmd tpm2_create -C "$d/primary.ctx" -P session:"$d/s.ctx" -L "$d/policy" \
		-a "fixedtpm|fixedparent|adminwithpolicy|noda" -i "$d/rootkey" \
		-u "$d/rpub" -r "$d/rpriv"
	[ "$RC" -ne 0 ] || { echo "root created a key under the kernel's primary"; return 1; }
	grep -qiE 'locality|0x907' <<<"$OUT" ||
		{ echo "refused, but not for the locality"; return 1; }
	cmd tpm2_flushcontext "$d/s.ctx"
	cmd tpm2_flushcontext -t
	cmd tpm2_createprimary -C o -g sha256 -G ecc256:aes128cfb -c "$d/own.ctx" || return 1
	cmd tpm2_create -C "$d/own.ctx" -L "$d/policy" \
		-a "fixedtpm|fixedparent|adminwithpolicy|noda" -i "$d/rootkey" \
		-u "$d/rpub" -r "$d/rpriv" || return 1
	priv=$(stat -c %s "$d/rpriv")
	pub=$(stat -c %s "$d/rpub")
	{ le16 "$priv"; le16 "$pub"; cat "$d/rpriv" "$d/rpub"; } |
		dd of="$SWAP" bs=1 seek=$((HIB_SEAL + 56)) conv=notrunc,fsync status=none ||
		return 1
	printf 'LDSUSPEND\0' |
		dd of="$SWAP" bs=1 seek=$((4096 - 10)) conv=notrunc,fsync status=none || return 1
	echo "root's key ($priv + $pub bytes), sealed under the kernel's policy by a primary of root's, is in the image's seal"
}

check_dmesg_has() {
	check_dmesg_count "$1" 1 1000000
}

# status RC TEXT...: lockdown-status exits RC and its first line has TEXT.
check_status() {
	local want=$1

	shift
	cmd lockdown-status
	[ "$RC" -eq "$want" ] || { echo "expected exit $want"; return 1; }
	head -n 1 <<<"$OUT" | grep -qF -- "$*" ||
		{ echo "first line lacks '$*'"; return 1; }
}

# status_has TEXT...: lockdown-status prints a line containing each TEXT.
check_status_has() {
	local t

	cmd lockdown-status
	for t in "$@"; do
		grep -qF -- "$t" <<<"$OUT" || { echo "no line has '$t'"; return 1; }
	done
}

# status_reasons: lockdown-status knows, by its text, every reason this
# kernel counts in lockdown_denials (--json gives "guards": null for a
# reason it has no words for), and lists as many as the file has.
check_status_reasons() {
	local f=/sys/kernel/security/lockdown_denials n j

	n=$(wc -l <"$f")
	cmd lockdown-status --json
	j=$(grep -c '"guards": ' <<<"$OUT")
	echo "$f: $n reasons; lockdown-status --json: $j"
	grep -B3 '"guards": null' <<<"$OUT" && return 1
	[ "$n" -gt 0 ] && [ "$j" -eq "$n" ]
}

# bench OP: lktest-bench times OP (see lktest-bench.c); "ok" means
# measured, whatever the operation returned.  The figures are in the "# bench
# OP: RESULT, median N ns/op, R x getppid ..." diagnostic that
# scripts/bench.sh reads.
check_bench() {
	cmd lktest-bench "$@"
}

# kbench: lktest_kbench (test-initramfs/kbench, built by scripts/bench.sh
# for this kernel: ours has capability 41, the stock tree does not) times
# capable(), ns_capable() and the lockdown questions in the kernel; its
# log lines become "# kbench OP: ..." diagnostics for scripts/bench.sh.
check_kbench() {
	local flavour=stock

	[ "$(cat /proc/sys/kernel/cap_last_cap)" = 41 ] && flavour=ours
	cmd insmod "$MODDIR/lktest_kbench_$flavour.ko" || return 1
	rmmod lktest_kbench
	dmesg | sed -n 's/.*lktest_kbench: \(kind=.*\)$/bench \1/p'
}

# uefi_keys: what the boot imported from the UEFI key variables and how long
# it took, for scripts/bench.sh.  With initcall_debug the kernel logs
# "calling  FN @ PID" and "initcall FN returned R after N usecs" around
# every initcall (FN is an address without CONFIG_KALLSYMS): the one that
# logs the db import is load_uefi_certs.  Prints "bench kind=keys
# initcall=FN usecs=N certs=N hashes=N".
check_uefi_keys() {
	local fn line usecs certs hashes=0 type types=
	local -A keys=()

	fn=$(dmesg | sed -n '/calling  /{s/.*calling  \([^ ]*\) @.*/\1/;h;}
		/Loading X.509 certificate: UEFI:db/{x;p;q;}')
	[ -n "$fn" ] && line=$(dmesg | grep -F "initcall $fn returned" | tail -n 1)
	echo "${line:-no initcall line around the UEFI db import (initcall_debug missing?)}"
	usecs=$(sed -n 's/.* after \([0-9]*\) usecs.*/\1/p' <<<"$line")
	certs=$(dmesg | grep -c "integrity: Loaded X.509 cert")
	# /proc/keys: ID FLAGS USAGE EXPIRY PERM UID GID TYPE DESCRIPTION
	while read -r _ _ _ _ _ _ _ type _; do
		keys[$type]=$((${keys[$type]:-0} + 1))
	done </proc/keys
	for type in "${!keys[@]}"; do
		types+=" $type ${keys[$type]}"
	done
	echo "/proc/keys by type:$types"
	hashes=${keys[blacklist]:-0}
	fn=${fn%%+*}
	echo "bench kind=keys initcall=${fn:--} usecs=${usecs:--} certs=$certs hashes=$hashes"
	[ -n "$usecs" ]
}

# hexof FILE...: the bytes as one hex string (to find a certificate in a list).
hexof() { od -An -tx1 -v "$@" | tr -d ' \n'; }
# efisize FILE: the size of an efivarfs variable's value (st_size reads 0).
efisize() { echo $(($(od -An -tx1 -v "$1" | wc -w) - 4)); }

# mok_vars: every shim variable with its attributes and size.
mok_vars() {
	local f

	for f in "$EFIVARS"/*-"$SHIM_GUID"; do
		[ -e "$f" ] || continue
		echo "efivar ${f##*/}: attributes 0x$(od -An -tx4 -N4 "$f" | tr -d ' '), $(efisize "$f") bytes"
	done
}

# mok_var NAME ATTRS [CERT]: shim's variable NAME has the attributes ATTRS
# (0x00000006 = BS|RT: volatile, as shim makes its mirrors) and, when
# given, holds the DER certificate CERT.
check_mok_var() {
	local f=$EFIVARS/$1-$SHIM_GUID got

	[ -e "$f" ] || { echo "$1: missing"; mok_vars; return 1; }
	got=0x$(od -An -tx4 -N4 "$f" | tr -d ' ')
	echo "$1: attributes $got (expected $2), $(efisize "$f") bytes"
	[ "$got" = "$2" ] || return 1
	[ -z "$3" ] && return 0
	[[ $(hexof "$f") == *"$(hexof "$3")"* ]] ||
		{ echo "$1 does not hold $3"; return 1; }
}

# mok_import CERT PASSWORD: request the enrollment of the MOK certificate
# CERT as a user does: mokutil --generate-hash=PASSWORD > F, then mokutil
# --import CERT --hash-file F.  Passes when MokNew (NV|BS|RT) holds CERT and
# MokAuth exists: shim then starts MokManager on the next boot, which asks
# for PASSWORD (scripts/mkshimvars.sh drives it).
check_mok_import() {
	local cert=$1 hash=/tmp/lktest-mok.hash

	[ -r "$cert" ] || { echo "$cert: missing"; return 1; }
	mok_vars
	if ! mokutil --generate-hash="$2" >"$hash" || [ ! -s "$hash" ]; then
		echo "mokutil --generate-hash failed"
		return 1
	fi
	echo "\$ mokutil --generate-hash=PASSWORD > $hash -> $(wc -c <"$hash") bytes"
	cmd mokutil --import "$cert" --hash-file "$hash" || return 1
	mokutil --list-new | grep -E 'SHA1 Fingerprint|Subject:' | sed 's/^ */mokutil --list-new: /'
	mok_vars
	check_mok_var MokNew 0x00000007 "$cert" && check_mok_var MokAuth 0x00000007
}

# forge_mok ATTRS E: root, on the locked-down machine, writes its own
# certificate (Lockdown Test attacker) into MokListRT through efivarfs with
# dd: attributes ATTRS (hex: 07 NV|BS|RT, 06 BS|RT volatile).  E is "ok" or
# the errno dd reports; when it worked, the variable must read back.
check_forge_mok() {
	local f=$EFIVARS/MokListRT-$SHIM_GUID forged=/tmp/MokListRT.$1

	[ -f "$KEYDIR/attacker.esl" ] || { echo "$KEYDIR/attacker.esl missing"; return 1; }
	{ printf "\\x$1\\x00\\x00\\x00"; cat "$KEYDIR/attacker.esl"; } >"$forged"
	# efivarfs marks variables it does not know immutable; root lifts it.
	[ -e "$f" ] && { cmd chattr -i "$f" || return 1; }
	cmd dd if="$forged" of="$f" bs=64k conv=notrunc
	expect_tool "$2" || return 1
	[ "$2" = ok ] || return 0
	check_mok_var MokListRT "0x000000$1" "$KEYDIR/attacker.der"
}

# mokvar_table yes|no: whether shim handed over the MOKvar table (the
# kernel shows its entries under /sys/firmware/efi/mok-variables).
check_mokvar_table() {
	local d=/sys/firmware/efi/mok-variables

	if [ -d "$d" ]; then
		echo "$d: $(ls "$d" | tr '\n' ' ')"
		[ "$1" = yes ]
	else
		echo "$d: absent"
		[ "$1" = no ]
	fi
}

# keys_view SECTION NAME: lockdown-status --keys lists the key NAME in the
# section that begins with SECTION.
check_keys_view() {
	local line in_sec=

	cmd lockdown-status --keys
	while IFS= read -r line; do
		[[ $line == [^\ ]* ]] && { [[ $line == "$1"* ]] && in_sec=1 || in_sec=; }
		[ -n "$in_sec" ] && [[ $line == *"$2"* ]] && return 0
	done <<<"$OUT"
	echo "no '$2' under '$1'"
	return 1
}

# kexec_cmdline: this boot's command line for the kernel kexec starts, its
# scenario the "_after" stage of this one.
kexec_cmdline() {
	local s

	s=$(cmdline_arg lktest.scenario)
	sed "s/lktest\.scenario=$s\b/lktest.scenario=${s}_after/" /proc/cmdline
}

# host_file NAME: the file scripts/boot.sh appended to this initramfs as
# /lktest-files/NAME, in /tmp; "initrd" is this initramfs itself, packed
# again from the root file system.
host_file() {
	[ -f "/tmp/$1" ] && return 0
	if [ "$1" = initrd ]; then
		(cd / && find . -xdev -path './tmp/*' -prune -o -print |
			cpio --quiet -o -H newc) >/tmp/initrd.tmp &&
			mv /tmp/initrd.tmp /tmp/initrd
		return
	fi
	[ -r "$HOSTFILES/$1" ] ||
		{ echo "$HOSTFILES/$1 missing (scripts/boot.sh appends it)"; return 1; }
	cp "$HOSTFILES/$1" "/tmp/$1"
}

# kexec_file NAME E: load the kernel the host hands over as NAME (with the test
# initramfs) for kexec, by kexec_file_load(), which checks its signature:
# lktest-kexec gives the errno (and unloads it), then kexec -s loads it
# again and leaves it loaded for the scenario's after_ step.
# A load that must be refused gets an empty initramfs: the refusal is about
# the kernel image, and packing and hashing this one costs seconds under TCG.
check_kexec_file() {
	local initrd=/tmp/initrd

	if [ "$2" = ok ]; then
		host_file initrd || return 1
	else
		initrd=/tmp/initrd-empty
		cpio --quiet -o -H newc </dev/null >"$initrd" || return 1
	fi
	host_file "$1" || return 1
	cmd lktest-kexec file "/tmp/$1" "$initrd" "$(kexec_cmdline)" --expect "$2" ||
		return 1
	cmd kexec -s -l "/tmp/$1" --initrd="$initrd" --append="$(kexec_cmdline)"
	expect_tool "$2"
}

# kexec_load E: kexec_load(), which takes unsigned images: lktest-kexec's
# errno, and kexec -c (the same system call) with the signed kernel and no
# initramfs (kexec-tools hashes every segment before the call).
check_kexec_load() {
	host_file kernel || return 1
	cmd lktest-kexec load --expect "$1" || return 1
	cmd kexec -c -l /tmp/kernel --append="$(kexec_cmdline)"
	expect_tool "$1"
}

# mokstep STEP CHECK ARGS...: check CHECK in step STEP of the MOK
# enrollment (plans/mokenroll.plan): lktest.mokstep=verify, else import.
# In the other step it is skipped.
check_mokstep() {
	local step=import

	[ "$(cmdline_arg lktest.mokstep)" = verify ] && step=verify
	if [ "$1" != "$step" ]; then
		echo "SKIP: this boot is MOK step $step"
		return 77
	fi
	"check_$2" "${@:3}"
}

# mok_enroll CERT: mok_import CERT with the password the kernel command
# line gives as lktest.mokpw (scripts/mkshimvars.sh), else "lktest".
check_mok_enroll() {
	local pw

	pw=$(cmdline_arg lktest.mokpw)
	check_mok_import "$1" "${pw:-lktest}"
}

# warned VALUE: VALUE as a warning quotes it, cut at 32 characters.
warned() {
	printf '%.32s' "$1"
	[ ${#1} -le 32 ] || printf '...'
}

# warned_values NAME TEXT [VALID...]: each value of NAME= on the kernel
# command line, VALID ones aside, is named in one warning of its own,
# "lockdown: NAME=VALUE: TEXT" (VALUE as warned() quotes it).
check_warned_values() {
	local v rc=0

	while IFS= read -r v; do
		check_dmesg_count "lockdown: $1=$(warned "$v"): $2" 1 1 || rc=1
	done < <(bad_values "$1" "${@:3}")
	return $rc
}

# warned_count NAME PATTERN [VALID...]: PATTERN is in as many lines of the
# kernel log as NAME= has values on the command line, VALID ones aside.
check_warned_count() {
	local n

	n=$(bad_values "$1" "${@:3}" | grep -c '')
	check_dmesg_count "$2" "$n" "$n"
}

# bad_values NAME [VALID...]: each value of NAME= on the kernel command
# line, one a line, VALID ones aside.
bad_values() {
	local v w

	while IFS= read -r v; do
		for w in "${@:2}"; do
			[ "$v" = "$w" ] && continue 2
		done
		printf '%s\n' "$v"
	done < <(cmdline_arg "$1")
}

# policy_hash_revoked NAME: the kernel refused $POLICIES/NAME.policy for
# its binary hash, which dbx revokes; scripts/mkpolicies.sh puts the hash
# beside it as NAME.sha256.
check_policy_hash_revoked() {
	check_dmesg_has "lockdown: policy refused: binary hash $(cat "$POLICIES/$1.sha256") is revoked by UEFI:dbx"
}

# --- after a scenario ---------------------------------------------------------
# after_NAME: run once scenario NAME's checks are done and its KTAP is out.

# owner_tpm goes on in the db-signed kernel it loaded (owner_tpm_after).
after_owner_tpm() {
	after_attack_kexec
}

# hib_sleep's session, resumed, hibernates once more: the host flips a
# byte of that image, for hib_alter to refuse.
after_hib_sleep() {
	echo "lktest: hibernating again"
	echo disk >/sys/power/state
	echo "lktest: the second hibernation returned $?"
}

# hib_forged hibernates: its image is for hib_nosb and hib_blacklist to
# refuse.
after_hib_forged() {
	hib_swapon
	after_hib_sleep
}

# hib_nosb, without Secure Boot, hibernates unsealed: hib_plain refuses
# the image; the host edits the token this prints once resumed
# (scripts/boot.sh's hibernate_step: random letters, which the compressor
# leaves whole), and hib_open, again without Secure Boot, resumes that
# edit.
after_hib_nosb() {
	hib_swapon
	echo "lktest: hibernating, the image not sealed"
	echo disk >/sys/power/state
	echo "lktest: resumed the image not sealed, token Jq7XwZ2kP9vTm4Rb"
}

after_attack_kexec() {
	echo "lktest: kexec into the db-signed kernel"
	kexec -e
	echo "lktest: kexec -e returned $?"
}

# --- plans --------------------------------------------------------------------
# A scenario's plan is the text file $PLANS/NAME.plan (test-initramfs/plans;
# a file only included is a plan too): one check a line, "CHECK ARGS...
# EXPECTATION", its words quoted as in the shell ('...', "..." or a \
# before one character) but never expanded.  A line that begins with #
# and a blank line are skipped; a # after a check is a word of it.
# Besides checks:
#   include NAME ARGS...  the lines of $PLANS/NAME.plan, with @1@, @2@...
#                         in them replaced by ARGS
#   @NAME@                anywhere in a line: the constant NAME of
#                         PLAN_CONSTANTS
# Any other @WORD@ is an error.  A check that depends on the boot (its
# command line, a file) does that itself: the plan stays data.
declare -A PLAN_CONSTANTS=(
	[TPM_COUNTER]="$TPM_COUNTER"
)

# split_words LINE: LINE's words into the array WORDS, quoted as in the
# shell but never expanded: blanks separate words, '...' and "..." quote
# (nothing is special inside them), and a \ outside quotes takes the next
# character as it is.  Fails on an unmatched quote.  Plain bash: no
# process a line (xargs would start two for every check, under TCG).
split_words() {
	local s=$1 c q='' w='' inword=''

	WORDS=()
	while [ -n "$s" ]; do
		c=${s:0:1}
		s=${s:1}
		if [ -n "$q" ]; then
			# In quotes: up to the same quote.
			if [ "$c" = "$q" ]; then
				q=
			else
				w+=$c
			fi
			continue
		fi
		case $c in
		[[:blank:]])
			[ -z "$inword" ] || WORDS+=("$w")
			w='' inword=''
			;;
		\"|\')
			q=$c inword=1
			;;
		\\)
			w+=${s:0:1}
			s=${s:1}
			inword=1
			;;
		*)
			w+=$c inword=1
			;;
		esac
	done
	[ -z "$inword" ] || WORDS+=("$w")
	[ -z "$q" ] || { echo "unmatched $q in: $1" >&2; return 1; }
}

# plan_lines NAME [ARGS...]: the lines of plan NAME, includes expanded,
# with ARGS for @1@, @2@...  Fails, saying why, on a missing plan, an
# @WORD@ it has nothing for, or includes nested more than 8 deep.
plan_lines() {
	plan_expand 0 "$@"
}

# plan_expand DEPTH NAME [ARGS...]: plan_lines, DEPTH includes down.
plan_expand() {
	local depth=$1 name=$2 file=$PLANS/$2.plan line n=0 i k
	local args=("${@:3}") skip='^[[:space:]]*(#|$)' word='@[A-Za-z0-9_]+@'

	# A name becomes a path: no "/" or "..".
	[[ $name =~ ^[a-z0-9_]+$ ]] || { echo "'$name': not a plan name" >&2; return 1; }
	[ -f "$file" ] || { echo "$file: no such plan" >&2; return 1; }
	[ "$depth" -le 8 ] || { echo "$file: included more than 8 deep" >&2; return 1; }
	while IFS= read -r line || [ -n "$line" ]; do
		n=$((n + 1))
		[[ $line =~ $skip ]] && continue
		for i in "${!args[@]}"; do
			line=${line//"@$((i + 1))@"/"${args[i]}"}
		done
		for k in "${!PLAN_CONSTANTS[@]}"; do
			line=${line//"@$k@"/"${PLAN_CONSTANTS[$k]}"}
		done
		if [[ $line =~ $word ]]; then
			echo "$file:$n: nothing to put for ${BASH_REMATCH[0]}" >&2
			return 1
		fi
		if [[ $line =~ ^include[[:space:]] ]]; then
			if ! split_words "$line" 2>/dev/null; then
				echo "$file:$n: an unmatched quote" >&2
				return 1
			fi
			plan_expand $((depth + 1)) "${WORDS[@]:1}" || return 1
			continue
		fi
		printf '%s\n' "$line"
	done <"$file"
}

# run_check LINE: the check LINE names, with LINE's other words.
run_check() {
	split_words "$1" || return 1
	"check_${WORDS[0]}" "${WORDS[@]:1}"
}

# --- runner -------------------------------------------------------------------

mount_fs() {
	grep -q " $2 $1 " /proc/mounts || mount -t "$1" "$1" "$2"
}

cmdline_arg() {
	local a

	for a in $(cat /proc/cmdline); do
		[ "${a%%=*}" = "$1" ] && echo "${a#*=}"
	done
}

# ktap LINE: one KTAP line to the KTAP port.
ktap() {
	printf '%s\n' "$1" >&3
}

main() {
	local scenario plan=() text why line n=0 pass=0 fail=0 skip=0 out rc reason us
	local t0=$SECONDS

	mount_fs securityfs /sys/kernel/security
	[ -d /sys/firmware/efi ] && mount_fs efivarfs "$EFIVARS"
	export PATH=/usr/sbin:/usr/bin:/sbin:/bin

	if [ -c "$KTAP" ]; then
		stty -F "$KTAP" raw -echo 2>/dev/null
		exec 3>"$KTAP"
	else
		echo "lktest: $KTAP missing, KTAP goes to the console"
		exec 3>&1
	fi

	# lktest.resume=1: resume the image on $SWAP before anything else, as
	# an initramfs does.  A resumed image never comes back here: the
	# harness that hibernated goes on instead.
	if [ "$(cmdline_arg lktest.resume)" = 1 ]; then
		echo "lktest: resuming from $SWAP"
		cat "/sys/class/block/${SWAP#/dev/}/dev" >/sys/power/resume ||
			echo "lktest: no image resumed from $SWAP"
	fi

	scenario=$(cmdline_arg lktest.scenario)
	# On failure the last line says why.
	if text=$(plan_lines "$scenario" 2>&1); then
		[ -z "$text" ] || mapfile -t plan <<<"$text"
	else
		why=${text##*$'\n'}
	fi

	ktap "TAP version 13"
	if [ ${#plan[@]} -eq 0 ]; then
		ktap "1..1"
		ktap "# lktest.scenario='$scenario': ${why:-an empty plan}"
		ktap "not ok 1 - scenario $scenario"
		ktap "# totals: pass:0 fail:1 xfail:0 xpass:0 skip:0 error:0"
		echo "lktest: scenario '$scenario': ${why:-an empty plan}"
		exec 3>&-
		return 1
	fi
	# Every scenario ends with the selftests, at the level it reached:
	# last, so that their refusals change none of the plan's counts.
	plan+=(selftests)
	ktap "# lktest: scenario $scenario, kernel $(uname -r)"
	ktap "1..${#plan[@]}"
	echo "lktest: scenario $scenario: ${#plan[@]} checks"

	for line in "${plan[@]}"; do
		n=$((n + 1))
		us=${EPOCHREALTIME/./}
		out=$(run_check "$line" 2>&1)
		rc=$?
		[ -n "$out" ] && printf '# %s\n' "${out//$'\n'/$'\n'# }" >&3
		case $rc in
		0)
			pass=$((pass + 1))
			ktap "ok $n - $line"
			;;
		77)
			skip=$((skip + 1))
			reason=$(sed -n 's/^SKIP: //p' <<<"$out" | tail -n 1)
			ktap "ok $n - $line # SKIP ${reason:-not applicable}"
			;;
		*)
			fail=$((fail + 1))
			ktap "not ok $n - $line"
			;;
		esac
		# The console line says how long the check took, for whoever
		# looks for where a boot spends its time.
		us=$((${EPOCHREALTIME/./} - us))
		printf 'lktest: %sok %s - %s [%d.%02d s]\n' \
			"$([ $rc -eq 0 ] || [ $rc -eq 77 ] || echo "not ")" "$n" "$line" \
			$((us / 1000000)) $((us / 10000 % 100))
	done

	ktap "# totals: pass:$pass fail:$fail xfail:0 xpass:0 skip:$skip error:0"
	echo "lktest: scenario $scenario: $pass passed, $fail failed, $skip skipped in $((SECONDS - t0)) s"
	exec 3>&-	# the last close waits until the port has sent everything
	# A scenario that goes on in another kernel (kexec) does it here.
	if declare -F "after_$scenario" >/dev/null; then
		"after_$scenario"
	fi
	[ "$fail" -eq 0 ]
}

# LKTEST_SOURCE_ONLY=1: define the checks only (lktest-dropbound runs one;
# scripts/plan-check.sh expands the plans with LKTEST_PLANS).
[ -n "${LKTEST_SOURCE_ONLY:-}" ] || main "$@"
