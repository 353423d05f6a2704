#!/bin/bash
# Benchmarks ("make bench"): prints figures, never fails on speed.
#
#   scripts/bench.sh [all|syscalls|keys|tables]
#
#   all        (default) both benchmarks below, then the tables
#   syscalls   only 1., keys only 2. (the stock kernel is built either way)
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
	fi
}

# 1. Guarded-syscall cost.  Rows of $RESULTS/syscalls:
#    MODE KERNEL SCENARIO ROUND OP RESULT NS_PER_OP X_GETPPID BATCHES ITERATIONS
# and of $RESULTS/kbench (the module's figures):
#    MODE KERNEL SCENARIO ROUND OP NS_PER_CALL RESULT
bench_syscalls() {
	local r k sc order MODE

	: >"$RESULTS/syscalls"
	: >"$RESULTS/kbench"
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
					syscall_rows "$k" "$sc" "$r"
				done
			done
			# Writes the owner policy allows: ours only (stock has
			# no owner policy), against the same writes on ours open
			# through the same firmware (bench_efi: OVMF, Secure
			# Boot off): against SeaBIOS boots, the pci-write
			# difference swung from +88 to +1183 instructions.
			boot_one ours bench_policy "$MODE-ours-r$r" \
				SIGNED_KERNEL="$BENCH/bzImage-ours.signed"
			syscall_rows ours bench_policy "$r"
			boot_one ours bench_efi "$MODE-ours-r$r"
			syscall_rows ours bench_efi "$r"
		done
	done
}

# syscall_rows KERNEL SCENARIO ROUND: the rows of one boot's KTAP.
syscall_rows() {
	local k=$1 sc=$2 r=$3 ktap=$BENCH/logs/$MODE-$1-r$3/$2.ktap v=3

	# icount: the least batch (\5; under -icount an interrupt or a
	# deferred job only adds instructions); wall: the median batch (\3).
	[ "$MODE" = icount ] && v=5
	sed -n "s|^# bench \([a-z-]*\): \([A-Za-z0-9]*\), median \([0-9.]*\) ns/op, \([0-9.]*\) x getppid (min \([0-9.]*\), .*; \([0-9]*\) batches of \([0-9]*\))$|$MODE $k ${sc#bench_} $r \1 \2 \\$v \4 \6 \7|p" \
		"$ktap" 2>/dev/null >>"$RESULTS/syscalls" || true
	sed -n "s|^# kbench \([a-z_]*\): median \([0-9.]*\) ns/call over .*, result \(-*[0-9]*\)$|$MODE $k ${sc#bench_} $r \1 \2 \3|p" \
		"$ktap" 2>/dev/null >>"$RESULTS/kbench" || true
}

# keys_result KERNEL STORE ROUND KTAP: the row of one boot.  The guest names
# the initcall by address (no CONFIG_KALLSYMS; nokaslr): System.map says
# which function it is, which must be load_uefi_certs.
keys_result() {
	local k=$1 store=$2 r=$3 ktap=$4 fn usecs certs hashes name map

	read -r fn usecs certs hashes < <(sed -n \
		's/^# uefi_keys: initcall \([^ ]*\) \([0-9-]*\) usecs, X.509 certs \([0-9]*\), blacklist hashes \([0-9]*\)$/\1 \2 \3 \4/p' \
		"$ktap" 2>/dev/null) || return 0
	[ "$k" = stock ] && map=$STOCK_OBJ/System.map || map=$OBJ/System.map
	case $fn in
	0x*)	name=$(grep -i "^0*${fn#0x} " "$map" | cut -d' ' -f3 | head -n 1) ;;
	*)	name=${fn%%+*} ;;
	esac
	echo "$k $store $r ${usecs:--} $certs $hashes ${name:-unknown}"
}

# 2. UEFI key import cost.  Rows of $RESULTS/keys:
#    MODE KERNEL STORE ROUND USECS CERTS HASHES INITCALL
bench_keys() {
	local r k store vars order run MODE

	"$HERE/sign-kernel.sh" "$OURS_KERNEL" "$BENCH/bzImage-ours.signed"
	"$HERE/sign-kernel.sh" "$STOCK_KERNEL" "$BENCH/bzImage-stock.signed"
	: >"$RESULTS/keys"
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
					keys_result "$k" "$store" "$r" \
						"$BENCH/logs/$run/bench_keys.ktap" |
						sed "s/^/$MODE /" >>"$RESULTS/keys"
				done
			done
		done
	done
}

