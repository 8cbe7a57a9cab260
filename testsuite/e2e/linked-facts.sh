#!/bin/sh
# linked-facts.sh BINDIR -- a program carries its own facts: keelcc's link
# step packs the facts of the launch sites of the objects it links into the
# program (keel_link_facts), and the program decides from them without
# opening its database.  The verdicts are those the database gives
# (KEEL_FACTS=db) with the database present, deleted, replaced by garbage,
# or rebuilt from an edited source after the link (the program keeps its
# own facts; read from the database the sites are stale); a damaged packed
# form is one warning and the database's answer; two identical links are
# identical; a program linked without keelcc reads its database; this
# host's calibration travels with the facts; after a header edit (another
# build variant, the earlier one kept under the same output) the program
# links its own build's sites only: the same bytes as the next rebuild's.
BIN=$1
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cd "$work" || exit 1
. "$(dirname "$0")/../lib.sh"
KC="$BIN/keelcc --keel-db=$work/k.db --keel-mca=off"

cat >k.c <<'SRC'
void mm(int n, double a[n][n], double b[n][n], double c[n][n])
{
    for (int i = 0; i < n; i++)
        for (int j = 0; j < n; j++) {
            double s = 0;
            for (int k = 0; k < n; k++)
                s += a[i][k] * b[k][j];
            c[i][j] = s;
        }
}
void ax(int n, double *x, const double *y)
{
    for (int i = 0; i < n; i++)
        x[i] = 2 * y[i] + x[i];
}
SRC
cat >main.c <<'SRC'
#include <stdio.h>
#include <stdlib.h>
void mm(int n, double a[n][n], double b[n][n], double c[n][n]);
void ax(int n, double *x, const double *y);
int main(int argc, char **argv)
{
    int n = argc > 1 ? atoi(argv[1]) : 100;
    double (*a)[n] = calloc(n, sizeof *a), (*b)[n] = calloc(n, sizeof *b);
    double (*c)[n] = calloc(n, sizeof *c), *x = calloc((size_t)n * n, sizeof *x);
    for (int i = 0; i < n; i++)
        a[i][i] = b[i][i] = 1;
    mm(n, a, b, c);
    ax(n * n, x, &c[0][0]);
    printf("%g %g\n", c[n - 1][n - 1], x[0]);
    return 0;
}
SRC
$KC -O2 -c k.c -o k.o && $KC -O2 -c main.c -o main.o && $KC -O2 k.o main.o -o prog \
    && $KC -O2 k.o main.o -o prog2 && clang-19 -O2 k.o main.o "$BIN/../lib/libkeelrt.a" \
    -lsqlite3 -lpthread -ldl -lm -o plain >build.txt 2>&1 || bad "build: $(cat build.txt)"
expect_eq "$(cat build.txt)" "" "builds quietly"
expect_eq "$(nm prog | grep -c ' keel_link_facts$')" 1 "prog holds its facts"
expect_eq "$(nm plain | grep -c ' keel_link_facts$')" 0 "a plain link holds none"
cmp -s prog prog2 && ok || bad "two identical links differ"

# the verdicts: GPU for the large sizes, CPU (too small) for the small
# ones, with the per-site lines of KEEL_VERBOSE=1 (sorted: sites print in
# the order they were first reached)
run() {   # run PROG N [ENV...]: the program's stdout and KEEL_VERBOSE's lines
    p=$1 n=$2
    shift 2
    env KEEL_VERBOSE=1 KEEL_DEVICE=h100 KEEL_LOG=0 "$@" "./$p" "$n" 2>&1 | sort
}
for n in 300 4; do
    run prog $n KEEL_FACTS=db >ref$n.txt
    expect_eq "$(grep -c '^keel: ' ref$n.txt)" 4 "n=$n: three sites and a summary"
done
# (main's loop over the diagonal is too small for the GPU at either size)
expect_eq "$(grep '^keel: 3 sites' ref300.txt)" "keel: 3 sites, 3 launches, CPU 1, GPU 2" \
    "n=300 from the database: GPU"
