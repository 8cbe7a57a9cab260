#!/bin/bash
# compile-cmds.sh BIN SRC [N] -- hostile compile commands: keelcc must behave
# as clang-19 does.
#
# Every case is one command line (a fixed list of odd ones, then N drawn at
# random from pools of flags, actions, outputs and awkward sources: spaces and
# `$` in names, a NUL byte, a BOM, syntax errors, a missing file, a directory,
# stdin with -x c, -Werror, -std=c89 -pedantic, -M*, -save-temps ...).  The
# command runs as `clang-19 ARGS` in one copy of the inputs and as
# `keelcc ARGS` in another, twice:
#   --keel-instrument=off: exit status, stdout, stderr (without keelcc's own
#     `keelcc: warning:` lines) and every file written are identical;
#   default instrumentation: exit status, stderr (as above; not with -v/-###,
#     which show the extra -ivfsoverlay) and the names of the files written are
#     identical, dependency files (.d) and -E/-M output byte for byte.
# A case also fails when keelcc dies of a signal.
SHORT_N=2 LONG_N=100 DEFAULT_SEED=1601
. "$(dirname "$0")/lib.sh"

tmpl=$work/tmpl
mkdir -p "$tmpl/inc" "$tmpl/dir.c" "$tmpl/my dir"
cat >"$tmpl/good.c" <<'C'
double A[64][64], B[64][64];
void scale(int n, double s)
{
    for (int i = 0; i < n; i++)
        for (int j = 0; j < n; j++)
            A[i][j] = s * B[j][i];
}
C
cat >"$tmpl/main.c" <<'C'
#include <stdio.h>
#include "hdr.h"
static int v[100];
int main(void)
{
    int n = 100;
    long s = 0;
    for (int i = 0; i < n; i++)
        v[i] = i * SCALE;
    for (int i = 0; i < n; i++)
        s += v[i];
    printf("%ld\n", s);
    return 0;
}
C
printf '#define SCALE 3\n' >"$tmpl/inc/hdr.h"
cat >"$tmpl/warn.c" <<'C'
int w(int n, int *p)
{
    int unused;
    unsigned u = n;
    for (int i = 0; i < n; i++)
        p[i] = p[i] + u < 0;
    if (n = 3)
        return 1;
}
C
cat >"$tmpl/c89.c" <<'C'
// a C++ comment
int c89(int n, double *x)
{
    x[0] = 1;
    int k = 0;
    for (int i = 0; i < n; i++)
        x[i] = x[i] * 2.0;
    return k;
}
C
printf 'int f(void) { return 1 +; }\nint a[4];\nvoid g(int n) { for (int i = 0; i < n; i++) a[i] = i; }\n' >"$tmpl/syntax.c"
printf 'int a[8];\nvoid g(int n) { for (int i = 0; i < n; i++) a[i] = i; }\n/* x \000 y */\nint h(void) { return 4; }\n' >"$tmpl/nul.c"
printf '\357\273\277int a[8];\nvoid g(int n) { for (int i = 0; i < n; i++) a[i] = i; }\n' >"$tmpl/bom.c"
: >"$tmpl/empty.c"
cp "$tmpl/good.c" "$tmpl/sp ace.c"
cp "$tmpl/good.c" "$tmpl/dol\$ar.c"
cp "$tmpl/good.c" "$tmpl/my dir/a b.c"
printf 'int a[8];\nint m(int n) { for (int i = 0; i < n; i++) a[i] = __LINE__; return a[0]; }\n' >"$tmpl/more.c"

db=$work/k.db
norm() {    # normalise a stderr: drop keelcc's own lines, name the folders and temp files alike
    grep -v '^keelcc: warning:' "$1" |
        sed -e "s#$2#DIR#g" -e 's#/tmp/[A-Za-z0-9_.$ -]*-[A-Za-z0-9]\{6\}\.\([a-z]*\)#TMP.\1#g'
}
listing() { (cd "$1" && find . ! -type d | LC_ALL=C sort); }

run_case() {    # ARGS (a shell word list, eval'd)
    local args=$1 mode kdir rdir rrc krc f
    case_begin "$args"
    rm -rf "$work/ref"; cp -r "$tmpl" "$work/ref"
    (cd "$work/ref" && eval "clang-19 $args" <"$tmpl/main.c" >"$work/r.out" 2>"$work/r.err")
    rrc=$?
    norm "$work/r.err" "$work/ref" >"$work/r.nerr"
    listing "$work/ref" >"$work/r.ls"
    for mode in off report; do
        rm -rf "$work/kc"; cp -r "$tmpl" "$work/kc"
        (cd "$work/kc" && eval "\"\$KEELCC\" --keel-db=\"\$db\" --keel-instrument=$mode $args" \
            <"$tmpl/main.c" >"$work/k.out" 2>"$work/k.err")
        krc=$?
        [ "$krc" -ge 128 ] && fail "$mode: keelcc killed by signal $((krc - 128))"
        [ "$krc" = "$rrc" ] || fail "$mode: exit status $krc, clang-19 $rrc"
        norm "$work/k.err" "$work/kc" >"$work/k.nerr"
        listing "$work/kc" >"$work/k.ls"
        cmp -s "$work/r.ls" "$work/k.ls" ||
            fail "$mode: files written differ: $(diff "$work/r.ls" "$work/k.ls" | grep '^[<>]' | tr '\n' ' ')"
        if [ $mode = off ] || ! printf '%s' "$args" | grep -q -e '-v\b' -e '-###'; then
            cmp -s "$work/r.nerr" "$work/k.nerr" ||
                fail "$mode: stderr differs: $(diff "$work/r.nerr" "$work/k.nerr" | grep '^[<>]' | head -2 | cut -c1-160 | tr '\n' ' ')"
        fi
        if [ $mode = off ] || printf '%s' "$args" | grep -q -e '-E\b' -e '-M\b' -e '-MM\b'; then
            cmp -s "$work/r.out" "$work/k.out" || fail "$mode: stdout differs"
        fi
        while read -r f; do
            [ -f "$work/kc/$f" ] || continue
            case $mode:$f in
            off:*|*.d) cmp -s "$work/ref/$f" "$work/kc/$f" || fail "$mode: $f differs" ;;
            esac
        done <"$work/r.ls"
    done
    case_end
}

