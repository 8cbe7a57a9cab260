#!/bin/sh
# build-folder.sh BIN -- keelcc's objects do not depend on the folder they
# are built in, with no -ffile-prefix-map, exactly where clang-19's do not:
# the same sources compiled in two folders give byte-identical objects
# (plain -O2 -c, -g with -ffile-prefix-map, -frecord-command-line), which
# name their source as the compiler was given it and no database.  The
# database is the link's: a program linked by keelcc, run from a third
# folder, finds it and its loop's verdict; two links of the same objects are
# identical.  Two sources of one name in two folders, built into one
# database, each find their own loop (the build hash tells them apart).
# A program linked without keelcc needs KEEL_DB (one warning, CPU, else);
# a database given by an absolute path is named in the objects; a shared
# library built by keelcc finds its database whoever links the program.
set -u
BIN=$(cd "$1" && pwd)
KC="$BIN/keelcc"
LIB="$BIN/../lib"
unset KEEL_DB KEEL_VERBOSE KEEL_DEVICE KEEL_INSTRUMENT KEEL_DISABLE KEEL_QUIET KEEL_CC \
      KEEL_PREFIX_MAP KEEL_FORCE
export KEEL_MCA=off KEEL_LOG=0
work=$(mktemp -d "${TMPDIR:-/tmp}/keel-folder-XXXXXX")
[ -n "${KEEP:-}" ] || trap 'rm -rf "$work"' EXIT
cd "$work" || exit 1
. "$(dirname "$0")/../lib.sh"
# the run-time summary of a program, from the folder "elsewhere"
run() { (cd "$work/elsewhere" && KEEL_DEVICE=h100 KEEL_VERBOSE=1 "$@" 2>&1 >/dev/null | LC_ALL=C sort); }
FX='keel: k.c:3 fx [reduction]: 1 launch, CPU 1, GPU 0 (reduction), why: only reductions are carried: s (+)'
ONE='keel: 1 site, 1 launch, CPU 1, GPU 0'
FY='keel: k.c:3 fy [reduction]: 1 launch, CPU 1, GPU 0 (reduction), why: only reductions are carried: m (min/max)'

mkdir -p src elsewhere x y
cat >src/k.c <<'EOF'
double fx(const double *a, int n) {
  double s = 0;
  for (int i = 0; i < n; i++) s += a[i];
  return s;
}
EOF
cat >src/main.c <<'EOF'
#include <stdio.h>
double fx(const double *a, int n);
static double a[64] = { 1, 2, 3 };
int main(void) { printf("%g\n", fx(a, 64)); return 0; }
EOF

# ---- the same sources in two folders -------------------------------------
for d in one two-longer-folder; do
    cp -r src "$d"
    (cd "$d" && for cc in clang-19 "$KC"; do
         p=$( [ "$cc" = clang-19 ] && echo r || echo k )
         "$cc" -O2 -c k.c -o "$p.o" \
             && "$cc" -O2 -g -ffile-prefix-map="$work/$d=." -c k.c -o "${p}g.o" \
             && "$cc" -O2 -frecord-command-line -c k.c -o "${p}r.o" \
             && "$cc" -O2 -c main.c -o "${p}main.o" || echo "$cc failed in $d"
     done) >>build.txt 2>&1
done
expect_eq "$(cat build.txt)" "" "compiles"
for o in r.o rg.o rr.o rmain.o; do
    cmp -s "one/$o" "two-longer-folder/$o" && ok || bad "clang-19's $o differs between folders"
done
for o in k.o kg.o kr.o kmain.o; do
    cmp -s "one/$o" "two-longer-folder/$o" && ok || bad "keelcc's $o differs between folders"
done
expect_eq "$(nm one/k.o | grep -c ' U keel_decide')" 1 "k.o instrumented"
expect_eq "$(nm one/k.o | grep -c ' w keel_link_db')" 1 "k.o's database: the link's"
expect_eq "$(strings one/k.o | grep -c "$work")" 0 "no build folder in k.o"
expect_eq "$(strings one/k.o | grep -c '^k\.c#h=[0-9a-f]\{16\}$')" 1 "k.o names k.c as given"
expect_eq "$(strings one/k.o | grep -c 'keel\.db')" 0 "no database named in k.o"

