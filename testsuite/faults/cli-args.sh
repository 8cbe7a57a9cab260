#!/bin/bash
# cli-args.sh BIN SRC [N] -- bad argument sets for every keel subcommand.
#
# keel documents "Exit status: 0 success, 1 database error, 2 usage error".
# Each case is a command line that must be refused: a subcommand template
# (loops, show, scan, merge, report, report --html, explain --set/--sweep,
# devices, calibrate, history, help, none at all) with its slots filled from
# pools of bad numbers (-1, 1e30, 99999999999999999999, 5x, '' ...), bad
# FILE:LINE locations, bad --set / --sweep lists, unknown options, missing
# option values and bad paths; the fixed list has one case per template, the
# random part draws N more (seeded).  A case holds when keel exits 1 or 2
# within 20 s, prints exactly one line on stderr, that line starts with
# `keel:`, and nothing crashed (no signal, no sanitizer report).  The texts
# of the messages are not checked.
SHORT_N=40 LONG_N=2000 DEFAULT_SEED=1605
. "$(dirname "$0")/lib.sh"

cd "$work" || exit 1
cat >x.c <<'C'
double A[100][100];
void k(int n, int m)
{
    for (int i = 0; i < n; i++)
        for (int j = 0; j < m; j++)
            A[i][j] = i + j;
}
C
"$KEELCC" --keel-db="$work/k.db" -c x.c -o x.o 2>/dev/null || { echo "cli-args: keelcc failed"; exit 1; }
[ "$(sqlite3 k.db 'SELECT count(*) FROM loops')" = 2 ] || { echo "cli-args: no loops recorded"; exit 1; }
mkdir -p emptydir
printf 'not a profile\n' >bad.machine
printf 'x.c:4 n=1 cpu\n' >bad.hist

nums=(-1 abc '' 1e30 99999999999999999999 -99999999999999999999 5x 3.5 ' ' '1 2' 0x1g -- +-3)
locs=(x.c: :4 x.c:0 x.c:-4 x.c:4x x.c:99999999999999999999 x.c:4:0 x.c:4:-1 x.c:4:5:6 ''
      nosuch.c:4 x.c:400 ':' x.c:+4 'x.c: 4' x.c:1e3)
sets=(n n= =5 n=abc n=1e30 n=99999999999999999999 'n=1,,m=2' 'n=1,m' ',' 'n=-99999999999999999999'
      'n=1;m=2' 'n==1' '' 'n=0x')
sweeps=(n=5:1 n=1: n=:9 n=a:b n=0:9 n=1:99999999999999999999 n n=1 '*=9:1' ':' 'n=1:2:3' ''
        'n=-5:5' '*=')
opts=(--bogus -Z --wide=yes --json=1 --jsonx ---x -j -p --set)
paths=(/nonexistent/k.db "$work/emptydir" /dev/null "$work/bad.machine" "$work/no such.db")

# Templates: @DB a good database, @NUM @LOC @SET @SWEEP @OPT @PATH from the pools.
templates=(
    "loops @OPT @DB"
    "loops --file"
    "loops --function"
    "loops @DB @DB"
    "loops @PATH"
    "show"
    "show @LOC @DB"
    "show x.c:4 @OPT @DB"
    "show x.c:4 @PATH"
    "scan"
    "scan -p"
    "scan -p @PATH @DB"
    "scan -p $work -j @NUM @DB"
    "scan -p $work @OPT @DB"
    "merge"
    "merge out.db"
    "merge out.db @PATH"
    "merge @OPT out.db @DB"
    "report @OPT @DB"
    "report --file"
    "report @PATH"
    "report --top @NUM @DB"
    "report --size @NUM @DB"
    "report --device @NUM @DB"
    "report --idioms @OPT @DB"
    "report --html"
    "report --html r.html --threads @NUM @DB"
    "report --html r.html --size @NUM @DB"
    "report --html r.html --device @NUM @DB"
    "report --html r.html --host @NUM @DB"
    "report --html r.html @OPT @DB"
    "report --html /nonexistent/dir/r.html @DB"
    "explain"
    "explain @LOC --set n=10,m=10 @DB"
    "explain x.c:4 --set @SET @DB"
    "explain x.c:4 --set n=10,m=10 --threads @NUM @DB"
    "explain x.c:4 --set n=10,m=10 --device @NUM @DB"
    "explain x.c:4 --set n=10,m=10 --host @NUM @DB"
    "explain x.c:4 --sweep @SWEEP @DB"
    "explain x.c:4 --sweep n=1:64 --set @SET @DB"
    "explain x.c:4 --set n=10,m=10 @OPT @DB"
    "explain x.c:4 --set"
    "explain x.c:4 --sweep"
    "explain x.c:4 --set n=10,m=10 @PATH"
    "devices @OPT"
    "devices --add"
    "devices --add @PATH"
    "devices --export"
    "devices --export @NUM"
    "devices extra"
    "history @OPT @DB"
    "history --add"
    "history --add /nonexistent/h.txt @DB"
    "history --add $work/emptydir @DB"
    "history --add bad.hist @DB"
    "history @PATH"
    "help @OPT"
    "help nosuchcommand"
    "@OPT"
    "nosuchcommand"
    "''"
)
# calibrate measures the host before it looks at a database: only the long run
long_templates=("calibrate @OPT" "calibrate @DB @DB" "calibrate --threads @NUM")

quote() { printf "'%s'" "$(printf '%s' "$1" | sed "s/'/'\\\\''/g")"; }
fill() {        # TEMPLATE: FILLED = the template with each slot filled (seeded), shell-quoted
    local out= w
    for w in $1; do
        case $w in
        @DB) PICKED=$work/k.db ;;
        @NUM) pick "${nums[@]}" ;;
        @LOC) pick "${locs[@]}" ;;
        @SET) pick "${sets[@]}" ;;
        @SWEEP) pick "${sweeps[@]}" ;;
        @OPT) pick "${opts[@]}" ;;
        @PATH) pick "${paths[@]}" ;;
        *) out="$out $w"; continue ;;
        esac
        out="$out $(quote "$PICKED")"
    done
    FILLED=${out# }
}
run_case() {    # ARGS (eval'd)
    case_begin "keel $1"
    eval "timeout 20 \"\$KEEL\" $1" </dev/null >out.txt 2>err.txt
    local rc=$? n
    n=$(nlines err.txt)
    if crashed $rc err.txt out.txt; then
        fail "crashed (status $rc)"
    elif [ $rc = 124 ]; then
        fail "hung"
    elif [ $rc = 0 ]; then
        fail "accepted (exit 0)"
    elif [ $rc != 1 ] && [ $rc != 2 ]; then
        fail "exit status $rc"
    fi
    [ "$n" = 1 ] || fail "$n lines on stderr: $(head -3 err.txt | tr '\n' '|' | cut -c1-160)"
    [ "$n" -ge 1 ] && { head -1 err.txt | grep -q '^keel: ' || fail "stderr line: $(head -1 err.txt | cut -c1-120)"; }
    case_end
}

all=("${templates[@]}")
[ "$LONG" = 1 ] && all+=("${long_templates[@]}")
for t in "${all[@]}"; do fill "$t"; run_case "$FILLED"; done
for _ in $(seq 1 "$N"); do pick "${all[@]}"; fill "$PICKED"; run_case "$FILLED"; done
summary cli-args
