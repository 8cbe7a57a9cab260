#!/bin/sh
# long_functions_planted.sh SCRIPT -- long_functions.sh --check finds what
# it must, in a git tree of its own: a function over the limit that is not
# listed, one that is listed (allowed), a listed one that is short (a stale
# exception), one at the limit exactly, and a long one under testsuite/
# (not production code).
S=${1:?usage: long_functions_planted.sh LONG_FUNCTIONS_SH}
. "$(dirname "$0")/../lib.sh"
tmp=$(mktemp -d /tmp/keel-longfn-XXXXXX) || exit 1
trap 'rm -rf "$tmp"' EXIT
# fn NAME BODY_LINES: a function of BODY_LINES + 3 lines in keel's style
fn() {
    printf 'int %s(int x)\n{\n' "$1"
    i=0
    while [ "$i" -lt "$2" ]; do
        printf '    x += %d;\n' "$i"
        i=$((i + 1))
    done
    printf '}\n'
}
mkdir -p "$tmp/cli" "$tmp/testsuite/arch"
{ fn too_long 10; fn at_limit 7; } > "$tmp/cli/a.c"
{ fn table 12; fn short_now 2; } > "$tmp/cli/b.c"
fn in_tests 30 > "$tmp/testsuite/t.c"
printf '# exceptions\ncli/b.c table  a table\ncli/b.c short_now  was long\n' \
    > "$tmp/testsuite/arch/long_functions.allow"
(cd "$tmp" && git init -q . && git add -A) || exit 1

out=$(sh "$S" --check "$tmp" 10); rc=$?
want="over 10: 13 cli/a.c:1 too_long
stale exception in testsuite/arch/long_functions.allow: cli/b.c short_now is not over 10 lines"
[ "$rc" = 1 ] && ok || bad "exit $rc, want 1"
[ "$out" = "$want" ] && ok || bad "output:
$out"
out=$(sh "$S" "$tmp" 10); rc=$?
want="15 cli/b.c:1 table
13 cli/a.c:1 too_long"
[ "$rc" = 0 ] && [ "$out" = "$want" ] && ok || bad "report: exit $rc, output:
$out"
printf 'cli/b.c table  a table\ncli/a.c too_long  listed now\n' \
    > "$tmp/testsuite/arch/long_functions.allow"
sh "$S" --check "$tmp" 10 >/dev/null; rc=$?
[ "$rc" = 0 ] && ok || bad "every long one listed: exit $rc, want 0"
finish long_functions_planted
