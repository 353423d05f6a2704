#!/bin/bash
# Export the whole change (security-lockdown/ and kernel-tree-patches/, in
# series order) as a git format-patch series with a cover letter, from the
# tree scripts/tree.sh prepared. Output: $BUILD/series/.
set -euo pipefail
. "$(dirname "$0")/lib.sh"

out=${1:-$BUILD/series}
rm -rf "$out"
mkdir -p "$out"
n=$(git -C "$SRC" rev-list --count pristine..HEAD)
if [ "$n" -eq 0 ]; then
	msg "no commits on pristine: empty series"
	exit 0
fi
# MAINTAINERS first in every patch, so that checkpatch sees a new file's
# MAINTAINERS entry before the file.
# Notes (tree.sh) carry the justification of any checkpatch warning left.
git -C "$SRC" format-patch -q --cover-letter --notes -O "$TOP/scripts/git.orderFile" \
	-o "$out" pristine..HEAD
if [ -f "$PATCHES/cover-letter.txt" ]; then
	# Fill in git's blurb placeholders from our cover letter text.
	python3 - "$out"/0000-cover-letter.patch "$PATCHES/cover-letter.txt" <<'PY'
import sys
path, text = sys.argv[1], open(sys.argv[2]).read().split("\n", 1)
s = open(path).read()
s = s.replace("*** SUBJECT HERE ***", text[0].strip())
s = s.replace("*** BLURB HERE ***", text[1].strip() if len(text) > 1 else "")
open(path, "w").write(s)
PY
fi
msg "$n patch(es) in $out"
