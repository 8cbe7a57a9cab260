#!/usr/bin/env python3
"""verdicts.py -- how good are keel's CPU/GPU verdicts against measured speedups?

Builds the project's omp-target inputs (polybench-inputs/omp-target) with keelcc
into a scratch database per size, the arrays of that size (the LARGE extents of a
staged copy of the headers set to SIZE; Table I's arrays are SIZE x SIZE), then asks `keel explain` for every kernel of
bench/chikin-kernels.tsv under every platform group of bench/chikin-table1.tsv
(the 200 speedups of Chikin et al., Table I: POWER8/POWER9 hosts x K80/V100,
4/160 threads, SIZE 1100/9600) and prints, per group and in total:

  accuracy      verdicts that agree with the measurement (GPU iff speedup > 1)
  always-GPU    the same for the rule "always offload"
  geomeans      speedup over the host of following the verdict (1 when CPU),
                of always offloading, and of the oracle (max(speedup, 1))
  confusion     predicted GPU/CPU x measured GPU/CPU
  Spearman      rank correlation of predicted and measured speedups

--programs FILE compares whole programs with bench/measured-h100.txt's format
(`program dataset cpu_s gpu_s ...`, bench/gpu-offload.sh): every target nest of
the program is explained at the dataset's sizes (from its header) and the sums
of CPU and of GPU + transfer times decide; --host/--device/--threads name the
machine (default: bench/machines/lent-host.machine and lent-h100.machine, 16).
With --terms it prints per row the predicted and measured CPU and GPU seconds,
predicted / measured, and the term that dominated each prediction (CPU:
compute, memory or target host fallback; GPU: kernel with its bound, launch or
transfer).  These 39 H100 rows are the models' development set.

--measured FILE compares with times measured elsewhere instead of Table I:
one line per launch, `KERNEL SIZE THREADS HOST DEVICE CPU_SECONDS GPU_SECONDS`
(KERNEL a column of chikin-kernels.tsv, HOST/DEVICE profile names or files);
'#' starts a comment.  Python 3 standard library only.  Nothing is timed here.
"""
import argparse
import math
import os
import re
import shutil
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def read_tsv(path):
    rows = []
    header = None
    with open(path) as f:
        for line in f:
            line = line.rstrip("\n")
            if not line.strip() or line.startswith("#"):
                continue
            cells = line.split("\t")
            if header is None:
                header = cells
            else:
                rows.append(dict(zip(header, cells)))
    return header, rows


def nest_lines(path):
    """Line of the `for` under each `#pragma omp target` of a file, in order."""
    out = []
    with open(path) as f:
        lines = f.read().split("\n")
    for i, l in enumerate(lines):
        if re.match(r"\s*#\s*pragma\s+omp\s+target\b", l) and "data" not in l.split()[3:4]:
            for j in range(i + 1, len(lines)):
                if re.match(r"\s*for\s*\(", lines[j]):
                    out.append(j + 1)
                    break
    return out


def stage_inputs(dest, size, dims3):
    """A copy of polybench-inputs under dest whose LARGE dataset (the default)
    has every extent equal to `size` (round(size^(2/3)) in the 3-D inputs of
    dims3), so that the arrays are SIZE x SIZE as in Table I's runs, not the
    header's LARGE extents with only the loop bounds at SIZE.  Only the
    numbers of the LARGE block's #defines change; the kernels are untouched."""
    base = os.path.join(ROOT, "polybench-inputs")
    shutil.copytree(os.path.join(base, "utilities"), os.path.join(dest, "utilities"))
    for d in sorted(os.listdir(os.path.join(base, "omp-target"))):
        src = os.path.join(base, "omp-target", d)
        out = os.path.join(dest, "omp-target", d)
        shutil.copytree(src, out)
        n = int(round(size ** (2.0 / 3.0))) if d in dims3 else size
        for h in os.listdir(out):
            if not h.endswith(".h"):
                continue
            lines, cur = [], None
            with open(os.path.join(out, h)) as f:
                for line in f:
                    m = re.match(r"#\s*(?:if|elif)\s+defined\((\w+)_DATASET\)", line)
                    if m:
                        cur = m.group(1)
                    elif re.match(r"#\s*(else|endif)", line):
                        cur = None
                    elif cur == "LARGE":
                        line = re.sub(r"^(#\s*define\s+\w+\s+)\d+\s*$", r"\g<1>%d\n" % n, line)
                    lines.append(line)
            with open(os.path.join(out, h), "w") as f:
                f.writelines(lines)
    return dest