expect_eq "$(grep '^keel: 3 sites' ref4.txt)" "keel: 3 sites, 3 launches, CPU 3, GPU 0" \
    "n=4 from the database: CPU"
for n in 300 4; do
    expect_eq "$(run prog $n)" "$(cat ref$n.txt)" "n=$n: linked facts, database present"
    expect_eq "$(run plain $n KEEL_DB="$work/k.db")" "$(cat ref$n.txt)" \
        "n=$n: a program linked without keelcc reads the database"
done

# no database opened to decide (KEEL_LOG=0: nothing to write)
if command -v strace >/dev/null 2>&1; then
    KEEL_DEVICE=h100 KEEL_LOG=0 strace -f -e trace=open,openat -o trace.txt ./prog 300 >/dev/null
    expect_eq "$(grep -c 'k\.db' trace.txt)" 0 "linked facts: the database is not opened"
    KEEL_DEVICE=h100 KEEL_LOG=0 KEEL_FACTS=db strace -f -e trace=open,openat -o trace.txt \
        ./prog 300 >/dev/null
    [ "$(grep -c 'k\.db"' trace.txt)" -gt 0 ] && ok || bad "KEEL_FACTS=db: the database is opened"
else
    echo "skipped: no strace (database opens not counted)"
fi

# the database gone, then garbage: the same verdicts
mv k.db k.db.keep
for n in 300 4; do
    expect_eq "$(run prog $n)" "$(cat ref$n.txt)" "n=$n: database deleted"
done
head -c 8192 /dev/urandom >k.db
for n in 300 4; do
    expect_eq "$(run prog $n)" "$(cat ref$n.txt)" "n=$n: database replaced by garbage"
done
# ... and with the log on: the verdicts all the same, nothing written
expect_eq "$(env KEEL_VERBOSE=1 KEEL_DEVICE=h100 ./prog 300 2>&1 | grep '^keel: 3 sites')" \
    "keel: 3 sites, 3 launches, CPU 1, GPU 2" "garbage database, log on"
mv k.db.keep k.db

# a database of a newer keel's schema: the linked facts decide, the log
# writes nothing into it and says why once
cp k.db newer.db
sqlite3 newer.db "PRAGMA user_version = 999"
before=$(sqlite3 newer.db "SELECT count(*) FROM decisions")
env KEEL_VERBOSE=1 KEEL_DEVICE=h100 KEEL_DB="$work/newer.db" ./prog 300 >newer.out 2>&1
expect_eq "$(grep '^keel: 3 sites' newer.out)" "keel: 3 sites, 3 launches, CPU 1, GPU 2" \
    "newer schema: the linked facts decide"
expect_eq "$(grep -c 'schema version 999 is newer than this keel' newer.out)" 1 \
    "newer schema: one warning"
expect_eq "$(sqlite3 newer.db "SELECT count(*) FROM decisions")" "$before" \
    "newer schema: nothing written"

# the database rebuilt after the link from an edited k.c: the program
# keeps its own facts; from the database its sites are stale
cp k.c k.c.orig
sed 's/2 \* y\[i\]/3 * y[i]/' k.c.orig >k.c
$KC -O2 -c k.c -o k2.o 2>>build.txt
expect_eq "$(run prog 300)" "$(cat ref300.txt)" "rebuilt database: linked facts kept"
expect_eq "$(run prog 300 KEEL_FACTS=db | grep '^keel: 3 sites')" \
    "keel: 3 sites, 3 launches, CPU 3, GPU 0" "rebuilt database: stale from the database"
run prog 300 KEEL_FACTS=db | grep -q 'another version of k.c' && ok ||
    bad "rebuilt database: no stale warning"
cp k.c.orig k.c
$KC -O2 -c k.c -o k.o 2>>build.txt

# a damaged packed form: one warning, then the database's answer
cp prog broken
# (the table starts "KEELLINK"; its first nest is the next "KEELNEST")
link=$(grep -obUa KEELLINK broken | cut -d: -f1 | sort -n)
off=
for l in $link; do
    off=$(grep -obUa KEELNEST broken | cut -d: -f1 | awk -v l="$l" '$1 > l' | head -1)
    [ -n "$off" ] && [ "$off" -lt $((l + 200)) ] && break
    off=
done
if [ -n "$off" ]; then
    printf 'Z' | dd of=broken bs=1 seek=$((off + 60)) conv=notrunc 2>/dev/null
    run broken 300 >broken.txt
    expect_eq "$(grep -c 'packed facts: corrupt (checksum differs): reading the database instead' \
        broken.txt)" 1 "damaged packed form: one warning"
    expect_eq "$(grep -v 'packed facts' broken.txt)" "$(cat ref300.txt)" \
        "damaged packed form: the database's verdicts"
else
    bad "no packed nest found in prog"
fi

# one command that compiles and links: the compiler's link waits until
# keelcc has recorded the command's own sources, so the program carries
# their facts; it is byte for byte what three commands (compile, compile,
# link) make; a compile that fails records nothing and links nothing
KC1="$BIN/keelcc --keel-db=$work/one.db --keel-mca=off"
$KC1 -O2 k.c main.c -o one >one.txt 2>&1 || bad "one-command build: $(cat one.txt)"
expect_eq "$(cat one.txt)" "" "one-command build: quiet"
expect_eq "$(nm one | grep -c ' keel_link_facts$')" 1 "one-command build holds its facts"
expect_eq "$(sqlite3 one.db "SELECT count(*) FROM translation_units WHERE object = '$work/one'")" \
    2 "one-command build: both sources recorded under the program"
mv one.db one.db.keep
for n in 300 4; do
    expect_eq "$(run one $n)" "$(cat ref$n.txt)" "n=$n: one command, database deleted"
done
$KC1 -O2 -c k.c -o k3.o && $KC1 -O2 -c main.c -o main3.o && $KC1 -O2 k3.o main3.o -o three \
    2>>build.txt
cmp -s one three && ok || bad "one command and three commands make different programs"
rm -f one.db three
$KC1 -O2 -g k.c main.c -o one 2>>build.txt && rm one.db && $KC1 -O2 -g -c k.c -o k3.o &&
    $KC1 -O2 -g -c main.c -o main3.o && $KC1 -O2 -g k3.o main3.o -o three 2>>build.txt
cmp -s one three && ok || bad "with -g: one command and three commands make different programs"
hash=$(sqlite3 one.db "SELECT hash FROM translation_units WHERE path = '$work/k.c'")
sed 's/2 \* y\[i\]/3 * y[i]/' k.c.orig >k.c
printf 'int broken(\n' >broken.c
$KC1 -O2 k.c broken.c -o one4 >/dev/null 2>&1 && bad "a broken source links"
expect_eq "$(sqlite3 one.db "SELECT hash FROM translation_units WHERE path = '$work/k.c'")" \
    "$hash" "a failed one-command build keeps the old rows"
[ -e one4 ] && bad "a failed one-command build made a program" || ok
cp k.c.orig k.c

# this host's calibration travels with the facts: the link packs the
# newest (keel_link_calib) and a program that opens no database decides
# with it; one made after the link is the database's (KEEL_FACTS=db) and
# reaches a linked program once it opens its database (for history or the
# log: not observed here, since when the log opens it is the log's affair)
calib() {   # calib MEM_BW: a calibration row of this host
    sqlite3 k.db "INSERT INTO host_calibration(host, cores, freq_hz, mem_bw, peak_flops,
        fork_ns, join_ns, sched_ns) VALUES ('$(hostname)', 2, 2.0e9, $1, 8e9, 2000, 1000, 50)"
}
predicted() {   # predicted ENV...: ax's CPU prediction at n=20 (too small for the GPU)
    env KEEL_VERBOSE=1 KEEL_DEVICE=h100 KEEL_LOG=0 "$@" ./prog 20 2>&1 |
        sed -n 's/^keel: k\.c:13 ax .*CPU 1, GPU 0, .*predicted \(.*\)$/\1/p'
}
default=$(predicted)
calib 1.0e9
$KC -O2 k.o main.o -o prog 2>>build.txt
expect_eq "$(nm prog | grep -c ' keel_link_calib$')" 1 "prog holds this host's calibration"
at_link=$(predicted)
expect_eq "$(predicted KEEL_FACTS=db)" "$at_link" "the linked calibration is the database's"
[ -n "$at_link" ] && [ "$at_link" != "$default" ] && ok ||
    bad "calibration changes nothing: '$at_link' (defaults '$default')"
