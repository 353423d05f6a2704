#!/bin/bash
# Unpack the packaged linux-source-$KVER tree under $BUILD/src (once), then
# bring it to pristine + our change: security-lockdown/ installed as
# security/lockdown/ and kernel-tree-patches/$KVER/series applied in order with
# "git am". Each step is a commit, so "make series" is git format-patch.
#
# A line "#@ security-lockdown" in the series marks where the subsystem
# itself is committed, with its MAINTAINERS entry and its admin guide
# (Documentation/admin-guide/LSM/lockdown.rst, listed in the LSM index);
# "#@ selftests-lockdown" where its selftests are; quilt reads both as
# comments.
set -euo pipefail
. "$(dirname "$0")/lib.sh"

GUIDE=Documentation/admin-guide/LSM/lockdown.rst
hash=$(inputs_hash "$TOP/security-lockdown" "$TOP/selftests-lockdown" "$PATCHES" "$TOP/$GUIDE" "$TOP/scripts/tree.sh")
if [ -d "$SRC/.git" ] && stamp_ok tree "$hash"; then
	msg "tree up to date"
	exit 0
fi

git_src() {
	git -C "$SRC" -c user.name="Lockdown Project" -c user.email=lockdown@example.org \
		-c core.autocrlf=false "$@"
}

if ! git -C "$SRC" rev-parse -q --verify pristine >/dev/null 2>&1; then
	msg "unpacking $TARBALL"
	rm -rf "$SRC" "$SRC.tmp"
	mkdir -p "$SRC.tmp"
	tar -C "$SRC.tmp" --strip-components=1 -xf "$TARBALL"
	git -C "$SRC.tmp" init -q
	git -C "$SRC.tmp" config gc.auto 0
	git -C "$SRC.tmp" add -A -f
	git -C "$SRC.tmp" -c user.name="Lockdown Project" \
		-c user.email=lockdown@example.org commit -q \
		-m "linux-source-$KVER $(dpkg-query -W -f='${Version}' "linux-source-$KVER")"
	git -C "$SRC.tmp" tag pristine
	mv "$SRC.tmp" "$SRC"
fi

# Back to pristine; git only rewrites files that differ from it. Files
# the old series changed are rewritten twice (to pristine, then patched
# again): remember their content and mtime, and give back the old mtime
# to those that end up as they were, so the kernel build stays
# incremental (a touched include/uapi/linux/capability.h alone would
# rebuild nearly everything).
git_src am --abort >/dev/null 2>&1 || true
declare -A old_hash old_mtime
if git_src rev-parse -q --verify HEAD >/dev/null; then
	while read -r f; do
		[ -f "$SRC/$f" ] || continue
		old_hash[$f]=$(git_src hash-object "$f")
		old_mtime[$f]=$(stat -c %Y "$SRC/$f")
	done < <(git_src diff --name-only pristine)
fi
git_src checkout -q -B lockdown pristine
git_src reset -q --hard pristine
git_src clean -q -fdx

install_subsystem() {
	rm -rf "$SRC/security/lockdown"
	mkdir -p "$SRC/security/lockdown"
	# No -t: a file written now gets the time now, not its mtime in
	# security-lockdown/, which may be older than an object built from its
	# previous content; files that end up as they were get their old time
	# back at the end.
	rsync -rlpD --exclude=COMMIT_MSG --exclude=MAINTAINERS.entry \
		"$TOP/security-lockdown/" "$SRC/security/lockdown/"
	# The subsystem's MAINTAINERS entry goes in with it: in place of the
	# tree's own entry of that name (6.12 has one), else in order.
	awk -v entry="$TOP/security-lockdown/MAINTAINERS.entry" '
		BEGIN { getline name < entry; close(entry) }
		function put() { while ((getline l < entry) > 0) print l; done = 1 }
		skip && /^$/ { skip = 0; next }
		skip { next }
		$0 == name && !done { put(); skip = 1; next }
		/^LOCKING PRIMITIVES$/ && !done { put() }
		{ print }' "$SRC/MAINTAINERS" >"$SRC/MAINTAINERS.new"
	mv "$SRC/MAINTAINERS.new" "$SRC/MAINTAINERS"
	# The admin guide, after SafeSetID in the LSM index's toctree.
	cp "$TOP/$GUIDE" "$SRC/$GUIDE"
	grep -qx '   lockdown' "$SRC/Documentation/admin-guide/LSM/index.rst" ||
		sed -i '/^   SafeSetID$/a\   lockdown' "$SRC/Documentation/admin-guide/LSM/index.rst"
	git_src add -A -f security/lockdown MAINTAINERS "$GUIDE" \
		Documentation/admin-guide/LSM/index.rst
	if ! git_src diff --cached --quiet; then
		git_src commit -q -s -F "$TOP/security-lockdown/COMMIT_MSG" ||
			die "committing security-lockdown/"
	fi
}

