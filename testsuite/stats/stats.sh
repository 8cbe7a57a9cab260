#!/bin/sh
# stats.sh BINDIR -- keel stats, text and --json, with exact counts:
#   1. keel scan over a compile database of a good and a broken source: two
#      sources, one analysed and one failed with the compiler's message (in
#      the builds and in keel scan's state), the good one's two loops;
#      the broken one's name holds an escape sequence: \x1b in text, kept
#      as it is in JSON;
#   2. a keelcc build run under KEEL_DEVICE=h100 (decisions logged), a
#      measurement added with keel history --add (history);
#   3. bad input: a missing database, an extra argument.
BIN=$(cd "$1" && pwd)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cd "$work" || exit 1
. "$(dirname "$0")/../lib.sh"

cat >good.c <<'SRC'
#include <stdio.h>
int main(int argc, char **argv)
{
    (void)argv;
    static double a[1000];
    int n = 999 + argc;
    for (int i = 0; i < n; i++)
        a[i] = i;
    for (int i = 1; i < n; i++)
        a[i] += a[i - 1];
    printf("%.1f\n", a[n - 1]);
    return 0;
}
SRC
touch -d '1 minute ago' good.c        # not "too new" for direct mode
esc=$(printf 'br\033[31m.c')
printf 'int f(int x) { return x +; }\n' >"$esc"
cat >compile_commands.json <<JSON
[{"directory": "$work", "file": "good.c", "command": "clang-19 -O2 -c good.c"},
 {"directory": "$work", "file": "br\\u001b[31m.c", "command": "clang-19 -O2 -c 'br\\u001b[31m.c'"}]
JSON
"$BIN/keel" scan -p . --no-mca s.db >/dev/null 2>&1
"$BIN/keel" stats s.db >out.txt 2>err.txt
expect_eq "$?" 0 "keel stats: exit status"
expect_eq "$(cat err.txt)" "" "keel stats: stderr"
sed 1d out.txt >body.txt
cat >want.txt <<TXT
sources      2 files, 2 builds: 1 analysed, 1 failed
loops        2 in 2 nests, 1 functions; 2 with idioms
dependence   1 parallel, 0 reduction, 1 sequential, 0 unknown, 0 not analysed
llvm-mca     0 target CPUs: 0 loops with figures, 0 without; 0 cached blocks
direct mode  0 builds a rebuild can reuse
keel scan    2 files, 1 failed
run time     0 decisions logged (0 GPU, 0 CPU); no measured history; 0 host calibrations

failed analyses (path: reason):
  $work/br\\x1b[31m.c: br\\x1b[31m.c:1:26: error: expected expression

failed in keel scan (path: reason):
  $work/br\\x1b[31m.c: br\\x1b[31m.c:1:26: error: expected expression
TXT
if cmp -s body.txt want.txt; then ok; else bad "keel stats text:"; diff want.txt body.txt >&2; fi
expect_eq "$(head -c 22 out.txt)" "database     s.db (sch" "keel stats: first line"
"$BIN/keel" stats --json s.db >j.json
python3 - j.json "$work" <<'PY' || bad "keel stats --json"
import json, sys
d = json.load(open(sys.argv[1])); w = sys.argv[2]
want = {"db": "s.db", "schema": d["schema"], "bytes": d["bytes"], "sources": 2, "builds": 2,
        "analysed": 1, "failed": 1, "functions": 1, "loops": 2, "nests": 2,
        "dependence": {"parallel": 1, "reduction": 0, "sequential": 1, "unknown": 0,
                       "not_analysed": 0},
        "loops_with_idioms": 2,
        "mca": {"targets": 0, "with_figures": 0, "without_figures": 0, "cache_entries": 0},
        "direct_entries": 0, "scan": {"files": 2, "failed": 1},
        "decisions": {"total": 0, "gpu": 0, "cpu": 0}, "history": None, "calibrations": 0,
        "failed_builds": [{"path": w + "/br\x1b[31m.c", "reason": "br\x1b[31m.c:1:26: error: expected expression"}],
        "failed_scans": [{"path": w + "/br\x1b[31m.c", "reason": "br\x1b[31m.c:1:26: error: expected expression"}]}
assert isinstance(d["schema"], int) and isinstance(d["bytes"], int) and d["bytes"] > 0
if d != want:
    print("got ", json.dumps(d, sort_keys=True), "\nwant", json.dumps(want, sort_keys=True), file=sys.stderr)
    sys.exit(1)
PY

expect_eq "$(LC_ALL=C grep -c "$(printf '\033')" out.txt)" 0 "no raw escape character in text"

# 2. a build, a run, a measurement (a second's pause first: direct mode
# stores no build of files modified within the second before keelcc starts)
sleep 1
"$BIN/keelcc" --keel-db="$work/r.db" --keel-mca=off -O1 good.c -o prog 2>err.txt
expect_eq "$?:$(cat err.txt)" "0:" "keelcc build"
KEEL_DEVICE=h100 ./prog >/dev/null
echo "good.c:9 n=1000 cpu 0.001" | "$BIN/keel" history --add - r.db >/dev/null
"$BIN/keel" stats r.db >out.txt
expect_eq "$(grep '^sources' out.txt)" "sources      1 files, 1 builds: 1 analysed, 0 failed" "build: sources"
expect_eq "$(grep '^direct mode' out.txt)" "direct mode  1 builds a rebuild can reuse" "build: direct mode"
expect_eq "$(grep '^keel scan' out.txt)" "keel scan    never run on this database" "build: no scan"
expect_eq "$(grep -c '^run time     1 decisions logged .*; history: 1 sizes, 1 samples; 0 host calibrations$' out.txt)" 1 \
    "build: one decision, one measured size"
"$BIN/keel" stats --json r.db >j.json
python3 -c '
import json, sys
d = json.load(open(sys.argv[1]))
assert d["decisions"]["total"] == 1 and d["decisions"]["gpu"] + d["decisions"]["cpu"] == 1, d
assert d["history"] == {"sizes": 1, "samples": 1}, d
assert d["scan"] is None and d["direct_entries"] == 1, d
' j.json || bad "build: --json"

# 3. bad input: one line, exit status
"$BIN/keel" stats missing.db >out.txt 2>err.txt
expect_eq "$?:$(wc -l <err.txt):$(wc -c <out.txt)" "1:1:0" "missing database"
"$BIN/keel" stats s.db r.db >out.txt 2>err.txt
expect_eq "$?:$(cat err.txt)" "2:keel: stats takes at most one argument, DB" "two arguments"
echo "stats: $pass passed, $fail failed"
[ "$fail" = 0 ]