mv k.db k.db.keep
expect_eq "$(predicted)" "$at_link" "database deleted: the linked calibration"
mv k.db.keep k.db
calib 5.0e8
later=$(predicted KEEL_FACTS=db)
[ -n "$later" ] && [ "$later" != "$at_link" ] && ok || bad "a newer calibration: '$later'"
expect_eq "$(predicted)" "$at_link" "no database opened: the linked calibration"

# a source compiled into two programs in one command each, twice (the
# second time a direct-mode hit): it has one row, recorded under the last
# program, and still each program carries its sites
cp k.c.orig k.c
KC2="$BIN/keelcc --keel-db=$work/two.db --keel-mca=off"
for round in 1 2; do
    $KC2 -O2 k.c main.c -o pa 2>>build.txt && $KC2 -O2 k.c main.c -o pb 2>>build.txt ||
        bad "shared source: build round $round"
done
mv two.db two.db.keep
for p in pa pb; do
    expect_eq "$(run $p 300)" "$(cat ref300.txt)" "shared source: $p carries its sites"
done
mv two.db.keep two.db

# a header edit makes another build variant of both sources; the earlier
# one stays recorded under the same output, and the program must not carry
# its sites: the first build after the edit (direct mode misses) and the
# next (direct hits, object cache off) link the same table, byte for byte
mkdir hv && cd hv || exit 1
printf '#define F 3\n' >f.h
printf '#include "f.h"\nvoid k(double *y, const double *x, int n)\n{\n    for (int i = 0; i < n; i++)\n        y[i] = x[i] * F;\n}\n' >hk.c
printf '#include <stdio.h>\n#include "f.h"\nvoid k(double *, const double *, int);\nint main(int argc, char **argv)\n{\n    double x[64], y[64];\n    int n = 60 + argc;\n    (void)argv;\n    for (int i = 0; i < 64; i++)\n        x[i] = i;\n    k(y, x, n);\n    printf("%%g\\n", y[n - 1]);\n    return 0;\n}\n' >hm.c
sleep 1.2
HKC="$BIN/keelcc --keel-db=$work/hv.db --keel-mca=off"
$HKC -O2 hm.c hk.c -o hprog 2>/dev/null && $HKC -O2 hm.c hk.c -o hprog 2>/dev/null
printf '#define F 5\n' >f.h
sleep 1.2
$HKC -O2 hm.c hk.c -o hprog 2>/dev/null
KEEL_OBJCACHE=off $HKC -O2 hm.c hk.c -o hprog2 2>/dev/null
expect_eq "$(sqlite3 "$work/hv.db" "SELECT count(*) FROM translation_units")" 4 \
    "header edit: two variants of each source recorded"
cmp -s hprog hprog2 && ok || bad "header edit: the first build links other sites than the next"
expect_eq "$(KEEL_DB=/nonexistent KEEL_VERBOSE=2 KEEL_DEVICE=h100 ./hprog 2>&1 |
             grep -c '^keel: hk\.c:4 k ')" 1 "header edit: the site decides from linked facts"
cd "$work" || exit 1

finish linked-facts
