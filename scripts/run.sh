#!/bin/bash
# "make" (or "make run"): build what the demo needs, each stage timed as
# "make check" times its stages (output in build/logs/stage-NAME.log),
# then boot the firmware Secure Boot demo and print its transcript
# (scripts/demo.sh).
set -uo pipefail
. "$(dirname "$0")/lib.sh"

LOGS=$BUILD/logs
. "$TOP/scripts/checklib.sh"

stage deps	"$TOP/scripts/install-deps.sh"
stage tree	"$TOP/scripts/tree.sh"
stage config	"$TOP/scripts/configure.sh"
stage kernel	"$TOP/scripts/build-kernel.sh"
stage initramfs	"$TOP/scripts/mkinitramfs.sh"
stage vars	"$TOP/scripts/mkvars.sh"
t0=$(date +%s)
"$TOP/scripts/demo.sh"
rc=$?
printf '==> %-12s %4ss  %s\n' demo "$(($(date +%s) - t0))" "$([ $rc -eq 0 ] && echo ok || echo FAILED)"
echo "total time: $(($(date +%s) - T0))s"
exit $rc
