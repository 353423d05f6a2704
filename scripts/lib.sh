# Shared settings for the host-side scripts. Sourced, not run.
# shellcheck shell=bash

TOP=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
# The Debian tree to build and test: linux-source-$KVER, with the series
# in kernel-tree-patches/$KVER/. 6.1 builds in build/, any other tree in
# build/$KVER/ (its own tree, kernel, keys, stores and logs); ccache is
# shared.
KVER=${KVER:-6.1}
case $KVER in
6.1) BUILD=${BUILD:-$TOP/build} ;;
6.12) BUILD=${BUILD:-$TOP/build/$KVER} ;;
*) printf '%s: KVER=%s: no series for that tree (6.1, 6.12)\n' "${0##*/}" "$KVER" >&2
   exit 2 ;;
esac
export KVER
PATCHES=$TOP/kernel-tree-patches/$KVER
SRC=${SRC:-$BUILD/src}		# kernel tree, a git repo: tag "pristine" + series
OBJ=${OBJ:-$BUILD/obj}		# O= output of the test kernel
# The name of OBJ's stamps and build log: OBJ's own, unless another
# build is made at OBJ's path (scripts/check.sh: the lsm-late kernel).
OBJ_NAME=${OBJ_NAME:-${OBJ##*/}}
TARBALL=${TARBALL:-/usr/src/linux-source-$KVER.tar.xz}
JOBS=${JOBS:-$(nproc)}
SRC=$(realpath -m "$SRC") OBJ=$(realpath -m "$OBJ") BUILD=$(realpath -m "$BUILD")

export CCACHE_DIR=${CCACHE_DIR:-$TOP/build/ccache}
export CCACHE_MAXSIZE=${CCACHE_MAXSIZE:-5G}
export CCACHE_COMPILERCHECK=content
# Depend mode: ccache hashes the source and the headers the compiler's
# own -MMD file lists, and never runs the preprocessor a second time.
# Measured on 6.1's kernel/ and mm/ with an empty cache: 118 s with the
# default mode, 84 s in depend mode, 77-86 s with plain gcc.
export CCACHE_DEPEND=${CCACHE_DEPEND:-1}
export CCACHE_SLOPPINESS=time_macros,include_file_mtime,include_file_ctime
export KBUILD_BUILD_TIMESTAMP="2026-01-01"
export KBUILD_BUILD_USER=lockdown KBUILD_BUILD_HOST=test

msg() { printf '%s: %s\n' "${0##*/}" "$*" >&2; }
die() { msg "error: $*"; exit 1; }

# Hash of the named files and directories, for stamps: the contents, and
# the names of the files inside a directory relative to it, never where
# the checkout or the folder is (a clone elsewhere, or a store's copy of
# the keys, is the same input).
inputs_hash() {
	local p

	for p; do
		if [ -d "$p" ]; then
			(cd "$p" && find . -type f -print0 | LC_ALL=C sort -z |
				xargs -0 -r sha256sum)
		elif [ -f "$p" ]; then
			sha256sum <"$p"
		fi
	done | sha256sum | cut -c1-16
}

# stamp_ok NAME HASH: true when the step NAME last ran with inputs HASH.
stamp_ok() { [ "$(cat "$BUILD/.stamp-$1" 2>/dev/null)" = "$2" ]; }
stamp_set() { mkdir -p "$BUILD"; echo "$2" >"$BUILD/.stamp-$1"; }

kmake() {
	make -C "$SRC" O="$OBJ" -j"$JOBS" CC="$TOP/scripts/kcc" HOSTCC="ccache gcc" "$@"
}

# Signature owner GUID of every EFI signature list the project makes
# ("lockdown-test").
OWNER_GUID=6c6f636b-646f-776e-2d74-657374000001
# The extended key usage that marks a certificate's key as the machine
# owner's, for signing lockdown owner policies (crypto/asymmetric_keys/
# x509_cert_parser.c): an OID under the UUID arc of ITU-T X.667.
OWNER_EKU=2.25.294904616076341115683182552252910990909

# hex_bytes HEX: the bytes HEX spells.
hex_bytes() { printf '%b' "$(sed 's/../\\x&/g' <<<"$1")"; }

# sha256_esl OUT HEX...: OUT is one EFI_CERT_SHA256 signature list holding
# each SHA-256 HEX, owner $OWNER_GUID (GUIDs and sizes little-endian, as
# UEFI stores them).  efitools hashes PE images and certificates only.
sha256_esl() {
	local out=$1 g=${OWNER_GUID//-/} owner size h hex

	shift
	owner=${g:6:2}${g:4:2}${g:2:2}${g:0:2}${g:10:2}${g:8:2}${g:14:2}${g:12:2}${g:16:16}
	size=$(printf '%08x' $((28 + 48 * $#)))
	hex=2616c4c14c509240aca941f936934328	# EFI_CERT_SHA256_GUID
	# ListSize, SignatureHeaderSize 0, SignatureSize 48, then the entries
	hex+=${size:6:2}${size:4:2}${size:2:2}${size:0:2}0000000030000000
	for h; do
		hex+=$owner$h
	done
	hex_bytes "$hex" >"$out"
}
