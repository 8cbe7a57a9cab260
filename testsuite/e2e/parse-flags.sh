#!/bin/sh
# parse-flags.sh BIN -- keelcc's parse sees the predefined macros the
# compile sees, through keelcc, the compiler and the database.
#  - a nest written only under #ifdef __OPTIMIZE__, __OPTIMIZE_SIZE__,
#    __NO_INLINE__, __FAST_MATH__, __FINITE_MATH_ONLY__, __NO_MATH_ERRNO__,
#    __SSE4_2__, __AVX2__, __AVX512F__, __PIC__/__PIE__, _REENTRANT, __SSP__
#    is recorded at its own line exactly when the compile's flags define
#    the macro (-O levels, -ffast-math and its parts, -m ISA flags and
#    -march=, later flags overriding earlier ones), and absent at -O0;
#  - -O0 and -O2 builds of one source are two builds (two variants, both
#    kept); an unchanged -O2 rebuild adds none;
#  - `#pragma omp simd` under -fopenmp-simd -Werror -Wsource-uses-openmp
#    (what -Weverything -Werror turns on) is analysed: the parse knows the
#    pragma, as the compile does; no keel warning.
set -u
BIN=$1
KC="$BIN/keelcc"
work=$(mktemp -d /tmp/keel-parseflags-XXXXXX)
trap 'rm -rf "$work"' EXIT
cd "$work" || exit 1
export KEEL_MCA=off KEEL_LOG=0
unset KEEL_VERBOSE KEEL_DEVICE KEEL_FORCE KEEL_DIRECT KEEL_INSTRUMENT KEEL_QUIET KEEL_CC \
      KEEL_DB OMP_TARGET_OFFLOAD
. "$(dirname "$0")/../lib.sh"

# One nest per macro; line N of each nest is given in the comment.
cat >m.c <<'EOF'
void f(double *y, const double *x, int n)
{
    for (int i = 0; i < n; i++)   /* 3: always */
        y[i] = x[i];
#ifdef __OPTIMIZE__
    for (int i = 0; i < n; i++)   /* 6 */
        y[i] += 1;
#endif
#ifdef __OPTIMIZE_SIZE__
    for (int i = 0; i < n; i++)   /* 10 */
        y[i] += 2;
#endif
#ifndef __NO_INLINE__
    for (int i = 0; i < n; i++)   /* 14 */
        y[i] += 3;
#endif
#ifdef __FAST_MATH__
    for (int i = 0; i < n; i++)   /* 18 */
        y[i] += 4;
#endif
#if defined __FINITE_MATH_ONLY__ && __FINITE_MATH_ONLY__
    for (int i = 0; i < n; i++)   /* 22 */
        y[i] += 5;
#endif
#ifdef __NO_MATH_ERRNO__
    for (int i = 0; i < n; i++)   /* 26 */
        y[i] += 6;
#endif
#ifdef __SSE4_2__
    for (int i = 0; i < n; i++)   /* 30 */
        y[i] += 7;
#endif
#ifdef __AVX2__
    for (int i = 0; i < n; i++)   /* 34 */
        y[i] += 8;
#endif
#ifdef __AVX512F__
    for (int i = 0; i < n; i++)   /* 38 */
        y[i] += 9;
#endif
#if defined __PIC__ && !defined __PIE__
    for (int i = 0; i < n; i++)   /* 42 */
        y[i] += 10;
#endif
#ifdef _REENTRANT
    for (int i = 0; i < n; i++)   /* 46 */
        y[i] += 11;
#endif
#ifdef __SSP__
    for (int i = 0; i < n; i++)   /* 50 */
        y[i] += 12;
#endif
}
EOF

# the lines of the outermost loops keelcc records for a compile with flags $@
lines() {
    rm -f l.db
    "$KC" --keel-db=l.db --keel-instrument=off "$@" -c m.c -o m.o 2>err.txt
    echo "$? $(sqlite3 l.db "SELECT group_concat(line, ' ') FROM
                 (SELECT line FROM loops WHERE parent_id IS NULL ORDER BY line)") $(wc -c <err.txt)"
}
expect_eq "$(lines)" "0 3 0" "no flags"
expect_eq "$(lines -O0)" "0 3 0" "-O0"
expect_eq "$(lines -O2)" "0 3 6 14 0" "-O2"
expect_eq "$(lines -O)" "0 3 6 14 0" "-O"
expect_eq "$(lines -O1)" "0 3 6 14 0" "-O1"
expect_eq "$(lines -O3)" "0 3 6 14 0" "-O3"
expect_eq "$(lines -Og)" "0 3 6 14 0" "-Og"
expect_eq "$(lines -Os)" "0 3 6 10 14 0" "-Os"
expect_eq "$(lines -Oz)" "0 3 6 10 14 0" "-Oz"
expect_eq "$(lines -O2 -O0)" "0 3 0" "-O2 -O0: the last one"
expect_eq "$(lines -O2 -fno-inline)" "0 3 6 0" "-O2 -fno-inline"
expect_eq "$(lines -Ofast -Wno-deprecated-ofast)" "0 3 6 14 18 22 26 0" "-Ofast"
expect_eq "$(lines -ffast-math)" "0 3 18 22 26 0" "-ffast-math"
expect_eq "$(lines -ffast-math -fno-fast-math)" "0 3 0" "-ffast-math -fno-fast-math"
expect_eq "$(lines -ffast-math -fno-finite-math-only)" "0 3 26 0" \
          "-ffast-math -fno-finite-math-only"
