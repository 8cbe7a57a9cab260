#!/bin/sh
# report.sh BIN SRCDIR ARTEFACTS -- keel report --html in a real browser.
#
# The program of program.sh is built with keelcc and run (its launches are
# logged), the page is written for two GPU profiles and loaded in headless
# Chromium; --dump-dom gives the DOM after the page's scripts ran, which
# dom.py reads: the page's self-check says "ok" (every ranking link leads to
# a nest, every nest is linked from the ranking, no script error), the
# ranking holds all 13 nests in the order of `keel report --all --json`,
# ten on the first screen, with the verdicts and reasons expected of each
# kind of nest; every nest has its chart or a "cannot evaluate" box; the
# nest that cannot be evaluated is marked apart from "CPU wins".  Two
# broken copies of the page must fail the same check: one with a script
# error, one with a nest the ranking does not reach.  The screenshot and
# the page stay in ARTEFACTS.
set -u
BIN=$(cd "$1" && pwd) || exit 1
SRC=$(cd "$2" && pwd) || exit 1
ART=$3
. "$(dirname "$0")/../lib.sh"
CHROMIUM=$(command -v chromium || command -v chromium-browser || true)
if [ -z "$CHROMIUM" ]; then
    echo "FAIL: no chromium (scripts/install-deps.sh installs it)"
    exit 1
fi
mkdir -p "$ART" && ART=$(cd "$ART" && pwd) || exit 1
work=$(mktemp -d /tmp/keel-browser-XXXXXX) || exit 1
[ -n "${KEEP:-}" ] || trap 'rm -rf "$work"' EXIT
cd "$work" || exit 1
unset KEEL_DB KEEL_FORCE KEEL_VERBOSE KEEL_HOST
export KEEL_MCA=off OMP_NUM_THREADS=2 HOME="$work"

sh "$SRC/program.sh" src
(cd src && "$BIN/keelcc" --keel-db="$work/k.db" -O2 k.c -o k) >build.txt 2>&1 || { bad "build"; cat build.txt; }
(cd src && KEEL_DEVICE=h100 KEEL_DB="$work/k.db" ./k) >run.txt 2>&1 || bad "run: $(cat run.txt)"
"$BIN/keel" report --html r.html --device h100,v100 k.db >out.txt 2>err.txt \
    && [ "$(cat out.txt)" = r.html ] && [ ! -s err.txt ] && ok || { bad "report --html"; cat err.txt; }
"$BIN/keel" report --all --json --device h100 k.db >rank.json || bad "report --json"
python3 "$SRC/../scan/check_html.py" r.html >parsed.txt && ok || { bad "page not well formed"; grep PROBLEM parsed.txt; }

# load a page in headless Chromium: its DOM after the scripts ran
browse() {  # browse PAGE DOM [SCREENSHOT]
    rm -rf "$work/profile"
    timeout 180 "$CHROMIUM" --headless --no-sandbox --disable-gpu --no-first-run \
        --user-data-dir="$work/profile" --virtual-time-budget=5000 \
        --dump-dom "file://$work/$1" >"$2" 2>>chromium.txt || return 1
    [ -z "${3:-}" ] && return 0
    rm -rf "$work/profile"
    timeout 180 "$CHROMIUM" --headless --no-sandbox --disable-gpu --no-first-run --hide-scrollbars \
        --user-data-dir="$work/profile" --window-size=1400,2000 \
        --screenshot="$3" "file://$work/$1" >/dev/null 2>>chromium.txt
}
browse r.html dom.html "$ART/report.png" || { bad "chromium failed"; tail -5 chromium.txt; }
cp r.html "$ART/report.html"
cp dom.html "$ART/report-dom.html"
# the screenshot: a PNG of the first screen
[ "$(head -c 8 "$ART/report.png" 2>/dev/null | od -An -c | tr -d ' ')" = '211PNG\r\n032\n' ] \
    && [ "$(wc -c <"$ART/report.png")" -gt 20000 ] && ok || bad "no screenshot"

nests=$(sqlite3 k.db "SELECT count(*) FROM loops WHERE depth = 0")
[ "$nests" = 13 ] && ok || bad "13 nests in the database, got $nests"
python3 "$SRC/dom.py" dom.html rank.json >dom.txt; rc=$?
[ $rc = 0 ] && ok || { bad "the DOM"; grep -v '^ok' dom.txt; }
expect() {  # expect LINE: dom.py printed it
    grep -qxF -- "$1" dom.txt && ok || { bad "want '$1'"; grep "^${1%% *} " dom.txt | head -3; }
}
expect "selfcheck ok nests=13 ranked=13"
expect "script-errors "
expect "first-screen 10"
expect "more 3"
expect "order-as-json yes"
expect "rank 1 N1 GPU reason=gpu-wins at=1_launch"
expect "nest N2 CPU not-parallel"
expect "why N2 not parallel: line 14: x[i] (write, line 15) and x[i - 1] (read, line 15): distance 1 (strong SIV)"
expect "nest N3 CPU too-small"
grep -q '^why N3 too small: the GPU wins from N=[0-9]*, above the logged sizes$' dom.txt && ok || bad "why N3"
expect "nest N4 unknown not-evaluable"
expect 'why N4 size not evaluable: cannot evaluate call.count(n)'
# under the why, the nest as keelcc left it: no call before it, no sized answer
expect 'site-why N2 not instrumented because no parallel or reduction loop in the nest (sequential: x[i] (write, line 15) and x[i - 1] (read, line 15): distance 1 (strong SIV))'
expect 'site-why N4 not instrumented because bounds not readable before the nest: its trip count holds `count(n)`'
expect 'no-answer N4 no answer because the trip count of the loop at line 26 holds `count(n)`, which keel cannot evaluate'
[ "$(grep -c '^site-why N1 \|^no-answer N1 \|^no-answer N2 ' dom.txt)" = 0 ] && ok || bad "reasons on nests that have none"
expect "crossover-cell N4 unk"
expect "crossover-cell N2 cpu"
expect "chart N1 nestchart"
expect "chart N4 noeval"
expect "charts 13"
for k in 5 6 7; do expect "nest N$k GPU gpu-wins"; done
expect "roofline-pairs h100 6"
expect "hull-max-nests 4"

# the same check fails on broken pages: a script error; a nest not ranked
python3 - r.html bad1.html bad2.html <<'PY'
import sys
page = open(sys.argv[1], encoding='utf-8').read()
i = page.rindex('<script>')
open(sys.argv[2], 'w', encoding='utf-8').write(page[:i] + '<script>keelNoSuchFunction();</script>' + page[i:])
open(sys.argv[3], 'w', encoding='utf-8').write(page.replace('id="nest-7"', 'id="nest-x7"', 1))
PY
browse bad1.html dom1.html || bad "chromium bad1"
python3 "$SRC/dom.py" dom1.html rank.json >dom1.txt && bad "a script error passes the check" || ok
grep -q '^selfcheck fail ' dom1.txt && grep -q '^script-errors script errors: .*keelNoSuchFunction' dom1.txt \
    && ok || { bad "script error not caught"; head -3 dom1.txt; }
browse bad2.html dom2.html || bad "chromium bad2"
python3 "$SRC/dom.py" dom2.html rank.json >dom2.txt && bad "an unreached nest passes the check" || ok
grep -q '^selfcheck fail ' dom2.txt && grep -q 'no nest-7' dom2.txt && grep -q 'nest-x7 not ranked' dom2.txt \
    && ok || { bad "unreached nest not caught"; head -3 dom2.txt; }

echo "browser: $pass passed, $fail failed (screenshot: $ART/report.png)"
[ $fail = 0 ]
