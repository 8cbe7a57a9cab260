#!/bin/sh
# reasons.sh BIN -- a reason for every nest keel does not decide, through
# keelcc, the real compiler, the database and the keel CLI: for each way a
# nest goes without a keel_decide call (an inner loop, too few iterations,
# control leaving the nest, a loop that is not a canonical for, no parallel
# loop, bounds the call cannot read, a bound its own head assigns, a
# preprocessor branch, a macro, a header, an empty body before it,
# synchronisation) the
# exact reason stored in loops.site_why and shown by keel loops --json,
# keel loops and keel show; for each nest keel gives no sized verdict for,
# the exact loops.no_answer; a build without instrumentation says why for
# every loop.  The sites the database calls "call" are exactly the sites
# the program reports at run time.
set -u
BIN=$(cd "$1" && pwd) || exit 1
work=$(mktemp -d "${TMPDIR:-/tmp}/keel-reasons.XXXXXX")
trap 'rm -rf "$work"' EXIT
cd "$work" || exit 1
. "$(dirname "$0")/../lib.sh"
same() { diff "$2" "$3" >diff.txt || { bad "$1"; cat diff.txt; }; }

cat > r.h <<'EOF'
static inline void hclear(double *p, int n)
{
    for (int i = 0; i < n; i++)
        p[i] = 0;
}
EOF
cat > r.c <<'EOF'
#include "r.h"
int foo(int);
#define ZERO(a, n) for (int z = 0; z < (n); z++) (a)[z] = 0
double a[1000], b[1000];
int idx[1000];

void good(int n)
{
    for (int i = 0; i < n; i++)
        a[i] = 2 * b[i];
}

void nested(int n, int m)
{
    for (int i = 0; i < n; i++)
        for (int j = 0; j < m; j++)
            a[i * m + j] = 0;
}

void tiny(void)
{
    for (int i = 0; i < 8; i++)
        a[i] = 1;
}

void brk(int n)
{
    for (int i = 0; i < n; i++) {
        if (a[i] < 0)
            break;
        a[i] = 1;
    }
}

int ret(int n)
{
    for (int i = 0; i < n; i++)
        for (int j = 0; j < n; j++)
            if (a[i * n + j] < 0)
                return i;
    return -1;
}

void skip(int n)
{
    for (int i = 0; i < n; i++) {
        a[i] = 0;
        if (b[i] > 0)
            i++;
    }
}

void callee(int n)
{
    for (int i = 0; i < n; i++)
        a[i] = foo(i);
}

void stepped(int n, int k)
{
#pragma omp parallel for
    for (int i = 0; i < n; i += k)
        a[i] = 0;
}

void row(int n)
{
    for (int i = 0; i < n; i++)
        for (int j = 0; j < idx[i]; j++)
            a[i * 8 + j] = 0;
}

void local_bound(int n)
{
    for (int i = 0; i < n; i++) {
        int m = idx[i] + 1;
        for (int j = 0; j < m; j++)
            a[i * 8 + j] = 1;
    }
}

void head_assigns(int k)
{
    int n = 0, i;
    for (n = 4 * k, i = 0; i < n; i++)
        a[i] = 3;
}

void branch(int n)
{
#ifdef NOPE
    n = 0;
#else
    n = n + 1;
#endif
    for (int i = 0; i < n; i++)
        a[i] = 4;
}

void after_else(int n)
{
#ifdef NOPE
    n = 0;
#else
    for (int i = 0; i < n; i++)
        a[i] = 5;
#endif
}

void macro(int n)
{
    ZERO(a, n);
}

void header_user(int n)
{
    hclear(a, n);
}

void empty_body(int n, int k)
{
    while (k-- > 0); for (int i = 0; i < n; i++) a[i] = 6;
}

void stepped_outer(int n, int k)
{
#pragma omp parallel for
    for (int i = 0; i < n; i += k)
        for (int j = 0; j < 8; j++)
            a[i * 8 + j] = 0;
}

int flag[1000];
void spin(int n)
{
#pragma omp parallel for
    for (int i = 1; i < n; i++) {
        while (flag[i - 1] == 0) {
#pragma omp flush
        }
        a[i] = 1;
    }
}
EOF
cat > m.c <<'EOF'
void good(int), nested(int, int), tiny(void), branch(int), stepped_outer(int, int);
int foo(int x) { return x; }
int main(void) { good(100); nested(10, 10); tiny(); branch(10); stepped_outer(16, 2); return 0; }
EOF

"$BIN/keelcc" --keel-db=r.db -O1 -c r.c -o r.o 2>cc.txt || bad "keelcc r.c: $(cat cc.txt)"
"$BIN/keel" loops --json r.db >loops.json || bad "keel loops --json"
# line|depth|site|site_why|no_answer of every loop, the header's path as H
sqlite3 :memory: "select json_extract(value, '\$.line') || '|' || json_extract(value, '\$.depth')
    || '|' || ifnull(json_extract(value, '\$.site'), 'NULL') || '|'
    || ifnull(replace(json_extract(value, '\$.site_why'), '$work/', 'H/'), '') || '|'
    || ifnull(json_extract(value, '\$.no_answer'), '')
    from json_each(readfile('loops.json'))" >got.txt
