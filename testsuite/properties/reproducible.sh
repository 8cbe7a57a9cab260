#!/bin/bash
# reproducible.sh BIN SRC [CSMITH_COUNT] -- property: keelcc's objects do not
# depend on the build folder where clang-19's do not.  Every PolyBench input
# and CSMITH_COUNT csmith programs (default 5) are compiled (-O2 -g, keel's
# default database ./keel.db) in two folders of different lengths with
# -ffile-prefix-map=FOLDER=/src: the two objects keelcc writes are
# byte-identical and instrumented.  With -frecord-command-line added (the
# folder is then in the recorded map option, so clang-19's objects differ
# too), the objects are identical but for the .GCC.command.line section,
# which holds the user's command as clang-19 records it (keel's overlay
# named by a descriptor after it).  Finally a
# program built so runs with KEEL_PREFIX_MAP=/src=FOLDER and finds its
# facts: its verdict is the one the unmapped build gets.
set -u
BIN=$(cd "$1" && pwd)
SRC=$(cd "$2" && pwd)
NCS=${3:-5}
unset KEEL_DB KEEL_VERBOSE KEEL_DEVICE KEEL_INSTRUMENT KEEL_DISABLE KEEL_QUIET KEEL_CC KEEL_LOG \
      KEEL_PREFIX_MAP
export KEEL_MCA=off
work=$(mktemp -d "${TMPDIR:-/tmp}/reprod-XXXXXX")
trap 'rm -rf "$work"' EXIT
PB=$SRC/polybench-inputs
files=0
. "$(dirname "$0")/../lib.sh"
mkdir -p "$work/in"
for f in $(cd "$PB" && find . -name '*.c' ! -path './utilities/*' | sort); do
    cp "$PB/$f" "$PB/${f%.c}.h" "$work/in/"
done
cp "$PB/utilities/polybench.h" "$work/in/"
for s in $(seq 900001 $((900000 + NCS))); do csmith --seed "$s" >"$work/in/cs$s.c" 2>/dev/null; done
for d in one two-longer-folder; do cp -r "$work/in" "$work/$d"; done
for f in $(cd "$work/in" && ls *.c); do
    files=$((files + 1))
    for d in one two-longer-folder; do
        (cd "$work/$d" && "$BIN/keelcc" -O2 -g -ffile-prefix-map="$work/$d=/src" -w -I. \
            -I/usr/include/csmith -DMINI_DATASET -c "$f" -o "$f.o" \
         && "$BIN/keelcc" -O2 -g -ffile-prefix-map="$work/$d=/src" -frecord-command-line -w -I. \
            -I/usr/include/csmith -DMINI_DATASET -c "$f" -o "$f.r.o" \
         && objcopy --remove-section .GCC.command.line "$f.r.o" "$f.s.o") \
            || bad "$f: keelcc failed in $d"
    done
    cmp -s "$work/one/$f.o" "$work/two-longer-folder/$f.o" && ok || bad "$f: objects differ"
    cmp -s "$work/one/$f.s.o" "$work/two-longer-folder/$f.s.o" && ok \
        || bad "$f: -frecord-command-line objects differ beyond the recorded command"
    (cd "$work/one" && clang-19 -O2 -g -ffile-prefix-map="$work/one=/src" -frecord-command-line -w -I. \
        -I/usr/include/csmith -DMINI_DATASET -c "$f" -o "$f.r.o" && mv "$f.r.o" "$f.c.o")
    (cd "$work/one" && "$BIN/keelcc" -O2 -g -ffile-prefix-map="$work/one=/src" -frecord-command-line -w -I. \
        -I/usr/include/csmith -DMINI_DATASET -c "$f" -o "$f.r.o")
    want=$(readelf -p .GCC.command.line "$work/one/$f.c.o" | grep -o 'clang .*')
    got=$(readelf -p .GCC.command.line "$work/one/$f.r.o" | grep -o 'clang .*' \
          | sed 's| -ivfsoverlay /dev/fd/[0-9]*$||')
    [ -n "$want" ] && [ "$got" = "$want" ] && ok || bad "$f: recorded '$got', clang-19 '$want'"
    if strings "$work/one/$f.o" | grep -q "$work"; then bad "$f: the build folder in the object"; else ok; fi
done
ninst=$(cd "$work/one" && for o in *.c.o; do nm "$o" | grep -q ' U keel_decide' && echo x; done | wc -l)
[ "$ninst" -ge 20 ] && ok || bad "only $ninst objects instrumented"

# run time: the mapped names are turned back
cd "$work/one" || exit 1
"$BIN/keelcc" -O1 -ffile-prefix-map="$work/one=/src" -I. -DMINI_DATASET gemm.c "$PB/utilities/polybench.c" \
    -o mapped -lm 2>/dev/null || bad "mapped build failed"
"$BIN/keelcc" --keel-db="$work/plain.db" -O1 -I. -DMINI_DATASET gemm.c "$PB/utilities/polybench.c" \
    -o plain -lm 2>/dev/null || bad "plain build failed"
want=$(KEEL_DEVICE=h100 KEEL_VERBOSE=1 ./plain 2>&1 >/dev/null | sed -n 1p | sed "s|$work/one/||")
got=$(KEEL_PREFIX_MAP="/src=$work/one" KEEL_DEVICE=h100 KEEL_VERBOSE=1 ./mapped 2>&1 >/dev/null \
      | sed -n 1p | sed "s|$work/one/||")
[ -n "$want" ] && [ "$got" = "$want" ] && ok || bad "KEEL_PREFIX_MAP: verdict '$got', want '$want'"
case $want in *"no facts"*|*stale*) bad "the plain build found no facts: $want" ;; *) ok ;; esac
# (the database route, KEEL_FACTS=db: the program carries its facts too,
# found by build hash whatever the names)
nofacts=$(KEEL_FACTS=db KEEL_DEVICE=h100 KEEL_VERBOSE=1 ./mapped 2>&1 >/dev/null | sed -n 1p)
[ "$nofacts" != "$got" ] && ok || bad "without KEEL_PREFIX_MAP the mapped build found its facts too"

finish "$files files"
