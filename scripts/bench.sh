#!/bin/bash
# Benchmarks ("make bench"): prints figures, never fails on speed.
#
#   scripts/bench.sh [all|syscalls|keys|tables]
#
#   all        (default) the three benchmarks below, then the tables
#   syscalls   only 1., keys only 2., hibernate only 3. (the stock kernel is
#              built either way)
#   tables     print the tables of the last run again
#   ROUNDS=N   boots per kernel and case (default 3)
#   MODES="icount wall"  how guests keep time (default both): icount =
#              QEMU -icount shift=0,sleep=off, guest time advances one ns
#              per instruction, so figures are instruction counts that the
#              host's load cannot move; wall = plain TCG, host time
#   DB_CERTS=N DBX_HASHES=N   size of the big store (default 50, 500)
#
# 1. Guarded-syscall cost: our kernel ($OBJ) against the stock packaged
#    tree with the same configuration ($STOCK_SRC, a detached git worktree
#    of build/src at tag "pristine", built into $STOCK_OBJ), each booted
#    with no lockdown and with lockdown=integrity.  The guest program
#    lktest-bench times every guarded operation and two controls; the
#    module lktest_kbench (built for each kernel) times capable(),
#    ns_capable() and security_locked_down() in the kernel.
# 2. UEFI key import cost: the load_uefi_certs initcall (initcall_debug)
#    booting through OVMF Secure Boot with the project's store, and with a
#    store of 50 db certificates and 500 dbx SHA-256 hashes.
# 3. Hibernation: hibernate and resume of the same image size, ours sealed
#    against the stock kernel without lockdown (bench_hibernate).
#
# The guest prints each figure as a "# bench kind=... key=value ..." line
# of its KTAP; they are collected into $BENCH/results/data, and
# scripts/bench-tables.py prints tables 1 to 4 from them and judges the
# goals in scripts/bench-goals.txt.
#
# Guests boot one at a time (steadier timing), stock and ours interleaved,
# for $ROUNDS rounds; the tables show medians over the rounds.  Booted
# with nokaslr and norandmaps, so that every boot has the same layout.
# Everything goes under $BUILD/bench; the test matrix's logs ($BUILD/logs)
# are never touched.
# Needs the main kernel built ("make" or "make check" first).
set -euo pipefail
HERE=$(cd "$(dirname "$0")" && pwd)
. "$HERE/lib.sh"
# The scripts run here (mkinitramfs.sh, boot.sh) use our tree and kernel
# unless told otherwise; lib.sh would derive them from a changed BUILD.
export SRC OBJ

BENCH=$BUILD/bench
STOCK_SRC=$BUILD/stock-src
STOCK_OBJ=$BUILD/obj-stock
ROUNDS=${ROUNDS:-3}
MODES=${MODES:-icount wall}

# --- the stock kernel ---------------------------------------------------------

# Our fragment without the symbols that no Kconfig of the stock tree defines.
stock_fragment() {
	local frag=$TOP/configs/lockdown-test.config defined line sym

	defined=$(find "$STOCK_SRC" -name 'Kconfig*' -type f -print0 |
		xargs -0 sed -n 's/^[[:space:]]*\(menu\)\{0,1\}config[[:space:]]\{1,\}\([A-Za-z0-9_]\{1,\}\).*/\2/p' |
		LC_ALL=C sort -u)
	while IFS= read -r line; do
		case $line in
		CONFIG_*=*)		sym=${line%%=*} ;;
		"# CONFIG_"*" is not set") sym=${line#\# }; sym=${sym%% *} ;;
		*)			printf '%s\n' "$line"; continue ;;
		esac
		if grep -qxF "${sym#CONFIG_}" <<<"$defined"; then
			printf '%s\n' "$line"
		else
			printf '# %s: not in the stock tree\n' "$sym"
			msg "stock config: dropping $sym (no Kconfig defines it)"
		fi
	done <"$frag"
}

