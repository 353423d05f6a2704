#!/bin/bash
# make buildcheck: build the series as a build robot does, for $KVER.
#
#   scripts/buildcheck.sh [configs] [bisect] [sparse] [boot]   (default: all)
#
# configs  the whole series in each configuration of configs/buildcheck/:
#          NAME.config says on its first line what it is merged on
#          ("# base: test|allno|i386|debian"); every value it names is
#          checked in the final .config, and what the merge took away
#          from its base is listed (combinations that cannot exist).
#          "debian" builds only the folders the series touches.
# bisect   every commit of the series built in turn, on the test config
#          (a worktree of $SRC at $BC/bisect-src)
# sparse   the test config built with C=1 W=1: no warning on a line the
#          series adds or changes
# boot     the configurations that lack an interface, booted: the
#          selftests skip it (do_boot)
#
#   CONFIGS="NAME ..."  build only these configurations
#
# Each build keeps its folder under $BC ($BUILD/buildcheck) between runs,
# so a run resumes where the last one stopped and rebuilds what changed;
# a bisect commit that built is not built again. A compiler warning in a
# file the series touches fails a build (build-kernel.sh). The last line
# is "buildcheck: N built, N failed".
set -euo pipefail
. "$(dirname "$0")/lib.sh"

BC=$BUILD/buildcheck
mkdir -p "$BC"
built=0
failed=0
fails=()

result() {
	if [ "$1" = ok ]; then
		built=$((built + 1))
		msg "ok: $2"
	else
		failed=$((failed + 1))
		fails+=("$2")
		msg "FAILED: $2${3:+ ($3)}"
	fi
}

# config_lines FILE: its CONFIG_ lines, "not set" ones as SYM=n.
config_lines() {
	sed -n 's/^\(CONFIG_[A-Za-z0-9_]*=.*\)/\1/p
		s/^# \(CONFIG_[A-Za-z0-9_]*\) is not set$/\1=n/p' "$1"
}

# value CONFIG SYM: SYM's value in .config CONFIG, n when unset.
value() {
	sed -n "s/^$2=//p" "$1" | grep . || echo n
}

# configure NAME FRAGMENT: $BC/NAME/.config from the fragment's base and
# the fragment; false when a value it names did not take.
configure() {
	local name=$1 frag=$2 obj=$BC/$1 base merge=() arch=() sym want got hash bad=0 l

	base=$(sed -n '1s/^# base: //p' "$frag")
	[ "$base" != i386 ] || arch=(ARCH=i386)
	case $base in
	test)	merge=("$TOP/configs/lockdown-test.config")
		[ ! -f "$TOP/configs/$KVER.config" ] || merge+=("$TOP/configs/$KVER.config") ;;
	allno|i386|debian) ;;
	*)	msg "$frag: first line must be '# base: test|allno|i386|debian'"
		return 1 ;;
	esac
	[ ! -f "${frag%.config}.$KVER.config" ] || merge+=("${frag%.config}.$KVER.config")
	hash=$(inputs_hash "${merge[@]}" "$frag" "$TOP/scripts/buildcheck.sh")$(git -C "$SRC" rev-parse "HEAD^{tree}")
	if [ -f "$obj/.config" ] && stamp_ok "config-bc-$name" "$hash"; then
		return 0
	fi
	mkdir -p "$obj"
	case $base in
	test)	OBJ=$obj kmake -s tinyconfig >/dev/null ;;
	allno)	OBJ=$obj kmake -s allnoconfig >/dev/null ;;
	i386)	OBJ=$obj kmake -s "${arch[@]}" i386_defconfig >/dev/null ;;
	debian)	xzcat "/usr/src/linux-config-$KVER/config.amd64_none_amd64.xz" >"$obj/.config" ;;
	esac
	cp "$obj/.config" "$obj/.config.base"
	KCONFIG_CONFIG=$obj/.config "$SRC/scripts/kconfig/merge_config.sh" \
		-m -O "$obj" "$obj/.config" "${merge[@]}" "$frag" >"$obj/merge.log"
	OBJ=$obj kmake -s "${arch[@]}" olddefconfig >/dev/null
	while IFS='=' read -r sym want; do
		got=$(value "$obj/.config" "$sym")
		[ "$got" = "$want" ] && continue
		msg "$name: $sym=$want did not take ($got)"
		bad=1
	done < <(config_lines "$frag")
	# What the base or the test fragments asked for and this variant
	# took away with it: combinations that cannot exist.
	for l in "${merge[@]}"; do
		config_lines "$l"
	done | while IFS='=' read -r sym want; do
		grep -q "^$sym=" < <(config_lines "$frag") && continue
		got=$(value "$obj/.config" "$sym")
		[ "$got" = "$want" ] || echo "$sym=$want"
	done >"$obj/dropped"
	[ -s "$obj/dropped" ] &&
		msg "$name: cannot exist with it: $(sort "$obj/dropped" | tr '\n' ' ')"
	[ $bad -eq 0 ] || return 1
	stamp_set "config-bc-$name" "$hash"
}

