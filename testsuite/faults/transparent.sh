#!/bin/bash
# transparent.sh BIN SRC -- keelcc is invisible to the build: for sources
# that keelcc instruments, the exit status, the diagnostics (every line of
# stderr), the coverage counts and the objects' bytes are what clang-19
# gives, case by case:
#   - empty bodies (-Wempty-body compares physical lines) keep their
#     warnings, and -Werror fails the build as it does with clang-19;
#   - a loop before a // comment spliced onto the next line keeps -Wcomment's
#     column and quote;
# Each check prints "ok" or "FAIL: what differed"; the exit status is 1 when
# any failed.
set -u
BIN=$(cd "$1" && pwd)
KEELCC=$BIN/keelcc
KEEL=$BIN/keel
unset KEEL_DB KEEL_VERBOSE KEEL_DEVICE KEEL_INSTRUMENT KEEL_DISABLE KEEL_QUIET KEEL_CC KEEL_LOG
export KEEL_MCA=off
work=$(mktemp -d "${TMPDIR:-/tmp}/keel-transparent-XXXXXX")
trap 'rm -rf "$work"' EXIT
. "$(dirname "$0")/../lib.sh"
# same_build NAME ARGS...: clang-19 and keelcc run ARGS in two copies of
# $work/src; exit status, stdout and stderr must be equal, and keelcc must
# have instrumented (its database holds the source).
same_build() {
    local name=$1; shift
    rm -rf "$work/r" "$work/k"; cp -r "$work/src" "$work/r"; cp -r "$work/src" "$work/k"
    (cd "$work/r" && clang-19 "$@" >out.txt 2>err.txt; echo $? >rc.txt)
    (cd "$work/k" && "$KEELCC" --keel-db="$work/k.db" "$@" >out.txt 2>err.txt; echo $? >rc.txt)
    expect_eq "$(cat "$work/k/rc.txt")" "$(cat "$work/r/rc.txt")" "$name: exit status"
    cmp -s "$work/r/out.txt" "$work/k/out.txt" && ok || bad "$name: stdout differs"
    diff "$work/r/err.txt" "$work/k/err.txt" >"$work/diff.txt" && ok \
        || bad "$name: stderr differs: $(head -c 600 "$work/diff.txt")"
}

# ---- empty bodies ------------------------------------------------------------
mkdir -p "$work/src"
cat >"$work/src/eb.c" <<'C'
int next(void);
void relax(int n, float *u, const float *f) {
  int k = next(); switch (k);
  if (k == 3); while (next() > 0);
  k += n;
  for (int i = 1; i < n - 1; i++)
    u[i] = 0.5f * f[i] + f[i + 1];
  if (n > 100);
  for (int j = 0; j < n; j++); u[0] = 1.0f;
}
int clamp(int v) {
  if (v < 0); return v;
}
C
same_build "-Wempty-body" -Wall -Wextra -c eb.c -o eb.o
expect_eq "$(grep -c 'warning: .* has empty body' "$work/k/err.txt")" 5 "-Wempty-body: warnings kept"
same_build "-Werror" -Werror -c eb.c -o eb.o
[ -e "$work/k/eb.o" ] && bad "-Werror: keelcc wrote eb.o, clang-19 did not" || ok
sqlite3 "$work/k.db" "SELECT count(*) FROM loops" >"$work/n.txt" 2>/dev/null
expect_eq "$(cat "$work/n.txt")" 3 "-Wempty-body: eb.c analysed (its three loops)"
same_build "-Wempty-body, linked" -Wall -O1 eb.c -c -o eb2.o
nm "$work/k/eb2.o" | grep -q ' U keel_decide_report' && ok || bad "eb.c not instrumented"

# ---- a spliced // comment after a loop ----------------------------------------
rm -rf "$work/src"; mkdir -p "$work/src"
printf 'void fill(int n, int *a) {\n  for (int i = 0; i < n; i++) a[i] = 2 * i; // see below \\\n  a[0] = 0;\n}\nvoid copy(int n, int *a, const int *b) {\n  for (int i = 0; i < n; i++)\n    a[i] = b[i]; /* copy */ // done\n}\n' >"$work/src/cm.c"
same_build "-Wcomment" -Wall -c cm.c -o cm.o
expect_eq "$(grep -c 'cm.c:2:58: warning: multi-line // comment' "$work/k/err.txt")" 1 "-Wcomment column"

finish
