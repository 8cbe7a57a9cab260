#!/bin/sh
# instrumented-overhead.sh BUILD NPB-CHECKOUT [RUNS] -- what keelcc's
# instrumentation costs a program at run time.
#
# NPB-CHECKOUT is a checkout of the NAS Parallel Benchmarks in C with
# OpenMP (NPB3.0-omp-C: a folder holding config/make.def.template and
# sys/setparams.c) that the user has; nothing is fetched.  It is copied
# twice to a work folder (never built in place): FT, MG and CG at class W
# are built once with clang-19 and once with keelcc (both -O2 -fopenmp);
# a few PolyBench kernels of this tree (polybench-inputs, sequential, the
# dataset named below) are built the same two ways.  Each program then
# runs, alternately, RUNS times (default 5) in four ways:
#   plain           the clang-19 build;
#   keelcc          the keelcc build, no device (every decision is the
#                   fixed answer CPU after the first call of a site);
#   keelcc h100     the keelcc build with KEEL_DEVICE=h100: every launch
#                   asks the models (or the site's memo) for a verdict,
#                   decisions logged as by default (KEEL_LOG unset): after
#                   the first run the table holds every decision a run
#                   makes, so a run reads them and writes nothing (a
#                   program run again as before);
#   h100, no log    the same with KEEL_LOG=0: what the run-time log's
#                   writes cost is the difference to the column before.
# OMP_NUM_THREADS=2, OpenMP's default wait policy: a worker thread that
# waits at a barrier spins, so a pause of the main thread (a database
# read or write before a nest) shows in the CPU time up to twice.
# Prints the median CPU time (seconds: user + system of the program and
# its threads, from getrusage; needs python3) of each and the ratios to plain, with the machine's load average at the
# start and the end (timings on a shared machine move: compare the ratios).
# NPB programs must print "Verification = SUCCESSFUL" in every run.
# The last line times the check a program makes before its first write
# into the database (the tables the run-time log writes, with their
# indexes, and the schema page and freelist) against a check of the whole
# file, on the database these builds and runs filled (best of 5, each on a
# fresh connection, the file in the page cache).
set -eu
BUILD=${1:?usage: instrumented-overhead.sh BUILD NPB-CHECKOUT [RUNS]}
NPB=${2:?usage: instrumented-overhead.sh BUILD NPB-CHECKOUT [RUNS]}
RUNS=${3:-5}
BIN=$(cd "$BUILD/bin" && pwd)
NPB=$(cd "$NPB" && pwd)
ROOT=$(cd "$(dirname "$0")/.." && pwd)
PB=$ROOT/polybench-inputs
[ -x "$BIN/keelcc" ] || { echo "instrumented-overhead.sh: no keelcc in $BIN (make build)" >&2; exit 2; }
[ -f "$NPB/config/make.def.template" ] && [ -f "$NPB/sys/setparams.c" ] ||
    { echo "instrumented-overhead.sh: $NPB is not an NPB3.0-omp-C checkout" >&2; exit 2; }
work=$(mktemp -d "${TMPDIR:-/tmp}/keel-inst-XXXXXX")
trap 'rm -rf "$work"' EXIT
load0=$(cut -d' ' -f1-3 /proc/loadavg)
# pre-C99 code: let clang-19 accept what the compilers of its time did
legacy="-Wno-error=implicit-int -Wno-error=implicit-function-declaration"
# PolyBench kernels (folder under polybench-inputs) and their dataset
POLY="linear-algebra/blas/gemm linear-algebra/kernels/2mm stencils/jacobi-2d stencils/fdtd-2d"
PDATA=LARGE_DATASET

# npb_build VARIANT CC: FT, MG, CG class W into $work/VARIANT/bin
npb_build() {
    dst=$work/$1
    cp -R "$NPB" "$dst"
    sed -e "s|^CC *=.*|CC = $2|" -e "s|^CLINK[[:space:]]*=.*|CLINK = $2|" \
        -e "s|^CFLAGS[^=]*=.*|CFLAGS = -O2 -fopenmp $legacy|" -e 's|^C_LIB[^=]*=.*|C_LIB = -fopenmp -lm|' \
        -e 's|^CLINKFLAGS[^=]*=.*|CLINKFLAGS = -O2 -fopenmp|' -e 's|^UCC[^=]*=.*|UCC = cc|' \
        "$dst/config/make.def.template" >"$dst/config/make.def"
    mkdir -p "$dst/bin"
    for b in ft mg cg; do
        (cd "$dst" && KEEL_DB=$work/k.db make "$b" CLASS=W) >"$work/$1-$b.build.log" 2>&1 ||
            { echo "instrumented-overhead.sh: $b.W ($1) failed to build, see:" >&2
              tail -5 "$work/$1-$b.build.log" >&2; exit 1; }
    done
}
# poly_build VARIANT CC
poly_build() {
    mkdir -p "$work/$1/poly"
    for k in $POLY; do
        n=$(basename "$k")
        KEEL_DB=$work/k.db $2 -O2 -I"$PB/utilities" -I"$PB/$k" -D$PDATA "$PB/$k/$n.c" \
            "$PB/utilities/polybench.c" -o "$work/$1/poly/$n" -lm >"$work/$1-$n.build.log" 2>&1 ||
            { echo "instrumented-overhead.sh: $n ($1) failed to build" >&2; exit 1; }
    done
}
npb_build plain clang-19
npb_build keel "$BIN/keelcc"
poly_build plain clang-19
poly_build keel "$BIN/keelcc"

