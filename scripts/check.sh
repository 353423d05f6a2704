#!/bin/bash
# Everything "make check" does: build, boot the whole matrix, judge.
# The last line printed is "N passed, N failed"; exit status 1 on any
# failure. Each stage prints its time; stages whose inputs did not change
# are skipped by the scripts themselves.
set -uo pipefail
. "$(dirname "$0")/lib.sh"

LOGS=$BUILD/logs
. "$TOP/scripts/checklib.sh"

stage deps	"$TOP/scripts/install-deps.sh"
stage tree	"$TOP/scripts/tree.sh"
stage config	"$TOP/scripts/configure.sh"
stage kernel	"$TOP/scripts/build-kernel.sh"
# 6.1 also builds a kernel whose lockdown LSM is not early
# (configs/lsm-late.config), to boot efivar_ssdt and integrity (acpi_rsdp=
# and an initrd ACPI table) on it after the matrix: what is refused only
# while early LSMs answer would pass there.
# Its output ($LATE_OBJ) starts as a copy of the main kernel's and is
# built at the main kernel's path, mounted over it in a mount namespace
# of its own: Kbuild records absolute paths (objtool's build does), and
# with the same paths it recompiles only what the two options touch
# (under a minute; on a path of its own, everything: 10 minutes cold).  Without the
# privilege to mount, it is built on its own path.
LATE_OBJ=$BUILD/obj-late
build_late() {
	local late=("$TOP/scripts/configure.sh" "$TOP/configs/lsm-late.config")

	[ -f "$LATE_OBJ/.config" ] || cp -a "$OBJ" "$LATE_OBJ" || return 1
	if unshare --mount --propagation private true 2>/dev/null; then
		# shellcheck disable=SC2016 # expanded by the inner shell
		unshare --mount --propagation private env OBJ="$OBJ" OBJ_NAME=obj-late \
			sh -c 'mount --bind "$1" "$OBJ" && shift && "$@" &&
				"${1%/*}/build-kernel.sh"' sh "$LATE_OBJ" "${late[@]}"
	else
		OBJ=$LATE_OBJ "${late[@]}" && OBJ=$LATE_OBJ "$TOP/scripts/build-kernel.sh"
	fi
}
[ "$KVER" != 6.1 ] || stage kernel-late build_late
[ -x "$TOP/scripts/mkkeys.sh" ] && stage keys "$TOP/scripts/mkkeys.sh"
[ -x "$TOP/scripts/mkvars.sh" ] && stage vars "$TOP/scripts/mkvars.sh"
# The exported series: every patch applies (tree.sh proved it) and passes
# checkpatch --strict, but for a warning its notes justify ("checkpatch:
# TYPE: why", see tree.sh).
stage series	"$TOP/scripts/series.sh"
# docs NAME COMMAND...: one check of the documentation or the status
# tool, output kept in the log.
docs() {
	local name=$1

	shift
	if "$@" >"$LOGS/docs-$name.log" 2>&1; then
		record PASS "$name"
	else
		record FAIL "$name" "see $LOGS/docs-$name.log"
	fi
}

