#!/bin/bash
# Build the test initramfs: $BUILD/initramfs.img.
#
# Builds the in-guest test programs (to $BUILD/tests), the tree's lockdown
# selftests (to $BUILD/kselftest), the test modules
# against the kernel in $OBJ when it has been built (to $BUILD/modules),
# and runs dracut with a private copy of its modules ($BUILD/dracut, so the
# system's /usr/lib/dracut is never touched) plus our 90lktest module.
# Does nothing when none of its inputs changed.
#
# Environment:
#   LKTEST_SIGNERS        "NAME:KEY:CERT ..." signed module variants; each
#                         gives $BUILD/modules/lktest_NAME.ko signed with KEY
#                         and CERT.  Default: "signed:" with the kernel's
#                         build key ($OBJ/certs/signing_key.pem, .x509),
#                         and one per UEFI test key of scripts/mkkeys.sh
#                         (lktest_db, lktest_dbx, lktest_both, lktest_mok,
#                         lktest_bad, lktest_attacker, signed with
#                         $KEYS/NAME.key).
#   KEYS                  the project's keys (default $BUILD/keys).
#   LKTEST_EXTRA_SIGNERS  more "NAME:KEY:CERT" entries, added to the above.
#   LKTEST_EXTRA_MODULES  a folder of modules built and signed elsewhere
#                         (scripts/bench.sh: lktest_kbench), installed too.
#   FORCE=1               rebuild even when the inputs are unchanged.
# lktest_unsigned.ko is always built, without a signature;
# lktest_sigtrunc.ko and lktest_sigflip.ko, signed with the kernel's build
# key and then damaged (see damage_module); lktest_leaf.ko and
# lktest_rleaf.ko, signed by the leaf keys with only the leaf certificate in
# the message (see sign_module_leaf).
set -euo pipefail
# shellcheck source=lib.sh
. "$(dirname "$0")/lib.sh"

HARNESS=$TOP/test-initramfs
TESTS=$BUILD/tests
MODULES=$BUILD/modules
MODBUILD=$BUILD/modules-build
DRACUTDIR=$BUILD/dracut
KSELFTEST=$BUILD/kselftest
IMAGE=$BUILD/initramfs.img
SIG_MAGIC="~Module signature appended~"

kernel_built() {
	[ -f "$OBJ/arch/x86/boot/bzImage" ] && [ -f "$OBJ/Module.symvers" ]
}

export KEYS=${KEYS:-$BUILD/keys}
UEFI_SIGNERS=
for n in db dbx both mok bad attacker; do
	UEFI_SIGNERS+=" $n:$KEYS/$n.key:$KEYS/$n.crt"
done
LKTEST_SIGNERS=${LKTEST_SIGNERS:-signed:$OBJ/certs/signing_key.pem:$OBJ/certs/signing_key.x509$UEFI_SIGNERS}
SIGNERS="$LKTEST_SIGNERS ${LKTEST_EXTRA_SIGNERS:-}"

# sign_module SRC.ko KEY CERT DEST.ko: a copy of SRC signed with KEY/CERT.
sign_module() {
	local src=$1 key=$2 cert=$3 dest=$4

	if [ ! -f "$key" ] || [ ! -f "$cert" ]; then
		die "sign $dest: missing $key or $cert"
	fi
	"$OBJ/scripts/sign-file" sha256 "$key" "$cert" "$src" "$dest"
	has_signature "$dest" || die "sign $dest: no signature appended"
}

# sign_module_leaf SRC.ko KEY CERT DEST.ko: a copy of SRC signed with KEY,
# the PKCS#7 message carrying CERT, a leaf certificate whose issuing CA is
# not in the message (sign-file carries no certificate at all): the kernel
# must find the CA in a keyring, and a revoked CA must refuse the leaf.
sign_module_leaf() {
	local src=$1 key=$2 cert=$3 dest=$4 len

	openssl cms -sign -binary -noattr -nosmimecap -md sha256 -outform DER \
		-signer "$cert" -inkey "$key" -in "$src" -out "$dest.p7s" ||
		die "sign $dest: openssl cms failed"
	len=$(stat -c %s "$dest.p7s")
	# struct module_signature: algo, hash, id_type PKEY_ID_PKCS7 (2),
	# signer_len, key_id_len, 3 bytes pad, sig_len (big endian).
	{
		cat "$src" "$dest.p7s"
		bytes 0 0 2 0 0 0 0 0 $((len >> 24 & 255)) $((len >> 16 & 255)) \
			$((len >> 8 & 255)) $((len & 255))
		printf '%s\n' "$SIG_MAGIC"
	} >"$dest"
	rm -f "$dest.p7s"
	has_signature "$dest" && [ "$(sig_len "$dest")" -eq "$len" ] ||
		die "sign $dest: trailer went wrong"
}