progs="ft.W mg.W cg.W"
for k in $POLY; do progs="$progs $(basename "$k")"; done
exe() {   # exe VARIANT PROG
    case $2 in *.W) echo "$work/$1/bin/$2" ;; *) echo "$work/$1/poly/$2" ;; esac
}
# timed CMD...: runs CMD, its output to $work/out, and writes the user +
# system seconds of it and its children (getrusage, microseconds) to $work/t
cat >"$work/timed.py" <<'PY'
import os, resource, subprocess, sys
with open(sys.argv[1], "w") as out:
    rc = subprocess.call(sys.argv[3:], stdout=out, stderr=subprocess.STDOUT)
r = resource.getrusage(resource.RUSAGE_CHILDREN)
with open(sys.argv[2], "w") as t:
    t.write("%.6f %.6f\n" % (r.ru_utime, r.ru_stime))
sys.exit(rc)
PY
# one timed run: appends the user + system seconds to $work/PROG.WAY
run() {   # run WAY VARIANT PROG [ENV...]
    way=$1 var=$2 p=$3
    shift 3
    (cd "$work" && env OMP_NUM_THREADS=2 KEEL_DB="$work/k.db" "$@" python3 "$work/timed.py" \
        "$work/out" "$work/t" "$(exe "$var" "$p")") ||
        { echo "instrumented-overhead.sh: $p ($way) failed" >&2; tail -5 "$work/out" >&2; exit 1; }
    case $p in *.W) grep -q 'Verification *= *SUCCESSFUL' "$work/out" ||
        { echo "instrumented-overhead.sh: $p ($way) did not verify" >&2; exit 1; } ;; esac
    awk '{ print $1 + $2 }' "$work/t" >>"$work/$p.$way"
}
for r in $(seq "$RUNS"); do
    for p in $progs; do
        run plain plain "$p"
        run keel keel "$p" KEEL_DEVICE=
        run dev keel "$p" KEEL_DEVICE=h100
        run nolog keel "$p" KEEL_DEVICE=h100 KEEL_LOG=0
    done
done
# the run-time log's check against the whole file's
cat >"$work/check.py" <<'PY'
import os, sqlite3, sys, time
db = sys.argv[1]
def best(sqls):
    b = None
    for _ in range(5):
        c = sqlite3.connect(db)
        t0 = time.perf_counter()
        for q in sqls:
            c.execute(q).fetchall()
        d = time.perf_counter() - t0
        c.close()
        b = d if b is None or d < b else b
    return b * 1e3
c = sqlite3.connect(db)
tabs = [r[0] for r in c.execute("SELECT name FROM sqlite_schema WHERE type = 'table' AND name IN"
                                " ('decisions', 'history', 'host_calibration', 'host_bandwidth')")]
rows = c.execute("SELECT count(*) FROM decisions").fetchone()[0]
c.close()
whole = best(["PRAGMA integrity_check(1)"])
part = best(["PRAGMA integrity_check(sqlite_schema)"] +
            ["PRAGMA integrity_check(%s)" % t for t in tabs])
print("integrity check before the first write: %.1f ms (the log's tables: %s; %d decisions)"
      " against %.1f ms for the whole file (%.1f MB)"
      % (part, ", ".join(tabs), rows, whole, os.path.getsize(db) / 1e6))
PY
check=$(python3 "$work/check.py" "$work/k.db" 2>&1)
median() { sort -n "$1" | awk '{ v[NR] = $1 } END { print v[int((NR + 1) / 2)] }'; }
echo "instrumented overhead: median CPU time (user + system) of $RUNS alternated runs, OMP_NUM_THREADS=2, $(nproc) cores, load average $load0 at the start, $(cut -d' ' -f1-3 /proc/loadavg) at the end (PolyBench: $PDATA)"
echo
printf '| %-10s | %8s | %8s | %6s | %11s | %6s | %11s | %6s |\n' program "plain s" "keelcc s" ratio \
    "keelcc h100" ratio "h100, no log" ratio
printf '|%s|%s|%s|%s|%s|%s|%s|%s|\n' ------------ ---------: ---------: -------: ------------: \
    -------: -------------: -------:
ratio() { awk "BEGIN { print ($1 > 0 ? $2 / $1 : 0) }"; }
for p in $progs; do
    a=$(median "$work/$p.plain") b=$(median "$work/$p.keel") c=$(median "$work/$p.dev")
    d=$(median "$work/$p.nolog")
    printf '| %-10s | %8.3f | %8.3f | %5.3fx | %11.3f | %5.3fx | %12.3f | %5.3fx |\n' "$p" "$a" "$b" \
        "$(ratio "$a" "$b")" "$c" "$(ratio "$a" "$c")" "$d" "$(ratio "$a" "$d")"
done
echo
echo "$check"
