# What "make check" and "make check-debug" share: the scenario list, result
# records, timed stages, the boot matrix and the KUnit verdict.  Sourced
# after lib.sh, with LOGS set; not run.
# shellcheck shell=bash

# The boot matrix (scripts/boot.sh knows each scenario), longest boots
# first, so that the last guest running is a short one.
MATRIX="integrity hibernate attack_kexec owner_workflow open firmware owner_tpm attack_shim shim attack_nv baddb
	shim_vendor emulated setupmode demo confidentiality runtime race badparams
	race_writers efivar_ssdt"
SCENARIOS=${SCENARIOS:-$MATRIX}

mkdir -p "$LOGS"
results=$LOGS/check.results
: >"$results"
T0=$(date +%s)

record() {	# record PASS|FAIL NAME [DETAIL]
	printf '%s\t%s\t%s\n' "$1" "$2" "${3:-}" >>"$results"
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

# finish: total time, the summary as the last line, status 1 on a failure.
finish() {
	echo "total time: $(($(date +%s) - T0))s"
	summary
	! grep -q '^FAIL' "$results"
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

# matrix: boot $SCENARIOS two guests at a time (each TCG guest keeps one
# host CPU busy), print a table and the operation counts the stress tests
# report ("lktest-ops:" lines), record every result.  TAG=" (what)" names
# another kernel's boots (KERNEL=, LOGS= a folder of their own).
matrix() {
	local t0 s pass fail total secs clean i tag=${TAG:-}

	t0=$(date +%s)
	# Probe KVM once, before the guests share the answer.
	printf '==> %-12s %s\n' accel "$("$TOP/scripts/accel.sh")"
	# shellcheck disable=SC2086 # one scenario a word
	printf '%s\n' $SCENARIOS | xargs -P "${BOOT_JOBS:-2}" -I{} \
		sh -c 'LOGS="$3" "$1" "$2" >"$3/stage-boot-$2.log" 2>&1' sh "$TOP/scripts/boot.sh" {} "$LOGS"
	printf '==> %-12s %4ss\n' "boot matrix$tag" "$(($(date +%s) - t0))"
	printf '    %-16s %6s %6s %6s %8s  %s\n' scenario passed failed tests seconds boot
	for s in $SCENARIOS; do
		read -r _ pass fail total secs clean <"$LOGS/$s.result" 2>/dev/null ||
			{ pass=0 fail=0 total=0 secs=- clean=0; }
		printf '    %-16s %6s %6s %6s %8s  %s\n' "$s" "$pass" "$fail" "$total" "$secs" \
			"$([ "$clean" = 1 ] && echo clean || echo BROKEN)"
		grep -E '^\s+not ok' "$LOGS/stage-boot-$s.log" | sed 's/^ */      /'
		grep -E 'boot.sh: ' "$LOGS/stage-boot-$s.log" | sed 's/^/      /'
		for ((i = 0; i < pass; i++)); do record PASS "$s$tag"; done
		for ((i = 0; i < fail; i++)); do record FAIL "$s$tag test" "see $LOGS/$s.ktap"; done
		if [ "$clean" = 1 ]; then
			record PASS "$s$tag boot"
		else
			record FAIL "$s$tag boot" "$(grep -m1 'boot.sh: ' "$LOGS/stage-boot-$s.log")"
		fi
	done
	echo "==> operations"
	for s in $SCENARIOS; do
		sed -n 's/^# lktest-ops: \(.*\)/\1/p' "$LOGS/$s.ktap" 2>/dev/null |
			sed "s/^/    $s: /"
	done
}

# kunit: KUnit runs built in at every boot; judge it once, from the open
# boot's console.
kunit() {
	local kp kf kt i

	[ -s "$LOGS/open.console" ] || return 0
	python3 "$SRC/tools/testing/kunit/kunit.py" parse --json="$LOGS/kunit.json" \
		<"$LOGS/open.console" >"$LOGS/kunit.log" 2>&1
	read -r kp kf kt < <(python3 "$TOP/scripts/ktap-count.py" "$LOGS/kunit.json" 2>/dev/null)
	printf '==> %-12s %s passed, %s failed of %s\n' kunit "$kp" "$kf" "$kt"
	for ((i = 0; i < kp; i++)); do record PASS kunit; done
	for ((i = 0; i < kf; i++)); do record FAIL "kunit test" "see $LOGS/kunit.log"; done
	[ "${kt:-0}" -gt 0 ] || record FAIL kunit "no KUnit results in $LOGS/open.console"
}