has_signature() {
	tail -c $((${#SIG_MAGIC} + 1)) "$1" | grep -qF "$SIG_MAGIC"
}

# A signed module ends in the PKCS#7 signature, struct module_signature
# (12 bytes, the last 4 the signature's length, big endian) and the magic
# line "~Module signature appended~\n".
SIG_TRAILER=$((12 + ${#SIG_MAGIC} + 1))

# sig_len KO: the signature length KO's module_signature gives.
sig_len() {
	tail -c $((SIG_TRAILER - 8)) "$1" | head -c 4 | od -An -tu1 |
		awk '{ print $1 * 16777216 + $2 * 65536 + $3 * 256 + $4 }'
}

# bytes N...: the bytes with the values N (0..255) on stdout.
bytes() {
	local n

	for n; do
		printf "$(printf '\\%03o' "$n")"
	done
}

# damage_module SRC.ko sigtrunc|sigflip DEST.ko: a copy of the signed SRC
# whose signature is made invalid, its trailer kept well formed, so that
# the kernel parses the signature: sigtrunc keeps only the first half of
# the PKCS#7 message (and module_signature says so), sigflip inverts the
# message's last byte, which lies in the RSA signature value.
damage_module() {
	local src=$1 kind=$2 dest=$3 size len keep off

	size=$(stat -c %s "$src")
	len=$(sig_len "$src")
	[ "$len" -gt 16 ] && [ "$len" -lt $((size - SIG_TRAILER)) ] ||
		die "$src: signature length '$len' out of range"
	case $kind in
	sigtrunc)
		keep=$((len / 2))
		{
			head -c $((size - SIG_TRAILER - len + keep)) "$src"
			tail -c "$SIG_TRAILER" "$src" | head -c 8
			bytes $((keep >> 24 & 255)) $((keep >> 16 & 255)) \
				$((keep >> 8 & 255)) $((keep & 255))
			tail -c $((${#SIG_MAGIC} + 1)) "$src"
		} >"$dest"
		[ "$(sig_len "$dest")" -eq "$keep" ] &&
			[ "$(stat -c %s "$dest")" -eq $((size - len + keep)) ] ||
			die "$dest: truncation went wrong"
		;;
	sigflip)
		off=$((size - SIG_TRAILER - 1))
		cp "$src" "$dest"
		bytes $(($(od -An -tu1 -j "$off" -N 1 "$src") ^ 255)) |
			dd of="$dest" bs=1 seek="$off" count=1 conv=notrunc status=none
		[ "$(cmp -l "$src" "$dest" | wc -l)" -eq 1 ] ||
			die "$dest: flipping a byte went wrong"
		;;
	esac
	has_signature "$dest" || die "$dest: signature trailer lost"
}

# Build one module per variant from lktest_mod.c, then sign the copies.
build_modules() {
	local names=(lktest_unsigned lktest_sigtrunc lktest_sigflip lktest_leaf lktest_rleaf)
	local s name key cert

	for s in $SIGNERS; do
		names+=("lktest_${s%%:*}")
	done
	rm -rf "$MODBUILD" "$MODULES"
	mkdir -p "$MODBUILD" "$MODULES"
	cp "$HARNESS"/module/* "$MODBUILD"/
	make -s -C "$MODBUILD" KDIR="$SRC" KOBJ="$OBJ" \
		LKTEST_VARIANTS="${names[*]}" >"$BUILD/modules-build.log" 2>&1 ||
		{ cat "$BUILD/modules-build.log" >&2; die "test modules failed to build"; }

	cp "$MODBUILD/lktest_unsigned.ko" "$MODULES/"
	has_signature "$MODULES/lktest_unsigned.ko" &&
		die "lktest_unsigned.ko carries a signature"
	for s in $SIGNERS; do
		IFS=: read -r name key cert <<<"$s"
		sign_module "$MODBUILD/lktest_$name.ko" "$key" "$cert" \
			"$MODULES/lktest_$name.ko"
	done
	for name in leaf rleaf; do
		sign_module_leaf "$MODBUILD/lktest_$name.ko" "$KEYS/$name.key" \
			"$KEYS/$name.crt" "$MODULES/lktest_$name.ko"
	done
	for name in sigtrunc sigflip; do
		sign_module "$MODBUILD/lktest_$name.ko" "$OBJ/certs/signing_key.pem" \
			"$OBJ/certs/signing_key.x509" "$MODBUILD/lktest_$name.signed.ko"
		damage_module "$MODBUILD/lktest_$name.signed.ko" "$name" \
			"$MODULES/lktest_$name.ko"
	done
	msg "modules: $(cd "$MODULES" && echo *.ko)"
}

# The tree's lockdown selftests, installed as kselftest installs them:
# run_kselftest.sh and its runner beside lockdown/lockdown_test.
build_selftests() {
	rm -rf "$KSELFTEST"
	make -C "$SRC/tools/testing/selftests" TARGETS=lockdown \
		O="$BUILD/kselftest-build" INSTALL_PATH="$KSELFTEST" \
		KSFT_INSTALL_PATH="$KSELFTEST" install >"$BUILD/kselftest.log" 2>&1 ||
		{ cat "$BUILD/kselftest.log" >&2; die "the lockdown selftests failed to build"; }
	[ -x "$KSELFTEST/lockdown/lockdown_test" ] ||
		die "no lockdown_test in $KSELFTEST; see $BUILD/kselftest.log"
}

# Private dracut tree: the system's modules plus ours.
setup_dracut() {
	local mod=$DRACUTDIR/modules.d/90lktest

	rm -rf "$DRACUTDIR"
	cp -a /usr/lib/dracut "$DRACUTDIR"
	mkdir -p "$mod" "$DRACUTDIR/no-conf.d"
	cp "$HARNESS"/dracut/90lktest/* "$HARNESS/lktest-run.sh" "$mod"/
	cp -r "$HARNESS/plans" "$mod/plans"
	# what the project ships: the owner policy loaded at boot
	cp -r "$TOP/tools/dracut/91lockdown-policy" "$DRACUTDIR/modules.d/"
}

main() {
	local kinputs=() hash

	"$TOP/scripts/mkkeys.sh"
	if kernel_built; then
		kinputs=("$OBJ/.config" "$OBJ/Module.symvers" "$OBJ/certs/signing_key.x509")
	fi
	hash=$( {
		inputs_hash "$HARNESS" "$TOP/tools/lockdown-status" "$TOP/tools/dracut" \
			"$TOP/scripts/mkinitramfs.sh" \
			"$TOP/scripts/mkpolicies.sh" \
			"$TOP/scripts/lib.sh" "$SRC/tools/testing/selftests/lockdown" \
			"${kinputs[@]}"
		echo "$SIGNERS"
		for s in $SIGNERS; do
			IFS=: read -r _ key cert <<<"$s"
			inputs_hash "$key" "$cert"
		done
		inputs_hash "$KEYS"/{leaf,rleaf}.{key,crt} "$KEYS"/{PK,KEK}.esl
		[ -z "${LKTEST_EXTRA_MODULES:-}" ] || inputs_hash "$LKTEST_EXTRA_MODULES"
		dpkg-query -W -f='${Version}' dracut 2>/dev/null || true
	} | sha256sum | cut -c1-16)
	if [ -z "${FORCE:-}" ] && [ -f "$IMAGE" ] && stamp_ok initramfs "$hash"; then
		msg "initramfs up to date: $IMAGE"
		return 0
	fi

	make -s -C "$HARNESS" O="$TESTS"
	make -s -C "$TOP/tools/lockdown-status" O="$TESTS" >/dev/null
	build_selftests
	if kernel_built; then
		build_modules
		"$TOP/scripts/mkpolicies.sh"
		# Modules built elsewhere (scripts/bench.sh: lktest_kbench for
		# each kernel it compares), already signed.
		if [ -n "${LKTEST_EXTRA_MODULES:-}" ]; then
			cp "$LKTEST_EXTRA_MODULES"/*.ko "$MODULES/"
		fi
	else
		msg "no built kernel in $OBJ: initramfs without test modules"
		rm -rf "$MODULES"
	fi
	setup_dracut

	# Public halves only: what mokutil --import enrolls, and what the
	# attack scenarios forge MokListRT with.
	rm -rf "$BUILD/initramfs-keys"
	mkdir -p "$BUILD/initramfs-keys"
	cp "$KEYS/mok.der" "$KEYS/attacker.der" "$KEYS/attacker.esl" "$BUILD/initramfs-keys/"

	run_dracut "$IMAGE" /dev/null
	stamp_set initramfs "$hash"
	msg "built $IMAGE ($(du -h "$IMAGE" | cut -f1))"
}

# run_dracut IMAGE CONF [MODULE...]: the harness's image, with dracut's
# configuration CONF and more dracut modules.
run_dracut() {
	local image=$1 conf=$2

	shift 2
	LKTEST_BINDIR=$TESTS LKTEST_KSELFTEST=$KSELFTEST LKTEST_MODULES=$([ -d "$MODULES" ] && echo "$MODULES") \
	LKTEST_KEYS=$BUILD/initramfs-keys \
	LKTEST_POLICIES=$(kernel_built && echo "$BUILD/policies") \
	dracutbasedir=$DRACUTDIR \
		dracut --quiet --force --no-hostonly --no-hostonly-cmdline \
		--no-kernel --no-compress --nostrip --reproducible --no-early-microcode \
		--conf "$conf" --confdir "$DRACUTDIR/no-conf.d" \
		--modules "bash base lktest $*" "$image"
}

# --policy FILE IMAGE: the harness's image (built before) with the owner
# policy FILE loaded at boot by the project's dracut module
# (tools/dracut/91lockdown-policy), set as an administrator sets it:
# lockdown_policy=FILE in dracut's configuration.
if [ "${1:-}" = --policy ]; then
	[ -f "$IMAGE" ] || die "build $IMAGE first"
	conf=$(mktemp)
	trap 'rm -f "$conf"' EXIT
	printf 'lockdown_policy="%s"\n' "${2:?FILE}" >"$conf"
	run_dracut "${3:?IMAGE}" "$conf" lockdown-policy
	exit
fi

main "$@"