cat >want.txt <<'EOF'
9|0|call||
15|0|call||
16|1|none|inner loop of the nest at line 15 (decided with it)|
22|0|none|8 iterations in all, every trip count a constant: too few to be worth a decision (at most 64)|
28|0|none|a break leaves the loop: it can only run where it is|
37|0|none|a return in the loop at line 37 leaves the nest: it can only run where it is|
38|1|none|inner loop of the nest at line 37 (decided with it)|
46|0|none|not a canonical for loop (its body writes `i`, which its condition reads): it can only run where it is|the trip count of the loop at line 46 is not known (the models assume 128 iterations)
55|0|none|no parallel or reduction loop in the nest (unknown: cost of callee foo (line 56) unknown: not defined in this source)|dependence unknown (cost of callee foo (line 56) unknown: not defined in this source): CPU by default
62|0|none|no parallel or reduction loop in the nest (unknown: not a canonical loop)|the trip count of the loop at line 62 is not known (the models assume 128 iterations)
68|0|none|bounds not readable before the nest: the trip count of the loop at line 69 holds `idx[i]`|the trip count of the loop at line 69 holds `idx[i]`, which keel cannot evaluate
69|1|none|inner loop of the nest at line 68 (decided with it)|
75|0|none|bounds not readable before the nest: the trip count of the loop at line 77 holds `idx[i]`|the trip count of the loop at line 77 holds `idx[i]`, which keel cannot evaluate
77|1|none|inner loop of the nest at line 75 (decided with it)|
85|0|none|its bound `n` is assigned in the loop's own head (a call before the loop would read it unset)|
96|0|none|preprocessor branch around the nest: the #if group closed by the #endif on line 95 holds code|
105|0|none|preprocessor branch around the nest: #else on line 104 above it|
112|0|none|written inside a macro's expansion (keel edits no macro)|
122|0|none|not a canonical for loop (a while loop with no induction variable keel can read): it can only run where it is|dependence unknown (not a canonical loop): CPU by default
122|0|none|it follows an empty loop body on line 122|
128|0|none|trip count unknown: a for loop whose step is not a constant|the trip count of the loop at line 128 is not known (the models assume 128 iterations)
129|1|none|inner loop of the nest at line 128 (decided with it)|
137|0|none|no parallel or reduction loop in the nest (unknown: synchronisation: omp flush (line 139))|dependence unknown (synchronisation: omp flush (line 139)): CPU by default
138|1|none|inner loop of the nest at line 137 (decided with it)|
3|0|none|in H/r.h, not in the source compiled (keel edits that file only)|
EOF
same "site, site_why and no_answer of every loop" want.txt got.txt

# keel show: the site and answer lines
"$BIN/keel" show r.c:96 r.db >show.txt || bad "keel show r.c:96"
expect_eq "$(grep '^site ' show.txt)" "site        none: not instrumented because preprocessor branch around the nest: the #if group closed by the #endif on line 95 holds code" "show: site of a nest below an #if group"
expect_eq "$(grep -c '^answer ' show.txt)" 0 "show: no answer line for an answered nest"
"$BIN/keel" show r.c:55 r.db >show.txt || bad "keel show r.c:55"
expect_eq "$(grep '^answer ' show.txt)" "answer      none: no answer because dependence unknown (cost of callee foo (line 56) unknown: not defined in this source): CPU by default" "show: answer of a nest with an unknown callee"
"$BIN/keel" show r.c:9 r.db >show.txt || bad "keel show r.c:9"
expect_eq "$(grep '^site ' show.txt)" "site        a keel_decide call before the nest" "show: site of an instrumented nest"
"$BIN/keel" show --json r.c:68 r.db >show.json || bad "keel show --json r.c:68"
expect_eq "$(sqlite3 :memory: "select json_extract(readfile('show.json'), '\$.site') || '|' || json_extract(readfile('show.json'), '\$.no_answer')")" \
    "none|the trip count of the loop at line 69 holds \`idx[i]\`, which keel cannot evaluate" "show --json: site and no_answer"

