#!/bin/bash
# Prove the exported series is what a user gets: apply $BUILD/series/0*.patch
# (scripts/series.sh, cover letter aside) with "git am" to a pristine copy
# of linux-source-6.1, a worktree of $SRC at tag "pristine", and check that
# the result is the very tree that was built and tested.
set -euo pipefail
. "$(dirname "$0")/lib.sh"

SERIES=${SERIES:-$BUILD/series}
wt=$BUILD/am-check
patches=()
for p in "$SERIES"/0*.patch; do
	case ${p##*/} in 0000-cover-letter.patch) continue ;; esac
	patches+=("$p")
done
[ ${#patches[@]} -gt 0 ] || die "no patches in $SERIES: run scripts/series.sh"
want=$(git -C "$SRC" rev-parse 'HEAD^{tree}')

# The same patches onto the same pristine, to the same tree as last time it
# passed: git am would do exactly what it did then.
stamp=$BUILD/am-check.passed
key=$( (cat "${patches[@]}"; git -C "$SRC" rev-parse pristine; echo "$want") | sha256sum)
key=${key%% *}
if [ -f "$stamp" ] && [ "$(head -n 1 "$stamp")" = "$key" ]; then
	echo "$(tail -n 1 "$stamp") (unchanged since it passed)"
	exit 0
fi
rm -f "$stamp"

# Reuse the worktree when it is still one of $SRC's; else make it again.
if ! git -C "$wt" rev-parse --git-dir >/dev/null 2>&1; then
	rm -rf "$wt"
	git -C "$SRC" worktree prune
	git -C "$SRC" worktree add -q --detach "$wt" pristine
fi
git -C "$wt" am --abort >/dev/null 2>&1 || true
git -C "$wt" checkout -q --detach pristine
git -C "$wt" reset -q --hard pristine
git -C "$wt" clean -q -fdx

if ! git -C "$wt" -c user.name="series check" -c user.email=check@localhost \
	am -q "${patches[@]}"; then
	git -C "$wt" am --show-current-patch=diff 2>/dev/null | head -5 >&2 || true
	die "git am failed on the exported series (worktree $wt)"
fi
applied=$(git -C "$wt" rev-list --count pristine..HEAD)
got=$(git -C "$wt" rev-parse 'HEAD^{tree}')
if [ "$got" != "$want" ]; then
	git -C "$wt" diff --stat "$want" "$got" >&2
	die "the series applied, but the result differs from $SRC"
fi
line="series: ${#patches[@]} patches applied with git am to pristine ($applied commits); tree $got matches $SRC"
printf '%s\n%s\n' "$key" "$line" >"$stamp"
echo "$line"
