#!/bin/bash
# Build bzImage and modules of the configured tree with ccache. A compiler
# warning in any file our change touches fails the build (the stock tree's
# own warnings are left alone).
#   KTARGETS="..."   make these instead (scripts/buildcheck.sh)
#   KMAKE_ARGS="..." more make arguments (C=1 W=1), and the caller judges
#                    the warnings in the log, $BUILD/build-$OBJ_NAME.log
set -euo pipefail
. "$(dirname "$0")/lib.sh"

log=$BUILD/build-$OBJ_NAME.log
# Kbuild's walk over a tree with nothing to do takes 15 s on two cores:
# skip it when the tree (its commit and any uncommitted change) and the
# configuration are those of the last good build.
targets=${KTARGETS:-bzImage modules}
h=$({ git -C "$SRC" rev-parse HEAD && git -C "$SRC" diff HEAD &&
	cat "$OBJ/.config" && echo "$targets ${KMAKE_ARGS:-}"; } | sha256sum | cut -c1-16)
if stamp_ok "kernel-$OBJ_NAME" "$h" && [ -s "$OBJ/arch/x86/boot/bzImage" ]; then
	msg "built $(cat "$OBJ/include/config/kernel.release") (up to date)"
	exit 0
fi
rm -f "$BUILD/.stamp-kernel-$OBJ_NAME"
set +e
# shellcheck disable=SC2086 # lists of words
kmake -s $targets ${KMAKE_ARGS:-} >"$log" 2>&1
rc=$?
set -e
if [ $rc -ne 0 ]; then
	grep -E 'error|Error' "$log" | head -20 >&2
	die "kernel build failed; see $log"
fi

ours=$(git -C "$SRC" diff --name-only pristine 2>/dev/null || true)
[ -z "${KMAKE_ARGS:-}" ] || ours=
bad=0
for f in $ours; do
	if grep -F "$SRC/$f:" "$log" | grep -q 'warning:'; then
		grep -F "$SRC/$f:" "$log" | grep 'warning:' >&2
		bad=1
	fi
done
[ $bad -eq 0 ] || die "warnings in files the series changes"
stamp_set "kernel-$OBJ_NAME" "$h"
msg "built $(kmake -s kernelrelease)"
