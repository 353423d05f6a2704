#!/bin/bash
# Make the owner policies the harness loads: $BUILD/policies/NAME.policy,
# each signed the way an owner signs one (scripts/sign-file, as for a
# module) or spoiled the way an attacker with root would try.  Called by
# scripts/mkinitramfs.sh, which puts them in the initramfs
# (/usr/lib/lktest/policies).
#
# Every policy names the machine by the SHA-256 of its UEFI PK variable's
# contents: the project's PK.esl, which scripts/mkvars.sh enrolls in both
# stores (project-VARS.fd, and shim-VARS.fd made from it).
#
# The owner's key is "owner" (in db) or "mok" (a MOK), both certificates
# marked with the owner key purpose (scripts/mkkeys.sh).  TSC_AUX and ports
# 0x70-0x71 are off the kernel's safe list, so their rules say "unsafe".
#
#   p10          serial 10, signed with owner: TSC_AUX's low byte (a mask),
#                one PCI register, ports 0x70-0x71
#   p11          serial 11, signed with owner: TSC_AUX whole, the same rest,
#                and LSTAR (0xc0000082), which a load names as unsafe
#   p12narrow    serial 12, signed with owner: p11 without ports 0x70-0x71
#                and LSTAR, for an ioperm() grant that outlives its rule
#   mok12        serial 12, signed with the MOK key: loads only when that
#                MOK came through shim
#   unsigned     p12's text, no signature
#   attacker     signed with a key in no keyring
#   buildkey     signed with the kernel's build key (builtin keyring only)
#   dbsigned     signed with db, a key in db without the owner's mark: a
#                vendor's key, which may boot the machine but not open it
#   vendor12     p12 signed with vendor, shim's vendor certificate in the
#                shim_vendor scenario
#   withcerts    signed with owner, the PKCS#7 carrying its certificate
#   ownerleaf    signed with ownerleaf, marked and issued by a CA in db but
#                not itself enrolled; ownerleafcerts the same, carrying
#                the leaf's certificate so that the CA could vouch for it
#   revoked      signed with "both", a db key that dbx revokes
#   tampered     p12 signed, then one rule widened in the signed text
#   malformed    signed with owner, a rule the parser refuses
#   lstar        signed with owner, LSTAR without "unsafe"
#   foreign      signed with owner, for another machine's PK
#   oversize     signed with owner, 96 KiB
#   hashrevoked  serial 13, signed with owner, but dbx holds the SHA-256 of
#                its text (scripts/mkkeys.sh): the owner revoked this one
#                policy; hashrevoked.sha256 is that hash, in hex
#   far          serial 1000, signed with owner: more than 64 above the
#                TPM counter of the owner_tpm scenario
#   bench        serial 1, signed with owner: what lktest-bench writes
#                (TSC_AUX, the Interrupt Line, port 0x80), for
#                scripts/bench.sh
#
#   scripts/mkpolicies.sh --hashrevoked-text PK-HEX
#                prints hashrevoked's text, for scripts/mkkeys.sh to hash
set -euo pipefail
# shellcheck source=lib.sh
. "$(dirname "$0")/lib.sh"

KEYS=${KEYS:-$BUILD/keys}
OUT=$BUILD/policies
SIGN=$OBJ/scripts/sign-file

# The TPM NV counter every policy names; the harness defines it
# (test-initramfs/lktest-run.sh: TPM_COUNTER).
COUNTER=0x01800001

# text SERIAL PK-HEX RULES...: a policy's text, one rule per argument; the
# first rule on line 5.
text() {
	local serial=$1 pk=$2 r

	shift 2
	printf 'lockdown-policy v1\ncounter %s\n' "$COUNTER"
	printf 'machine pk-sha256:%s\nserial %s\n' "$pk" "$serial"
	for r in "$@"; do
		printf '%s\n' "$r"
	done
	printf '# made by scripts/mkpolicies.sh\n'
}

