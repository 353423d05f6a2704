#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# Run lockdown-status against every fixture tree in TESTS/roots/NAME (a
# tiny /proc, /sys and /dev/kmsg) through LOCKDOWN_STATUS_ROOT, and
# compare its output and exit status with TESTS/expected/NAME.out and
# NAME.rc; -q must give the same status and print nothing. --json must
# give valid JSON (python3 -m json.tool) and the same status, and match
# NAME.json where there is one; --keys must match NAME.keys where there
# is one. Then the command line: help, version, bad options; and the man
# page, through groff -man -ww. Prints KTAP.
#
# usage: run-roots.sh PROG TESTS_DIR OUTPUT_DIR

set -eu

prog=$1
tests=$2
out=$3
n=0
failed=0

result()
{
	n=$((n + 1))
	if [ "$1" = ok ]; then
		echo "ok $n $2"
	else
		echo "not ok $n $2"
		failed=$((failed + 1))
	fi
}

skip()
{
	n=$((n + 1))
	echo "ok $n $1 # SKIP $2"
}

# efivarfs files are binary; the fixtures hold them as hex bytes (*.hex).
unhex()
{
	# shellcheck disable=SC2013,SC2059 # words on purpose; octal escape
	for b in $(cat "$1"); do
		printf "\\$(printf %03o "0x$b")"
	done
}

# json_check NAME FILE RC: FILE is valid JSON whose exit_status is RC.
json_check()
{
	if [ -z "$python" ]; then
		skip "$1: --json is valid JSON" "no python3"
		return
	fi
	if "$python" -m json.tool "$2" > "$2.tool" 2>&1; then
		result ok "$1: --json is valid JSON"
	else
		sed 's/^/# /' "$2.tool"
		result fail "$1: --json is not valid JSON"
		return
	fi
	if "$python" -c 'import json, sys
sys.exit(json.load(open(sys.argv[1]))["exit_status"] != int(sys.argv[2]))' \
	    "$2" "$3"; then
		result ok "$1: --json says exit_status $3"
	else
		result fail "$1: --json exit_status differs from $3"
	fi
}

python=$(command -v python3 || true)

echo "TAP version 13"
case $out in
"$tests"|"$tests"/*)
	echo "Bail out! output $out is inside the fixtures $tests"
	exit 1
	;;
esac
rm -rf "$out/roots"
mkdir -p "$out/roots"

for dir in "$tests"/roots/*/; do
	name=$(basename "$dir")
	tree=$out/roots/$name
	cp -R "$dir" "$tree"
	find "$tree" -name '*.hex' > "$tree.hexlist"
	while read -r hex; do
		unhex "$hex" > "${hex%.hex}"
		rm -f "$hex"
	done < "$tree.hexlist"

	rc=0
	LOCKDOWN_STATUS_ROOT=$tree "$prog" > "$tree.out" 2>&1 || rc=$?
	qrc=0
	LOCKDOWN_STATUS_ROOT=$tree "$prog" -q > "$tree.qout" 2>&1 || qrc=$?
	want=$(cat "$tests/expected/$name.rc")

	if diff -u "$tests/expected/$name.out" "$tree.out" >&2; then
		result ok "$name: output"
	else
		result fail "$name: output"
	fi
	if [ "$rc" = "$want" ]; then
		result ok "$name: exit status $rc"
	else
		result fail "$name: exit status $rc, expected $want"
	fi
	if [ "$qrc" = "$want" ] && [ ! -s "$tree.qout" ]; then
		result ok "$name: -q is silent, exit status $qrc"
	else
		result fail "$name: -q printed or exited $qrc, expected $want"
	fi

	jrc=0
	LOCKDOWN_STATUS_ROOT=$tree "$prog" --json > "$tree.json" 2> "$tree.jerr" ||
		jrc=$?
	if [ "$jrc" = "$want" ] && [ ! -s "$tree.jerr" ]; then
		result ok "$name: --json exit status $jrc"
	else
		result fail "$name: --json exited $jrc (expected $want) or wrote to stderr"
	fi
	json_check "$name" "$tree.json" "$want"
	if [ -f "$tests/expected/$name.json" ]; then
		if diff -u "$tests/expected/$name.json" "$tree.json" >&2; then
			result ok "$name: --json output"
		else
			result fail "$name: --json output"
		fi
	fi

	# --draft-policy: stdout and stderr as NAME.draft, status NAME.draftrc.
	if [ -f "$tests/expected/$name.draftrc" ]; then
		drc=0
		LOCKDOWN_STATUS_ROOT=$tree "$prog" --draft-policy > "$tree.draft" 2>&1 ||
			drc=$?
		dwant=$(cat "$tests/expected/$name.draftrc")
		if diff -u "$tests/expected/$name.draft" "$tree.draft" >&2 &&
		   [ "$drc" = "$dwant" ]; then
			result ok "$name: --draft-policy output, exit status $drc"
		else
			result fail "$name: --draft-policy output or exit status $drc, expected $dwant"
		fi
	fi

	if [ -f "$tests/expected/$name.keys" ]; then
		krc=0
		LOCKDOWN_STATUS_ROOT=$tree "$prog" --keys > "$tree.keys" 2>&1 ||
			krc=$?
		if diff -u "$tests/expected/$name.keys" "$tree.keys" >&2 &&
		   [ "$krc" = "$want" ]; then
			result ok "$name: --keys output, exit status $krc"
		else
			result fail "$name: --keys output or exit status $krc"
		fi
	fi