def build_db(keelcc, db, mcpu, base=None, defines=()):
    base = base or os.path.join(ROOT, "polybench-inputs")
    util = os.path.join(base, "utilities")
    for d in sorted(os.listdir(os.path.join(base, "omp-target"))):
        for c in sorted(os.listdir(os.path.join(base, "omp-target", d))):
            if not c.endswith(".c"):
                continue
            src = os.path.join(base, "omp-target", d, c)
            env = dict(os.environ, KEEL_DB=db)
            obj = os.path.join(os.path.dirname(db), c + ".o")
            subprocess.run([keelcc, "--keel-mcpu=" + mcpu, "-O2", "-fopenmp", "-c"] + list(defines) +
                           ["-I" + util,
                            "-I" + os.path.dirname(src), src, "-o", obj],
                           env=env, check=True, stdout=subprocess.DEVNULL)


def explain(keel, db, loc, size, dims, threads, host, device):
    env = dict(os.environ)
    env.pop("KEEL_HOST", None)
    env.pop("KEEL_DEVICE", None)
    base = [keel, "explain", loc, "--host", host, "--device", device,
            "--threads", str(threads)]
    r = subprocess.run(base + [db], capture_output=True, text=True, env=env)
    m = re.search(r"^needs\s+(\S+)", r.stdout, re.M)
    if not m:
        raise RuntimeError("keel explain %s: %s" % (loc, r.stderr.strip()))
    n = size if dims == 2 else int(round(size ** (2.0 / 3.0)))
    syms = [s for s in m.group(1).split(",") if s != "-"]
    sets = ",".join("%s=%d" % (s, n) for s in syms)
    r = subprocess.run(base + (["--set", sets] if sets else []) + [db],
                       capture_output=True, text=True, env=env)
    if r.returncode != 0:
        raise RuntimeError("keel explain %s: %s" % (loc, r.stderr.strip()))
    sec = re.search(r"^seconds\s+cpu (\S+) gpu (\S+) xfer (\S+)", r.stdout, re.M)
    ver = re.search(r"^verdict .*-> (GPU|CPU)", r.stdout, re.M)
    cpu, gpu, xfer = (float(x) for x in sec.groups())
    return cpu / (gpu + xfer), ver.group(1) == "GPU", r.stdout


def ranks(xs):
    order = sorted(range(len(xs)), key=lambda i: xs[i])
    r = [0.0] * len(xs)
    i = 0
    while i < len(order):
        j = i
        while j + 1 < len(order) and xs[order[j + 1]] == xs[order[i]]:
            j += 1
        for k in range(i, j + 1):
            r[order[k]] = (i + j) / 2.0 + 1
        i = j + 1
    return r


def spearman(a, b):
    if len(a) < 2:
        return float("nan")
    ra, rb = ranks(a), ranks(b)
    ma, mb = sum(ra) / len(ra), sum(rb) / len(rb)
    cov = sum((x - ma) * (y - mb) for x, y in zip(ra, rb))
    va = math.sqrt(sum((x - ma) ** 2 for x in ra))
    vb = math.sqrt(sum((y - mb) ** 2 for y in rb))
    return cov / (va * vb) if va > 0 and vb > 0 else float("nan")


def geomean(xs):
    return math.exp(sum(math.log(x) for x in xs) / len(xs)) if xs else float("nan")