build_stock() {
	local h

	if [ ! -d "$STOCK_SRC" ]; then
		msg "creating the stock tree $STOCK_SRC (worktree of $SRC at pristine)"
		git -C "$SRC" worktree add --detach "$STOCK_SRC" pristine >/dev/null 2>&1 ||
			die "git worktree add $STOCK_SRC failed"
	fi
	# An interrupted "worktree add" leaves a partial tree: refuse it.
	if [ "$(git -C "$STOCK_SRC" rev-parse --show-toplevel 2>/dev/null)" != "$STOCK_SRC" ] ||
	   [ "$(git -C "$STOCK_SRC" rev-parse HEAD)" != "$(git -C "$SRC" rev-parse pristine)" ] ||
	   [ -n "$(git -C "$STOCK_SRC" status --porcelain --untracked-files=no | head -n 1)" ]; then
		die "$STOCK_SRC is not a clean worktree at tag pristine; remove it" \
			"(git -C $SRC worktree remove --force $STOCK_SRC) and run again"
	fi
	mkdir -p "$BENCH"
	stock_fragment >"$BENCH/stock.config.tmp"
	if cmp -s "$BENCH/stock.config.tmp" "$BENCH/stock.config"; then
		rm "$BENCH/stock.config.tmp"
	else
		mv "$BENCH/stock.config.tmp" "$BENCH/stock.config"
	fi
	# Same ccache as the main build (lib.sh exports CCACHE_DIR); stamps
	# and logs under $BENCH.
	BUILD=$BENCH SRC=$STOCK_SRC OBJ=$STOCK_OBJ \
		BASE_CONFIG=$BENCH/stock.config "$HERE/configure.sh"
	h=$(inputs_hash "$STOCK_OBJ/.config" "$HERE/build-kernel.sh")$(git -C "$STOCK_SRC" rev-parse HEAD)
	if [ -s "$STOCK_OBJ/arch/x86/boot/bzImage" ] && stamp_ok bench-stock-kernel "$h"; then
		msg "stock kernel up to date: $STOCK_OBJ"
		return 0
	fi
	msg "building the stock kernel in $STOCK_OBJ (log $BENCH/build-${STOCK_OBJ##*/}.log)"
	BUILD=$BENCH SRC=$STOCK_SRC OBJ=$STOCK_OBJ "$HERE/build-kernel.sh"
	stamp_set bench-stock-kernel "$h"
}

# --- the big UEFI key store ----------------------------------------------------

BIG_KEYS=$BENCH/keys/big
BIG_EXTRA=$BENCH/keys/big-extra
BIG_VARS=$BENCH/vars/big-VARS.fd
# db: the project's db, owner, ca, rca and both, and $DB_CERTS - 5 more.
DB_CERTS=${DB_CERTS:-50}
DBX_HASHES=${DBX_HASHES:-500}	# dbx: dbx + both + $DBX_HASHES SHA-256 hashes

# sha256_list N OUT: an EFI signature list of N EFI_CERT_SHA256 entries
# (sha256 of "lockdown bench dbx I"): what the real dbx mostly holds.
sha256_list() {
	local i hashes=()

	for ((i = 0; i < $1; i++)); do
		hashes+=("$(printf 'lockdown bench dbx %d' "$i" | sha256sum | cut -d' ' -f1)")
	done
	sha256_esl "$2" "${hashes[@]}"
}

# $BIG_VARS: the project's keys (copies) with db and dbx grown; provisioned
# by mkvars.sh, which skips when nothing changed.
make_big_store() {
	local n i f extra=$((DB_CERTS - 5))

	[ -s "$BUILD/keys/PK.key" ] || "$HERE/mkkeys.sh"
	mkdir -p "$BIG_KEYS" "$BIG_EXTRA"
	for f in "$BUILD/keys"/*.{key,crt,der,esl}; do
		cmp -s "$f" "$BIG_KEYS/${f##*/}" || cp "$f" "$BIG_KEYS/"
	done
	# The extra certificates are RSA-2048 keys issued by one bench CA with
	# a P-256 key: OVMF takes at most 0x8400 bytes per authenticated
	# variable, which 50 self-signed RSA-2048 certificates (with 256-byte
	# signatures) overflow.  Like the real db certificates (Microsoft's
	# are CA-issued), the kernel parses them without a self-signature to
	# verify.
	ca=$BIG_EXTRA/ca
	if [ ! -s "$ca.crt" ]; then
		openssl req -new -x509 -newkey ec -pkeyopt ec_paramgen_curve:prime256v1 \
			-nodes -sha256 -days 36500 -subj "/CN=Lockdown Bench CA/" \
			-keyout "$ca.key" -out "$ca.crt" 2>/dev/null || die "openssl: bench CA"
		printf '%s\n' subjectKeyIdentifier=hash authorityKeyIdentifier=keyid \
			>"$ca.ext"
	fi
	for ((i = 1; i <= extra; i++)); do
		n=$BIG_EXTRA/db-$(printf '%02d' "$i")
		[ -s "$n.esl" ] && continue
		openssl req -new -newkey rsa:2048 -nodes -subj "/CN=Lockdown Bench db $i/" \
			-keyout "$n.key" -out "$n.csr" 2>/dev/null ||
			die "openssl: request $n"
		openssl x509 -req -in "$n.csr" -CA "$ca.crt" -CAkey "$ca.key" \
			-set_serial "$((1000 + i))" -days 36500 -sha256 \
			-extfile "$ca.ext" -out "$n.crt" 2>/dev/null ||
			die "openssl: certificate $n"
		cert-to-efi-sig-list -g "$OWNER_GUID" "$n.crt" "$n.esl" >/dev/null
	done
	# One file per list kind, so that mkvars.sh sees a change as a change.
	for ((i = 1; i <= extra; i++)); do
		cat "$BIG_EXTRA/db-$(printf '%02d' "$i").esl"
	done >"$BIG_EXTRA/extra-db.esl"
	sha256_list "$DBX_HASHES" "$BIG_EXTRA/extra-dbx.esl"
	KEYS=$BIG_KEYS PROJECT_VARS=$BIG_VARS \
		DB_EXTRA="$BIG_EXTRA/extra-db.esl" DBX_EXTRA="$BIG_EXTRA/extra-dbx.esl" \
		"$HERE/mkvars.sh"
	msg "big store: db $(wc -c <"$BIG_KEYS/db.list") bytes, dbx $(wc -c <"$BIG_KEYS/dbx.list") bytes"
}

