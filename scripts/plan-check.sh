#!/bin/bash
# Check the scenarios' plans (test-initramfs/plans) on the host, without
# booting anything:
#  - every line of every plan file, and every line a plan expands to,
#    splits (the runner's split_words) into the words that eval "set --
#    LINE" gives, as the runner ran its lines before the plans were files;
#  - every plan gives the checks its plan_NAME function gave in the harness
#    of $OLD (the commit before the plans became files), line for line.
#    A check that reads the boot (TRACED) cannot be compared as a line:
#    it runs, its own checks (dmesg_count...) record the words they get,
#    and those must be the old lines' words.  The boot's command line is
#    stubbed (CMDLINE, per case below), and so is $POLICIES;
#  - the after_NAME hooks are the old ones.
#
#   scripts/plan-check.sh        OLD=REV to compare with another harness
# Not part of make check: it proves a one-time move.
set -uo pipefail
# shellcheck source=lib.sh
. "$(dirname "$0")/lib.sh"

RUNNER=$TOP/test-initramfs/lktest-run.sh
PLANDIR=$TOP/test-initramfs/plans
export LKTEST_PLANS=$PLANDIR	# where the runner reads them
# The checks that read the boot; each calls the checks stub_checks records.
TRACED="mokstep warned_values warned_count policy_hash_revoked"
# The command line scripts/boot.sh gives the badparams scenario.
BADPARAMS="secureboot_enable=0 secureboot_enable=yes secureboot_enable=2"
BADPARAMS+=" secureboot_enable= secureboot_enable=$(printf 'x%.0s' {1..300})"
BADPARAMS+=" lockdown=foo lockdown= lockdown=$(printf 'y%.0s' {1..300})"

# The last harness whose plans were plan_* functions: main when the plans
# became files (the merge of 38b47eb).  This check proves that move; plans
# changed since then differ from it by design.
OLD=${OLD:-f93e1d7}

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
git -C "$TOP" show "$OLD:test-initramfs/lktest-run.sh" >"$tmp/old-run.sh" ||
	die "no test-initramfs/lktest-run.sh in $OLD"
mkdir "$tmp/policies"
echo 0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef \
	>"$tmp/policies/hashrevoked.sha256"

cases=0 failed=0 lines=0 raw=0

ok() { printf 'ok   %s\n' "$*"; }
fail() { printf 'FAIL %s\n' "$*"; failed=$((failed + 1)); }

# stub_boot: what a plan or a traced check reads of the guest: the command
# line (cmdline_arg, as the runner has it, on $CMDLINE) and $POLICIES.
# shellcheck disable=SC2034,SC2317 # for the sourced harness
stub_boot() {
	POLICIES=$tmp/policies
	cmdline_arg() {
		local a

		# shellcheck disable=SC2086 # split and globbed as the runner does
		for a in $CMDLINE; do
			[ "${a%%=*}" = "$1" ] && echo "${a#*=}"
		done
	}
}

# stub_checks: the checks the traced ones call write their words to fd 4,
# one "printf %q" line each, instead of running.
# shellcheck disable=SC2317 # called by the traced checks
stub_checks() {
	record() {
		printf '%q ' "$@" >&4
		echo >&4
	}
	check_dmesg_count() { record dmesg_count "$@"; }
	check_dmesg_has() { record dmesg_has "$@"; }
	check_mok_var() { record mok_var "$@"; }
	check_mok_import() { record mok_import "$@"; }
}

# eval_words LINE: in REPLY, LINE's words as the old runner's eval gave
# them, one "printf %q" line.  Run from / as in the guest (an unquoted glob
# would show).
eval_words() {
	eval "set -- $1"
	printf -v REPLY '%q ' "$@"
}

