#!/bin/sh
# json_utf8.sh BIN SRCDIR -- every --json document is UTF-8 JSON whatever
# bytes the database holds.
#
# A source whose name is not UTF-8 (bytes FF FE) is compiled by keelcc and
# scanned by keel scan; every command that prints data is run with --json
# (loops, show, report, explain, history, scan, merge, stats).  Each document must
# be read by Python's strict UTF-8 decoder and JSON parser, and the name
# must come out with each bad byte as U+FFFD: "bad\ufffd\ufffd.c".  The
# database keeps the bytes as they were (the text form prints them).
BIN=$(cd "$1" && pwd) || exit 1
. "$(dirname "$0")/../lib.sh"
tmp=$(mktemp -d /tmp/keel-jsonutf8-XXXXXX) || exit 1
[ -n "$KEEP" ] || trap 'rm -rf "$tmp"' EXIT   # KEEP=1: leave the folder
cd "$tmp" && tmp=$(pwd -P) || exit 1
unset KEEL_DB KEEL_DEVICE KEEL_HOST
export KEEL_MCA=off
K="$BIN/keel"
f=$(printf 'bad\377\376.c')
printf 'void fill(int n, double *a)\n{\n    for (int i = 0; i < n; i++)\n        a[i] = i;\n}\n' > "$f"
"$BIN/keelcc" --keel-db="$tmp/k.db" -O1 -c "$f" -o x.o || bad "keelcc"

# utf8 NAME FILE WANT: FILE is strict UTF-8 JSON and the text WANT (a
# Python literal) occurs in it as a string value somewhere
utf8() {
    got=$(python3 - "$2" "$3" <<'PY'
import json, sys
raw = open(sys.argv[1], 'rb').read()
try:
    doc = json.loads(raw.decode('utf-8', errors='strict'))
except Exception as e:
    print('invalid: %s' % e.__class__.__name__); sys.exit(0)
want = eval(sys.argv[2])
def walk(v):
    if isinstance(v, str): yield v
    elif isinstance(v, list):
        for x in v: yield from walk(x)
    elif isinstance(v, dict):
        for k, x in v.items():
            yield k
            yield from walk(x)
print('found' if any(want in s for s in walk(doc)) else 'missing')
PY
)
    [ "$got" = found ] && ok || bad "$1: $got"
}
name="'bad\\ufffd\\ufffd.c'"

"$K" loops --json k.db > loops.json || bad "loops exit"
utf8 loops loops.json "$name"
"$K" show "$f:3" --json k.db > show.json || bad "show exit"
utf8 show show.json "$name"
"$K" report --json k.db > report.json || bad "report exit"
utf8 report report.json "$name"
"$K" report --idioms --json k.db > idioms.json || bad "report --idioms exit"
utf8 "report --idioms" idioms.json "$name"
"$K" explain "$f:3" --set n=1000 --device h100 --json k.db > explain.json || bad "explain exit"
utf8 explain explain.json "$name"
printf '%s:3 n=1000 cpu 0.001\n' "$f" > m.txt
"$K" history --add m.txt k.db >/dev/null || bad "history --add"
"$K" history --json k.db > history.json || bad "history exit"
utf8 history history.json "$name"
cp k.db "$(printf 'in\377.db')"
"$K" merge --json out.db "$(printf 'in\377.db')" > merge.json || bad "merge exit"
utf8 merge merge.json "'in\\ufffd.db'"
g=$(printf 'gone\377.c')     # not there: a failure that names it
e=$(printf 'broke\377.c')    # does not compile: a failed build stats lists
printf 'int f(int x) { return x +; }\n' > "$e"
printf '[{"directory": "%s", "file": "%s", "command": "cc -c %s"},\n {"directory": "%s", "file": "%s", "command": "cc -c %s"},\n {"directory": "%s", "file": "%s", "command": "cc -c %s"}]\n' \
    "$tmp" "$f" "$f" "$tmp" "$g" "$g" "$tmp" "$e" "$e" > compile_commands.json
"$K" scan -p . --no-mca --json scan.db > scan.json
utf8 scan scan.json "'gone\\ufffd.c'"
"$K" stats --json scan.db > stats.json || bad "stats exit"
utf8 stats stats.json "'broke\\ufffd.c'"
"$K" stats --json "$(printf 'in\377.db')" > stats-db.json || bad "stats db exit"
utf8 stats-db stats-db.json "'in\\ufffd.db'"

# the database and the text form keep the bytes
[ "$(sqlite3 k.db "select count(*) from loops where file = '$tmp/$f'")" = 1 ] && ok \
    || bad "stored path changed"
"$K" loops k.db | grep -q "$f" && ok || bad "text form lost the bytes"

finish json_utf8
