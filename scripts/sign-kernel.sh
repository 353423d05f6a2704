#!/bin/bash
# Sign a kernel for the project's Secure Boot store with the db key.
#   sign-kernel.sh [IN [OUT]]   default: $OBJ's bzImage -> $BUILD/bzImage.signed
set -euo pipefail
. "$(dirname "$0")/lib.sh"

KEYS=${KEYS:-$BUILD/keys}
IN=${1:-$OBJ/arch/x86/boot/bzImage}
OUT=${2:-$BUILD/bzImage.signed}

[ -s "$IN" ] || die "no kernel at $IN (build it first)"
[ -s "$KEYS/db.key" ] || "$(dirname "$0")/mkkeys.sh"

h=$(inputs_hash "$IN" "$KEYS/db.key" "$KEYS/db.crt")
name=sign-$(echo "$OUT" | sha256sum | cut -c1-8)
if stamp_ok "$name" "$h" && [ -s "$OUT" ]; then
	exit 0
fi
sbsign --key "$KEYS/db.key" --cert "$KEYS/db.crt" --output "$OUT.tmp" "$IN" >/dev/null ||
	die "sbsign failed on $IN"
sbverify --cert "$KEYS/db.crt" "$OUT.tmp" >/dev/null 2>&1 ||
	die "sbverify does not accept $OUT.tmp"
mv "$OUT.tmp" "$OUT"
stamp_set "$name" "$h"
msg "signed $IN -> $OUT"
