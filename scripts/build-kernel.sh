#!/bin/bash
# Build bzImage and modules of the configured tree with ccache.
set -euo pipefail
. "$(dirname "$0")/lib.sh"

kmake -s bzImage modules 2>&1 | tee "$BUILD/build-${OBJ##*/}.log" |
	grep -E 'error|warning:' || true
[ "${PIPESTATUS[0]}" -eq 0 ] || die "kernel build failed; see $BUILD/build-${OBJ##*/}.log"
msg "built $(kmake -s kernelrelease)"