# The folders of the .c files the series touches (for Debian's config,
# which is built there only).
touched_dirs() {
	git -C "$SRC" diff --name-only pristine -- '*.c' | grep -v '^tools/' |
		xargs -r -n1 dirname | sort -u |
		while read -r d; do
			[ -f "$SRC/$d/Makefile" ] && echo "$d/"
		done
}

# wanted NAME: configuration NAME is to be built (or booted): $CONFIGS
# names it, or names none.
wanted() {
	[ -z "${CONFIGS:-}" ] || grep -qw -- "$1" <<<"$CONFIGS"
}

build_config() {
	local frag=$1 name obj targets=(bzImage) env=()

	name=${frag##*/}
	name=${name%.config}
	obj=$BC/$name
	if ! configure "$name" "$frag"; then
		result fail "config $name" "see above"
		return 0
	fi
	grep -q '^CONFIG_MODULES=y' "$obj/.config" && targets+=(modules)
	case $(sed -n '1s/^# base: //p' "$frag") in
	i386)	env=(ARCH=i386) ;;
	debian)	mapfile -t targets < <(echo prepare; touched_dirs) ;;
	esac
	if env "${env[@]}" OBJ="$obj" OBJ_NAME="bc-$name" \
		KTARGETS="${targets[*]}" "$TOP/scripts/build-kernel.sh"; then
		result ok "config $name"
	else
		result fail "config $name" "log: $BUILD/build-bc-$name.log"
	fi
}

do_configs() {
	local frag

	for frag in "$TOP"/configs/buildcheck/*.config; do
		case $frag in *.6.1.config|*.6.12.config) continue ;; esac
		wanted "$(basename "$frag" .config)" || continue
		build_config "$frag"
	done
}

# Every commit of the series on the test config, oldest first.
do_bisect() {
	local wt=$BC/bisect-src obj=$BC/bisect done=$BC/bisect.done sha n=0 cfg

	[ -f "$OBJ/.config" ] || die "no test config in $OBJ: run make first"
	git -C "$SRC" worktree prune
	git -C "$wt" rev-parse -q --verify HEAD >/dev/null 2>&1 || {
		rm -rf "$wt"
		git -C "$SRC" worktree add -q --detach "$wt" pristine
	}
	mkdir -p "$obj"
	touch "$done"
	cfg=$(sha256sum <"$OBJ/.config" | cut -c1-16)
	for sha in $(git -C "$SRC" rev-list --reverse pristine..HEAD); do
		n=$((n + 1))
		if grep -qx "$sha $cfg" "$done"; then
			result ok "bisect $n $(git -C "$SRC" log -1 --format=%s "$sha") (built before)"
			continue
		fi
		git -C "$wt" checkout -q --detach -f "$sha"
		# The test config; symbols a later patch adds are dropped.
		cp "$OBJ/.config" "$obj/.config"
		SRC=$wt OBJ=$obj kmake -s olddefconfig >/dev/null
		if SRC=$wt OBJ=$obj OBJ_NAME=bc-bisect "$TOP/scripts/build-kernel.sh"; then
			echo "$sha $cfg" >>"$done"
			result ok "bisect $n $(git -C "$SRC" log -1 --format=%s "$sha")"
		else
			result fail "bisect $n $(git -C "$SRC" log -1 --format=%s "$sha")" \
				"log: $BUILD/build-bc-bisect.log"
		fi
	done
}

# changed_lines FILE: "FILE:LINE" for each line the series adds or changes.
changed_lines() {
	git -C "$SRC" diff -U0 pristine -- "$1" |
		sed -n 's/^@@ -[0-9,]* +\([0-9]*\),\{0,1\}\([0-9]*\) @@.*/\1 \2/p' |
		while read -r start len; do
			for ((l = start; l < start + ${len:-1}; l++)); do
				echo "$1:$l"
			done
		done
}

