# lib.sh -- shared by the fault campaigns in testsuite/faults/ (sourced, not run).
#
# Each campaign is `SCRIPT BIN SRC [N]`: BIN holds keelcc and keel, SRC is the
# source tree, N the number of generated cases (default: the short run that
# ctest uses; KEEL_FAULTS_LONG=1 picks the long default, KEEL_FAULTS_SEED
# changes the fixed seed).  A case is "tried" once; it "held" when every
# property the campaign checks for it is true, else it "failed" and is listed
# with what differed.  The last line is `NAME: tried N  held N  failed N` and
# the exit status is 1 when anything failed.
set -u
BIN=$(cd "$1" && pwd)
SRC=$(cd "$2" && pwd)
KEELCC=$BIN/keelcc
KEEL=$BIN/keel
case ${KEEL_FAULTS_LONG:-0} in
    0|'') LONG=0 N=${3:-$SHORT_N} ;;
    *) LONG=1 N=${3:-$LONG_N} ;;
esac
SEED=${KEEL_FAULTS_SEED:-$DEFAULT_SEED}
_rs=$SEED       # our own generator: bash reseeds $RANDOM in every subshell
work=$(mktemp -d "${TMPDIR:-/tmp}/keel-faults-XXXXXX")
cleanup() { chmod -R u+rwx "$work" 2>/dev/null; rm -rf "$work"; }
trap cleanup EXIT
tried=0 held=0 failed=0
failures=
unset KEEL_DB KEEL_VERBOSE KEEL_FORCE KEEL_DEVICE KEEL_HOST KEEL_LOG KEEL_INSTRUMENT \
      KEEL_DISABLE KEEL_QUIET KEEL_MCA KEEL_MCPU KEEL_CC KEEL_MACHINES OMP_TARGET_OFFLOAD
export KEEL_MCA=off                 # llvm-mca on only where a case asks for it

# case_begin TEXT; then any number of `fail WHY`; then case_end.
case_begin() { case_text=$1; case_why=; tried=$((tried + 1)); }
fail() { case_why="$case_why${case_why:+; }$*"; }
case_end() {
    if [ -z "$case_why" ]; then
        held=$((held + 1))
    else
        failed=$((failed + 1))
        failures="$failures
  FAILED [$case_text]: $case_why"
    fi
}
# rnd: R = the next number (0 to 32767) of the seeded generator (an LCG);
# pick WORD...: PICKED = one of the words.  Call both in this shell, never in
# $(...), or the state does not advance.
rnd() { _rs=$(((_rs * 1103515245 + 12345) % 2147483648)); R=$((_rs / 65536)); }
pick() { rnd; local i=$((R % $# + 1)); PICKED=${!i}; }
# nlines FILE: its number of lines (0 for an empty or missing file)
nlines() { if [ -s "$1" ]; then awk 'END { print NR }' "$1"; else echo 0; fi; }
# crashed RC FILE...: killed by a signal (SIGSEGV, SIGABRT ...) or a sanitizer report
crashed() { local rc=$1; shift; [ "$rc" -ge 128 ] || grep -qs -e 'Sanitizer' -e 'runtime error:' "$@"; }
summary() {
    [ -n "$failures" ] && printf '%s\n' "$failures" | sed '1d'
    echo "$1: tried $tried  held $held  failed $failed  (seed $SEED)"
    [ "$failed" -eq 0 ]
}

# write_matmul FILE N: the instrumented matrix product both the database
# and the runtime campaigns build (N x N doubles; prints the trace of A*B).
write_matmul() {
    sed "s/@N@/$2/" >"$1" <<'C'
#include <stdio.h>
#define N @N@
static double a[N][N], b[N][N], c[N][N];
int main(void)
{
    int n = N;
    for (int i = 0; i < n; i++)
        for (int j = 0; j < n; j++) {
            a[i][j] = (i + j) % 7;
            b[i][j] = (i * j) % 5;
        }
    for (int i = 0; i < n; i++)
        for (int j = 0; j < n; j++) {
            double s = 0;
            for (int k = 0; k < n; k++)
                s += a[i][k] * b[k][j];
            c[i][j] = s;
        }
    double t = 0;
    for (int i = 0; i < n; i++)
        t += c[i][i];
    printf("%.1f\n", t);
    return 0;
}
C
}
