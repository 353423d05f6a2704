#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""The tables of "make bench" (scripts/bench.sh), from its results.

    bench-tables.py RESULTS GOALS

RESULTS/run     the run's settings, key=value words: rounds, accel, cpus,
                db_certs, dbx_hashes, modes (comma-separated)
RESULTS/data    one figure a line, key=value words: mode, kernel, scenario
                and round (bench.sh), then what the guest printed after
                "# bench ": kind=syscall (lktest-bench), kind=kernel
                (lktest_kbench), kind=keys (the UEFI key import) or
                kind=hib (bench.sh's hibernation figures)
GOALS           scripts/bench-goals.txt

Prints, for each clock mode, tables 1 to 5, then the goals.
"""
import collections
import statistics
import sys

ROUNDS = 3


def words(line):
    return dict(w.split("=", 1) for w in line.split())


def med(v):
    return statistics.median(v) if v else None


def fmt(v):
    return "-" if v is None else "%.1f" % v


def table(hdr, widths, body, left=(0,)):
    def line(c):
        return "  ".join(str(x).ljust(n) if i in left else str(x).rjust(n)
                         for i, (x, n) in enumerate(zip(c, widths))).rstrip()
    print(line(hdr))
    print(line(["-" * n for n in widths]))
    for c in body:
        print(line(c))


def per_round(vals, f):
    """vals: {(side, round): figure}, side "a" or "b". f(b, a) for each
    round that has both."""
    return [f(vals["b", r], vals["a", r]) for r in range(1, ROUNDS + 1)
            if vals.get(("b", r)) and vals.get(("a", r))]


def partial(n):
    return "" if n == ROUNDS else " (%d/%d)" % (n, ROUNDS)


def ratio_cells(vals):
    """The median of the per-round ratios b / a, and their spread (max -
    min) / median in %."""
    rs = per_round(vals, lambda b, a: b / a)
    if not rs:
        return None, "-", "-"
    m = statistics.median(rs)
    spread = "%.2f%%" % (100 * (max(rs) - min(rs)) / m) if len(rs) > 1 else "-"
    return m, "%.3f" % m, spread + partial(len(rs))


def extra_cells(vals):
    """The median of the per-round differences b - a, and their spread
    (max - min)."""
    ds = per_round(vals, lambda b, a: b - a)
    if not ds:
        return None, "-", "-"
    m = statistics.median(ds)
    spread = "%.0f" % (max(ds) - min(ds)) if len(ds) > 1 else "-"
    return m, "%+.0f" % m, spread + partial(len(ds))


def side_median(vals, side):
    return med([x for (s, _), x in vals.items() if s == side])


class Figures:
    """What the tables measured, for the goals: {(table, op, level): value}."""

    def __init__(self):
        self.seen = {}

    def add(self, tab, op, level, value, why=None):
        self.seen[tab, op, level] = (value, why)


def guarded_table(rows, mode, tab, figures, title, widths, cell, levels, note):
    """rows: the data lines of one kind; stock and ours at each level, the
    ratio ours / stock and its spread, per op."""
    v = collections.defaultdict(dict)
    res = collections.defaultdict(set)
    ops = []
    for d in rows:
        key = d["scenario"], d["op"]
        v[key]["a" if d["kernel"] == "stock" else "b", int(d["round"])] = d["x"]
        res[key + (d["kernel"],)].add(d["result"])
        if d["op"] not in ops:
            ops.append(d["op"])
    if not ops:
        return
    print()
    print(title)
    body = []
    for op in ops:
        cells = [op]
        for level in ("none", "integrity"):
            for side, k in (("a", "stock"), ("b", "ours")):
                x = side_median(v[level, op], side)
                cells.append("-" if x is None else
                             cell % (x, "/".join(sorted(res[level, op, k]))))
            m, rc, sp = ratio_cells(v[level, op])
            cells += [rc, sp]
            figures.add(tab, op, level, m)
        body.append(cells)
    table(("op", "stock none", "ours none", "ratio", "spread", "stock integ.",
           "ours integ.", "ratio", "spread"), widths, body)
    print("   " + note)


def keys_table(rows, settings):
    v = collections.defaultdict(dict)
    cnt = collections.defaultdict(set)
    fns = set()
    for d in rows:
        if d["usecs"] != "-":
            v[d["store"]]["a" if d["kernel"] == "stock" else "b",
                          int(d["round"])] = float(d["usecs"])
        cnt[d["kernel"], d["store"]].add("%s/%s" % (d["certs"], d["hashes"]))
        fns.add(d["initcall"])
    if not rows:
        return
    print()
    print("3. UEFI key import at boot (OVMF Secure Boot, initcall_debug): the %s "
          "initcall, usecs of guest time." % "/".join(sorted(fns)))
    print("   project store: db 2 certs, dbx 2 certs; big: db %s certs, dbx 2 certs + "
          "%s SHA-256. loaded = X.509 certs / blacklist keys."
          % (settings["db_certs"], settings["dbx_hashes"]))
    body = []
    for store in ("project", "big"):
        _, rc, sp = ratio_cells(v[store])
        body.append([store, fmt(side_median(v[store], "a")),
                     fmt(side_median(v[store], "b")), rc, sp,
                     ",".join(sorted(cnt["stock", store])) or "-",
                     ",".join(sorted(cnt["ours", store])) or "-"])
    table(("store", "stock", "ours", "ratio", "spread", "stock loaded", "ours loaded"),
          (7, 10, 10, 6, 8, 13, 13), body, left=(0, 5, 6))
    if fns - {"load_uefi_certs"}:
        print("   warning: the timed initcall is not load_uefi_certs (System.map)")


def allowed_table(sc_rows, kb_rows, figures):
    """Ours with an owner policy (bench_policy) against ours open through
    the same firmware (bench_efi)."""
    pol = collections.defaultdict(dict)
    pres = collections.defaultdict(set)
    for d in sc_rows:
        if d["kernel"] == "ours" and d["scenario"] in ("efi", "policy"):
            side = "a" if d["scenario"] == "efi" else "b"
            pol[d["op"]][side, int(d["round"])] = d["x"]
            if side == "b":
                pres[d["op"]].add(d["result"])
    if not any(s == "b" for op in pol for s, _ in pol[op]):
        return
    print()
    print("4. Writes an owner policy allows (ours at integrity under firmware Secure "
          "Boot, policy loaded) against the same write on ours open through the same "
          "firmware (OVMF, Secure Boot off), per call.")
    body = []
    for op in ("msr-write", "ioperm", "pci-write"):
        _, rc, sp = ratio_cells(pol[op])
        e, ec, esp = extra_cells(pol[op])
        body.append([op, fmt(side_median(pol[op], "a")), fmt(side_median(pol[op], "b")),
                     rc, sp, ec, esp, "/".join(sorted(pres[op])) or "-"])
        # A refusal is no figure for an allowed write.
        if pres[op] == {"ok"}:
            figures.add(4, op, "-", e)
        else:
            figures.add(4, op, "-", None, "the write was %s"
                        % ("/".join(sorted(pres[op])) or "not run"))
    # The MSR site's question alone, in the kernel (lktest_kbench).
    kq, kres = {}, set()
    for d in kb_rows:
        if (d["kernel"] == "ours" and d["scenario"] in ("efi", "policy") and
                d["op"] == "kernel_is_locked_down_msr"):
            kq["a" if d["scenario"] == "efi" else "b", int(d["round"])] = d["x"]
            if d["scenario"] == "policy":
                kres.add("ok" if d["result"] == "0" else "EPERM")
    if kq:
        _, rc, sp = ratio_cells(kq)
        _, ec, esp = extra_cells(kq)
        body.append(["msr question", fmt(side_median(kq, "a")),
                     fmt(side_median(kq, "b")), rc, sp, ec, esp,
                     "/".join(sorted(kres)) or "-"])
    table(("op", "ours open", "allowed", "ratio", "spread", "extra", "spread", "results"),
          (12, 12, 12, 6, 8, 7, 7, 8), body, left=(0, 7))
    print("   ratio = allowed / open per round, median of the rounds; extra = allowed - "
          "open per round, median of the rounds (spread: max - min). results = what the "
          "write under the policy returned. msr question = kernel_is_locked_down_msr() "
          "alone, in the kernel (lktest_kbench): the part of msr-write that the owner "
          "policy changes.")


def hib_table(rows, figures, tab=5):
    """Hibernate and resume, ours sealed against the stock kernel open."""
    v = collections.defaultdict(dict)
    kb = collections.defaultdict(set)
    for d in rows:
        side = "a" if d["kernel"] == "stock" else "b"
        for op in ("hibernate", "resume"):
            v[op][side, int(d["round"])] = float(d[op + "_us"]) / 1000
        kb[d["kernel"]].add(d["kbytes"])
    if not rows:
        return
    print()
    print("%d. Hibernation (a session with 32 MB of random bytes in tmpfs), ms of guest "
          "time: ours sealed (firmware Secure Boot, TPM at locality 2) against the stock "
          "kernel without lockdown; guest CPU with AES-NI and PCLMULQDQ." % tab)
    body = []
    for op in ("hibernate", "resume"):
        m, rc, sp = ratio_cells(v[op])
        figures.add(tab, op, "-", m)
        body.append([op, fmt(side_median(v[op], "a")), fmt(side_median(v[op], "b")), rc, sp])
    table(("phase", "stock", "ours", "ratio", "spread"), (10, 10, 10, 6, 8), body)
    print("   hibernate = \"hibernation entry\" to \"Power down\" (the hibernating kernel); "
          "resume = \"resume from hibernation\" to the jump into the image (the boot "
          "kernel). Image: %s kbytes (stock), %s (ours), as the kernels wrote them."
          % ("/".join(sorted(kb["stock"])) or "-", "/".join(sorted(kb["ours"])) or "-"))


def print_goals(goals_file, figures):
    lines = []
    for raw in open(goals_file):
        raw = raw.split("#", 1)[0].strip()
        if not raw:
            continue
        tab, op, level, measure, limit = raw.split()
        value, why = figures.seen.get((int(tab), op, level), (None, "not run"))
        what = "%s. %s%s, %s" % (tab, op, "" if level == "-" else " " + level, measure)
        if value is None:
            lines.append("%-44s %8s  not measured: %s" % (what, "-", why or "no figure"))
            continue
        shown = "%.3f" % value if measure == "ratio" else "%+.0f" % value
        lines.append("%-44s %8s  %s (at most %s)" % (
            what, shown, "met" if value <= float(limit) + 1e-9 else "MISSED", limit))
    print()
    print("Goals (icount; %s):" % goals_file)
    for line in lines:
        print("  " + line)


def main():
    global ROUNDS
    results, goals_file = sys.argv[1:3]
    settings = {}
    for line in open(results + "/run"):
        settings.update(words(line))
    ROUNDS = int(settings["rounds"])
    data = [words(line) for line in open(results + "/data") if line.strip()]

    unit = {"icount": "instructions (-icount: 1 ns of guest time = 1 instruction)",
            "wall": "ns of host time (plain TCG)"}
    print("Guests ran one at a time under QEMU TCG (-accel %s) on a %s-CPU host shared "
          "with other work." % (settings["accel"], settings["cpus"]))
    print("ratio = ours / stock, per round, then the median of the %d rounds; spread = "
          "(max - min) / median of those ratios." % ROUNDS)
    icount = Figures()
    for mode in settings["modes"].split(","):
        figures = icount if mode == "icount" else Figures()
        rows = [d for d in data if d["mode"] == mode]
        sc = [d for d in rows if d["kind"] == "syscall"]
        kb = [d for d in rows if d["kind"] == "kernel"]
        # icount: the least batch (an interrupt or a deferred job only
        # adds instructions); wall: the median batch.
        for d in sc:
            d["x"] = float(d["min_ns"] if mode == "icount" else d["median_ns"])
        for d in kb:
            d["x"] = float(d["median_ns"])
        print()
        print("=== %s: figures in %s ===" % (mode, unit.get(mode, mode)))
        guarded_table(sc, mode, 1, figures,
                      "1. Guarded system calls from user space (lktest-bench), per call: "
                      "median over the rounds of each boot's %s batch, and the call's "
                      "result." % ("least" if mode == "icount" else "median"),
                      (12, 14, 14, 6, 8, 14, 14, 6, 8), "%.1f %s",
                      ("open", "integrity (denied, counted)"),
                      "getppid and msr-read are controls lockdown does not guard. ok = "
                      "allowed, EPERM = refused by lockdown.")
        guarded_table(kb, mode, 2, figures,
                      "2. In the kernel (lktest_kbench, 2,000,000 calls in batches of "
                      "20,000), per call: median batch, and what the call returned.",
                      (21, 12, 12, 6, 8, 13, 13, 6, 8), "%.3f %s", ("open", "integrity"),
                      "empty = a call to an empty function (control). "
                      "kernel_is_locked_down() exists only in ours: no stock figure.")
        keys_table([d for d in rows if d["kind"] == "keys"], settings)
        allowed_table(sc, kb, figures)
        hib_table([d for d in rows if d["kind"] == "hib"], figures)
    if "icount" in settings["modes"].split(","):
        print_goals(goals_file, icount)


if __name__ == "__main__":
    main()