# sign NAME TEXT KEY [CERT]: $OUT/NAME.policy, $OUT/TEXT.txt signed with
# $KEYS/KEY.key and .crt, or with the key file KEY and certificate CERT.
sign() {
	local name=$1 text=$OUT/$2.txt key=$3 cert

	case $key in
	/*) cert=${4:?} ;;
	*) cert=$KEYS/$key.crt key=$KEYS/$key.key ;;
	esac
	"$SIGN" sha256 "$key" "$cert" "$text" "$OUT/$name.policy"
}

# sign_certs NAME TEXT KEY: as sign, with openssl cms, the PKCS#7 carrying
# KEY's certificate (scripts/sign-file adds none), then the trailer
# sign-file appends: struct module_signature (PKCS#7, signature length,
# big-endian) and the marker.
sign_certs() {
	local name=$1 text=$OUT/$2.txt key=$KEYS/$3.key cert=$KEYS/$3.crt sig n

	sig=$OUT/$name.p7s
	openssl cms -sign -binary -noattr -outform DER -md sha256 \
		-signer "$cert" -inkey "$key" -in "$text" -out "$sig"
	n=$(stat -c %s "$sig")
	{
		cat "$text" "$sig"
		printf '\0\0\2\0\0\0\0\0'
		# shellcheck disable=SC2059 # octal escapes made just above
		printf "$(printf '\\%03o' $((n >> 24 & 255)) $((n >> 16 & 255)) \
			$((n >> 8 & 255)) $((n & 255)))"
		printf '~Module signature appended~\n'
	} >"$OUT/$name.policy"
	rm -f "$sig"
}

# hashrevoked_text PK-HEX: the text of the policy dbx revokes by its hash.
hashrevoked_text() {
	text 13 "$1" "msr write 0xc0000103 unsafe" "ioport 0x70-0x71 unsafe"
}

if [ "${1:-}" = --hashrevoked-text ]; then
	hashrevoked_text "${2:?PK-HEX}"
	exit
fi
[ -x "$SIGN" ] || die "$SIGN missing: build the kernel first"
rm -rf "$OUT"
mkdir -p "$OUT"
pk=$(sha256sum <"$KEYS/PK.esl" | cut -d' ' -f1)
other=$(sha256sum <"$KEYS/KEK.esl" | cut -d' ' -f1)
pci="pci write 0000:00:00.0 0x3c"
io="ioport 0x70-0x71 unsafe"
tsc_aux="msr write 0xc0000103 unsafe"

text 10 "$pk" "msr write 0xc0000103 mask 0xff unsafe" "$pci" "$io" >"$OUT/p10.txt"
text 11 "$pk" "$tsc_aux" "$pci" "$io" "msr write 0xc0000082 unsafe" >"$OUT/p11.txt"
text 12 "$pk" "$tsc_aux" "$pci" "$io" "ioport 0x80" >"$OUT/p12.txt"
sign p10 p10 owner
sign p11 p11 owner
sign mok12 p12 mok
text 12 "$pk" "$tsc_aux" "$pci" >"$OUT/p12narrow.txt"
sign p12narrow p12narrow owner

cp "$OUT/p12.txt" "$OUT/unsigned.policy"
sign attacker p12 attacker
sign buildkey p12 "$OBJ/certs/signing_key.pem" "$OBJ/certs/signing_key.x509"
sign dbsigned p12 db
sign vendor12 p12 vendor
sign_certs withcerts p12 owner
sign ownerleaf p12 ownerleaf
sign_certs ownerleafcerts p12 ownerleaf
sign revoked p12 both
# Signed, then the last rule widened in place (same length): "0x80" ->
# "0xff" breaks the signature and nothing else.
sign tampered p12 owner
sed -i 's/^ioport 0x80$/ioport 0xff/' "$OUT/tampered.policy"
cmp -s "$OUT/p12.txt" <(head -c "$(stat -c %s "$OUT/p12.txt")" "$OUT/tampered.policy") &&
	die "tampered.policy: the text did not change"
text 12 "$pk" "$tsc_aux" "msr read 0x10" >"$OUT/malformed.txt"
sign malformed malformed owner
text 12 "$pk" "msr write 0x610" "msr write 0xc0000082" >"$OUT/lstar.txt"
sign lstar lstar owner
text 12 "$other" "$tsc_aux" >"$OUT/foreign.txt"
sign foreign foreign owner
hashrevoked_text "$pk" >"$OUT/hashrevoked.txt"
sign hashrevoked hashrevoked owner
sha256sum <"$OUT/hashrevoked.txt" | cut -d' ' -f1 >"$OUT/hashrevoked.sha256"
text 1000 "$pk" "$pci" >"$OUT/far.txt"
sign far far owner
text 1 "$pk" "$tsc_aux" "$pci" "ioport 0x80" >"$OUT/bench.txt"
sign bench bench owner
{
	text 12 "$pk"
	head -c $((96 * 1024)) /dev/zero | tr '\0' '#'
	echo
} >"$OUT/oversize.txt"
sign oversize oversize owner
rm -f "$OUT"/*.txt
msg "made $(find "$OUT" -name '*.policy' | wc -l) owner policies in $OUT (PK sha256 $pk)"
