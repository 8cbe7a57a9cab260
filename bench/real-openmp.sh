#!/bin/sh
# real-openmp.sh -- how many loop nests of real OpenMP programs keel answers.
#
#   sh bench/real-openmp.sh [--bin DIR] [--work DIR] CHECKOUT...
#
# CHECKOUT is a checkout the user has: the NAS Parallel Benchmarks in C with
# OpenMP (NPB3.0-omp-C: a folder holding config/make.def.template and
# sys/setparams.c) or Rodinia's OpenMP programs (a folder holding kmeans/,
# lud/, hotspot3D/ ...).  Nothing is fetched: each checkout is copied to a
# work folder (never built in place) and built there with CC=keelcc.
#
# NPB: every benchmark at class S (BT CG EP FT IS LU MG SP), each run once
# on 2 threads; the script prints whether it verified.  Rodinia: the
# makefile of every folder (3 levels deep at most) that holds C sources, with
# CC=keelcc (the .cpp programs keep their own C++ compiler: keel analyses
# C); nothing is run, since most of them need data files.  Both are
# compiled with -Wno-error=implicit-int -Wno-error=implicit-function-
# declaration, which clang-19 needs for this pre-C99 code.  Needs python3.
#
# Four programs more, each built twice, with CC=keelcc and with clang-19
# (the same flags), run on 2 threads with small inputs of the script's own
# choosing, and their outputs compared (the line "same output as
# clang-19: yes" or "NO"):
#   llama2.c (karpathy; a checkout holding run.c and tokenizer.bin): the
#     Makefile's `runomp`; a checkpoint of random weights (dim 64, 2 layers,
#     vocabulary 32000) is written by the script, text generated greedily
#     and with top-p sampling;
#   XSBench and RSBench (ANL-CESAR; the checkout or its openmp-threading
#     folder): their Makefile, event and history methods at small sizes,
#     the verification checksums compared;
#   CoMD (ECP-copa; the checkout holding src-openmp/ and pots/):
#     src-openmp/Makefile.vanilla without MPI, Lennard-Jones and EAM, the
#     energies per step compared (the timing column left out).
#
# Then, per code base, for every outermost loop nest keelcc recorded (depth
# 0 in `keel loops`): `keel explain FILE:LINE:COL --sweep '*=16:4096'`.  A
# nest is answered when explain prints a crossover line (a size at which
# the GPU wins, or "never": the CPU); the rest are listed with explain's
# first error line.  Output: one line per code base,
#   NAME  answered/nests  PERCENT
# and the unanswered nests in WORK/NAME.unanswered.
#
# --bin DIR takes keel and keelcc from DIR (default: the build/bin of this
# tree); --work DIR keeps the copies and databases there (default: a new
# temporary folder, printed).  Times are not measured.
set -eu
root=$(cd "$(dirname "$0")/.." && pwd)
bin=$root/build/bin
work=
while [ $# -gt 0 ]; do
    case $1 in
    --bin) bin=$(cd "$2" && pwd); shift 2 ;;
    --work) work=$2; shift 2 ;;
    -h|--help) sed -n '2,/^set -eu/p' "$0" | sed '$d; s/^# \{0,1\}//'; exit 0 ;;
    --) shift; break ;;
    -*) echo "real-openmp.sh: unknown option $1" >&2; exit 2 ;;
    *) break ;;
    esac
