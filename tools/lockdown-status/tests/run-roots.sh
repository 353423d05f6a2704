#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# Run lockdown-status against every fixture tree in TESTS/roots/NAME (a
# tiny /proc and /sys) through LOCKDOWN_STATUS_ROOT, and compare its
# output and exit status with TESTS/expected/NAME.out and NAME.rc; -q
# must give the same status and print nothing. Prints KTAP.
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

# efivarfs files are binary; the fixtures hold them as hex bytes (*.hex).
unhex()
{
	# shellcheck disable=SC2013,SC2059 # words on purpose; octal escape
	for b in $(cat "$1"); do
		printf "\\$(printf %03o "0x$b")"
	done
}

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
done

rc=0
"$prog" -h > "$out/help.out" 2>&1 || rc=$?
if [ "$rc" = 0 ] && grep -q '^Exit status: 0 not locked down' "$out/help.out"; then
	result ok "-h: help with the exit statuses"
else
	result fail "-h: exit status $rc or no exit statuses in the help"
fi
rc=0
"$prog" -x > "$out/badopt.out" 2>&1 || rc=$?
if [ "$rc" = 3 ]; then
	result ok "unknown option: exit status 3"
else
	result fail "unknown option: exit status $rc, expected 3"
fi

echo "1..$n"
echo "# $((n - failed)) passed, $failed failed"
[ "$failed" = 0 ]
