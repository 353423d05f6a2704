#!/bin/bash
# Everything "make check" does: build, boot the whole matrix, judge.
# The last line printed is "N passed, N failed"; exit status 1 on any
# failure. Each stage prints its time; stages whose inputs did not change
# are skipped by the scripts themselves.
set -uo pipefail
. "$(dirname "$0")/lib.sh"

SCENARIOS=${SCENARIOS:-open integrity confidentiality runtime emulated firmware setupmode
	sbparam_0 sbparam_yes sbparam_2 sbparam_empty sbparam_long}
LOGS=$BUILD/logs
mkdir -p "$LOGS"
results=$LOGS/check.results
: >"$results"

record() {	# record PASS|FAIL NAME [DETAIL]
	printf '%s\t%s\t%s\n' "$1" "$2" "${3:-}" >>"$results"
}

stage() {	# stage NAME COMMAND...: run a build stage, time it, stop on failure
	local name=$1 t0 rc
	shift
	t0=$(date +%s)
	printf '==> %-12s ' "$name"
	"$@" >"$LOGS/stage-$name.log" 2>&1
	rc=$?
	printf '%4ss  %s\n' "$(($(date +%s) - t0))" "$([ $rc -eq 0 ] && echo ok || echo FAILED)"
	if [ $rc -ne 0 ]; then
		tail -20 "$LOGS/stage-$name.log" | sed 's/^/    /'
		record FAIL "stage $name" "see $LOGS/stage-$name.log"
		summary
		exit 1
	fi
}

summary() {
	local p f
	p=$(grep -c '^PASS' "$results")
	f=$(grep -c '^FAIL' "$results")
	if [ "$f" -gt 0 ]; then
		echo "Failures:"
		grep '^FAIL' "$results" | cut -f2- | sed 's/^/  /; s/\t/: /'
	fi
	echo "$p passed, $f failed"
}

T0=$(date +%s)
stage deps	"$TOP/scripts/install-deps.sh"
stage tree	"$TOP/scripts/tree.sh"
stage config	"$TOP/scripts/configure.sh"
stage kernel	"$TOP/scripts/build-kernel.sh"
[ -x "$TOP/scripts/mkkeys.sh" ] && stage keys "$TOP/scripts/mkkeys.sh"
[ -x "$TOP/scripts/mkvars.sh" ] && stage vars "$TOP/scripts/mkvars.sh"
stage initramfs	"$TOP/scripts/mkinitramfs.sh"

# The exported series: every patch applies (tree.sh proved it) and passes
# checkpatch.
stage series	"$TOP/scripts/series.sh"
for p in "$BUILD"/series/0*.patch; do
	[ -f "$p" ] || continue
	n=${p##*/}
	# From inside the tree, as a kernel developer runs it.
	if (cd "$SRC" && ./scripts/checkpatch.pl --strict -q "$p") \
		>"$LOGS/checkpatch-$n.log" 2>&1; then
		record PASS "checkpatch $n"
	else
		record FAIL "checkpatch $n" "$(grep -m1 -E '^(ERROR|WARNING|CHECK)' "$LOGS/checkpatch-$n.log")"
	fi
done

# Two guests at a time: each TCG guest keeps one host CPU busy. Probe
# KVM once, before they share the answer.
t0=$(date +%s)
printf '==> %-12s %s\n' accel "$("$TOP/scripts/accel.sh")"
printf '%s\n' $SCENARIOS | xargs -P "${BOOT_JOBS:-2}" -I{} \
	sh -c '"$1" "$2" >"$3/stage-boot-$2.log" 2>&1' sh "$TOP/scripts/boot.sh" {} "$LOGS"
printf '==> %-12s %4ss\n' "boot matrix" "$(($(date +%s) - t0))"
printf '    %-16s %6s %6s %6s %8s  %s\n' scenario passed failed tests seconds boot
for s in $SCENARIOS; do
	read -r _ pass fail total secs clean <"$LOGS/$s.result" 2>/dev/null ||
		{ pass=0 fail=0 total=0 secs=- clean=0; }
	printf '    %-16s %6s %6s %6s %8s  %s\n' "$s" "$pass" "$fail" "$total" "$secs" \
		"$([ "$clean" = 1 ] && echo clean || echo BROKEN)"
	grep -E '^\s+not ok' "$LOGS/stage-boot-$s.log" | sed 's/^ */      /'
	grep -E 'boot.sh: ' "$LOGS/stage-boot-$s.log" | sed 's/^/      /'
	for ((i = 0; i < pass; i++)); do record PASS "$s"; done
	for ((i = 0; i < fail; i++)); do record FAIL "$s test" "see $LOGS/$s.ktap"; done
	if [ "$clean" = 1 ]; then
		record PASS "$s boot"
	else
		record FAIL "$s boot" "$(grep -m1 'boot.sh: ' "$LOGS/stage-boot-$s.log")"
	fi
done

# KUnit runs built in at every boot; judge it once, from the open boot.
if [ -s "$LOGS/open.console" ]; then
	python3 "$SRC/tools/testing/kunit/kunit.py" parse --json="$LOGS/kunit.json" \
		<"$LOGS/open.console" >"$LOGS/kunit.log" 2>&1
	read -r kp kf kt < <(python3 "$TOP/scripts/ktap-count.py" "$LOGS/kunit.json" 2>/dev/null)
	printf '==> %-12s %s passed, %s failed of %s\n' kunit "$kp" "$kf" "$kt"
	for ((i = 0; i < kp; i++)); do record PASS kunit; done
	for ((i = 0; i < kf; i++)); do record FAIL "kunit test" "see $LOGS/kunit.log"; done
	[ "${kt:-0}" -gt 0 ] || record FAIL kunit "no KUnit results in $LOGS/open.console"
fi

# Documentation and the status tool.
docs() {	# docs NAME COMMAND...: one check, output kept in the log
	local name=$1

	shift
	if "$@" >"$LOGS/docs-$name.log" 2>&1; then
		record PASS "$name"
	else
		record FAIL "$name" "see $LOGS/docs-$name.log"
	fi
}
docs rst-syntax /usr/bin/python3 -m docutils --halt=warning --report=warning \
	"$TOP/Documentation/admin-guide/LSM/lockdown.rst" /dev/null
docs man-page groff -man -Tutf8 -ww -z "$TOP/Documentation/man/kernel_lockdown.7"
docs lockdown-status make -s -C "$TOP/tools/lockdown-status" O="$BUILD/status-check" check

if [ -x "$TOP/scripts/esp-test.sh" ]; then
	t0=$(date +%s)
	if "$TOP/scripts/esp-test.sh" >"$LOGS/esp-test.log" 2>&1; then
		record PASS "firmware refuses unsigned kernel from ESP"
		r=ok
	else
		record FAIL "firmware refuses unsigned kernel from ESP" "see $LOGS/esp-test.log"
		r=FAILED
	fi
	printf '==> %-12s %4ss  %s\n' esp-test "$(($(date +%s) - t0))" "$r"
fi

echo "total time: $(($(date +%s) - T0))s"
summary
! grep -q '^FAIL' "$results"
