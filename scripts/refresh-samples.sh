#!/bin/sh
# refresh-samples.sh [--check] [BUILD] -- the sample outputs in the docs.
#
# Every block of real output in README.md and docs/*.md sits between
#     <!-- sample NAME -->   and   <!-- /sample -->
# and is written by this script: it runs the demo (testsuite/demo.sh) on
# two programs, gemm and gesummv, into a temporary folder, under fixed
# settings so that the output is the same on every machine --
#     KEEL_MCPU=skylake   llvm-mca's cycles for one named CPU, not the host's
#     KEEL_HOST=host      the host defaults (the demo database has no calibration)
#     KEEL_DEVICE=h100    (the demo's own setting)
#     OMP_NUM_THREADS=8, JOBS=2
# -- then runs the commands below against the demo's database, from the
# repository root, and replaces each block by its sample.
#
# --check writes nothing: it compares each block with a fresh sample and
# fails, naming the block, when they differ (ctest docs_samples).  The
# comparison ignores figures (decimal numbers and times with their units,
# runs of blanks), so a model change that moves a time a little passes;
# anything else -- a verdict, an idiom, a loop, a column, a line -- fails
# until the samples are refreshed with `sh scripts/refresh-samples.sh`.
set -eu
mode=write
if [ "${1:-}" = --check ]; then mode=check; shift; fi
ROOT=$(cd "$(dirname "$0")/.." && pwd)
BUILD=$(cd "${1:-$ROOT/build}" && pwd)
cd "$ROOT"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
mkdir "$work/samples"

GEMM=polybench-inputs/linear-algebra/blas/gemm/gemm.c
KEEL_MCPU=skylake KEEL_HOST=host OMP_NUM_THREADS=8 JOBS=2 DATASET=MEDIUM \
DEMO_OUT=$work/demo \
DEMO_PROGRAMS="linear-algebra/blas/gemm/gemm.c linear-algebra/blas/gesummv/gesummv.c" \
    sh testsuite/demo.sh "$BUILD" >"$work/demo.txt" 2>&1 || {
    cat "$work/demo.txt" >&2
    echo "refresh-samples: the demo failed" >&2
    exit 1
}
DB=$work/demo/keel.db
export KEEL_HOST=host OMP_NUM_THREADS=8
unset KEEL_DB KEEL_FORCE KEEL_VERBOSE 2>/dev/null || true
K="$BUILD/bin/keel"
clean() { sed -e "s|$work/demo|build/demo|g" -e "s|$ROOT/||g" -e "s|$BUILD/bin/||g"; }

# demo: the two programs' blocks (loops from the database, one verdict line
# per kernel launch), as `make demo` prints them for every program
awk '/^== linear-algebra/ { on = 1 } /^keel: [0-9]+ translation units/ { on = 0 } on' \
    "$work/demo.txt" | clean >"$work/samples/demo"
# loops-wide: every column of gemm's loops
"$K" loops --wide --function kernel_gemm "$DB" | clean >"$work/samples/loops-wide"
# explain: the head and the verdict of one launch at a large size
"$K" explain "$GEMM:42" --set ni=2000,nj=2300,nk=2600 --device h100 "$DB" >"$work/explain.txt"
{ sed -n '1,5p' "$work/explain.txt"; echo "..."
  grep -E '^CPU  |^  (compute time |bandwidth  +[0-9]|memory time |CPU time )' "$work/explain.txt"
  echo "..."
  sed -n '/^GPU .*bounds/,/^verdict/p' "$work/explain.txt"; } | clean >"$work/samples/explain"
# sweep: time against size, the crossover
"$K" explain "$GEMM:42" --sweep '*=16:4096' --device h100 "$DB" \
    | sed -n '/^sweep/,$p' | clean >"$work/samples/sweep"

python3 - "$mode" "$work/samples" README.md docs/*.md <<'PY'
import os, re, sys
mode, sdir, files = sys.argv[1], sys.argv[2], sys.argv[3:]
samples = {n: open(os.path.join(sdir, n)).read().rstrip('\n') for n in os.listdir(sdir)}
block = re.compile(r'(<!-- sample ([a-z0-9-]+) -->\n)(.*?)(<!-- /sample -->)', re.S)
def norm(t):
    t = re.sub(r'\d+(\.\d+)?(e[+-]?\d+)? ?(ns|us|ms|s|GB/s|cyc)\b', '#', t)
    t = re.sub(r'\d+\.\d+(e[+-]?\d+)?', '#', t)
    return re.sub(r'[ \t]+', ' ', t).strip()
bad, used = [], set()
for f in files:
    text = open(f).read()
    def repl(m):
        name = m.group(2)
        used.add(name)
        if name not in samples:
            bad.append(f'{f}: sample {name}: no such sample')
            return m.group(0)
        new = '```text\n' + samples[name] + '\n```\n'
        if mode == 'check' and norm(m.group(3)) != norm(new):
            bad.append(f'{f}: sample {name} is stale')
        return m.group(1) + new + m.group(4)
    out = block.sub(repl, text)
    if mode == 'write' and out != text:
        open(f, 'w').write(out)
        print(f'refresh-samples: {f} updated')
for n in sorted(set(samples) - used):
    bad.append(f'sample {n} is in no document')
for b in bad:
    print('refresh-samples:', b, file=sys.stderr)
if bad and mode == 'check':
    print('refresh-samples: run `sh scripts/refresh-samples.sh` and review the diff', file=sys.stderr)
sys.exit(1 if bad else 0)
PY