def summarize(label, cells):
    n = len(cells)
    ok = sum(1 for c in cells if c["gpu"] == (c["meas"] > 1))
    always = sum(1 for c in cells if c["meas"] > 1)
    follow = geomean([c["meas"] if c["gpu"] else 1.0 for c in cells])
    alw = geomean([c["meas"] for c in cells])
    orc = geomean([max(c["meas"], 1.0) for c in cells])
    rho = spearman([c["pred"] for c in cells], [c["meas"] for c in cells])
    print("%-30s %3d  %3d (%5.1f%%)  %3d (%5.1f%%)  %8.2fx %8.2fx %8.2fx  %5.1f%%  %5.2f  %s" % (
        label, n, ok, 100.0 * ok / n, always, 100.0 * always / n, follow, alw, orc,
        100.0 * follow / orc, rho, "ok" if follow >= alw - 1e-9 else "BELOW always-GPU"))


def header_sizes(src, dataset):
    """The #defines of one dataset block of a PolyBench-style header."""
    h = os.path.splitext(src)[0] + ".h"
    out, cur = {}, None
    with open(h) as f:
        for line in f:
            m = re.match(r"#\s*(?:if|elif)\s+defined\((\w+)_DATASET\)", line)
            if m:
                cur = m.group(1)
                continue
            if re.match(r"#\s*else", line):
                cur = "EXTRALARGE"
                continue
            if re.match(r"#\s*endif", line):
                cur = None
            m = re.match(r"#\s*define\s+(\w+)\s+(\d+)\s*$", line)
            if m and cur == dataset:
                out[m.group(1).lower()] = int(m.group(2))
    return out


UNITS = {"s": 1.0, "ms": 1e-3, "us": 1e-6, "ns": 1e-9}
# explain's term lines that add up to each side's time (summed over a
# program's nests); the largest one dominates
CPU_TERMS = ("compute time", "memory time", "target host fallback")
GPU_TERMS = ("kernel time", "launch overhead", "transfer time")


def t_kernel(out):
    """The bound model's kernel seconds and the steps of one `keel explain`
    text (its GPU time is kernel x steps + the launches)."""
    m = re.search(r"^  kernel time\s+([0-9.eE+-]+) (s|ms|us|ns)\b", out, re.M)
    k = float(m.group(1)) * UNITS[m.group(2)] if m else 0.0
    st = re.search(r"^  x steps, kernels\s+([0-9]+)", out, re.M)
    return k, (float(st.group(1)) if st else 1.0)


def explain_terms(out):
    """The CPU and GPU terms of one `keel explain` text, in seconds, and the
    GPU kernel's bound (bandwidth, latency, issue)."""
    t = {}
    for name in CPU_TERMS + GPU_TERMS:
        m = re.search(r"^  %s\s+([0-9.eE+-]+) (s|ms|us|ns)\b" % re.escape(name), out, re.M)
        t[name] = float(m.group(1)) * UNITS[m.group(2)] if m else 0.0
    b = re.search(r"^  bound by\s+(\S+)", out, re.M)
    t["bound"] = b.group(1) if b else "-"
    return t


def terms_line(ds, prog, cpu, gpu, cs, gs, terms):
    """One row of --terms: predicted and measured time per side, their
    ratio and the term that dominated the prediction."""
    cdom = max(CPU_TERMS, key=lambda k: terms[k])
    gdom = max(GPU_TERMS, key=lambda k: terms[k])
    if gdom == "kernel time":
        gdom = "kernel (%s)" % "/".join(sorted(terms["bounds"]))
    return "%-10s %-9s cpu %9.3g / %9.3g = %5.2f  %-22s gpu %9.3g / %9.3g = %5.2f  %s" % (
        ds, prog, cpu, cs, cpu / cs, cdom.replace(" time", ""), gpu, gs, gpu / gs,
        gdom.replace(" time", ""))