do_sparse() {
	local obj=$BC/sparse log=$BUILD/build-bc-sparse.log f new=0 old=0 w

	echo "# base: test" >"$BC/sparse.config"
	if ! configure sparse "$BC/sparse.config"; then
		result fail "sparse config"
		return 0
	fi
	if ! OBJ=$obj OBJ_NAME=bc-sparse KMAKE_ARGS="C=1 W=1" \
		"$TOP/scripts/build-kernel.sh"; then
		result fail "sparse: C=1 W=1 build" "log: $log"
		return 0
	fi
	for f in $(git -C "$SRC" diff --name-only pristine -- '*.c' '*.h'); do
		while read -r w; do
			if grep -qxF "$(cut -d: -f1,2 <<<"$w")" <(changed_lines "$f"); then
				msg "new: $w"
				new=$((new + 1))
			else
				old=$((old + 1))
			fi
		done < <(grep -F "$SRC/$f:" "$log" | grep -E 'warning:|error:' |
			sed "s|^$SRC/||" | sort -u)
	done
	msg "sparse, W=1: $new warnings on lines the series wrote, $old on the tree's own lines of files it touches"
	if [ $new -eq 0 ]; then
		result ok "sparse, W=1"
	else
		result fail "sparse, W=1" "$new new warnings"
	fi
}

# skipped TEST KTAP: the selftest TEST ran and its result is a SKIP.
# kselftest_harness.h names a test on its "RUN" line; the result line
# that follows has its number only.
skipped() {
	awk -v run="#  RUN +global\\.$1 " '
		$0 ~ run { want = 1; next }
		want && /^(# )*(not )?ok [0-9]+/ { found = / # SKIP /; exit }
		END { exit !found }' "$2"
}

# The kernels whose fragment says "# boot skips: TEST...", each booted
# with the project's initramfs (plans/lacking.plan): the selftests pass,
# and skip each TEST named, as they must on a kernel without the interface.
do_boot() {
	local frag name kernel logs t bad

	[ -f "$BUILD/initramfs.img" ] || die "no $BUILD/initramfs.img: run make first"
	for frag in "$TOP"/configs/buildcheck/*.config; do
		grep -q '^# boot skips:' "$frag" || continue
		name=$(basename "$frag" .config)
		wanted "$name" || continue
		kernel=$BC/$name/arch/x86/boot/bzImage
		logs=$BC/logs-$name
		if [ ! -f "$kernel" ] || [ ! -f "$BUILD/.stamp-kernel-bc-$name" ]; then
			result fail "boot $name" "not built: buildcheck configs first"
			continue
		fi
		# Without PCI the kernel finds no way to power q35 off.
		if ! HALT_OK=1 LOGS=$logs KERNEL=$kernel "$TOP/scripts/boot.sh" lacking; then
			result fail "boot $name" "$logs/lacking.ktap"
			continue
		fi
		bad=
		for t in $(sed -n 's/^# boot skips: //p' "$frag"); do
			skipped "$t" "$logs/lacking.ktap" || bad+=" $t"
		done
		if [ -n "$bad" ]; then
			result fail "boot $name" "did not skip:$bad"
		else
			result ok "boot $name: the selftests skip$(sed -n 's/^# boot skips://p' "$frag")"
		fi
	done
}

steps=("$@")
[ ${#steps[@]} -gt 0 ] || steps=(configs bisect sparse boot)
"$TOP/scripts/tree.sh"
for s in "${steps[@]}"; do
	case $s in
	configs|bisect|sparse|boot) "do_$s" ;;
	*) die "unknown step '$s' (configs, bisect, sparse, boot)" ;;
	esac
done
for f in "${fails[@]}"; do
	msg "failed: $f"
done
echo "buildcheck: $built built, $failed failed"
[ $failed -eq 0 ]