# --- booting -------------------------------------------------------------------

OURS_KERNEL=$OBJ/arch/x86/boot/bzImage
STOCK_KERNEL=$STOCK_OBJ/arch/x86/boot/bzImage
INITRD=$BENCH/initramfs.img
RESULTS=$BENCH/results
FAILED_BOOTS=()

# The harness initramfs, built privately (build/initramfs.img is the test
# matrix's): test programs, lktest-bench included, and the test modules of
# our kernel (unused here) signed with its build key only.
bench_initramfs() {
	local keys=$BUILD/keys
	local signer=signed:$OBJ/certs/signing_key.pem:$OBJ/certs/signing_key.x509

	build_kbench ours "$SRC" "$OBJ"
	build_kbench stock "$STOCK_SRC" "$STOCK_OBJ"
	KEYS=$keys BUILD=$BENCH LKTEST_SIGNERS=$signer \
		LKTEST_EXTRA_MODULES=$BENCH/kbench-modules "$HERE/mkinitramfs.sh"
}

# build_kbench NAME SRC OBJ: lktest_kbench.ko for one kernel, signed with
# that kernel's build key (lockdown=integrity enforces signatures), as
# $BENCH/kbench-modules/lktest_kbench_NAME.ko.
build_kbench() {
	local name=$1 src=$2 obj=$3 dir=$BENCH/kbench-$1

	rm -rf "$dir"
	mkdir -p "$dir" "$BENCH/kbench-modules"
	cp "$TOP"/test-initramfs/kbench/* "$dir/"
	make -s -C "$dir" KDIR="$src" KOBJ="$obj" >"$dir/build.log" 2>&1 ||
		{ cat "$dir/build.log" >&2; die "lktest_kbench failed to build against $obj"; }
	"$obj/scripts/sign-file" sha256 "$obj/certs/signing_key.pem" \
		"$obj/certs/signing_key.x509" "$dir/lktest_kbench.ko" \
		"$BENCH/kbench-modules/lktest_kbench_$name.ko"
}

# boot_one KERNEL_NAME SCENARIO RUN [VAR=VALUE...]: one guest with
# boot.sh, its logs in $BENCH/logs/RUN.  A failed judgement (a boot
# problem, a check that could not measure) is reported, not fatal: the
# tables show what is missing.
boot_one() {
	local k=$1 sc=$2 run=$3 kernel t0

	shift 3
	[ "$k" = stock ] && kernel=$STOCK_KERNEL || kernel=$OURS_KERNEL
	t0=$(date +%s)
	mkdir -p "$BENCH/logs/$run"
	if env LOGS="$BENCH/logs/$run" KERNEL="$kernel" INITRD="$INITRD" ACCEL="$ACCEL" \
		ICOUNT="$([ "${MODE:-wall}" = icount ] && echo 1 || echo 0)" "$@" \
		"$HERE/boot.sh" "$sc" >"$BENCH/logs/$run/$sc.boot.log" 2>&1; then
		msg "$run: $sc on $k, $(($(date +%s) - t0)) s"
	else
		msg "$run: $sc on $k: boot.sh failed ($(grep -m1 'boot.sh: ' "$BENCH/logs/$run/$sc.boot.log" || echo see log)); logs in $BENCH/logs/$run"
		FAILED_BOOTS+=("$run/$sc")
	fi
}

# 1. Guarded-syscall cost: lktest-bench's and lktest_kbench's figures, as
#    lines of $RESULTS/data (bench-tables.py says what they hold).
bench_syscalls() {
	local r k sc order MODE

	"$HERE/sign-kernel.sh" "$OURS_KERNEL" "$BENCH/bzImage-ours.signed"
	for MODE in $MODES; do
		for ((r = 1; r <= ROUNDS; r++)); do
			# Alternate who goes first, so that a drifting host
			# favours no one.
			order="stock ours"
			[ $((r % 2)) -eq 0 ] && order="ours stock"
			for sc in bench_none bench_integrity; do
				for k in $order; do
					boot_one "$k" "$sc" "$MODE-$k-r$r"
					collect "$k" "$sc" "$r"
				done
			done
			# Writes the owner policy allows: ours only (stock has
			# no owner policy), against the same writes on ours open
			# through the same firmware (bench_efi: OVMF, Secure
			# Boot off): against SeaBIOS boots, the pci-write
			# difference swung from +88 to +1183 instructions.
			boot_one ours bench_policy "$MODE-ours-r$r" \
				SIGNED_KERNEL="$BENCH/bzImage-ours.signed"
			collect ours bench_policy "$r"
			boot_one ours bench_efi "$MODE-ours-r$r"
			collect ours bench_efi "$r"
		done
	done
}

# collect KERNEL SCENARIO ROUND [RUN [WORDS]]: the "# bench " lines of
# one boot's KTAP (logs/RUN, default MODE-KERNEL-rROUND), each a line of
# $RESULTS/data after the words that say which boot it came from. The
# guest names the key import's initcall by address (no CONFIG_KALLSYMS;
# nokaslr): System.map says which function it is.
collect() {
	local k=$1 sc=$2 r=$3 run=${4:-$MODE-$1-r$3} more=${5:-} map=$OBJ/System.map
	local ktap=$BENCH/logs/$run/$2.ktap line fn name

	[ "$k" = stock ] && map=$STOCK_OBJ/System.map
	sed -n 's/^# bench //p' "$ktap" 2>/dev/null | while read -r line; do
		fn=$(sed -n 's/.*initcall=\(0x[0-9a-f]*\).*/\1/p' <<<"$line")
		if [ -n "$fn" ]; then
			name=$(grep -i "^0*${fn#0x} " "$map" | cut -d' ' -f3 | head -n 1)
			line=${line/initcall=$fn/initcall=${name:-unknown}}
		fi
		echo "mode=$MODE kernel=$k scenario=${sc#bench_} round=$r${more:+ $more} $line"
	done >>"$RESULTS/data"
}