# The fixed list: one odd thing each.
fixed=(
    "-c good.c"
    "-c good.c -o out.o"
    "-x c - -c -o stdin.o"
    "-x c -"
    "-xc -E -"
    "-E good.c"
    "-E -P main.c -Iinc"
    "-S good.c"
    "-S -o - good.c"
    "-M main.c -Iinc"
    "-MM main.c -Iinc"
    "-MD -c main.c -Iinc"
    "-MMD -MP -MF deps.d -MT 'the target' -c main.c -Iinc"
    "-MD -c 'my dir/a b.c' -o 'my dir/a b.o'"
    "-MD -c 'dol\$ar.c'"
    "-c 'sp ace.c'"
    "-save-temps -c good.c"
    "-save-temps=obj -c good.c -o sub.o"
    "-save-temps main.c -Iinc -o prog"
    "-c missing.c"
    "-c dir.c"
    "-c"
    ""
    "-c syntax.c"
    "-c nul.c"
    "-c bom.c"
    "-c empty.c"
    "-Wall -c warn.c"
    "-Wall -Werror -c warn.c"
    "-Weverything -Werror -c good.c"
    "-std=c89 -pedantic -c c89.c"
    "-ansi -pedantic-errors -c c89.c"
    "-Wpadded -Wall -c good.c"
    "-fsyntax-only good.c warn.c"
    "-c good.c more.c"
    "main.c good.c -Iinc -o prog"
    "-x c main.c -Iinc -o prog"
    "--language=c main.c -Iinc -o prog"
    "-c good.c -o /nonexistent/dir/x.o"
    "-c good.c -fno-such-flag"
    "-c good.c -Wno-such-warning"
    "-c good.c -std=c99 -O3 -march=native -ffast-math"
    "-c good.c -DX='a b' -UY -include inc/hdr.h"
    "-v -c good.c"
    "-### -c good.c"
    "-dumpversion"
    "--version"
    "-print-prog-name=ld"
    "-c good.c -o -"
    "-E good.c -o -"
    "-c main.c"
)
# The short run (ctest) takes a few of them; KEEL_FAULTS_LONG=1 all.
short=(0 2 12 13 16 22 30 35)
if [ "$LONG" = 1 ]; then
    for a in "${fixed[@]}"; do run_case "$a"; done
else
    for i in "${short[@]}"; do run_case "${fixed[$i]}"; done
fi

srcs=(good.c main.c warn.c c89.c syntax.c nul.c bom.c empty.c "'sp ace.c'" "'dol\$ar.c'" "'my dir/a b.c'" more.c missing.c)
flags=(-O0 -O1 -O2 -O3 -Os -g -g0 -Wall -Wextra -Werror -w -pedantic -Wpedantic -std=c89
       -std=c99 -std=c11 -std=gnu17 -ansi -DFOO=1 -UFOO -Iinc -I. "-iquote inc" "-include inc/hdr.h"
       -fopenmp -fPIC -ffunction-sections -Wpadded -Wconversion -Wshadow -fno-builtin -m32
       -funroll-loops "-x c" -fno-such-option -Wunused -Wno-unused-variable -fcolor-diagnostics
       -fno-color-diagnostics -fdiagnostics-format=json -fmacro-backtrace-limit=1)
acts=(-c -c -c -S -E -fsyntax-only -M -MM "-MD -c" "-MMD -c" "-c -save-temps" "-S -save-temps=cwd" "")
for _ in $(seq 1 "$N"); do
    pick "${acts[@]}"; a=$PICKED
    rnd
    for _ in $(seq 0 $((R % 4))); do pick "${flags[@]}"; a="$a $PICKED"; done
    pick "${srcs[@]}"; a="$a $PICKED"
    rnd; [ $((R % 4)) = 0 ] && { pick "${srcs[@]}"; a="$a $PICKED"; }
    rnd; [ $((R % 3)) = 0 ] && { pick out.o "'o u t.o'" sub/x.o out; a="$a -o $PICKED"; }
    [ "$a" = "${a#*main.c}" ] || a="$a -Iinc"
    run_case "$a"
done
summary compile-cmds