# ---- linked by keelcc, run from elsewhere ---------------------------------
(cd one && "$KC" -O2 kmain.o k.o -o prog && "$KC" -O2 kmain.o k.o -o prog2) >link.txt 2>&1
expect_eq "$(cat link.txt)" "" "links"
cmp -s one/prog one/prog2 && ok || bad "two links of the same objects differ"
expect_eq "$(cd elsewhere && ../one/prog)" "6" "program output"
expect_eq "$(run ../one/prog)" "$ONE
$FX" "run from elsewhere: the link's database"
# the database is found by its link-time path, not the working folder
expect_eq "$(cd one && KEEL_DEVICE=h100 KEEL_VERBOSE=1 ./prog 2>&1 >/dev/null | head -1)" "$FX" \
    "run from the build folder"

# ---- two sources named k.c, one database ----------------------------------
cp src/k.c x/k.c
cat >y/k.c <<'EOF'
double fy(const double *a, int n) {
  double m = 0;
  for (int i = 0; i < n; i++) m = m > a[i] ? m : a[i];
  return m;
}
EOF
cat >two.c <<'EOF'
#include <stdio.h>
double fx(const double *a, int n);
double fy(const double *a, int n);
static double a[64] = { 1, 2, 3 };
int main(void) { printf("%g %g\n", fx(a, 64), fy(a, 64)); return 0; }
EOF
{ (cd x && "$KC" -O2 --keel-db=../shared.db -c k.c -o ../kx.o) \
  && (cd y && "$KC" -O2 --keel-db=../shared.db -c k.c -o ../ky.o) \
  && "$KC" -O2 --keel-db=shared.db two.c kx.o ky.o -o two; } >two.txt 2>&1
expect_eq "$(cat two.txt)" "" "builds of x/k.c and y/k.c"
expect_eq "$(strings kx.o | grep -c '^k\.c#h=') $(strings ky.o | grep -c '^k\.c#h=')" "1 1" \
    "both objects name k.c"
expect_eq "$(cd elsewhere && ../two)" "6 3" "two's output"
expect_eq "$(run ../two)" "keel: 2 sites, 2 launches, CPU 2, GPU 0
$FX
$FY" "each k.c's site finds its own loop"

# ---- linked without keelcc -------------------------------------------------
clang-19 -O2 one/kmain.o one/k.o "$LIB/libkeelrt.a" -lsqlite3 -lm -ldl -lpthread -o plain \
    || bad "plain link"
expect_eq "$(run ../plain)" "$ONE
keel: k.c:3: 1 launch, CPU 1, GPU 0 (no facts)
keel: warning: no database: the program was linked without keelcc (set KEEL_DB) (verdict CPU)" \
    "linked without keelcc, no KEEL_DB"
expect_eq "$(KEEL_DB="$work/one/keel.db" run ../plain)" "$ONE
$FX" "linked without keelcc, KEEL_DB"

# ---- a database given by an absolute path ----------------------------------
(cd one && "$KC" -O2 --keel-db="$work/abs.db" -c k.c -o ka.o) || bad "compile with --keel-db=ABS"
expect_eq "$(strings one/ka.o | grep -c "^$work/abs.db\$")" 1 "ka.o names the absolute database"
clang-19 -O2 one/kmain.o one/ka.o "$LIB/libkeelrt.a" -lsqlite3 -lm -ldl -lpthread -o plain-abs \
    || bad "plain link of ka.o"
expect_eq "$(run ../plain-abs)" "$ONE
$FX" "the absolute database, linked without keelcc"

# ---- a shared library built by keelcc ------------------------------------
(cd one && "$KC" -O2 -fPIC -shared k.c -o libk.so) || bad "keelcc -shared"
clang-19 -O2 one/kmain.o -Lone -lk -Wl,-rpath,"$work/one" -o with-so || bad "link with libk.so"
expect_eq "$(readelf --dyn-syms -W one/libk.so | grep -c keel_link_db)" 0 \
    "libk.so does not export its database"
expect_eq "$(run ../with-so)" "$ONE
$FX" "libk.so's site: the library's database"

finish build-folder