# 2. UEFI key import cost: the guest's figures as lines of $RESULTS/data.
bench_keys() {
	local r k store vars order run MODE

	"$HERE/sign-kernel.sh" "$OURS_KERNEL" "$BENCH/bzImage-ours.signed"
	"$HERE/sign-kernel.sh" "$STOCK_KERNEL" "$BENCH/bzImage-stock.signed"
	for MODE in $MODES; do
		for ((r = 1; r <= ROUNDS; r++)); do
			order="stock ours"
			[ $((r % 2)) -eq 0 ] && order="ours stock"
			for store in project big; do
				[ $store = big ] && vars=$BIG_VARS || vars=$BUILD/vars/project-VARS.fd
				for k in $order; do
					run=$MODE-keys-$store-$k-r$r
					boot_one "$k" bench_keys "$run" \
						PROJECT_VARS="$vars" SIGNED_KERNEL="$BENCH/bzImage-$k.signed"
					collect "$k" bench_keys "$r" "$run" "store=$store"
				done
			done
		done
	done
}

# 3. Hibernation: a session with a 32 MB file of random bytes hibernates
#    and the next boot resumes it, ours sealed (bench_hib: firmware Secure
#    Boot, the TPM) against the stock kernel without lockdown
#    (bench_hib_open: the same firmware, Secure Boot off), the guest CPU
#    with AES-NI and PCLMULQDQ (QEMU's -cpu max).  Then the stock kernel
#    is asked to resume ours' sealed image (bench_hib_stock).
bench_hibernate() {
	local r k sc order run MODE img

	"$HERE/sign-kernel.sh" "$OURS_KERNEL" "$BENCH/bzImage-ours.signed"
	for MODE in $MODES; do
		for ((r = 1; r <= ROUNDS; r++)); do
			order="stock ours"
			[ $((r % 2)) -eq 0 ] && order="ours stock"
			for k in $order; do
				run=$MODE-hib-$k-r$r
				sc=bench_hib
				[ "$k" = stock ] && sc=bench_hib_open
				boot_one "$k" "$sc" "$run" \
					SIGNED_KERNEL="$BENCH/bzImage-ours.signed"
				hib_figures "$k" "$sc" "$r" "$run"
			done
		done
	done
	# ours' image before its resume (boot.sh's bench_hib_step), with the
	# signature the stock kernel knows.
	img=$BENCH/logs/${MODES##* }-hib-ours-r1/bench_hib.image
	if [ -s "$img" ] && "$HERE/hib-image.py" stocksig "$img" >/dev/null; then
		MODE=wall boot_one stock bench_hib_stock hib-stock-sealed SWAP_IMAGE="$img"
	else
		msg "no sealed image of ours for the stock kernel ($img)"
		FAILED_BOOTS+=("hib-stock-sealed")
	fi
}

# hib_figures KERNEL SCENARIO ROUND RUN: from the console of one run,
# hibernate = "PM: hibernation: hibernation entry" to "reboot: Power down"
# (the hibernating kernel's clock), resume = "PM: hibernation: resume from
# hibernation" to "printk: Suspending console(s)" (the boot kernel's
# clock, up to its jump into the image), and the kernel's own "Wrote" and
# "Read" lines, as a line of $RESULTS/data.
hib_figures() {
	local con=$BENCH/logs/$4/$2.console

	[ -s "$con" ] || return 0
	awk -v pre="mode=$MODE kernel=$1 scenario=hib round=$3 kind=hib" '
	function t(l) { sub(/^\[ */, "", l); return int(substr(l, 1, index(l, "]") - 1) * 1e6) }
	/PM: hibernation: hibernation entry/	{ e = t($0) }
	/reboot: Power down/ && e && !h		{ h = t($0) - e }
	/PM: hibernation: resume from hibernation/ { s = t($0) }
	/printk: Suspending console/ && s && !u	{ u = t($0) - s }
	/PM: hibernation: Wrote [0-9]+ kbytes in/ { kb = $0; sub(/.*Wrote /, "", kb); sub(/ .*/, "", kb)
		w = $0; sub(/.* in /, "", w); sub(/ .*/, "", w) }
	/PM: hibernation: Read [0-9]+ kbytes in/	{ rd = $0; sub(/.* in /, "", rd); sub(/ .*/, "", rd) }
	END { if (h && u) printf "%s hibernate_us=%d resume_us=%d kbytes=%s write_s=%s read_s=%s\n",
		pre, h, u, kb, w, rd }' "$con" >>"$RESULTS/data"
}

# --- the tables ------------------------------------------------------------------

print_tables() {
	python3 "$HERE/bench-tables.py" "$RESULTS" "$HERE/bench-goals.txt"
}

all() {
	local t0=$SECONDS

	[ -s "$OURS_KERNEL" ] || die "no kernel in $OBJ: run make (or make check) first"
	rm -rf "$BENCH/logs" "$RESULTS"
	mkdir -p "$BENCH/logs" "$RESULTS"
	build_stock
	[ -s "$BUILD/vars/project-VARS.fd" ] || "$HERE/mkvars.sh"
	make_big_store
	bench_initramfs
	ACCEL=$("$HERE/accel.sh" "$OURS_KERNEL")
	msg "guests run under $ACCEL, clocks: $MODES; one at a time, $ROUNDS rounds"
	echo "rounds=$ROUNDS accel=$ACCEL cpus=$(nproc) db_certs=$DB_CERTS" \
		"dbx_hashes=$DBX_HASHES modes=${MODES// /,}" >"$RESULTS/run"
	: >"$RESULTS/data"
	case $1 in
	all|syscalls)	bench_syscalls ;;
	esac
	case $1 in
	all|keys)	bench_keys ;;
	esac
	case $1 in
	all|hibernate)	bench_hibernate ;;
	esac
	msg "done in $((SECONDS - t0)) s; logs in $BENCH/logs"
	print_tables
	# Figures never fail the bench; a boot whose checks failed (the
	# lockdown selftests on the stock kernel among them) does.
	[ ${#FAILED_BOOTS[@]} -eq 0 ] ||
		die "${#FAILED_BOOTS[@]} boots failed a check: ${FAILED_BOOTS[*]}"
}

case ${1:-all} in
all|syscalls|keys|hibernate) all "${1:-all}" ;;
build-stock)	build_stock ;;
big-store)	make_big_store ;;
tables)		[ -f "$RESULTS/data" ] || die "no results: run bench.sh first"
		print_tables ;;
*)		die "usage: bench.sh [all|syscalls|keys|hibernate|build-stock|big-store|tables]" ;;
esac
