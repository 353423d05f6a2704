#!/bin/bash
# Fuzz the kernel's EFI signature list parser in userspace with libFuzzer.
#
# Builds fuzz/efi_parser/ against the parser source of the kernel tree ($SRC,
# not a copy: security/integrity/platform_certs/efi_parser.c), seeds a corpus
# from the project's .esl files, and runs for a bounded number of executions
# or time.  Exits non-zero on a crash or sanitizer report, or when the time
# ran out before FUZZ_RUNS executions.
#
#   FUZZ_RUNS=10000000  executions to reach (libFuzzer -runs)
#   FUZZ_TIME=1800      seconds at most (libFuzzer -max_total_time)
#   FUZZ_JOBS=1         parallel fuzzing processes (libFuzzer -fork)
#   CLANG=clang-14      compiler (needs libclang-rt-14-dev for libFuzzer)
set -euo pipefail
. "$(dirname "$0")/lib.sh"

RUNS=${FUZZ_RUNS:-10000000}
TIME=${FUZZ_TIME:-1800}
CLANG=${CLANG:-$(command -v clang-14 || command -v clang || true)}
HARNESS=$TOP/fuzz/efi_parser
OUT=$BUILD/fuzz
PARSER=$SRC/security/integrity/platform_certs/efi_parser.c

[ -n "$CLANG" ] || die "clang not found (apt-get install clang-14 libclang-rt-14-dev)"
[ -f "$PARSER" ] || die "no parser source at $PARSER (run 'make tree' or set SRC=)"
mkdir -p "$OUT/corpus" "$OUT/artifacts"

msg "building $OUT/fuzz_efi_parser from $PARSER"
"$CLANG" -g -O1 -fno-omit-frame-pointer \
	-fsanitize=fuzzer,address,undefined -fno-sanitize-recover=all \
	-Wall -Wno-unused-variable -Wno-unused-but-set-variable \
	-I "$HARNESS/shim" \
	-o "$OUT/fuzz_efi_parser" "$HARNESS/fuzz_efi_parser.c" "$PARSER" ||
	die "build failed (libFuzzer missing? apt-get install libclang-rt-14-dev)"

# Seeds: the project's signature lists, one by one and concatenated.
for f in "$BUILD"/keys/*.esl "$HARNESS"/seeds/*; do
	[ -f "$f" ] && cp -f "$f" "$OUT/corpus/" || true
done
if ls "$BUILD"/keys/*.esl >/dev/null 2>&1; then
	cat "$BUILD"/keys/*.esl >"$OUT/corpus/all.esl"
fi

msg "fuzzing: up to $RUNS executions or $TIME s"
start=$(date +%s)
set +e
"$OUT/fuzz_efi_parser" -runs="$RUNS" -max_total_time="$TIME" \
	-max_len=4096 -print_final_stats=1 -artifact_prefix="$OUT/artifacts/" \
	${FUZZ_JOBS:+-fork=$FUZZ_JOBS} \
	"$OUT/corpus" 2>"$OUT/fuzz.log"
rc=$?
set -e
end=$(date +%s)
execs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$OUT/fuzz.log" | tail -1)
[ -n "$execs" ] || execs=$(sed -n 's/^Done \([0-9]*\) runs.*/\1/p' "$OUT/fuzz.log" | tail -1)
if [ $rc -ne 0 ] || grep -q 'ERROR: \(AddressSanitizer\|libFuzzer\)\|runtime error:' "$OUT/fuzz.log"; then
	tail -40 "$OUT/fuzz.log" >&2
	die "fuzzer failed after ${execs:-?} executions (log $OUT/fuzz.log, artifacts $OUT/artifacts)"
fi
if [ "${execs:-0}" -lt "$RUNS" ]; then
	die "only ${execs:-0} of $RUNS executions in $((end - start)) s (FUZZ_TIME=$TIME)"
fi
echo "fuzz: parse_efi_signature_list: $execs executions in $((end - start)) s, no crash or sanitizer report"
