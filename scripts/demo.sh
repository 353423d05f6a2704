#!/bin/bash
# "make run": boot the kernel under OVMF with Secure Boot on and the
# project's keys enrolled (the "demo" scenario of scripts/boot.sh) and print
# a short transcript a user could paste into a bug report: the commands the
# guest ran with their output and verdicts, then the kernel's lockdown lines.
set -uo pipefail
. "$(dirname "$0")/lib.sh"

LOGS=$BUILD/logs
s=${1:-demo}
mkdir -p "$LOGS"
"$TOP/scripts/boot.sh" "$s" >"$LOGS/$s.boot.log" 2>&1
rc=$?
read -r _ pass fail total secs _ <"$LOGS/$s.result" 2>/dev/null ||
	{ pass=0 fail=0 total=0 secs=-; }

echo "=== Linux $(sed -n 's/^# lktest: scenario [^,]*, kernel //p' "$LOGS/$s.ktap" |
	head -n 1) under OVMF, Secure Boot with the project's keys ==="
# KTAP to a transcript: "# $ CMD -> exit N" is the command, the other "# "
# lines its output, "ok N - CHECK" the verdict.
tr -d '\r' <"$LOGS/$s.ktap" | awk '
	/^# \$ / { sub(/^# /, ""); sub(/ -> exit [0-9]+$/, ""); print; next }
	/^# lktest:|^# totals:/ { next }
	/^# / { sub(/^# /, "  "); print; next }
	/^ok [0-9]+ - / { sub(/^ok [0-9]+ - /, ""); print "  [ok: " $0 "]"; print ""; next }
	/^not ok [0-9]+ - / { sub(/^not ok [0-9]+ - /, ""); print "  [FAILED: " $0 "]"; print ""; next }'
echo "=== kernel log: Secure Boot and lockdown ==="
tr -d '\r' <"$LOGS/$s.console" |
	grep -aE 'Secure [Bb]oot|[Ll]ockdown:|locked down|Loading of|revoked|X\.509 cert' |
	grep -avE '^lktest:|# |ok [0-9]' |
	sed 's/^/  /' | head -n 20
echo
echo "$s: $pass of $total checks passed, $fail failed, ${secs}s; logs in $LOGS/$s.*"
[ $rc -eq 0 ] || sed 's/^/  /' "$LOGS/$s.boot.log"
exit $rc
