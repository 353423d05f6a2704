#!/bin/bash
# Make a variant of the project's OVMF variable store, for the scenarios
# that need other firmware keys than build/vars/project-VARS.fd:
#
#   scripts/mkstore.sh baddb    $BUILD/vars/baddb-VARS.fd: db holds the db
#                               list, a malformed list with the "bad"
#                               certificate, and the both list
#
# The variant gets its own keys folder ($BUILD/stores/NAME/keys) with copies of
# the project's keys (never new ones: PK and KEK must be the same), and is
# provisioned by scripts/mkvars.sh (DB_EXTRA/DBX_EXTRA, see mkkeys.sh).
#
# The firmware refuses to store a malformed list (SetVariable() checks the
# format, EFI_INVALID_PARAMETER), so baddb is provisioned well formed and
# then damaged in the flash image, as a firmware bug or a writer bypassing
# SetVariable() would: the SignatureSize of the "bad" list, one byte
# short, no longer divides its signature area.  Firmware does not check
# variable contents again when reading them.
set -euo pipefail
HERE=$(cd "$(dirname "$0")" && pwd)
. "$HERE/lib.sh"

name=${1:?usage: mkstore.sh baddb}
base=$BUILD/keys
work=$BUILD/stores/$name
dir=$work/keys		# outside the store: mkvars.sh hashes it
db_extra=() dbx_extra=()

"$HERE/mkkeys.sh"
mkdir -p "$dir"
cp_changed() {	# cp_changed FILE...: copy into $dir what differs
	local f

	for f; do
		cmp -s "$f" "$dir/${f##*/}" || cp "$f" "$dir/"
	done
}
# All of them, so that mkkeys.sh (run by mkvars.sh) has nothing to make.
cp_changed "$base"/*.{key,crt,der,esl}

case $name in
baddb)
	db_extra=("$dir/bad.esl")
	;;
*)	die "unknown store '$name'" ;;
esac

KEYS=$dir PROJECT_VARS=$work/$name-VARS.fd \
	DB_EXTRA="${db_extra[*]}" DBX_EXTRA="${dbx_extra[*]}" "$HERE/mkvars.sh"

out=$BUILD/vars/$name-VARS.fd
case $name in
baddb)
	# Lower SignatureSize (offset 24, little endian) of the one list in the
	# image that is exactly bad.esl's header and first bytes.
	python3 - "$work/$name-VARS.fd" "$dir/bad.esl" "$out.tmp" <<-'PY'
	import struct, sys
	img = bytearray(open(sys.argv[1], "rb").read())
	esl = open(sys.argv[2], "rb").read()
	head = esl[:64]
	at = img.find(head)
	if at < 0 or img.find(head, at + 1) >= 0:
	    sys.exit("bad.esl's list is not in the image exactly once")
	size = struct.unpack_from("<I", img, at + 24)[0]
	struct.pack_into("<I", img, at + 24, size - 1)
	open(sys.argv[3], "wb").write(img)
	print(f"list at 0x{at:x}: SignatureSize 0x{size:x} -> 0x{size - 1:x}")
	PY
	;;
esac
mv "$out.tmp" "$out"
msg "made $out"