def host_mca_cpu(path):
    """The `mca_cpu` of a machine profile file, or None."""
    try:
        with open(path) as f:
            for line in f:
                m = re.match(r"\s*mca_cpu\s*=\s*(\S+)", line.split("#")[0])
                if m:
                    return m.group(1)
    except OSError:
        pass
    return None


def programs(a, kernels):
    files = {}
    for k in kernels:
        if k["file"] != "-":
            files.setdefault(k["file"].split("/")[0], k["file"])
    rows = []
    with open(a.programs) as f:
        for line in f:
            w = line.split("#")[0].split()
            if len(w) < 4 or w[0] == "program":
                continue
            rows.append((w[0], w[1], float(w[2]), float(w[3])))
    # one database per dataset, compiled with -D<DATASET>_DATASET so that the
    # arrays have the extents the measured binaries had (--db: one for all)
    tmp = None
    dbs = {}
    if not a.db:
        if a.dbdir:         # kept: a second run with other profiles reuses them
            os.makedirs(a.dbdir, exist_ok=True)
        else:
            tmp = tempfile.mkdtemp(prefix="keel-verdicts-")
        # llvm-mca's figures for the host these rows were measured on: its
        # profile's mca_cpu first (explain takes the host's own CPU when
        # stored, else the nearest stored one)
        mcpu = a.mcpu
        hc = host_mca_cpu(a.host)
        if hc and hc not in mcpu.split(","):
            mcpu = hc + "," + mcpu
        for ds in sorted(set(r[1] for r in rows)):
            dbs[ds] = os.path.join(a.dbdir or tmp, "keel-%s.db" % ds)
            if not (a.dbdir and os.path.exists(dbs[ds])):
                build_db(a.keelcc, dbs[ds], mcpu, defines=["-D%s_DATASET" % ds])
    env = dict(os.environ)
    env.pop("KEEL_HOST", None)
    env.pop("KEEL_DEVICE", None)
    cells = []
    for prog, ds, cs, gs in rows:
        rel = files.get(prog)
        if not rel:
            print("no input for %s: skipped" % prog, file=sys.stderr)
            continue
        src = os.path.join(ROOT, "polybench-inputs", "omp-target", rel)
        sizes = header_sizes(src, ds)
        db = a.db or dbs[ds]
        cpu = gpu = hk = 0.0
        terms = dict((k, 0.0) for k in CPU_TERMS + GPU_TERMS)
        terms["bounds"] = set()
        for ln in nest_lines(src):
            loc = "omp-target/%s:%d" % (rel, ln)
            # the rows' binaries were built with an offload image (their
            # header: --offload-arch=sm_90), whatever the database's build
            base = [a.keel, "explain", loc, "--host", a.host, "--device", a.device,
                    "--threads", str(a.threads), "--offload", "image"]
            r = subprocess.run(base + [db], capture_output=True, text=True, env=env)
            need = re.search(r"^needs\s+(\S+)", r.stdout, re.M)
            if not need:
                raise RuntimeError("keel explain %s: %s" % (loc, r.stderr.strip()))
            need = need.group(1).split(",")
            sets = ",".join("%s=%d" % (s_, sizes[s_]) for s_ in need if s_ in sizes)
            r = subprocess.run(base + ["--set", sets, db], capture_output=True, text=True, env=env)
            sec = re.search(r"^seconds\s+cpu (\S+) gpu (\S+) xfer (\S+) hk (\S+)", r.stdout, re.M)
            if not sec:
                raise RuntimeError("keel explain %s: %s" % (loc, r.stderr.strip()))
            c, g, x, h = (float(v) for v in sec.groups())
            cpu += c
            gpu += g + x
            # Hong-Kim's own kernel figure (the reference explain prints),
            # with the same launches and transfer
            k, steps = t_kernel(r.stdout)
            hk += g + (h - k) * steps + x
            t = explain_terms(r.stdout)
            for k in CPU_TERMS + GPU_TERMS:
                terms[k] += t[k]
            terms["bounds"].add(t["bound"])
        pred = cpu / gpu
        cells.append(dict(group=ds, kern=prog, pred=pred, gpu=pred > 1, meas=cs / gs,
                          rc=cpu / cs, rg=gpu / gs, rh=hk / gs))
        if a.terms:
            print(terms_line(ds, prog, cpu, gpu, cs, gs, terms))
        if a.cells:
            print("%-10s %-9s predicted %9.3gx (cpu %.3g s, gpu %.3g s)  measured %6.2fx (cpu %.3g s, gpu %.3g s)  %s" % (
                ds, prog, pred, cpu, gpu, cs / gs, cs, gs,
                "ok" if (pred > 1) == (cs / gs > 1) else "WRONG"))
    report(cells, 0, a)
    times(cells)
    if tmp:
        shutil.rmtree(tmp)


