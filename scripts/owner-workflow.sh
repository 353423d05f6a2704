#!/bin/bash
# The owner's part of the owner_workflow scenario, between two of its boots
# (scripts/boot.sh): what the admin guide's workflow has the owner do on
# another machine, with the owner's key.
#
#   scripts/owner-workflow.sh KTAP INITRD [KEY]
#
# Takes the draft the last boot printed ("# draft| LINE" in KTAP, from
# lockdown-status --draft-policy), signs it with the owner's key as the
# guide says (scripts/sign-file; KEY: another of scripts/mkkeys.sh, such
# as root's own, "attacker"), and builds INITRD: the test initramfs
# with the project's dracut module loading that policy at boot.  The
# owner signs a second policy beside it, the same header with the next
# serial and no rules (withdrawing everything), handed to the guest as
# /lktest-files/withdraw.policy.  Files go beside INITRD.
set -euo pipefail
# shellcheck source=lib.sh
. "$(dirname "$0")/lib.sh"

ktap=${1:?usage: owner-workflow.sh KTAP INITRD}
initrd=${2:?usage: owner-workflow.sh KTAP INITRD}
key=${3:-owner}
KEYS=${KEYS:-$BUILD/keys}
base=${initrd%.initrd}
text=$base.policy.txt

sed -n 's/^# draft| //p' "$ktap" >"$text"
grep -q '^lockdown-policy v1$' "$text" || die "no draft in $ktap"
msg "the draft ($text): $(grep -vc '^#' "$text") lines that are not comments"
"$OBJ/scripts/sign-file" sha256 "$KEYS/$key.key" "$KEYS/$key.crt" "$text" "$base.policy"

# Withdrawal: the next serial, no rules.
serial=$(sed -n 's/^serial //p' "$text")
sed -n -e '/^lockdown-policy /p' -e '/^machine /p' -e '/^counter /p' "$text" >"$base.withdraw.txt"
echo "serial $((serial + 1))" >>"$base.withdraw.txt"
"$OBJ/scripts/sign-file" sha256 "$KEYS/owner.key" "$KEYS/owner.crt" \
	"$base.withdraw.txt" "$base.withdraw.policy"

"$TOP/scripts/mkinitramfs.sh" --policy "$base.policy" "$initrd"
dir=$base.files
rm -rf "$dir"
mkdir -p "$dir/lktest-files"
cp "$base.withdraw.policy" "$dir/lktest-files/withdraw.policy"
truncate -s %4 "$initrd"
(cd "$dir" && find lktest-files | cpio --quiet -o -H newc -R 0:0) >>"$initrd"