done
[ $# -ge 1 ] || { echo "usage: real-openmp.sh [--bin DIR] [--work DIR] CHECKOUT..." >&2; exit 2; }
[ -x "$bin/keelcc" ] && [ -x "$bin/keel" ] || { echo "real-openmp.sh: no keelcc/keel in $bin (make build)" >&2; exit 2; }
[ -n "$work" ] || work=$(mktemp -d "${TMPDIR:-/tmp}/keel-real.XXXXXX")
mkdir -p "$work"
work=$(cd "$work" && pwd)
echo "work folder: $work"
keelcc=$bin/keelcc
keel=$bin/keel
# these code bases are older than C99's rules: let clang-19 accept what
# the compilers of their time did (as a user building them with clang must)
legacy="-Wno-error=implicit-int -Wno-error=implicit-function-declaration"

# count NAME DB: explain every depth-0 nest of DB
count() {
    name=$1 db=$2
    : > "$work/$name.unanswered"
    "$keel" loops --json "$db" 2>/dev/null \
        | python3 -c '
import json, sys
for l in json.load(sys.stdin):
    if l["depth"] == 0:
        print("%s:%d:%d" % (l["file"], l["line"], l["col"]))' > "$work/$name.nests" || true
    total=0 answered=0
    while read -r loc; do
        total=$((total + 1))
        out=$("$keel" explain "$loc" --sweep '*=16:4096' "$db" 2>&1) || true
        if printf '%s\n' "$out" | grep -q '^crossover '; then
            answered=$((answered + 1))
        else
            why=$(printf '%s\n' "$out" | grep -v '^ ' | grep -i 'keel:\|cannot\|error\|(' | head -1)
            echo "$loc  $why" >> "$work/$name.unanswered"
        fi
    done < "$work/$name.nests"
    pct=0
    [ "$total" -eq 0 ] || pct=$((answered * 1000 / total))
    printf '%-10s %4d/%-4d nests answered  %d.%d%%\n' "$name" "$answered" "$total" \
        $((pct / 10)) $((pct % 10))
}

npb() {
    src=$1 dst=$work/npb
    rm -rf "$dst"
    cp -R "$src" "$dst"
    db=$dst/keel.db
    rm -f "$db"
    sed -e "s|^CC *=.*|CC = $keelcc|" -e "s|^CLINK[[:space:]]*=.*|CLINK = $keelcc|" \
        -e "s|^CFLAGS[^=]*=.*|CFLAGS = -O2 -fopenmp $legacy|" -e 's|^C_LIB[^=]*=.*|C_LIB = -fopenmp|' \
        -e 's|^CLINKFLAGS[^=]*=.*|CLINKFLAGS = -O2 -fopenmp|' \
        -e 's|^UCC[^=]*=.*|UCC = cc|' \
        "$dst/config/make.def.template" > "$dst/config/make.def"
    mkdir -p "$dst/bin"
    for b in bt cg ep ft is lu mg sp; do
        if (cd "$dst" && KEEL_DB=$db make "$b" CLASS=S) > "$work/npb-$b.build.log" 2>&1; then
            exe=$dst/bin/$b.S
            if [ -x "$exe" ] && (cd "$dst/bin" && OMP_NUM_THREADS=2 KEEL_DB=$db "$exe") \
                   > "$work/npb-$b.run.log" 2>&1 \
               && grep -q 'Verification *= *SUCCESSFUL' "$work/npb-$b.run.log"; then
                echo "npb $b.S: built, verified"
            else
                echo "npb $b.S: built, NOT verified (see $work/npb-$b.run.log)"
            fi
        else
            echo "npb $b.S: build failed (see $work/npb-$b.build.log)"
        fi
    done
    count npb "$db"
}

rodinia() {
    src=$1 dst=$work/rodinia
    rm -rf "$dst"
    cp -R "$src" "$dst"
    db=$dst/keel.db
    rm -f "$db"
    for mk in $(cd "$dst" && find . -maxdepth 3 \( -name Makefile -o -name makefile \) | sort); do
        d=$(dirname "$mk")
        [ "$d" != . ] || continue
        # only the folders whose sources are C (keel analyses C)
        ls "$dst/$d"/*.c > /dev/null 2>&1 || continue
        log=$work/rodinia-$(echo "$d" | tr '/.' '__').build.log
        if (cd "$dst/$d" && KEEL_DB=$db timeout 600 make -k CC="$keelcc $legacy" \
                CC_FLAGS="-O2 -fopenmp" OMP_FLAGS=-fopenmp) > "$log" 2>&1; then
            echo "rodinia $d: built"
        else
            echo "rodinia $d: build failed in part (see $log)"
        fi
    done
    count rodinia "$db"
}

# same NAME A B: whether two outputs agree (printed)
same() {
    if cmp -s "$2" "$3"; then
        echo "$1: same output as clang-19: yes"
    else
        echo "$1: same output as clang-19: NO (diff $2 $3)"
    fi
}

# twice SRC NAME: copies SRC to WORK/NAME-keel and WORK/NAME-clang
twice() {
    rm -rf "$work/$2-keel" "$work/$2-clang"
    cp -R "$1" "$work/$2-keel"
    cp -R "$1" "$work/$2-clang"
    rm -f "$work/$2-keel/keel.db"
}

llama2() {
    twice "$1" llama2
    k=$work/llama2-keel c=$work/llama2-clang db=$k/keel.db
    (cd "$k" && KEEL_DB=$db make runomp CC="$keelcc") > "$work/llama2.build.log" 2>&1 \
        && (cd "$c" && make runomp CC=clang-19) > "$work/llama2-clang.build.log" 2>&1 \
        || { echo "llama2: build failed (see $work/llama2*.build.log)"; return 0; }
    # a checkpoint of random weights in run.c's format: 7 ints of config,
    # then the weights (with the two unused RoPE tables)
    python3 - "$work/llama2-tiny.bin" <<'PY'
import random, struct, sys
dim, hidden, layers, heads, kvh, vocab, seq = 64, 172, 2, 4, 4, 32000, 64
hs = dim // heads
n = (vocab * dim + 2 * layers * dim + 4 * layers * dim * dim
     + 3 * layers * dim * hidden + dim + seq * hs)
r = random.Random(7)
with open(sys.argv[1], "wb") as f:
    f.write(struct.pack("7i", dim, hidden, layers, heads, kvh, vocab, seq))
    f.write(struct.pack("%df" % n, *[r.uniform(-0.5, 0.5) for _ in range(n)]))
PY
    for d in "$k" "$c"; do
        (cd "$d" && for a in "-t 0 -s 1" "-t 0.9 -p 0.9 -s 3"; do
             OMP_NUM_THREADS=2 KEEL_DB=$db ./run "$work/llama2-tiny.bin" $a -n 60 \
                 -z tokenizer.bin -i "Once upon" 2>/dev/null
         done) > "$d.out"
    done
    same llama2 "$k.out" "$c.out"
    count llama2 "$db"
}

# xsrs NAME DIR: XSBench or RSBench's openmp-threading folder
xsrs() {
    name=$1
    twice "$2" "$name"
    k=$work/$name-keel c=$work/$name-clang db=$k/keel.db
    flags="-std=gnu99 -Wall -flto -fopenmp -DOPENMP -O3"
    (cd "$k" && KEEL_DB=$db make CC="$keelcc" CFLAGS="$flags") > "$work/$name.build.log" 2>&1 \
        && (cd "$c" && make CC=clang-19 CFLAGS="$flags") > "$work/$name-clang.build.log" 2>&1 \
        || { echo "$name: build failed (see $work/$name*.build.log)"; return 0; }
    if [ "$name" = xsbench ]; then
        exe=XSBench
        runs="-m_event_-G_unionized_-l_20000_-g_2000 -m_event_-G_nuclide_-l_20000_-g_2000
              -m_event_-G_hash_-l_20000_-g_2000 -m_history_-p_3000_-g_2000"
    else
        exe=rsbench
        runs="-m_event_-l_50000 -m_event_-d_-l_50000 -m_history_-p_2000"
    fi
    for d in "$k" "$c"; do
        (cd "$d" && for a in $runs; do
             OMP_NUM_THREADS=2 KEEL_DB=$db "./$exe" -s small $(echo "$a" | tr _ ' ') 2>&1 \
                 | grep -i 'checksum'
         done) > "$d.out"
    done
    same "$name" "$k.out" "$c.out"
    count "$name" "$db"
}

comd() {
    twice "$1" comd
    k=$work/comd-keel c=$work/comd-clang db=$k/keel.db
    for d in "$k" "$c"; do
        cp "$d/src-openmp/Makefile.vanilla" "$d/src-openmp/Makefile"
    done
    (cd "$k/src-openmp" && KEEL_DB=$db make CC="$keelcc" DO_MPI=OFF OPTFLAGS="-g -O3") \
            > "$work/comd.build.log" 2>&1 \
        && (cd "$c/src-openmp" && make CC=clang-19 DO_MPI=OFF OPTFLAGS="-g -O3") \
            > "$work/comd-clang.build.log" 2>&1 \
        || { echo "comd: build failed (see $work/comd*.build.log)"; return 0; }
    for d in "$k" "$c"; do
        (cd "$d" && for e in "" -e; do
             OMP_NUM_THREADS=2 KEEL_DB=$db ./bin/CoMD-openmp -x 12 -y 12 -z 12 -N 30 -n 10 $e \
                 | awk '/^ +[0-9]+ +[0-9.]+ +-?[0-9]/ { NF -= 2; print }'
         done) > "$d.out"
    done
    same comd "$k.out" "$c.out"
    count comd "$db"
}

for co in "$@"; do
    co=$(cd "$co" && pwd)
    if [ -f "$co/config/make.def.template" ] && [ -f "$co/sys/setparams.c" ]; then
        npb "$co"
    elif [ -d "$co/lud" ] || [ -d "$co/hotspot3D" ] || [ -d "$co/kmeans" ]; then
        rodinia "$co"
    elif [ -f "$co/run.c" ] && [ -f "$co/tokenizer.bin" ]; then
        llama2 "$co"
    elif [ -f "$co/openmp-threading/XSbench_header.h" ] || [ -f "$co/XSbench_header.h" ]; then
        [ -d "$co/openmp-threading" ] && co=$co/openmp-threading
        xsrs xsbench "$co"
    elif [ -f "$co/openmp-threading/rsbench.h" ] || [ -f "$co/rsbench.h" ]; then
        [ -d "$co/openmp-threading" ] && co=$co/openmp-threading
        xsrs rsbench "$co"
    elif [ -f "$co/src-openmp/Makefile.vanilla" ] && [ -d "$co/pots" ]; then
        comd "$co"
    else
        echo "real-openmp.sh: $co is none of NPB3.0-omp-C, Rodinia's openmp folder, llama2.c, XSBench, RSBench, CoMD" >&2
        exit 2
    fi
done