done

# opt NAME RC OUT_GREP ERR_GREP ARGS...: exit status RC; stdout has a line
# matching OUT_GREP (or is empty for ""), stderr likewise.
opt()
{
	what=$1 want=$2 outpat=$3 errpat=$4
	shift 4
	rc=0
	"$prog" "$@" > "$out/opt.out" 2> "$out/opt.err" || rc=$?
	if [ "$rc" != "$want" ]; then
		result fail "$what: exit status $rc, expected $want"
		return
	fi
	for f in out err; do
		if [ "$f" = out ]; then pat=$outpat; else pat=$errpat; fi
		if [ -z "$pat" ] && [ -s "$out/opt.$f" ]; then
			result fail "$what: unexpected std$f"
			sed 's/^/# /' "$out/opt.$f"
			return
		fi
		if [ -n "$pat" ] && ! grep -q -- "$pat" "$out/opt.$f"; then
			result fail "$what: std$f lacks '$pat'"
			sed 's/^/# /' "$out/opt.$f"
			return
		fi
	done
	result ok "$what: exit status $rc"
}

opt "-h: help with the exit statuses" 0 '^Exit status: 0 not locked down' '' -h
opt "--help: help on stdout" 0 '^  -j, --json' '' --help
opt "--version" 0 '^lockdown-status [0-9]' '' --version
opt "unknown option -x" 3 '' "^Try '.* --help'" -x
opt "unknown option --bogus" 3 '' "unrecognized option '--bogus'" --bogus
opt "an argument" 3 '' "unexpected argument 'now'" now
opt "--keys with an argument" 3 '' "doesn't allow an argument" --keys=all

man=$tests/../lockdown-status.1
if ! command -v groff > /dev/null; then
	skip "lockdown-status.1: groff -man -ww" "no groff"
elif groff -man -Tutf8 -ww -z "$man" > "$out/man.err" 2>&1 &&
     [ ! -s "$out/man.err" ]; then
	result ok "lockdown-status.1: groff -man -ww finds nothing"
else
	sed 's/^/# /' "$out/man.err"
	result fail "lockdown-status.1: groff -man -ww warns"
fi

echo "1..$n"
echo "# $((n - failed)) passed, $failed failed"
[ "$failed" = 0 ]