# keel loops: one line a loop, the nest's note last, cut to 120 columns
"$BIN/keel" loops r.db >loops.txt || bad "keel loops"
expect_eq "$(wc -l <loops.txt | tr -d ' ')" 26 "keel loops: one line a loop and the header"
expect_eq "$(awk 'length > 120' loops.txt | wc -l | tr -d ' ')" 0 "keel loops: at most 120 columns"
expect_eq "$(head -1 loops.txt)" "LOCATION   IDIOMS  VERDICT     CYCLES/ITER  NOTE" "keel loops: header"
expect_eq "$(grep '^r.c:105 ' loops.txt)" "r.c:105    stream  parallel    1.05         no call: preprocessor branch around the nest: #else on line 104 above it" "keel loops: a note that fits"
expect_eq "$(grep '^r.c:55 ' loops.txt)" "r.c:55     stream  unknown     4.14         no answer, no call: dependence unknown (cost of callee foo (line 56) unkn..." "keel loops: a note cut"
expect_eq "$(grep -c '^r.c:9 .*NOTE\|^r.c:9 .*no ' loops.txt)" 0 "keel loops: no note on an instrumented nest"
# --wide: the reasons whole, in columns of their own
"$BIN/keel" loops --wide r.db >wide.txt || bad "keel loops --wide"
expect_eq "$(head -1 wide.txt | grep -c 'CYCLES/ITER  SITE  NOT INSTRUMENTED  *NO ANSWER$')" 1 "keel loops --wide: the reason columns"
expect_eq "$(grep -c '^r.c:55 .*  none  no parallel or reduction loop in the nest (unknown: cost of callee foo (line 56) unknown: not defined in this source)  *dependence unknown (cost of callee foo' wide.txt)" 1 "keel loops --wide: the reasons whole"

# keel report: the reasons of the nests shown, after the ranking
"$BIN/keel" report --all r.db >report.txt 2>&1 || bad "keel report: $(cat report.txt)"
sed -n '/^Why keel does not decide/,$p' report.txt >why.txt
expect_eq "$(grep -c '^  - N[0-9]* r\.[ch]:[0-9]*$' why.txt)" 17 "keel report: the nests with a reason (every one but the two with a call)"
expect_eq "$(grep -A2 '^  - N[0-9]* r.c:55$' why.txt | tail -2)" "      not instrumented because no parallel or reduction loop in the nest (unknown: cost of callee foo (line 56) unknown: not defined in this source)
      no answer because dependence unknown (cost of callee foo (line 56) unknown: not defined in this source): CPU by default" "keel report: both reasons of a nest"
expect_eq "$(grep -c 'r.c:9$\|r.c:15$' why.txt)" 0 "keel report: no reason for a decided nest"
"$BIN/keel" report --json r.db >report.json || bad "keel report --json"
expect_eq "$(sqlite3 :memory: "select json_extract(value, '\$.site') || '|' || json_extract(value, '\$.site_why') from json_each(readfile('report.json'), '\$.ranking') where json_extract(value, '\$.line') = 105")" \
    "none|preprocessor branch around the nest: #else on line 104 above it" "keel report --json: site and site_why"

# the sites called "call" are the sites that report at run time
"$BIN/keelcc" --keel-db=r.db -O1 r.c m.c -o prog 2>cc.txt || bad "keelcc prog: $(cat cc.txt)"
KEEL_VERBOSE=1 ./prog 2>run.txt >/dev/null || bad "prog failed"
grep '^keel: r.c:[0-9]* ' run.txt | sed 's/^keel: r.c:\([0-9]*\) .*/\1/' | sort -n >ran.txt
sqlite3 r.db "select line from loops where site = 'call' and file like '%/r.c' order by line" >called.txt
same "run-time sites = stored calls" called.txt ran.txt
expect_eq "$(cat called.txt | tr '\n' ' ')" "9 15 " "stored calls"

# a build without instrumentation: every loop says why
rm -f off.db
"$BIN/keelcc" --keel-db=off.db --keel-instrument=off -O1 -c r.c -o r.o 2>/dev/null || bad "keelcc off"
expect_eq "$(sqlite3 off.db "select distinct site || '|' || site_why from loops")" \
    "off|built with instrumentation off (--keel-instrument=off or KEEL_INSTRUMENT=off)" "instrumentation off"
"$BIN/keelcc" --keel-db=only.db --keel-analysis=only -O1 -c r.c -o r.o 2>/dev/null || bad "keelcc only"
expect_eq "$(sqlite3 only.db "select distinct site || '|' || site_why from loops")" \
    "off|analysed only (keelcc --keel-analysis=only, as keel scan runs it): nothing was compiled" "analysis only"
"$BIN/keel" show r.c:9 off.db >show.txt || bad "keel show off.db"
expect_eq "$(grep '^site ' show.txt)" "site        none: built with instrumentation off (--keel-instrument=off or KEEL_INSTRUMENT=off)" "show: site off"
# ... and keel loops gives such a build no note (the answers stay)
"$BIN/keel" loops off.db >loops.txt || bad "keel loops off.db"
expect_eq "$(grep -c 'no call' loops.txt)" 0 "keel loops: no note for a build without instrumentation"
expect_eq "$(grep -c 'no answer' loops.txt)" 8 "keel loops: answers of a build without instrumentation"

finish reasons
