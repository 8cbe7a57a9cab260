#!/bin/sh
# startup-counts.sh BIN -- what a keelcc-built program pays at start-up and
# at its first decisions, counted.  Its launch sites cost a
# position-independent program no relocation at start-up (keelrt.h's
# packed form): an object compiled with an absolute database has no
# relocation in its data at all, one that names the linked program's
# database (the default, a relative one) two per site (db and file); a
# program of three sites has as many relative relocations as the same
# program with one, or four more.  Its sites still find their file, names
# and database: each launch line (KEEL_VERBOSE=2) names the function and
# the values by name, from the facts linked in and, with KEEL_FACTS=db,
# from the database the site names.  Its first decisions (logging off)
# bind lazily none of the libc functions the runtime's set-up and lookups
# avoid (pthread_once, pthread_atfork, strchr, strncmp, memcmp, memchr):
# each costs a program's first decision about 800 instructions of symbol
# lookup.
set -u
BIN=$(cd "$1" && pwd)
KC="$BIN/keelcc"
unset KEEL_DB KEEL_VERBOSE KEEL_DEVICE KEEL_INSTRUMENT KEEL_DISABLE KEEL_QUIET KEEL_CC \
      KEEL_PREFIX_MAP KEEL_FORCE KEEL_FACTS
export KEEL_MCA=off KEEL_LOG=0
work=$(mktemp -d "${TMPDIR:-/tmp}/keel-startup-XXXXXX")
[ -n "${KEEP:-}" ] || trap 'rm -rf "$work"' EXIT
cd "$work" || exit 1
. "$(dirname "$0")/../lib.sh"
# relocations in an object's data sections (what the loader applies at start)
data_relocs() {
    readelf -rW "$1" | awk '/^Relocation section/ { s = $3 } /^[0-9a-f]+ / && s ~ /data/ { n++ }
                             END { print n + 0 }'
}
relative() { readelf -rW "$1" | grep -c '_RELATIVE'; }

mkdir -p abs rel
cat >k.c <<'EOF'
double ga[1000];
void f(int n, int m, double *a, const double *b)
{
    for (int i = 0; i < n; i++)
        for (int j = 0; j < m; j++)
            a[i * m + j] = b[i * m + j] * 2;
}
void g(int n, double *a)
{
    for (int i = 0; i < n; i++)
        a[i] = a[i] + 1;
}
void h(void)
{
    for (int i = 0; i < 1000; i++)
        ga[i] = i;
}
EOF
cat >main.c <<'EOF'
#include <stdlib.h>
void f(int n, int m, double *a, const double *b);
void g(int n, double *a);
void h(void);
int main(void)
{
    double *a = calloc(400 * 300, sizeof *a), *b = calloc(400 * 300, sizeof *b);
    if (!a || !b)
        return 1;
    f(400, 300, a, b);
    g(400, a);
    h();
    free(a);
    free(b);
    return 0;
}
EOF
cp k.c main.c abs/
cp k.c main.c rel/
(cd abs && "$KC" --keel-db="$work/abs/keel.db" -O1 -fPIE -c k.c -o k.o) || bad "abs: compile"
(cd rel && "$KC" -O1 -fPIE -c k.c -o k.o) || bad "rel: compile"
expect_eq "$(nm abs/k.o | grep -c 'keel_site_')" 3 "abs: sites"
expect_eq "$(data_relocs abs/k.o)" 0 "abs: relocations in the data of 3 sites"
expect_eq "$(nm rel/k.o | grep -c 'keel_site_')" 3 "rel: sites"
expect_eq "$(data_relocs rel/k.o)" 6 "rel: relocations in the data of 3 sites (db, file)"

# linked: as many relative relocations as the same program with one site
# (h alone), or two a site more (rel)
cat >one.c <<'EOF'
double ga[1000];
void f(int n, int m, double *a, const double *b)
{
    a[n * m] = b[0];
}
void g(int n, double *a)
{
    a[n] = 1;
}
void h(void)
{
    for (int i = 0; i < 1000; i++)
        ga[i] = i;
}
EOF
cp one.c abs/; cp one.c rel/
clang-19 -O1 -fPIE -c main.c -o main.o || bad "main: compile"
for d in abs rel; do
    db=; [ $d = abs ] && db=--keel-db="$work/abs/keel.db"
    (cd $d && "$KC" $db -O1 -fPIE -c one.c -o one.o && "$KC" $db -O1 -fPIE -pie ../main.o k.o -o prog &&
        "$KC" $db -O1 -fPIE -pie ../main.o one.o -o one) || bad "$d: link"
    expect_eq "$(nm $d/one.o | grep -c 'keel_site_')" 1 "$d: one.o's sites"
done
expect_eq "$(relative abs/prog)" "$(relative abs/one)" "abs: relative relocations, 3 sites against 1"
expect_eq "$(relative rel/prog)" "$(($(relative rel/one) + 4))" "rel: relative relocations, 3 sites against 1"

# each launch names its function and its values: the packed texts read back
# (f's GPU: its call passes the bases &a and &b, so the overlap check can run)
F='keel: k.c:4 f \[stream\] n=400,m=300: .*-> GPU$'
G='keel: k.c:10 g \[stream\] n=400: .*-> CPU$'
H='keel: k.c:15 h \[stream\] : .*-> CPU$'
for d in abs rel; do
    for facts in linked db; do
        out=$(cd "$d" && KEEL_DEVICE=h100 KEEL_VERBOSE=2 KEEL_FACTS=$facts ./prog 2>&1 >/dev/null)
        expect_eq "$(echo "$out" | grep -c "^$F")" 1 "$d ($facts): f's launch line"
        expect_eq "$(echo "$out" | grep -c "^$G")" 1 "$d ($facts): g's launch line"
        expect_eq "$(echo "$out" | grep -c "^$H")" 1 "$d ($facts): h's launch line"
        expect_eq "$(echo "$out" | grep -c warning)" 0 "$d ($facts): no warning"
    done
done

# the libc functions the three first decisions bind lazily
unset LD_BIND_NOW
bound=$(cd rel && KEEL_DEVICE=h100 LD_DEBUG=bindings ./prog 2>&1 >/dev/null |
        grep "binding file ./prog " | sed "s/.*symbol .\([A-Za-z_0-9]*\).*/\1/" |
        grep -E '^(pthread_once|__register_atfork|pthread_atfork|strchr|strncmp|memcmp|memchr)$' |
        sort | tr '\n' ' ')
expect_eq "$bound" "" "libc functions the first decisions bind that the runtime avoids"
expect_eq "$(cd rel && KEEL_DEVICE=h100 LD_DEBUG=bindings ./prog 2>&1 >/dev/null |
             grep -c "binding file ./prog .*symbol .sched_getaffinity'")" 1 \
    "LD_DEBUG=bindings shows the runtime's own lazy bindings"

finish startup-counts
