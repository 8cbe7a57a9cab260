#!/bin/sh
# h100-bundle.sh BUILD OUTDIR -- a self-contained folder that measures a
# machine with no compiler, no keel and no SQLite (a lent GPU machine):
# `OUT=DIR bash OUTDIR/run.sh` there records the host, runs `keel
# calibrate` into keel's databases of the PolyBench inputs, times the
# CPU truth binaries and runs bench/gpu-probe.cu (bench/h100-run.sh).
#
# BUILD is a keel build tree (its bin/keel and bin/keelcc).  Here, with
# clang-19 and llvm-mca, bench/cpu-truth.py --build-only makes into
# OUTDIR/work every binary and database of the CPU truth (sequential inputs
# and omp-target inputs, MEDIUM and LARGE) and the omp-target database at
# EXTRALARGE (bench/verdicts.py --programs scores bench/measured-h100.txt's
# rows from these databases), keelcc's llvm-mca rows for the CPUs in
# $KEEL_BUNDLE_MCPU (default sapphirerapids, the lent host's CPU class),
# and bench/h100-smt-probe.c into OUTDIR/bin/smt-probe.
# The sources are copied into OUTDIR/src (a small tree with bench/cpu-truth.py,
# bench/verdicts.py and their data files) so that the databases name files
# that stay: back here, bench/h100-rescore.sh runs OUTDIR/src/bench/*.py.  Every shared library the binaries
# need beyond glibc goes into OUTDIR/lib (run.sh sets LD_LIBRARY_PATH).
# Each binary is run once here (one thread; the whole process's CPU seconds)
# into OUTDIR/times.txt: run.sh plans its runs by these figures.
set -eu
build=$(cd "${1:?usage: h100-bundle.sh BUILD OUTDIR}" && pwd)
out=${2:?usage: h100-bundle.sh BUILD OUTDIR}
root=$(cd "$(dirname "$0")/.." && pwd)
mcpu=${KEEL_BUNDLE_MCPU:-sapphirerapids}
rm -rf "$out"
mkdir -p "$out/bin" "$out/lib" "$out/src/bench" "$out/work"
out=$(cd "$out" && pwd)
cp "$build/bin/keel" "$out/bin/"
cp -r "$root/polybench-inputs" "$out/src/"
mkdir -p "$out/src/bench/machines"
cp "$root/bench/cpu-truth.py" "$root/bench/verdicts.py" "$root/bench/chikin-kernels.tsv" \
    "$root/bench/chikin-table1.tsv" "$root/bench/measured-h100.txt" "$out/src/bench/"
cp "$root/bench/machines"/*.machine "$out/src/bench/machines/"
cp "$root/bench/gpu-probe.cu" "$out/"
# which CPUs share a core (run.sh's smt.txt): built here, the machine has no compiler
${CC:-cc} -O2 -pthread "$root/bench/h100-smt-probe.c" -o "$out/bin/smt-probe"
cp "$root/bench/h100-run.sh" "$out/run.sh"
ct="$out/src/bench/cpu-truth.py"
python3 "$ct" --build-only --omp --work "$out/work" --keel "$out/bin/keel" \
    --keelcc "$build/bin/keelcc" --mcpu "$mcpu"
python3 "$ct" --build-only --omp-only --datasets EXTRALARGE --work "$out/work" \
    --keel "$out/bin/keel" --keelcc "$build/bin/keelcc" --mcpu "$mcpu"
rm -f "$out/work"/*.o "$out/work"/*-EXTRALARGE
# the shared libraries beyond glibc (libc, libm, libpthread, libdl, librt, the loader)
for f in "$out/bin/keel" "$out/work"/*-MEDIUM "$out/work"/*-LARGE; do
    ldd "$f" | awk '$2 == "=>" && $3 ~ /^\// { print $3 }'
done | sort -u | while read -r lib; do
    case $(basename "$lib") in
    libc.so.*|libm.so.*|libpthread.so.*|libdl.so.*|librt.so.*|ld-linux*) ;;
    *) cp -L "$lib" "$out/lib/" ;;
    esac
done
# what each binary takes here, one thread, one run: the process's CPU seconds
# (user + system; a shared machine's waits not counted) -- run.sh's plan
python3 - "$out" <<'PY'
import glob, os, resource, subprocess, sys
out = sys.argv[1]
env = dict(os.environ, OMP_NUM_THREADS="1", OMP_TARGET_OFFLOAD="DISABLED")
with open(os.path.join(out, "times.txt"), "w") as f:
    for ds in ("MEDIUM", "LARGE"):
        for exe in sorted(glob.glob(os.path.join(out, "work", "*-" + ds))):
            r0 = resource.getrusage(resource.RUSAGE_CHILDREN)
            subprocess.run([exe], env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
            r1 = resource.getrusage(resource.RUSAGE_CHILDREN)
            cpu = (r1.ru_utime - r0.ru_utime) + (r1.ru_stime - r0.ru_stime)
            f.write("%s %.3f\n" % (os.path.basename(exe), cpu))
            print("%s %.3f s" % (os.path.basename(exe), cpu), flush=True)
PY
du -sh "$out"