# The lockdown selftests (selftests-lockdown/) as the tree's
# tools/testing/selftests/lockdown/, in the selftests' TARGETS and in the
# subsystem's MAINTAINERS entry; checkpatch.notes justifies warnings as
# a patch's notes do (add_notes).
install_selftests() {
	local dir=tools/testing/selftests/lockdown

	rm -rf "${SRC:?}/$dir"
	mkdir -p "$SRC/$dir"
	rsync -rlpD --exclude=COMMIT_MSG --exclude=checkpatch.notes \
		"$TOP/selftests-lockdown/" "$SRC/$dir/"
	grep -qx 'TARGETS += lockdown' "$SRC/tools/testing/selftests/Makefile" ||
		sed -i '/^TARGETS += lkdtm$/a TARGETS += lockdown' \
			"$SRC/tools/testing/selftests/Makefile"
	sed -i '\|^F:\tsecurity/lockdown/$|a F:\t'"$dir/" "$SRC/MAINTAINERS"
	git_src add -A -f "$dir" tools/testing/selftests/Makefile MAINTAINERS
	git_src commit -q -s -F "$TOP/selftests-lockdown/COMMIT_MSG" ||
		die "committing selftests-lockdown/"
	git_src notes add -f -F "$TOP/selftests-lockdown/checkpatch.notes" HEAD
}

# add_notes PATCH: a "checkpatch: TYPE: why" paragraph between the "---"
# and the diffstat of PATCH (git am drops that part) justifies a warning
# checkpatch gives the patch; keep it as a git note on the new commit, so
# that "make series" exports it (format-patch --notes) and "make check"
# lets exactly that warning type pass for exactly that patch.
add_notes() {
	local note

	note=$(awk '/^---$/ { on = 1; next }
		on && /^ [^ ].*\|/ { exit }
		on && /^checkpatch: / { keep = 1 }
		on && keep && /^$/ { keep = 0 }
		on && keep { print }' "$1")
	[ -z "$note" ] || git_src notes add -f -m "$note" HEAD
}

installed=0
if [ -f "$PATCHES/series" ]; then
	while read -r line; do
		case "$line" in
		"#@ security-lockdown")
			install_subsystem
			installed=1
			continue ;;
		"#@ selftests-lockdown")
			install_selftests
			continue ;;
		""|"#"*) continue ;;
		esac
		p=$PATCHES/$line
		[ -f "$p" ] || die "series names $line, which does not exist"
		if ! git_src am -q --keep-cr "$p" >"$BUILD/am.log" 2>&1; then
			cat "$BUILD/am.log" >&2
			git_src am --abort >/dev/null 2>&1 || true
			die "patch does not apply: kernel-tree-patches/$KVER/$line"
		fi
		add_notes "$p"
	done <"$PATCHES/series"
fi
if [ $installed -eq 0 ] && [ -f "$TOP/security-lockdown/COMMIT_MSG" ]; then
	install_subsystem
fi

for f in "${!old_hash[@]}"; do
	[ -f "$SRC/$f" ] && [ "$(git_src hash-object "$f")" = "${old_hash[$f]}" ] &&
		touch -d "@${old_mtime[$f]}" "$SRC/$f"
done

stamp_set tree "$hash"
msg "tree ready: $(git_src rev-list --count pristine..HEAD) commit(s) on pristine"
