#!/usr/bin/env python3
"""compare.py KEEL DB SRCDIR PAIRS -- each pair of spellings of one kernel
through `keel loops`, `keel explain`: loop verdicts and idioms, access
strides, and the CPU, GPU and transfer times at each size.  Prints one
line per pair and size, then checks each pair against its expectation."""
import json, re, subprocess, sys

KEEL, DB, SRC, PAIRS = sys.argv[1:5]
HOST, DEVICE = "xeon-8480", "h100"
TOL = 1.10

def keel(*args):
    r = subprocess.run([KEEL, *args, "--json", DB], capture_output=True, text=True)
    if r.returncode != 0:
        raise SystemExit("keel %s failed: %s" % (" ".join(args), r.stderr.strip()))
    return json.loads(r.stdout)

loops = keel("loops")
def nest_loops(spec):
    """(depth, verdict, idioms) of the loops of the nest at FILE:LINE, preorder."""
    f, line = spec.split(":")
    rows = [l for l in loops if l["file"].endswith("/" + f)]
    rows.sort(key=lambda l: (l["line"], l["col"]))
    out, inside = [], False
    for l in rows:
        if l["line"] == int(line) and l["depth"] == 0:
            inside = True
        elif l["depth"] == 0:
            inside = False
        if inside:
            out.append((l["depth"], l["parallel"], ",".join(l["idioms"])))
    if not out:
        raise SystemExit("no nest at " + spec)
    return out

def accesses(facts):
    """'R A elem 8 stride 1 -> coalesced x K per work item' without the subscript text."""
    acc, on = [], False
    for line in facts:
        if line.startswith("accesses"):
            on = True
            continue
        if on and line.startswith("  "):
            m = re.match(r"\s+([RW]) ([A-Za-z_]\w*)\[.*?\s+(elem \d+ .*)$", line)
            acc.append(" ".join(m.groups()) if m else line.strip())
        elif on:
            on = False
    return sorted(acc)

def times(specs, size):
    t = {"cpu": 0.0, "gpu": 0.0, "xfer": 0.0}
    verdicts, acc = [], []
    for s in specs:
        args = ["explain", s, "--host", HOST, "--device", DEVICE]
        if size != "-":
            args += ["--set", size]
        e = keel(*args)
        for k in t:
            t[k] += e["model_seconds"][k]
        verdicts.append(e["verdict"])
        acc += accesses(e["facts"])
    return t, verdicts, sorted(acc)

def ratio(a, b):
    return max(a, b) / min(a, b) if min(a, b) > 0 else (1.0 if a == b else float("inf"))

fail = 0
for raw in open(PAIRS):
    raw = raw.split("#")[0].strip()
    if not raw:
        continue
    name, a, b, sizes, expect = raw.split(None, 4)
    A, B = a.split("+"), b.split("+")
    why = []
    la = [nest_loops(s) for s in A]
    lb = [nest_loops(s) for s in B]
    # one fused nest against its split parts: each part has the fused shape
    if len(A) == len(B):
        if la != lb:
            why.append("loop verdicts %s vs %s" % (la, lb))
    else:
        one, many = (la, lb) if len(A) == 1 else (lb, la)
        for part in many:
            if [x[:2] for x in part] != [x[:2] for x in one[0]]:
                why.append("loop verdicts %s vs %s" % (one, many))
    for size in sizes.split(";"):
        ta, va, aa = times(A, size)
        tb, vb, ab = times(B, size)
        r = {k: ratio(ta[k], tb[k]) for k in ta}
        print("%-7s %-40s verdict %s/%s  cpu x%.2f gpu x%.2f xfer x%.2f" %
              (name, size, "+".join(va), "+".join(vb), r["cpu"], r["gpu"], r["xfer"]))
        if len(set(va + vb)) != 1:
            why.append("verdicts %s vs %s at %s" % (va, vb, size))
        if aa != ab:
            why.append("accesses at %s: %s vs %s" % (size, aa, ab))
        for k in r:
            if r[k] > TOL:
                why.append("%s time x%.2f at %s (%.3g vs %.3g s)" % (k, r[k], size, ta[k], tb[k]))
    if expect == "same" and why:
        fail += 1
        print("FAIL: %s: the two spellings differ:\n  %s" % (name, "\n  ".join(why)))
    elif expect != "same" and not why:
        fail += 1
        print("FAIL: %s: listed as a known difference (%s) but the spellings agree" % (name, expect))
    elif expect != "same":
        print("  known difference: %s\n    %s" % (expect, "\n    ".join(why)))
print("spellings: %d pairs off their expectation" % fail)
sys.exit(1 if fail else 0)