# old_side NAME [ARGS...]: old.text, what plan_NAME ARGS printed in the
# old harness, and old.words, each line's words.
old_side() {
	(
		set +euo pipefail
		# shellcheck disable=SC2034 # read by the harness
		LKTEST_SOURCE_ONLY=1
		# shellcheck source=/dev/null
		. "$tmp/old-run.sh"
		stub_boot
		cd / || exit 1
		"plan_$1" "${@:2}" >"$tmp/old.text"
		while IFS= read -r line; do
			eval_words "$line"
			printf '%s\n' "$REPLY"
		done <"$tmp/old.text" >"$tmp/old.words"
	)
}

# new_side NAME [ARGS...]: new.text, the runner's expansion of
# plans/NAME.plan, and new.words, each line's words, or for a traced check
# those of the checks it ran.  A line that splits otherwise than eval goes
# to split.bad; traced checks to traced.
new_side() {
	(
		set +euo pipefail
		# shellcheck disable=SC2034 # read by the runner
		LKTEST_SOURCE_ONLY=1
		# shellcheck source=../test-initramfs/lktest-run.sh
		. "$RUNNER"
		stub_boot
		stub_checks
		cd / || exit 1
		plan_lines "$@" >"$tmp/new.text" || exit 1
		while IFS= read -r line; do
			split_words "$line" 2>>"$tmp/split.bad" || continue
			printf -v split '%q ' "${WORDS[@]}"
			eval_words "$line"
			[ "$split" = "$REPLY" ] ||
				printf '%s\n  split: %s\n  eval:  %s\n' "$line" "$split" "$REPLY" \
					>>"$tmp/split.bad"
			if [[ " $TRACED " == *" ${WORDS[0]} "* ]]; then
				echo "${WORDS[0]}" >>"$tmp/traced"
				# A skip (77) or a failure is no matter: the words are.
				"check_${WORDS[0]}" "${WORDS[@]:1}" 4>&1 >/dev/null 2>&1
			else
				printf '%s\n' "$split"
			fi
		done <"$tmp/new.text" >"$tmp/new.words"
		exit 0
	)
}

# compare CMDLINE NAME [ARGS...]: plan NAME, included with ARGS, on a boot
# with the command line CMDLINE, against the old plan_NAME ARGS.
compare() {
	local name=$2 what n

	CMDLINE=$1
	shift
	what=$name
	[ $# -lt 2 ] || what+=$(printf ' %q' "${@:2}")
	[ -z "$CMDLINE" ] || what+=" [${CMDLINE:0:60}]"
	cases=$((cases + 1))
	rm -f "$tmp"/old.* "$tmp"/new.* "$tmp/split.bad" "$tmp/traced"
	old_side "$@" 2>"$tmp/old.err"
	if [ -s "$tmp/old.err" ]; then
		fail "$what: the old plan_$name says:"
		sed 's/^/     /' "$tmp/old.err"
		return
	fi
	if ! new_side "$@" 2>"$tmp/new.err" || [ -s "$tmp/new.err" ]; then
		fail "$what: plans/$name.plan does not expand:"
		sed 's/^/     /' "$tmp/new.err"
		return
	fi
	n=$(wc -l <"$tmp/new.text")
	lines=$((lines + n))
	if [ -s "$tmp/split.bad" ]; then
		fail "$what: split_words and eval differ:"
		sed 's/^/     /' "$tmp/split.bad"
		return
	fi
	if ! cmp -s "$tmp/old.words" "$tmp/new.words"; then
		fail "$what: the checks differ (old, new):"
		diff -u "$tmp/old.words" "$tmp/new.words" | tail -n +3 | sed 's/^/     /'
		return
	fi
	if cmp -s "$tmp/old.text" "$tmp/new.text"; then
		ok "$what: $n checks, the old lines"
	elif [ -s "$tmp/traced" ]; then
		ok "$what: $(wc -l <"$tmp/old.words") old checks as words; $n lines," \
			"$(sort "$tmp/traced" | uniq -c | xargs) traced"
	else
		fail "$what: the same words, written otherwise (old, new):"
		diff -u "$tmp/old.text" "$tmp/new.text" | tail -n +3 | sed 's/^/     /'
	fi
}

# raw_lines: every line of every plan file as written (@1@ and all) splits
# as eval splits it.
raw_lines() {
	(
		set +euo pipefail
		# shellcheck disable=SC2034 # read by the runner
		LKTEST_SOURCE_ONLY=1
		# shellcheck source=../test-initramfs/lktest-run.sh
		. "$RUNNER"
		cd / || exit 1
		for f in "$PLANDIR"/*.plan; do
			while IFS= read -r line; do
				[[ $line =~ ^[[:space:]]*(#|$) ]] && continue
				echo "$line" >>"$tmp/raw.all"
				if ! split_words "$line" 2>/dev/null; then
					echo "     ${f##*/}: an unmatched quote: $line"
					continue
				fi
				printf -v split '%q ' "${WORDS[@]}"
				eval_words "$line"
				[ "$split" = "$REPLY" ] ||
					echo "     ${f##*/}: split_words and eval differ: $line"
			done <"$f"
		done
	)
}

