#!/bin/bash
# Sign a kernel (or any EFI binary) with one of the project's keys.
#   sign-kernel.sh [IN [OUT [KEY]]]   default: $OBJ's bzImage ->
#                                     $BUILD/bzImage.signed, with the db key
# KEY names a key of scripts/mkkeys.sh: db, mok (enrolled through shim),
# attacker (root's own, which no scenario may come to trust).
set -euo pipefail
. "$(dirname "$0")/lib.sh"

KEYS=${KEYS:-$BUILD/keys}
IN=${1:-$OBJ/arch/x86/boot/bzImage}
OUT=${2:-$BUILD/bzImage.signed}
KEY=${3:-db}

[ -s "$IN" ] || die "no kernel at $IN (build it first)"
[ -s "$KEYS/$KEY.key" ] || "$(dirname "$0")/mkkeys.sh"

h=$(inputs_hash "$IN" "$KEYS/$KEY.key" "$KEYS/$KEY.crt")
name=sign-$(echo "$OUT" | sha256sum | cut -c1-8)
if stamp_ok "$name" "$h" && [ -s "$OUT" ]; then
	exit 0
fi
sbsign --key "$KEYS/$KEY.key" --cert "$KEYS/$KEY.crt" --output "$OUT.tmp" "$IN" >/dev/null ||
	die "sbsign failed on $IN"
sbverify --cert "$KEYS/$KEY.crt" "$OUT.tmp" >/dev/null 2>&1 ||
	die "sbverify does not accept $OUT.tmp"
mv "$OUT.tmp" "$OUT"
stamp_set "$name" "$h"
msg "signed $IN -> $OUT with the $KEY key"
