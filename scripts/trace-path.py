# SPDX-License-Identifier: GPL-2.0
# Run by gdb for scripts/trace-path.sh: attach to QEMU's gdb stub, stop at
# the (SKIP+1)-th call of FUNCTION, step to its return, and print the
# instructions executed per function, in the order first entered.
# Environment: TRACE_PORT, TRACE_FUNCTION, TRACE_SKIP, TRACE_MAP
# (System.map), TRACE_OUT (where the counts go), TRACE_MAX (steps before
# giving up).
import bisect
import collections
import os

import gdb

port = os.environ["TRACE_PORT"]
function = os.environ["TRACE_FUNCTION"]
skip = int(os.environ.get("TRACE_SKIP", "200"))
limit = int(os.environ.get("TRACE_MAX", "50000"))

syms = []
with open(os.environ["TRACE_MAP"]) as f:
    for line in f:
        addr, kind, name = line.split()[:3]
        if kind in "tTwW":
            syms.append((int(addr, 16), name))
syms.sort()
addrs = [a for a, _ in syms]

gdb.execute("set pagination off")
gdb.execute("target remote 127.0.0.1:" + port)
gdb.execute("hbreak " + function)
gdb.execute("ignore 1 %d" % skip)
gdb.execute("continue")
gdb.execute("delete")
ret = int(gdb.parse_and_eval("*(unsigned long *)$rsp"))
counts = collections.Counter()
steps = 0
while steps < limit:
    pc = int(gdb.parse_and_eval("$pc"))
    if pc == ret:
        break
    counts[syms[bisect.bisect_right(addrs, pc) - 1][1]] += 1
    steps += 1
    gdb.execute("stepi", to_string=True)
gdb.execute("detach")
with open(os.environ["TRACE_OUT"], "w") as out:
    if steps == limit:
        out.write("no return within %d instructions\n" % limit)
    for name, n in counts.items():
        out.write("%6d  %s\n" % (n, name))
    out.write("%6d  total: %s, call %d\n" % (steps, function, skip + 1))
