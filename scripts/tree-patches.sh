#!/bin/bash
# Export the kernel-tree patches (every commit on pristine but the ones
# tree.sh makes of security-lockdown/ and selftests-lockdown/) in the form
# kernel-tree-patches/ keeps them: git format-patch, one per commit,
# numbered in series order, the "checkpatch: TYPE: why" notes unindented
# as tree.sh reads them.
#
#   scripts/tree-patches.sh DIR      export into DIR (emptied first)
#   scripts/tree-patches.sh --check  export into a scratch folder and fail
#                                    if kernel-tree-patches/ differs
#
# The tree is $SRC (default build/src after scripts/tree.sh); to change a
# patch, commit to a worktree of it, rebase, then export with SRC=worktree.
set -euo pipefail
. "$(dirname "$0")/lib.sh"

export_to() {
	local out subsystem selftests n=0 sha f

	out=$(realpath -m "$1")
	subsystem=$(head -n 1 "$TOP/security-lockdown/COMMIT_MSG")
	selftests=$(head -n 1 "$TOP/selftests-lockdown/COMMIT_MSG")
	rm -f "$out"/0*.patch
	mkdir -p "$out"
	for sha in $(git -C "$SRC" rev-list --reverse pristine..HEAD); do
		case $(git -C "$SRC" log -1 --format=%s "$sha") in
		"$subsystem" | "$selftests") continue ;;
		esac
		n=$((n + 1))
		f=$(git -C "$SRC" format-patch --no-numbered --notes --zero-commit \
			--start-number "$n" -O "$TOP/scripts/git.orderFile" \
			-o "$out" -1 "$sha")
		# "Notes:" and its four-space indent off: tree.sh's add_notes
		# reads the paragraph as it is written here.
		sed -i '/^---$/,/^diff --git /{/^Notes:$/d;s/^    \(checkpatch: \)/\1/;s/^      /  /}' "$f"
		perl -0pi -e 's/^---\n\n(?=checkpatch: )/---\n/m' "$f"
	done
	echo "$n"
}

case ${1:-} in
--check)
	tmp=$(mktemp -d)
	trap 'rm -rf "$tmp"' EXIT
	n=$(export_to "$tmp")
	if ! diff -ru --exclude=series --exclude=cover-letter.txt \
		"$PATCHES" "$tmp" >"$tmp.diff" 2>&1; then
		head -n 40 "$tmp.diff" >&2
		rm -f "$tmp.diff"
		die "kernel-tree-patches/$KVER/ is not what format-patch gives for $SRC: regenerate with scripts/tree-patches.sh kernel-tree-patches/$KVER"
	fi
	rm -f "$tmp.diff"
	echo "tree-patches: the $n patches in kernel-tree-patches/$KVER/ are format-patch output of the tree"
	;;
"" | -*)
	die "usage: $0 DIR | --check"
	;;
*)
	n=$(export_to "$1")
	echo "tree-patches: $n patches in $1"
	;;
esac
