#!/bin/bash
# Where a call's instructions go: "make bench" says how many a guarded
# operation costs; this says in which functions.
#
#   scripts/trace-path.sh SCENARIO FUNCTION [SKIP]
#
# Boots SCENARIO with boot.sh (KERNEL=, INITRD=, SIGNED_KERNEL= as for
# boot.sh), stops at the (SKIP+1)-th call of FUNCTION (default 200: inside
# a loop, past its first calls) through QEMU's gdb stub, steps it
# instruction by instruction to its return, and prints how many
# instructions ran in each function, in the order first entered. A rep
# string instruction counts once (under -icount, once per iteration).
# Symbols from $OBJ/System.map, so OBJ= names the kernel's build too.
# For the bench's scenarios, its initramfs and signed kernel:
#
#   INITRD=build/bench/initramfs.img \
#   SIGNED_KERNEL=build/bench/bzImage-ours.signed \
#   scripts/trace-path.sh bench_policy __x64_sys_pwrite64
#
# Needs gdb (with Python). Never run by make check or make bench.
set -euo pipefail
HERE=$(cd "$(dirname "$0")" && pwd)
. "$HERE/lib.sh"

[ $# -ge 2 ] || die "usage: trace-path.sh SCENARIO FUNCTION [SKIP]"
command -v gdb >/dev/null || die "gdb is not installed"
scenario=$1
port=$((20000 + RANDOM % 10000))
LOGS=${LOGS:-$BUILD/trace/$scenario}
mkdir -p "$LOGS"
rm -f "$LOGS/trace"

GDB_PORT=$port LOGS=$LOGS "$HERE/boot.sh" "$scenario" >"$LOGS/boot.log" 2>&1 &
boot=$!
for _ in $(seq 100); do
	(: >"/dev/tcp/127.0.0.1/$port") 2>/dev/null && break
	sleep 0.1
done
TRACE_PORT=$port TRACE_FUNCTION=$2 TRACE_SKIP=${3:-200} \
	TRACE_MAP=$OBJ/System.map TRACE_OUT=$LOGS/trace \
	gdb -batch -nx -ex "file $OBJ/vmlinux" -x "$HERE/trace-path.py" \
	>"$LOGS/gdb.log" 2>&1 || true
wait "$boot" || msg "boot.sh $scenario failed; see $LOGS/boot.log"
[ -s "$LOGS/trace" ] || die "no trace; see $LOGS/gdb.log"
cat "$LOGS/trace"
