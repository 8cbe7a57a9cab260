#!/bin/sh
# compile-overhead.sh BUILD [RUNS] [KERNEL...] -- what keelcc costs over
# plain clang-19, in wall time and in CPU time.
#
# Each KERNEL (a folder under polybench-inputs, default
# linear-algebra/blas/gemm) is built as one compile-and-link command,
# `CC -O2 -I... kernel.c polybench.c -o prog`, RUNS times (default 5) with:
#   clang-19                the plain compiler;
#   keelcc cold             keelcc as it is by default (analysis,
#                           instrumentation, llvm-mca for the host CPU)
#                           with a new database: every llvm-mca block runs;
#   keelcc warm             the same command again on the database the
#                           previous build left: a rebuild of unchanged code
#                           (keelcc's direct mode reuses the stored builds;
#                           this first rebuild compiles each source alone
#                           to fill the object cache);
#   keelcc warm again       the same once more: the unchanged rebuild every
#                           later `make` pays (each source's object copied
#                           from the object cache, then only the link);
#   warm, object cache off  "warm again" with KEEL_OBJCACHE=off: the stored
#                           instrumented text compiled again;
#   keelcc warm, no direct  the same with KEEL_DIRECT=off: parse, analyses
#                           and assembly compiles again, llvm-mca blocks from
#                           the database's cache (what a rebuild paid before
#                           direct mode, and roughly what an edited source
#                           with unchanged loops pays);
#   warm, instrument off    the warm build with KEEL_INSTRUMENT=off (on the
#                           database its cold build left): what is left of a
#                           warm build without the instrumented compile, the
#                           link of libkeelrt and the link object -- the
#                           direct-mode lookup over keelcc's start-up; "keelcc
#                           warm" less this row is what instrumentation costs
#                           a rebuild;
#   cold, llvm-mca off / instrument off / both off / analysis off
#                           the cold build with KEEL_MCA=off,
#                           KEEL_INSTRUMENT=off, both, or KEEL_DISABLE=1
#                           (keelcc only runs the compiler): what each
#                           stage costs is its difference to "keelcc cold";
# A second table builds the same programs as a Makefile does: each source
# compiled with -c, then one link command (clang-19; keelcc cold; keelcc
# warm, where an unchanged -c compile that direct mode hits copies its
# object from the object cache instead of compiling; warm with the object
# cache off, KEEL_OBJCACHE=off).
# The tables print the median wall time and the median CPU time (user + system of
# the command and all its children, which is what a parallel `make -j`
# pays; bench/rusage.py, microseconds) with the ratios to clang-19, then
# the targets (cold at most 2x clang-19's CPU and 1.5x its wall time, warm
# at most 1.1x) met or not.  On a loaded machine wall times move a lot;
# CPU times much less.  Builds are alternated (clang-19, then each keelcc
# build), so that a change of load hits every row alike.
#
# With DEBUG=1, a third table: the -c build with `-O2 -g` (clang-19; keelcc
# cold, whose -c compiles with line tables take llvm-mca's input from their
# own objects; keelcc cold with KEEL_MCA_OBJECT=off, a second compile to
# assembly per source as without -g).
#
# With LARGE=LINES, a table for one generated source of about LINES lines
# (bench/gen-growth.py), compiled alone: clang-19, keelcc cold and warm.
#
# With NPB=DIR (a checkout of NPB3.0-omp-C: config/make.def.template,
# BT/bt.c, ...; copied into a temporary folder, never changed) two more
# tables: BT's bt.c alone (`-O2 -fopenmp -c`, class S parameters) and the
# whole class S build of BT CG EP FT IS LU MG SP (make, one job), each with
# clang-19, keelcc cold (new database, a fresh copy of the tree) and warm
# (the same build again in the same tree, its objects removed, into the
# database the cold one left), then warm again: the first rebuild parses
# each benchmark's main source once more, because the cold build compiled
# it within a second of setparams writing its npbparams.h, and direct mode
# never trusts a file that new (ccache's rule); the second rebuild is the
# unchanged rebuild the warm target is about.
set -eu
BUILD=${1:-build}
RUNS=${2:-5}
shift $(( $# > 2 ? 2 : $# ))
KERNELS=${*:-linear-algebra/blas/gemm}
BIN=$(cd "$BUILD/bin" && pwd)
HERE=$(cd "$(dirname "$0")" && pwd)
PB=$(pwd)/polybench-inputs
work=$(mktemp -d "${TMPDIR:-/tmp}/keel-bench-XXXXXX")
trap 'rm -rf "$work"' EXIT

median() { sort -n | awk '{ v[NR] = $1 } END { print v[int((NR + 1) / 2)] }'; }
# one CC build of every kernel; appends "wall cpu" to $2
build() {
    for k in $KERNELS; do
        name=$(basename "$k")
        python3 "$HERE/rusage.py" \
            $1 -O2 -I"$PB/utilities" -I"$PB/$k" -DSMALL_DATASET "$PB/$k/$name.c" \
            "$PB/utilities/polybench.c" -o "$work/$name" -lm 2>>"$work/log"
    done | awk '{ w += $1; c += $2 } END { print w, c }' >>"$2"
}
# the same, as make builds it: each source -c, then the link
build_c() {
    for k in $KERNELS; do
        name=$(basename "$k")
        python3 "$HERE/rusage.py" sh -c "$1 -O2 ${OPTG:-} -I'$PB/utilities' -I'$PB/$k' \
            -DSMALL_DATASET -c '$PB/$k/$name.c' -o '$work/$name.o' && \
            $1 -O2 ${OPTG:-} -I'$PB/utilities' -DSMALL_DATASET -c '$PB/utilities/polybench.c' \
            -o '$work/polybench.o' && \
            $1 -O2 ${OPTG:-} '$work/$name.o' '$work/polybench.o' -o '$work/$name' -lm" 2>>"$work/log"
    done | awk '{ w += $1; c += $2 } END { print w, c }' >>"$2"
}
for r in $(seq "$RUNS"); do
    build_c clang-19 "$work/c-plain"
    rm -rf "$work"/c.db*
    KEEL_DB="$work/c.db" build_c "$BIN/keelcc" "$work/c-cold"
    KEEL_DB="$work/c.db" build_c "$BIN/keelcc" "$work/c-warm"
    KEEL_OBJCACHE=off KEEL_DB="$work/c.db" build_c "$BIN/keelcc" "$work/c-warmnooc"
    build clang-19 "$work/plain"
    rm -rf "$work"/k.db*
    KEEL_DB="$work/k.db" build "$BIN/keelcc" "$work/cold"
    KEEL_DB="$work/k.db" build "$BIN/keelcc" "$work/warm"
    KEEL_DB="$work/k.db" build "$BIN/keelcc" "$work/warm2"
    KEEL_OBJCACHE=off KEEL_DB="$work/k.db" build "$BIN/keelcc" "$work/warmnooc"
    KEEL_DIRECT=off KEEL_DB="$work/k.db" build "$BIN/keelcc" "$work/nodirect"
    # the stages: each cold build again with one stage off
    rm -rf "$work"/k.db*
    KEEL_MCA=off KEEL_DB="$work/k.db" build "$BIN/keelcc" "$work/nomca"
    rm -rf "$work"/k.db*
    KEEL_INSTRUMENT=off KEEL_DB="$work/k.db" build "$BIN/keelcc" "$work/noinst"
    KEEL_INSTRUMENT=off KEEL_DB="$work/k.db" build "$BIN/keelcc" "$work/warmnoinst"
    rm -rf "$work"/k.db*
    KEEL_MCA=off KEEL_INSTRUMENT=off KEEL_DB="$work/k.db" build "$BIN/keelcc" "$work/neither"
    rm -rf "$work"/k.db*
    KEEL_DISABLE=1 KEEL_DB="$work/k.db" build "$BIN/keelcc" "$work/noanalysis"
done
row() {   # row LABEL FILE (medians against $pw $pc)
    w=$(cut -d' ' -f1 <"$2" | median)
    c=$(cut -d' ' -f2 <"$2" | median)
    printf '| %-23s | %8.3f | %6.2fx | %8.3f | %6.2fx |\n' "$1" "$w" \
        "$(awk "BEGIN { print $w / $pw }")" "$c" "$(awk "BEGIN { print $c / $pc }")"
}
header() {
    printf '| %-23s | %8s | %7s | %8s | %7s |\n' "build" "wall (s)" "ratio" "CPU (s)" "ratio"
    printf '|%s|%s|%s|%s|%s|\n' "-------------------------" "----------" "---------" "----------" "---------"
}
base() {  # base FILE: $pw $pc, the plain compiler's medians
    pw=$(cut -d' ' -f1 <"$1" | median)
    pc=$(cut -d' ' -f2 <"$1" | median)
}
# targets COLD WARM: the cold build within 2x CPU and 1.5x wall, the warm
# one (the unchanged rebuild a later make pays) within 1.1x CPU, of
# clang-19's
targets() {
    cw=$(cut -d' ' -f1 <"$1" | median); cc=$(cut -d' ' -f2 <"$1" | median)
    wc=$(cut -d' ' -f2 <"$2" | median)
    awk -v cw="$cw" -v cc="$cc" -v wc="$wc" -v pw="$pw" -v pc="$pc" 'BEGIN {
        printf "targets: cold CPU %.2fx (<= 2.00x: %s), cold wall %.2fx (<= 1.50x: %s), warm CPU %.2fx (<= 1.10x: %s)\n",
            cc / pc, cc / pc <= 2 ? "met" : "NOT met", cw / pw, cw / pw <= 1.5 ? "met" : "NOT met",
            wc / pc, wc / pc <= 1.1 ? "met" : "NOT met" }'
}
base "$work/plain"
echo "compile overhead: $(echo $KERNELS | wc -w) program(s) ($KERNELS), each kernel.c + polybench.c compiled and linked in one command, -O2, median of $RUNS, $(nproc) cores, load $(cut -d' ' -f1 /proc/loadavg)"
echo
header
row "clang-19" "$work/plain"
row "keelcc cold" "$work/cold"
row "keelcc warm" "$work/warm"
row "keelcc warm again" "$work/warm2"
row "warm, object cache off" "$work/warmnooc"
row "keelcc warm, no direct" "$work/nodirect"
row "warm, instrument off" "$work/warmnoinst"
row "cold, llvm-mca off" "$work/nomca"
row "cold, instrument off" "$work/noinst"
row "cold, both off" "$work/neither"
row "cold, analysis off" "$work/noanalysis"
echo
targets "$work/cold" "$work/warm2"
echo
echo "the same, as make builds it: each source -c, then the link, median of $RUNS, load $(cut -d' ' -f1 /proc/loadavg)"
echo
base "$work/c-plain"
header
row "clang-19" "$work/c-plain"
row "keelcc cold" "$work/c-cold"
row "keelcc warm" "$work/c-warm"
row "warm, object cache off" "$work/c-warmnooc"
echo
targets "$work/c-cold" "$work/c-warm"

if [ -n "${DEBUG:-}" ]; then
    : >"$work/g-plain"; : >"$work/g-cold"; : >"$work/g-coldasm"
    for r in $(seq "$RUNS"); do
        OPTG=-g build_c clang-19 "$work/g-plain"
        rm -rf "$work"/g.db*
        OPTG=-g KEEL_DB="$work/g.db" build_c "$BIN/keelcc" "$work/g-cold"
        rm -rf "$work"/g.db*
        OPTG=-g KEEL_MCA_OBJECT=off KEEL_DB="$work/g.db" build_c "$BIN/keelcc" "$work/g-coldasm"
    done
    echo
    echo "with -g: each source -O2 -g -c, then the link, median of $RUNS, load $(cut -d' ' -f1 /proc/loadavg)"
    echo
    base "$work/g-plain"
    header
    row "clang-19 -g" "$work/g-plain"
    row "keelcc cold -g" "$work/g-cold"
    row "cold -g, asm compile" "$work/g-coldasm"
fi

# LARGE=LINES: one generated source of about LINES lines of loop code
# (bench/gen-growth.py size LINES: a 2,000-line file is 62 KB), `-O2 -c`,
# with clang-19, keelcc cold and keelcc warm: a source large enough that
# its assembly compile starts beside the parse (32 KiB or more).
if [ -n "${LARGE:-}" ]; then
    python3 "$HERE/gen-growth.py" size "$LARGE" >"$work/large.c"
    sleep 1.2       # direct mode never trusts a file under a second old
    : >"$work/large-plain"; : >"$work/large-cold"; : >"$work/large-warm"
    large() {   # large CC OUT
        python3 "$HERE/rusage.py" $1 -O2 -c "$work/large.c" -o "$work/large.o" \
            2>>"$work/log" >>"$2"
    }
    for r in $(seq "$RUNS"); do
        large clang-19 "$work/large-plain"
        rm -rf "$work"/l.db*
        KEEL_DB="$work/l.db" large "$BIN/keelcc" "$work/large-cold"
        KEEL_DB="$work/l.db" large "$BIN/keelcc" "$work/large-warm"
    done
    echo
    echo "generated source, $LARGE lines ($(wc -c <"$work/large.c") bytes), -O2 -c, median of $RUNS, load $(cut -d' ' -f1 /proc/loadavg)"
    echo
    base "$work/large-plain"
    header
    row "clang-19" "$work/large-plain"
    row "keelcc cold" "$work/large-cold"
    row "keelcc warm" "$work/large-warm"
    echo
    targets "$work/large-cold" "$work/large-warm"
fi

[ -n "${NPB:-}" ] || exit 0
[ -f "$NPB/config/make.def.template" ] && [ -f "$NPB/BT/bt.c" ] \
    || { echo "NPB=$NPB: not an NPB3.0-omp-C checkout" >&2; exit 1; }
legacy="-Wno-error=implicit-int -Wno-error=implicit-function-declaration"
# a fresh copy of the tree at $work/npb with CC = $1
npb_tree() {
    rm -rf "$work/npb"
    cp -R "$NPB" "$work/npb"
    chmod -R u+w "$work/npb"
    sed -e "s|^CC *=.*|CC = $1|" -e "s|^CLINK[[:space:]]*=.*|CLINK = $1|" \
        -e "s|^CFLAGS[^=]*=.*|CFLAGS = -O2 -fopenmp $legacy|" -e 's|^C_LIB[^=]*=.*|C_LIB = -fopenmp -lm|' \
        -e 's|^CLINKFLAGS[^=]*=.*|CLINKFLAGS = -O2 -fopenmp|' -e 's|^UCC[^=]*=.*|UCC = cc|' \
        "$work/npb/config/make.def.template" >"$work/npb/config/make.def"
    mkdir -p "$work/npb/bin"
}
npb_build() {   # npb_build CC OUT [again]: the class S build of every benchmark
    if [ -n "${3:-}" ]; then
        # the same tree again, objects and programs removed (setparams
        # leaves an unchanged npbparams.h alone): an unchanged rebuild
        find "$work/npb" -name '*.o' -exec rm -f {} +
        rm -f "$work/npb/bin/"*
    else
        npb_tree "$1"
    fi
    (cd "$work/npb" && python3 "$HERE/rusage.py" sh -c \
        'for b in bt cg ep ft is lu mg sp; do make $b CLASS=S || exit 1; done' 2>>"$work/log") >>"$2"
}
bt_file() {     # bt_file CC OUT: BT's bt.c alone (its class S npbparams.h made once)
    (cd "$work/npb/BT" && python3 "$HERE/rusage.py" $1 -O2 -fopenmp $legacy -I../common \
        -c bt.c -o "$work/bt.o" 2>>"$work/log") >>"$2"
}
: >"$work/npb-plain"; : >"$work/npb-cold"; : >"$work/npb-warm"; : >"$work/npb-warm2"
: >"$work/bt-plain"; : >"$work/bt-cold"; : >"$work/bt-warm"
for r in $(seq "$RUNS"); do
    npb_build clang-19 "$work/npb-plain"
    rm -rf "$work"/n.db*
    KEEL_DB="$work/n.db" npb_build "$BIN/keelcc" "$work/npb-cold"
    KEEL_DB="$work/n.db" npb_build "$BIN/keelcc" "$work/npb-warm" again
    KEEL_DB="$work/n.db" npb_build "$BIN/keelcc" "$work/npb-warm2" again
done
npb_tree clang-19
(cd "$work/npb/sys" && make -s setparams >/dev/null 2>&1 && cd ../BT && ../sys/setparams bt S)
for r in $(seq "$RUNS"); do
    bt_file clang-19 "$work/bt-plain"
    rm -f "$work"/b.db*
    KEEL_DB="$work/b.db" bt_file "$BIN/keelcc" "$work/bt-cold"
    KEEL_DB="$work/b.db" bt_file "$BIN/keelcc" "$work/bt-warm"
done
echo
echo "NPB3.0-omp-C BT bt.c alone, -O2 -fopenmp -c, class S, median of $RUNS, load $(cut -d' ' -f1 /proc/loadavg)"
echo
base "$work/bt-plain"
header
row "clang-19" "$work/bt-plain"
row "keelcc cold" "$work/bt-cold"
row "keelcc warm" "$work/bt-warm"
echo
targets "$work/bt-cold" "$work/bt-warm"
echo
echo "NPB3.0-omp-C class S build (BT CG EP FT IS LU MG SP, make, one job), median of $RUNS, load $(cut -d' ' -f1 /proc/loadavg)"
echo
base "$work/npb-plain"
header
row "clang-19" "$work/npb-plain"
row "keelcc cold" "$work/npb-cold"
row "keelcc warm" "$work/npb-warm"
row "keelcc warm again" "$work/npb-warm2"
echo
targets "$work/npb-cold" "$work/npb-warm2"