expect_eq "$(lines -ffinite-math-only)" "0 3 22 0" "-ffinite-math-only"
expect_eq "$(lines -fno-math-errno)" "0 3 26 0" "-fno-math-errno"
expect_eq "$(lines -ffp-model=fast)" "0 3 18 22 26 0" "-ffp-model=fast"
expect_eq "$(lines -fPIC)" "0 3 42 0" "-fPIC"
expect_eq "$(lines -pthread)" "0 3 46 0" "-pthread"
expect_eq "$(lines -fstack-protector)" "0 3 50 0" "-fstack-protector"
if [ "$(uname -m)" = x86_64 ]; then
    expect_eq "$(lines -msse4.2)" "0 3 30 0" "-msse4.2"
    expect_eq "$(lines -O2 -mavx2)" "0 3 6 14 30 34 0" "-O2 -mavx2"
    # (clang-19 -mavx2 -mno-avx2 -dM -E defines neither __AVX2__ nor __SSE4_2__)
    expect_eq "$(lines -mavx2 -mno-avx2)" "0 3 0" "-mavx2 -mno-avx2"
    expect_eq "$(lines -march=x86-64-v3)" "0 3 30 34 0" "-march=x86-64-v3"
    expect_eq "$(lines -march=skylake-avx512 -mtune=znver3)" "0 3 30 34 38 0" \
              "-march=skylake-avx512"
fi

# -O0 and -O2 builds of one source: two builds, both kept; a rebuild adds none
export KEEL_DB="$work/k.db"
"$KC" -O0 -c m.c -o m0.o && "$KC" -O2 -c m.c -o m2.o && "$KC" -O2 -c m.c -o m2.o
expect_eq "$(sqlite3 k.db "SELECT count(*), count(DISTINCT variant) FROM translation_units")" \
          "2|2" "-O0 and -O2: two builds"
expect_eq "$(sqlite3 k.db "SELECT group_concat(n, ' ') FROM (SELECT count(*) AS n FROM loops
                          WHERE parent_id IS NULL GROUP BY tu_id ORDER BY n)")" "1 3" \
          "-O0 and -O2: each build's nests"

# -fopenmp-simd: the parse knows `#pragma omp simd` as the compile does
cat >s.c <<'EOF'
void s(double *y, const double *x, int n)
{
#pragma omp simd
    for (int i = 0; i < n; i++)
        y[i] = x[i] * 2;
}
EOF
rm -f s.db
"$KC" --keel-db=s.db -fopenmp-simd -Werror -Wsource-uses-openmp -c s.c -o s.o 2>err.txt
expect_eq "$? $(cat err.txt)" "0 " "-fopenmp-simd -Werror: compiled, no warning"
expect_eq "$(sqlite3 s.db "SELECT line, pragmas LIKE '%omp simd%' FROM loops")" "4|1" \
          "-fopenmp-simd: the nest and its pragma"


# -march=native: the parse gets this host's macros, so direct mode keys the
# host: the same command under another host name (same database) parses
# again; on this host it is a hit
if [ "$(uname -m)" = x86_64 ] && unshare -ru true 2>/dev/null; then
    rm -f n.db
    "$KC" --keel-db=n.db --keel-instrument=off -march=native -c m.c -o n.o
    sqlite3 n.db "UPDATE translation_units SET message = 'kept'"
    "$KC" --keel-db=n.db --keel-instrument=off -march=native -c m.c -o n.o
    expect_eq "$(sqlite3 n.db "SELECT count(*) FROM translation_units
                               WHERE message IS NOT 'kept'")" 0 "-march=native: hit"
    unshare -ru sh -c 'hostname keel-other-host && exec "$@"' sh \
        "$KC" --keel-db=n.db --keel-instrument=off -march=native -c m.c -o n.o
    expect_eq "$(sqlite3 n.db "SELECT count(*) FROM translation_units
                               WHERE message IS NOT 'kept'")" 1 \
              "-march=native, another host: parsed again"
fi

finish parse-flags
