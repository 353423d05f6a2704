#!/bin/bash
# "make run": boot the firmware Secure Boot scenario and print a short
# transcript a user could paste into a bug report.
set -uo pipefail
. "$(dirname "$0")/lib.sh"

LOGS=$BUILD/logs
s=${1:-firmware}
"$TOP/scripts/boot.sh" "$s"
rc=$?
console=$LOGS/$s.console

echo
echo "=== $s boot: kernel console (lockdown and Secure Boot lines) ==="
grep -aE 'Secure boot|secureboot|[Ll]ockdown|locked down|Loading of|module verification' \
	"$console" | sed 's/^/  /' | head -20
echo
echo "=== $s boot: test harness (KTAP from the guest) ==="
grep -aE '^(ok|not ok|# )' "$LOGS/$s.ktap" | sed 's/^/  /' | head -60
echo
read -r _ pass fail total secs _ <"$LOGS/$s.result"
echo "$s: $pass of $total checks passed, $fail failed, ${secs}s; logs in $LOGS/"
exit $rc
