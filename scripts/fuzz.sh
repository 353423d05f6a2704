#!/bin/bash
# Fuzz two parsers in userspace with libFuzzer, ASan and UBSan:
#
#   efi_parser    the kernel's EFI signature list parser, built from the
#                 kernel tree's source ($SRC, not a copy:
#                 security/integrity/platform_certs/efi_parser.c), the
#                 corpus seeded from the project's .esl files;
#   owner_policy  the lockdown owner-policy parser and its matchers, built
#                 from security-lockdown/owner_parse.c unchanged, seeded
#                 from fuzz/owner_policy/seeds/ with a dictionary of the
#                 format's keywords.
#
# Each target runs for a bounded number of executions or time and prints
# one line; the last line sums up both. Exits non-zero when a target does
# not build, crashes or gets a sanitizer report, or ran out of time before
# FUZZ_RUNS executions; the other target is fuzzed all the same.
#
#   FUZZ_RUNS=10000000  executions to reach, per target (libFuzzer -runs)
#   FUZZ_TIME=1800      seconds at most, per target (-max_total_time)
#   FUZZ_JOBS=1         parallel fuzzing processes (libFuzzer -fork)
#   CLANG=clang-14      compiler (needs libclang-rt-14-dev for libFuzzer)
set -euo pipefail
. "$(dirname "$0")/lib.sh"

RUNS=${FUZZ_RUNS:-10000000}
TIME=${FUZZ_TIME:-1800}
CLANG=${CLANG:-$(command -v clang-14 || command -v clang || true)}
CFLAGS=(-g -O1 -fno-omit-frame-pointer
	"-fsanitize=fuzzer,address,undefined" -fno-sanitize-recover=all
	-Wall -Wno-unused-variable -Wno-unused-but-set-variable)

[ -n "$CLANG" ] || die "clang not found (apt-get install clang-14 libclang-rt-14-dev)"

failed=()	# one "target: why" per failed target
done_runs=()	# one "target N" per passed target

# target_failed WHY: say WHY now, and again in the last line.
target_failed() {
	failed+=("$1")
	msg "error: $1"
}

# fuzz_target NAME LINE_NAME OUT [LIBFUZZER OPTION...]: run $OUT/fuzz_NAME
# on $OUT/corpus; print "fuzz: LINE_NAME: ..." or add to failed.
fuzz_target() {
	local name=$1 what=$2 out=$3 rc start end execs
	shift 3

	msg "$name: fuzzing up to $RUNS executions or $TIME s"
	start=$(date +%s)
	set +e
	"$out/fuzz_$name" -runs="$RUNS" -max_total_time="$TIME" \
		-print_final_stats=1 -artifact_prefix="$out/artifacts/" \
		${FUZZ_JOBS:+-fork=$FUZZ_JOBS} "$@" \
		"$out/corpus" 2>"$out/fuzz.log"
	rc=$?
	set -e
	end=$(date +%s)
	execs=$(sed -n 's/^stat::number_of_executed_units: *//p' \
		"$out/fuzz.log" | tail -1)
	[ -n "$execs" ] ||
		execs=$(sed -n 's/^Done \([0-9]*\) runs.*/\1/p' "$out/fuzz.log" | tail -1)
	if [ $rc -ne 0 ] || grep -q 'ERROR: \(AddressSanitizer\|libFuzzer\)\|runtime error:' \
		"$out/fuzz.log"; then
		tail -40 "$out/fuzz.log" >&2
		target_failed "$name: fuzzer failed after ${execs:-?} executions (log $out/fuzz.log, artifacts $out/artifacts)"
		return
	fi
	if [ "${execs:-0}" -lt "$RUNS" ]; then
		target_failed "$name: only ${execs:-0} of $RUNS executions in $((end - start)) s (FUZZ_TIME=$TIME)"
		return
	fi
	done_runs+=("$name $execs")
	echo "fuzz: $what: $execs executions in $((end - start)) s, no crash or sanitizer report"
}

# The EFI signature-list parser, from the kernel tree.
efi_parser() {
	local harness=$TOP/fuzz/efi_parser out=$BUILD/fuzz f
	local parser=$SRC/security/integrity/platform_certs/efi_parser.c

	if [ ! -f "$parser" ]; then
		target_failed "efi_parser: no parser source at $parser (run 'make tree' or set SRC=)"
		return
	fi
	mkdir -p "$out/corpus" "$out/artifacts"
	msg "building $out/fuzz_efi_parser from $parser"
	if ! "$CLANG" "${CFLAGS[@]}" -I "$harness/shim" \
		-o "$out/fuzz_efi_parser" "$harness/fuzz_efi_parser.c" "$parser"; then
		target_failed "efi_parser: build failed (libFuzzer missing? apt-get install libclang-rt-14-dev)"
		return
	fi

	# Seeds: the project's signature lists, one by one and concatenated.
	for f in "$BUILD"/keys/*.esl "$harness"/seeds/*; do
		[ -f "$f" ] && cp -f "$f" "$out/corpus/" || true
	done
	if ls "$BUILD"/keys/*.esl >/dev/null 2>&1; then
		cat "$BUILD"/keys/*.esl >"$out/corpus/all.esl"
	fi
	fuzz_target efi_parser parse_efi_signature_list "$out" -max_len=4096
}

# The owner policy's parser and matchers, from security-lockdown/.
owner_policy() {
	local harness=$TOP/fuzz/owner_policy out=$BUILD/fuzz/owner_policy
	local parser=$TOP/security-lockdown/owner_parse.c

	mkdir -p "$out/corpus" "$out/artifacts"
	msg "building $out/fuzz_owner_policy from $parser"
	if ! "$CLANG" "${CFLAGS[@]}" -I "$harness/shim" \
		-iquote "$TOP/security-lockdown" \
		-o "$out/fuzz_owner_policy" "$harness/fuzz_owner_policy.c" "$parser"; then
		target_failed "owner_policy: build failed (libFuzzer missing? apt-get install libclang-rt-14-dev)"
		return
	fi
	cp -f "$harness"/seeds/* "$out/corpus/"
	# Up to 8 KiB: room for more than 256 rules.
	fuzz_target owner_policy lockdown_policy_parse "$out" -max_len=8192 \
		-dict="$harness/owner_policy.dict"
}

efi_parser
owner_policy

if [ ${#failed[@]} -gt 0 ]; then
	msg "error: ${#failed[@]} of 2 targets failed"
	# The last line names every failure (make check shows it).
	printf -v why '%s; ' "${failed[@]}"
	die "${why%; }"
fi
echo "fuzz: ${done_runs[0]} and ${done_runs[1]} executions, no crash or sanitizer report"