# after_hooks: each after_NAME function of the old harness, the same in
# the new.
after_hooks() {
	local f

	for f in $(LKTEST_SOURCE_ONLY=1 bash -c '. "$1"; compgen -A function after_' \
		_ "$tmp/old-run.sh"); do
		cmp -s <(LKTEST_SOURCE_ONLY=1 bash -c '. "$1"; declare -f "$2"' _ "$tmp/old-run.sh" "$f") \
			<(LKTEST_SOURCE_ONLY=1 bash -c '. "$1"; declare -f "$2"' _ "$RUNNER" "$f") ||
			echo "$f"
	done
}

names=$(LKTEST_SOURCE_ONLY=1 bash -c '. "$1"; compgen -A function plan_' _ "$tmp/old-run.sh" |
	sed 's/^plan_//')
[ -n "$names" ] || die "$OLD has no plan_* functions"
echo "plan-check: plans/*.plan against plan_* of $OLD ($(git -C "$TOP" rev-parse --short "$OLD"))"

for name in $names; do
	case $name in
	# Fragments with arguments: as the plans include them.
	guarded)
		compare "" guarded ok
		compare "" guarded EPERM ;;
	integrity_denials)
		compare "" integrity_denials EPERM
		compare "" integrity_denials EKEYREJECTED ;;
	secure_boot)
		compare "" secure_boot "EFI Secure Boot"
		compare "" secure_boot secureboot_enable=1 ;;
	# Both steps of scripts/mkshimvars.sh, none given, and a password
	# that needs quoting in a line.
	mokenroll)
		compare "" mokenroll
		compare "lktest.mokstep=import lktest.mokpw=lktest-mok" mokenroll
		compare "lktest.mokstep=import lktest.mokpw=it's\"a\$b" mokenroll
		compare "lktest.mokstep=verify" mokenroll ;;
	badparams)
		compare "$BADPARAMS" badparams
		compare "" badparams ;;
	*)
		compare "lktest.scenario=$name" "$name" ;;
	esac
done

for f in "$PLANDIR"/*.plan; do
	f=${f##*/}
	grep -qx "${f%.plan}" <<<"$names" || echo "note: plans/$f has no old plan function"
done

bad=$(raw_lines)
raw=$(wc -l <"$tmp/raw.all")
if [ -n "$bad" ]; then
	fail "plan files: lines that split otherwise than eval:"
	printf '%s\n' "$bad"
else
	ok "plan files: $(find "$PLANDIR" -name '*.plan' | wc -l) files, $raw lines split as eval splits them"
fi

bad=$(after_hooks)
if [ -n "$bad" ]; then
	fail "after hooks changed or missing: $bad"
else
	ok "after hooks: $(LKTEST_SOURCE_ONLY=1 bash -c '. "$1"; compgen -A function after_' \
		_ "$RUNNER" | xargs) as in $OLD"
fi

echo "plan-check: $cases cases, $lines expanded lines, $failed failed"
[ "$failed" -eq 0 ]