# The checks that boot no kernel's harness: checkpatch on the exported
# series, git am onto pristine, the documentation, the fuzzer and the ESP
# test.  They run beside the last stages and the boot matrix (see where
# they start, below); their lines are printed after it.
other_checks() {
	local p n ignore t0 r key passed=$BUILD/checkpatch-passed same=0 all=0 runs fpassed

	t0=$(date +%s)
	rm -f "$LOGS"/checkpatch-*.log
	mkdir -p "$passed"
	for p in "$BUILD"/series/0*.patch; do
		[ -f "$p" ] || continue
		n=${p##*/}
		all=$((all + 1))
		ignore=$(sed -n '/^Notes:$/,/^ [^ ].*|/s/^    checkpatch: \([A-Z_]*\):.*/\1/p' "$p" |
			paste -sd, -)
		# A patch that passed, byte for byte, under the same checkpatch
		# and its word lists, passes again: only a warm rerun skips it.
		# Not in the key: the commit id on the first line and the
		# header's Date, which change whenever tree.sh applies the
		# series again (git am commits anew; the subsystem commit is
		# dated when it is made), though checkpatch reads neither.
		key=$( (sed '1{/^From [0-9a-f]\{40\} /d}; /^Date: /d' "$p"
			cat "$SRC"/scripts/checkpatch.pl "$SRC"/scripts/spelling.txt \
			"$SRC"/scripts/const_structs.checkpatch; echo "$ignore") | sha256sum)
		key=${key%% *}
		if [ -e "$passed/$key" ]; then
			same=$((same + 1))
			echo "passed before, unchanged: $passed/$key" >"$LOGS/checkpatch-$n.log"
			record PASS "checkpatch $n"
			continue
		fi
		# From inside the tree, as a kernel developer runs it; Debian's
		# python3 first, for scripts/spdxcheck.py's python3-ply.
		if (cd "$SRC" && PATH=/usr/bin:$PATH ./scripts/checkpatch.pl --strict -q \
			${ignore:+--ignore "$ignore"} "$p") >"$LOGS/checkpatch-$n.log" 2>&1 &&
			! grep -q Traceback "$LOGS/checkpatch-$n.log"; then
			record PASS "checkpatch $n"
			: >"$passed/$key"
		else
			record FAIL "checkpatch $n" "$(grep -m1 -E '^(ERROR|WARNING|CHECK)' "$LOGS/checkpatch-$n.log")"
		fi
	done
	printf '==> %-12s %4ss  %s of %s patches unchanged since they passed\n' checkpatch \
		"$(($(date +%s) - t0))" "$same" "$all"

	# kernel-tree-patches/ is what git format-patch makes of the tree they
	# built: no hand edits, no stale numbering.
	if "$TOP/scripts/tree-patches.sh" --check >"$LOGS/tree-patches.log" 2>&1; then
		record PASS "kernel-tree-patches are format-patch output"
	else
		record FAIL "kernel-tree-patches are format-patch output" "$(tail -n 1 "$LOGS/tree-patches.log")"
	fi

	# What a user gets: the exported series applies with git am to pristine.
	if "$TOP/scripts/series-check.sh" >"$LOGS/series-check.log" 2>&1; then
		record PASS "series applies with git am"
	else
		record FAIL "series applies with git am" "$(tail -n 1 "$LOGS/series-check.log")"
	fi
	printf '==> %-12s %s\n' series-am "$(tail -n 1 "$LOGS/series-check.log")"

	# The compiler wrapper never serves a stale object (scripts/kcc).
	docs kcc-incbin "$TOP/scripts/kcc-check.sh"

	# Documentation and the status tool.
	docs rst-syntax /usr/bin/python3 -m docutils --halt=warning --report=warning \
		"$TOP/Documentation/admin-guide/LSM/lockdown.rst" /dev/null
	docs man-page groff -man -Tutf8 -ww -z "$TOP/Documentation/man/kernel_lockdown.7"
	docs lockdown-status make -s -C "$TOP/tools/lockdown-status" O="$BUILD/status-check" check

	# The EFI signature-list parser (from the tree's source) and the owner
	# policy parser, fuzzed in userspace: 2 million executions each on the
	# corpus earlier runs grew, a regression check; "make fuzz" runs 10
	# million. The log's last line sums up both targets. As with
	# checkpatch, a run that passed on the same inputs (the parsers and
	# what they include, the harnesses, seeds and dictionary, fuzz.sh,
	# the compiler, the count) is not repeated. The fuzzers include only
	# their own shim headers, not the tree's, and 6.12's efi_parser.c is
	# 6.1's, so a pass is kept for both trees (build/fuzz-passed): the
	# keys' .esl seeds differ between trees only in the random keys
	# scripts/mkkeys.sh made, so the key holds mkkeys.sh, not the keys.
	t0=$(date +%s)
	runs=${FUZZ_RUNS:-2000000}
	fpassed=$TOP/build/fuzz-passed
	key=$( (cat "$TOP/scripts/fuzz.sh" "$TOP/scripts/mkkeys.sh" \
		"$SRC/security/integrity/platform_certs/efi_parser.c"
		find "$TOP/fuzz" "$TOP/security-lockdown" -type f -print0 | sort -z |
			xargs -0 cat
		"$(command -v clang-14 || command -v clang)" --version
		echo "$runs") 2>&1 | sha256sum)
	key=${key%% *}
	mkdir -p "$fpassed"
	if [ -s "$fpassed/$key" ]; then
		record PASS "fuzz efi_parser, owner_policy"
		r="passed before on the same inputs: $(cat "$fpassed/$key")"
		echo "$r" >"$LOGS/fuzz.log"
	elif FUZZ_RUNS=$runs "$TOP/scripts/fuzz.sh" >"$LOGS/fuzz.log" 2>&1; then
		record PASS "fuzz efi_parser, owner_policy"
		r=$(tail -n 1 "$LOGS/fuzz.log")
		echo "$r" >"$fpassed/$key"
	else
		record FAIL "fuzz efi_parser, owner_policy" "$(tail -n 1 "$LOGS/fuzz.log")"
		r=FAILED
	fi
	printf '==> %-12s %4ss  %s\n' fuzz "$(($(date +%s) - t0))" "$r"

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
}

# The other checks need the series, the keys and the project's store,
# nothing after them. Each of them, and each stage below, keeps one CPU
# busy (one guest, dracut, checkpatch, one fuzzer): started here, they
# take the second CPU while the stages run, not a guest's in the matrix.
other_checks >"$LOGS/other-checks.out" 2>&1 &
other=$!
# A stage that fails exits: the other checks stop there too (a fuzzer or
# checkpatch already running finishes on its own).
trap 'kill "$other" 2>/dev/null' EXIT

stage store-baddb "$TOP/scripts/mkstore.sh" baddb
stage initramfs	"$TOP/scripts/mkinitramfs.sh"
# Debian's own packaged kernel, which the hibernate scenario asks to
# resume a sealed image (hib_stock).
[[ " ${SCENARIOS//[$'\t\n']/ } " != *" hibernate "* ]] ||
	stage stock-debian "$TOP/scripts/stock-debian.sh"
# The MOK enrolled through shim's MokManager (three boots, skipped when
# nothing changed).
stage shim-vars	"$TOP/scripts/mkshimvars.sh"

matrix
if [ "$KVER" = 6.1 ]; then
	mkdir -p "$LOGS/lsm-late"
	LOGS=$LOGS/lsm-late KERNEL=$LATE_OBJ/arch/x86/boot/bzImage \
		SCENARIOS="efivar_ssdt integrity" TAG=" (lsm-late)" matrix
fi
kunit
# A check that died half-way has not passed: say so, or its missing
# records would only show as a smaller count.
wait "$other" ||
	record FAIL "other checks" "stopped early: see $LOGS/other-checks.out"
cat "$LOGS/other-checks.out"

finish