def times(cells):
    """Predicted / measured time per side: median, share within 2x, and how
    many right verdicts have both times within 2x."""
    def med(xs):
        xs = sorted(xs)
        n = len(xs)
        return (xs[n // 2] + xs[(n - 1) // 2]) / 2.0 if n else float("nan")
    n = len(cells)
    if not n:
        return
    near = lambda r: 0.5 <= r <= 2.0
    print("\npredicted / measured   median  within 2x   (a development set: the models "
          "were developed on these rows;\n                                          no figure "
          "was fitted to them, so leave-one-program-out gives the same)")
    for side, key in (("CPU", "rc"), ("GPU (+ transfer)", "rg"),
                      ("Hong-Kim reference", "rh")):
        xs = [c[key] for c in cells]
        k = sum(1 for x in xs if near(x))
        print("  %-18s %8.2f  %3d/%d (%3.0f%%)" % (side, med(xs), k, n, 100.0 * k / n))
    both = sum(1 for c in cells if near(c["rc"]) and near(c["rg"]))
    right_both = sum(1 for c in cells if near(c["rc"]) and near(c["rg"])
                     and c["gpu"] == (c["meas"] > 1))
    print("  both within 2x     %d/%d; of the right verdicts %d" % (both, n, right_both))


def report(cells, skipped, a):
    print("%-30s %3s  %-13s %-13s  %9s %9s %9s  %6s  %5s" % (
        "group", "n", "keel right", "always-GPU", "keel", "always", "oracle", "of orc",
        "rho"))
    groups = []
    for c in cells:
        if c["group"] not in groups:
            groups.append(c["group"])
    for g in groups:
        summarize(g, [c for c in cells if c["group"] == g])
    summarize("all", cells)
    tp = sum(1 for c in cells if c["gpu"] and c["meas"] > 1)
    fp = sum(1 for c in cells if c["gpu"] and c["meas"] <= 1)
    fn = sum(1 for c in cells if not c["gpu"] and c["meas"] > 1)
    tn = sum(1 for c in cells if not c["gpu"] and c["meas"] <= 1)
    print("\nconfusion          measured GPU  measured CPU")
    print("  predicted GPU    %12d  %12d" % (tp, fp))
    print("  predicted CPU    %12d  %12d" % (fn, tn))
    if skipped:
        print("\n%d cells have no input among the omp-target kernels (see %s)" % (
            skipped, os.path.relpath(a.kernels, ROOT)))


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--keel", default=os.path.join(ROOT, "build", "bin", "keel"))
    ap.add_argument("--keelcc", default=os.path.join(ROOT, "build", "bin", "keelcc"))
    ap.add_argument("--db", help="an existing database of the omp-target inputs")
    ap.add_argument("--dbdir", help="keep the per-size (per-dataset) databases in DIR "
                    "and reuse them when there")
    ap.add_argument("--table", default=os.path.join(ROOT, "bench", "chikin-table1.tsv"))
    ap.add_argument("--kernels", default=os.path.join(ROOT, "bench", "chikin-kernels.tsv"))
    ap.add_argument("--measured", help="KERNEL SIZE THREADS HOST DEVICE CPU_S GPU_S lines")
    ap.add_argument("--cells", action="store_true", help="print every verdict")
    ap.add_argument("--terms", action="store_true",
                    help="with --programs: per row predicted and measured CPU and GPU seconds, "
                    "their ratio and the term that dominated each prediction")
    ap.add_argument("--programs", help="program dataset cpu_s gpu_s lines (bench/measured-h100.txt)")
    ap.add_argument("--host", default=os.path.join(ROOT, "bench", "machines", "lent-host.machine"))
    ap.add_argument("--device", default=os.path.join(ROOT, "bench", "machines", "lent-h100.machine"))
    ap.add_argument("--threads", type=int, default=16)
    ap.add_argument("--mcpu", default="pwr9,pwr8",
                    help="llvm-mca CPUs for keelcc (default: the Table I hosts' pwr9,pwr8)")
    a = ap.parse_args()

    _, kernels = read_tsv(a.kernels)
    kmap = {}
    for k in kernels:
        if k["file"] == "-":
            continue
        src = os.path.join(ROOT, "polybench-inputs", "omp-target", k["file"])
        lines = nest_lines(src)
        kmap[k["column"]] = ("omp-target/%s:%d" % (k["file"], lines[int(k["nest"]) - 1]),
                             int(k["dims"]))

    if a.programs:
        return programs(a, kernels)

    # the launches to evaluate: (group label, kernel, size, threads, host, device, measured)
    todo = []
    skipped = 0
    if a.measured:
        with open(a.measured) as f:
            for line in f:
                line = line.split("#")[0].split()
                if not line:
                    continue
                kern, size, thr, host, dev, cs, gs = line
                g = "%s %s thr %s SIZE %s" % (os.path.basename(host), os.path.basename(dev),
                                              thr, size)
                todo.append((g, kern, int(size), int(thr), host, dev, float(cs) / float(gs)))
    else:
        header, rows = read_tsv(a.table)
        for r in rows:
            g = "%s %s+%s %3s thr" % (r["mode"], r["host"], r["device"], r["threads"])
            for col in header[6:]:
                if col not in kmap:
                    skipped += 1
                    continue
                todo.append((g, col, int(r["size"]), int(r["threads"]), r["host"],
                             r["device"], float(r[col])))

    # one database per size, its arrays of that size (stage_inputs); --db: one
    # database for every size, its arrays as compiled
    tmp = None
    dbs = {}
    if not a.db:
        if a.dbdir:
            os.makedirs(a.dbdir, exist_ok=True)
        else:
            tmp = tempfile.mkdtemp(prefix="keel-verdicts-")
        dims3 = set(k["file"].split("/")[0] for k in kernels if k["dims"] == "3")
        for size in sorted(set(t[2] for t in todo)):
            dbs[size] = os.path.join(a.dbdir or tmp, "keel%d.db" % size)
            if a.dbdir and os.path.exists(dbs[size]):
                continue
            base = stage_inputs(os.path.join(a.dbdir or tmp, "in%d" % size), size, dims3)
            build_db(a.keelcc, dbs[size], a.mcpu, base)

    cells = []
    for g, kern, size, thr, host, dev, meas in todo:
        if kern not in kmap:
            print("no input for %s: skipped" % kern, file=sys.stderr)
            continue
        loc, dims = kmap[kern]
        db = a.db or dbs[size]
        pred, gpu, _ = explain(a.keel, db, loc, size, dims, thr, host, dev)
        cells.append(dict(group=g, kern=kern, pred=pred, gpu=gpu, meas=meas))
        if a.cells:
            print("%-30s %-9s predicted %9.3gx %s  measured %8.2fx  %s" % (
                g, kern, pred, "GPU" if gpu else "CPU", meas,
                "ok" if gpu == (meas > 1) else "WRONG"))

    report(cells, skipped, a)
    if tmp:
        shutil.rmtree(tmp)


if __name__ == "__main__":
    main()
