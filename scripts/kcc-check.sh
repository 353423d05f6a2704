#!/bin/bash
# Check scripts/kcc: an object whose source pulls a file in with .incbin
# follows that file, under ccache's depend mode as the kernel builds use
# it (plain "ccache gcc" returns the first object again: shown first).
set -euo pipefail
. "$(dirname "$0")/lib.sh"

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
export CCACHE_DIR=$tmp/ccache
cd "$tmp"
printf '.section .rodata\n.incbin "blob"\n' >t.S

# compile CC OUT: t.S with the blob as it is now, as Kbuild calls it.
compile() { $1 -Wp,-MMD,t.d -c t.S -o "$2"; }

printf AAAA >blob && compile "ccache gcc" c1.o
printf BBBB >blob && compile "ccache gcc" c2.o
cmp -s c1.o c2.o && echo "ccache gcc: the second object is the first one's (stale)"
printf AAAA >blob && compile "$TOP/scripts/kcc" k1.o
printf BBBB >blob && compile "$TOP/scripts/kcc" k2.o
if cmp -s k1.o k2.o; then
	echo "kcc: the second object is the first one's (stale)"
	exit 1
fi
echo "kcc: the object follows the .incbin file"