# --- the tables ------------------------------------------------------------------

print_tables() {
	python3 - "$RESULTS" "$ROUNDS" "$ACCEL" "$(nproc)" "$DB_CERTS" "$DBX_HASHES" "$MODES" <<-'PY'
	import collections, os, statistics, sys
	results, rounds, accel, ncpu, db_certs, dbx_hashes, modes = sys.argv[1:]
	rounds, modes = int(rounds), modes.split()

	def rows(name):
	    path = os.path.join(results, name)
	    return [l.split() for l in open(path) if l.strip()] if os.path.exists(path) else []

	def med(v):
	    return statistics.median(v) if v else None

	def fmt(v):
	    return "-" if v is None else "%.1f" % v

	def table(hdr, widths, body, left=(0,)):
	    line = lambda c: "  ".join(str(x).ljust(n) if i in left else str(x).rjust(n)
	                               for i, (x, n) in enumerate(zip(c, widths))).rstrip()
	    print(line(hdr))
	    print(line(["-" * n for n in widths]))
	    for c in body:
	        print(line(c))

	def per_round(vals, f):
	    """vals: {(kernel, round): value}. f(ours, stock) for each round
	    that has both."""
	    return [f(vals["ours", r], vals["stock", r]) for r in range(1, rounds + 1)
	            if vals.get(("ours", r)) and vals.get(("stock", r))]

	def partial(n):
	    return "" if n == rounds else " (%d/%d)" % (n, rounds)

	def ratio_cells(vals):
	    """vals as per_round(). The median of the per-round ours/stock
	    ratios, and their spread (max - min) / median in %."""
	    rs = per_round(vals, lambda o, s: o / s)
	    if not rs:
	        return None, "-", "-"
	    m = statistics.median(rs)
	    spread = "%.2f%%" % (100 * (max(rs) - min(rs)) / m) if len(rs) > 1 else "-"
	    return m, "%.3f" % m, spread + partial(len(rs))

	goals = []

	def guarded_table(rows_, mode, title, widths, cell, has_goal, what, levels, note):
	    """rows_: (kernel, level, round, op, value, result). One row per op:
	    stock and ours at each level, the ratio and its spread; icount
	    ratios of the ops has_goal() names go to the goals."""
	    if not rows_:
	        return
	    v, res, ops = collections.defaultdict(dict), collections.defaultdict(set), []
	    for k, s, r, op, x, result in rows_:
	        v[s, op][k, int(r)] = x
	        res[s, op, k].add(result)
	        if op not in ops:
	            ops.append(op)
	    print()
	    print(title)
	    body = []
	    for op in ops:
	        cells = [op]
	        for s, label in zip(("none", "integrity"), levels):
	            for k in ("stock", "ours"):
	                x = med([x for (kk, _), x in v[s, op].items() if kk == k])
	                cells.append("-" if x is None else cell % (x, "/".join(sorted(res[s, op, k]))))
	            m, rc, sp = ratio_cells(v[s, op])
	            cells += [rc, sp]
	            if mode == "icount" and has_goal(op):
	                goal("%s %s %s, %s" % (mode, what, op, label), m)
	        body.append(cells)
	    table(("op", "stock none", "ours none", "ratio", "spread", "stock integ.",
	           "ours integ.", "ratio", "spread"), widths, body)
	    print("   " + note)

	def goal(what, r, limit=1.00):
	    if r is not None:
	        goals.append("%-58s %.3f  %s" % (what, r, "met" if r <= limit + 1e-9 else "MISSED"))

	def extra_cells(vals):
	    """vals as per_round(). The median of the per-round differences
	    ours - stock, and their spread (max - min)."""
	    ds = per_round(vals, lambda o, s: o - s)
	    if not ds:
	        return None, "-", "-"
	    m = statistics.median(ds)
	    spread = "%.0f" % (max(ds) - min(ds)) if len(ds) > 1 else "-"
	    return m, "%+.0f" % m, spread + partial(len(ds))

	unit = {"icount": "instructions (-icount: 1 ns of guest time = 1 instruction)",
	        "wall": "ns of host time (plain TCG)"}
	print("Guests ran one at a time under QEMU TCG (-accel %s) on a %s-CPU host shared with "
	      "other work." % (accel, ncpu))
	print("ratio = ours / stock, per round, then the median of the %d rounds; spread = "
	      "(max - min) / median of those ratios." % rounds)

	sc_rows, kb_rows, key_rows = rows("syscalls"), rows("kbench"), rows("keys")
	for mode in modes:
	    print()
	    print("=== %s: figures in %s ===" % (mode, unit.get(mode, mode)))
	    guarded_table([(r[1], r[2], r[3], r[4], float(r[6]), r[5]) for r in sc_rows
	                   if r[0] == mode], mode,
	                  "1. Guarded system calls from user space (lktest-bench), per call: median "
	                  "over the rounds of each boot's %s batch, and the call's result."
	                  % ("least" if mode == "icount" else "median"),
	                  (12, 14, 14, 6, 8, 14, 14, 6, 8), "%.1f %s",
	                  lambda op: op not in ("getppid", "msr-read"), "syscall",
	                  ("open", "integrity (denied, counted)"),
	                  "getppid and msr-read are controls lockdown does not guard. ok = allowed, "
	                  "EPERM = refused by lockdown.")
	    guarded_table([(r[1], r[2], r[3], r[4], float(r[5]), r[6]) for r in kb_rows
	                   if r[0] == mode], mode,
	                  "2. In the kernel (lktest_kbench, 2,000,000 calls in batches of 20,000), "
	                  "per call: median batch, and what the call returned.",
	                  (21, 12, 12, 6, 8, 13, 13, 6, 8), "%.3f %s",
	                  lambda op: op in ("capable", "ns_capable", "security_locked_down"),
	                  "kernel", ("open", "integrity"),
	                  "empty = a call to an empty function (control). kernel_is_locked_down() "
	                  "exists only in ours: no stock figure.")
	    # Ours open through OVMF (bench_efi) as the "stock" side of
	    # ratio_cells(), ours with the policy as the "ours" side: the ratio
	    # is allowed / open.
	    pol, pres = collections.defaultdict(dict), collections.defaultdict(set)
	    for r in sc_rows:
	        if r[0] == mode and r[1] == "ours" and r[2] in ("efi", "policy"):
	            pol[r[4]]["stock" if r[2] == "efi" else "ours", int(r[3])] = float(r[6])
	            if r[2] == "policy":
	                pres[r[4]].add(r[5])
	    if any(k == "ours" for op in pol for k, _ in pol[op]):
	        print()
	        print("4. Writes an owner policy allows (ours at integrity under firmware Secure "
	              "Boot, policy loaded) against the same write on ours open through the same "
	              "firmware (OVMF, Secure Boot off), per call.")
	        body = []
	        for op in ("msr-write", "ioperm", "pci-write"):
	            _, rc, sp = ratio_cells(pol[op])
	            e, ec, esp = extra_cells(pol[op])
	            body.append([op,
	                         fmt(med([x for (k, _), x in pol[op].items() if k == "stock"])),
	                         fmt(med([x for (k, _), x in pol[op].items() if k == "ours"])),
	                         rc, sp, ec, esp, "/".join(sorted(pres[op])) or "-"])
	            what = "%s allowed %s - open (instructions)" % (mode, op)
	            # No policy, or one that did not allow it: a refusal is no
	            # figure for an allowed write.  The goal is in instructions
	            # (icount): at most 250 more than the same write open.
	            if mode == "icount" and pres[op] == {"ok"} and e is not None:
	                goals.append("%-58s %+.0f  %s" % (what, e, "met" if e <= 250 else "MISSED"))
	            elif mode == "icount":
	                goals.append("%-58s   -    not measured: the write was %s" %
	                             (what, "/".join(sorted(pres[op])) or "not run"))
	        # The MSR site's question alone, in the kernel (lktest_kbench).
	        kq, kres = collections.defaultdict(dict), set()
	        for r in kb_rows:
	            if (r[0] == mode and r[1] == "ours" and r[2] in ("efi", "policy") and
	                    r[4] == "kernel_is_locked_down_msr"):
	                kq["stock" if r[2] == "efi" else "ours", int(r[3])] = float(r[5])
	                if r[2] == "policy":
	                    kres.add("ok" if r[6] == "0" else "EPERM")
	        if kq:
	            _, rc, sp = ratio_cells(kq)
	            _, ec, esp = extra_cells(kq)
	            body.append(["msr question",
	                         fmt(med([x for (k, _), x in kq.items() if k == "stock"])),
	                         fmt(med([x for (k, _), x in kq.items() if k == "ours"])),
	                         rc, sp, ec, esp, "/".join(sorted(kres)) or "-"])
	        table(("op", "ours open", "allowed", "ratio", "spread", "extra", "spread", "results"),
	              (12, 12, 12, 6, 8, 7, 7, 8), body, left=(0, 7))
	        print("   ratio = allowed / open per round, median of the rounds; extra = allowed - "
	              "open per round, median of the rounds (spread: max - min); goal: extra at most "
	              "250 instructions under -icount. "
	              "results = what the write under the policy returned. msr question = "
	              "kernel_is_locked_down_msr() alone, in the kernel (lktest_kbench): "
	              "the part of msr-write that the owner policy changes.")
	    kr = [r for r in key_rows if r[0] == mode]
	    if kr:
	        v, cnt, fns = collections.defaultdict(dict), collections.defaultdict(set), set()
	        for _, k, store, r, u, certs, hashes, fn in kr:
	            if u != "-":
	                v[store][k, int(r)] = float(u)
	            cnt[k, store].add("%s/%s" % (certs, hashes))
	            fns.add(fn)
	        print()
	        print("3. UEFI key import at boot (OVMF Secure Boot, initcall_debug): the %s initcall, "
	              "usecs of guest time." % "/".join(sorted(fns)))
	        print("   project store: db 2 certs, dbx 2 certs; big: db %s certs, dbx 2 certs + %s "
	              "SHA-256. loaded = X.509 certs / blacklist keys." % (db_certs, dbx_hashes))
	        body = []
	        for store in ("project", "big"):
	            m, rc, sp = ratio_cells(v[store])
	            body.append([store,
	                         fmt(med([x for (k, _), x in v[store].items() if k == "stock"])),
	                         fmt(med([x for (k, _), x in v[store].items() if k == "ours"])),
	                         rc, sp, ",".join(sorted(cnt["stock", store])) or "-",
	                         ",".join(sorted(cnt["ours", store])) or "-"])
	        table(("store", "stock", "ours", "ratio", "spread", "stock loaded", "ours loaded"),
	              (7, 10, 10, 6, 8, 13, 13), body, left=(0, 5, 6))
	        if fns - {"load_uefi_certs"}:
	            print("   warning: the timed initcall is not load_uefi_certs (System.map)")
	if goals:
	    print()
	    print("Goals (icount; every unlocked ratio at most 1.00, the denied path's at most "
	          "1.00 while also counting; an allowed write at most 250 instructions more than "
	          "the open one):")
	    for g in goals:
	        print("  " + g)
	PY
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
	echo "$ROUNDS $ACCEL $DB_CERTS $DBX_HASHES $MODES" >"$RESULTS/run"
	case $1 in
	all|syscalls)	bench_syscalls ;;
	esac
	case $1 in
	all|keys)	bench_keys ;;
	esac
	msg "done in $((SECONDS - t0)) s; logs in $BENCH/logs"
	print_tables
}

case ${1:-all} in
all|syscalls|keys) all "${1:-all}" ;;
build-stock)	build_stock ;;
big-store)	make_big_store ;;
tables)		read -r ROUNDS ACCEL DB_CERTS DBX_HASHES MODES <"$RESULTS/run" || die "no results: run bench.sh first"
		print_tables ;;
*)		die "usage: bench.sh [all|syscalls|keys|build-stock|big-store|tables]" ;;
esac
