#!/bin/bash
# Make the project's own UEFI Secure Boot keys under $BUILD/keys (never committed).
#
#   PK, KEK   platform and key-exchange keys
#   db        signs the kernel, systemd-boot and the "db" test modules; a
#             plain db key, as a vendor's: it signs no owner policy
#   owner     the machine owner's own key, in db, its certificate marked
#             with the owner key purpose ($OWNER_EKU): signs owner policies
#   dbx       "revoked": its certificate goes to dbx only
#   both      certificate in db AND dbx (dbx wins)
#   mok       enrolled as a MOK through shim's MokManager (scripts/mkshimvars.sh);
#             marked as the owner's, like owner
#   vendor    shim's built-in vendor certificate in the shim_vendor
#             scenario (scripts/shim-esp.sh), standing in for a
#             distribution's CA: it may boot the machine, not open it
#   attacker  root's own key on the locked-down machine: the attack
#             scenarios forge MokListRT with it; never trusted
#   bad       only in the "baddb" store, in a list made malformed there
#             (scripts/mkstore.sh)
#   ca, rca   certificate authorities in db; rca also in dbx (revoked)
#   leaf      issued by ca, in no list: trusted only through ca
#   rleaf     issued by rca, in no list: revoked through rca
#   ownerleaf issued by ca with the owner's mark, in no list: a CA in db
#             vouching for an owner key of its own making, which the
#             kernel must refuse
#
# For each NAME: NAME.key, NAME.crt (PEM), NAME.der and NAME.esl (EFI signature
# list, owner GUID $OWNER_GUID), plus the time-based authenticated updates
# PK.auth (self-signed), KEK.auth (by PK), db.auth (db+both, by KEK) and
# dbx.auth (dbx+both and policyhash.esl, the SHA-256 of one owner policy's
# text, by KEK).  Idempotent: existing keys are kept; the
# derived files are remade only when missing.
#
# A variant store (a malformed db, a db of 50 certificates, ...) uses its own
# KEYS folder holding copies of these keys, and names extra EFI signature
# lists in DB_EXTRA and DBX_EXTRA: db is then db + DB_EXTRA + both, dbx is
# dbx + DBX_EXTRA + both (db.list and dbx.list, what the variables hold).
set -euo pipefail
. "$(dirname "$0")/lib.sh"

KEYS=${KEYS:-$BUILD/keys}
# Fixed timestamp of the authenticated updates, so they are reproducible.
AUTH_TIME="2026-01-01 00:00:00"
NAMES=(PK KEK db owner dbx both mok vendor bad attacker ca rca)
# Issued by a CA of NAMES: LEAF:CA.
LEAVES=(leaf:ca rleaf:rca ownerleaf:ca)

mkdir -p "$KEYS"
cd "$KEYS"
made=

for n in "${NAMES[@]}"; do
	if [ ! -s "$n.key" ] || [ ! -s "$n.crt" ]; then
		msg "generating $n"
		made=1
		case $n in
		ca|rca) ext=(-addext "basicConstraints=critical,CA:TRUE"
			-addext "keyUsage=critical,keyCertSign,digitalSignature") ;;
		owner|mok) ext=(-addext "keyUsage=critical,digitalSignature"
			-addext "extendedKeyUsage=codeSigning,$OWNER_EKU") ;;
		*) ext=(-addext "keyUsage=critical,digitalSignature"
			-addext "extendedKeyUsage=codeSigning") ;;
		esac
		openssl req -new -x509 -newkey rsa:2048 -nodes -sha256 \
			-days 36500 -subj "/CN=Lockdown Test $n/" "${ext[@]}" \
			-keyout "$n.key.tmp" -out "$n.crt.tmp" 2>/dev/null
		chmod 600 "$n.key.tmp"
		mv "$n.key.tmp" "$n.key"
		mv "$n.crt.tmp" "$n.crt"
		rm -f "$n.der" "$n.esl" ./*.auth
		for l in "${LEAVES[@]}"; do	# a new CA: new leaves
			[ "${l#*:}" = "$n" ] && rm -f "${l%%:*}".{key,crt}
		done
	fi
	[ -s "$n.der" ] || openssl x509 -in "$n.crt" -outform DER -out "$n.der"
	[ -s "$n.esl" ] || cert-to-efi-sig-list -g "$OWNER_GUID" "$n.crt" "$n.esl"
done

for l in "${LEAVES[@]}"; do
	n=${l%%:*} ca=${l#*:}
	if [ ! -s "$n.key" ] || [ ! -s "$n.crt" ]; then
		msg "generating $n, issued by $ca"
		openssl req -new -newkey rsa:2048 -nodes -sha256 \
			-subj "/CN=Lockdown Test $n/" \
			-keyout "$n.key.tmp" -out "$n.csr" 2>/dev/null
		eku=codeSigning
		[ "$n" = ownerleaf ] && eku=codeSigning,$OWNER_EKU
		printf '%s\n' "keyUsage=critical,digitalSignature" \
			"extendedKeyUsage=$eku" \
			"subjectKeyIdentifier=hash" \
			"authorityKeyIdentifier=keyid,issuer" >"$n.ext"
		openssl x509 -req -in "$n.csr" -CA "$ca.crt" -CAkey "$ca.key" \
			-CAcreateserial -days 36500 -sha256 -extfile "$n.ext" \
			-out "$n.crt.tmp" 2>/dev/null
		chmod 600 "$n.key.tmp"
		mv "$n.key.tmp" "$n.key"
		mv "$n.crt.tmp" "$n.crt"
		rm -f "$n.csr" "$n.ext" "$ca.srl"
	fi
done

# auth VAR SIGNER OUT ESL...: time-based authenticated update of VAR.
auth() {
	local var=$1 signer=$2 out=$3
	shift 3
	[ -s "$out" ] && return 0
	cat "$@" >"$out.esl.tmp"
	sign-efi-sig-list -g "$OWNER_GUID" -t "$AUTH_TIME" \
		-k "$signer.key" -c "$signer.crt" \
		"$var" "$out.esl.tmp" "$out.tmp" >/dev/null
	rm -f "$out.esl.tmp"
	mv "$out.tmp" "$out"
}
auth PK PK PK.auth PK.esl
auth KEK PK KEK.auth KEK.esl
# list OUT ESL...: OUT holds the lists, remade (with its .auth) on change.
list() {
	local out=$1

	shift
	cat "$@" >"$out.tmp"
	if cmp -s "$out.tmp" "$out"; then
		rm -f "$out.tmp"
	else
		mv "$out.tmp" "$out"
		rm -f "${out%.list}.auth"
	fi
}
# dbx also revokes one owner policy, "hashrevoked", by the SHA-256 of its
# text (the policy itself is signed with db by scripts/mkpolicies.sh).
sha256_esl policyhash.esl "$("$TOP/scripts/mkpolicies.sh" --hashrevoked-text \
	"$(sha256sum <PK.esl | cut -d' ' -f1)" | sha256sum | cut -d' ' -f1)"
# shellcheck disable=SC2086 # the *_EXTRA variables are lists of files
list db.list db.esl owner.esl ca.esl rca.esl ${DB_EXTRA:-} both.esl
# shellcheck disable=SC2086
list dbx.list dbx.esl rca.esl policyhash.esl ${DBX_EXTRA:-} both.esl
auth db KEK db.auth db.list
auth dbx KEK dbx.auth dbx.list

[ -z "$made" ] || msg "keys in $KEYS: $(echo *)"
