#!/bin/sh
# rt_host.sh BINDIR -- the runtime leaves the host program alone: programs
# built with keelcc and run with a (what-if) device behave as with clang-19.
#  - descriptors: close(1); open(file) still redirects stdout; the next
#    open() gets the same number; closing every descriptor above 2 after a
#    launch loses no data and prints nothing; the decisions still reach the
#    database (appended at exit)
#  - signals: a handler whose loop is instrumented, firing while the main
#    thread loads other sites' facts, never deadlocks
#  - KEEL_VERBOSE with a 20,000-character function name: no overflow
BIN=$1
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cd "$work" || exit 1
. "$(dirname "$0")/../lib.sh"
KC="$BIN/keelcc --keel-db=$work/k.db --keel-mca=off --keel-quiet -O1"
export KEEL_DEVICE=h100
unset KEEL_VERBOSE KEEL_FORCE KEEL_DB KEEL_LOG OMP_TARGET_OFFLOAD

# ---- descriptors --------------------------------------------------------
cat >redirect.c <<'SRC'
#include <fcntl.h>
#include <stdio.h>
#include <unistd.h>
static double a[512];
static void scale(int n) { for (int i = 0; i < n; i++) a[i] = a[i] * 0.5 + i; }
int main(void)
{
    close(1);
    scale(300);
    int fd = open("redirect.out", O_WRONLY | O_CREAT | O_TRUNC, 0644);
    scale(400);
    int fd2 = open("/dev/null", O_RDONLY);
    printf("fd %d next %d a7 %.2f\n", fd, fd2, a[7]);
    return 0;
}
SRC
$KC redirect.c -o redirect || bad "keelcc redirect.c"
clang-19 -O1 redirect.c -o redirect.ref && ./redirect.ref && mv redirect.out redirect.ref.out
./redirect 2>err.txt
expect_eq "$(cat redirect.out 2>/dev/null)" "$(cat redirect.ref.out)" "close(1); open(): stdout redirected"
expect_eq "$(cut -c1-4 redirect.out 2>/dev/null)" "fd 1" "close(1); open() gets 1"
expect_eq "$(wc -c <err.txt | tr -d ' ')" 0 "redirect: nothing on stderr"

cat >closeall.c <<'SRC'
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
static double a[4096];
static void step(int n) { for (int i = 0; i < n; i++) a[i] = a[i] * 0.5 + i; }
int main(void)
{
    step(100);
    for (int fd = 3; fd < 1024; fd++)
        close(fd);
    int out = open("closeall.out", O_CREAT | O_WRONLY | O_TRUNC, 0644);
    char line[64];
    for (int k = 0; k < 40; k++) {
        step(200 + k);
        int len = snprintf(line, sizeof line, "%d %.1f\n", k, a[9]);
        if (write(out, line, (size_t)len) != len)
            return 1;
    }
    close(out);
    printf("out %d\n", out);
    return 0;
}
SRC
$KC closeall.c -o closeall || bad "keelcc closeall.c"
clang-19 -O1 closeall.c -o closeall.ref && ./closeall.ref >ref.txt && mv closeall.out closeall.ref.out
expect_eq "$(./closeall 2>err.txt)" "$(cat ref.txt)" "close 3..1023: stdout"
cmp -s closeall.out closeall.ref.out && ok || bad "close 3..1023: data file differs"
expect_eq "$(wc -c <err.txt | tr -d ' ')" 0 "close 3..1023: nothing on stderr"
# 41 launches with new sizes of a parallel nest: 41 decisions at exit
expect_eq "$(sqlite3 k.db "SELECT count(*) FROM decisions d JOIN loops l ON l.id = d.loop_id
                            JOIN translation_units t ON t.id = l.tu_id
                            WHERE t.path LIKE '%closeall.c'")" 41 "close 3..1023: decisions logged at exit"

# ---- signals ------------------------------------------------------------
# 150 sites whose first calls load facts (the main thread inside the
# runtime, under its lock) while a 50 us timer's handler runs a loop
awk 'BEGIN {
    print "#include <signal.h>\n#include <stdio.h>\n#include <sys/time.h>"
    print "static volatile double h[64]; static volatile int hn = 64;"
    print "static void on_alarm(int sig) { (void)sig; for (int i = 0; i < hn; i++) h[i] = h[i] + i; }"
    print "static double a[256];"
    for (f = 0; f < 150; f++)
        printf "static void f%d(int n) { for (int i = 0; i < n; i++) a[i] += %d; }\n", f, f
    print "int main(void) {"
    print "  struct sigaction sa = { 0 }; sa.sa_handler = on_alarm; sigaction(SIGALRM, &sa, 0);"
    print "  struct itimerval t = { { 0, 50 }, { 0, 50 } }; setitimer(ITIMER_REAL, &t, 0);"
    for (f = 0; f < 150; f++)
        printf "  f%d(200);\n", f
    print "  struct itimerval z = { { 0, 0 }, { 0, 0 } }; setitimer(ITIMER_REAL, &z, 0);"
    print "  printf(\"%.0f\\n\", a[5]); return 0; }"
}' >sig.c
$KC sig.c -o sig || bad "keelcc sig.c"
hung=0
for r in 1 2 3; do
    timeout -s KILL 30 ./sig >sig.out 2>&1 || hung=$((hung + 1))
done
expect_eq "$hung" 0 "signal handler loop: runs that hung"
expect_eq "$(cat sig.out)" 11175 "signal handler loop: output"

# ---- many sites: facts read ahead belong to their own site ---------------
# 150 functions, one nest each, some sharing a line; every verbose line must
# name the function of its own line
awk 'BEGIN {
    print "#include <stdio.h>\nstatic double a[64];"
    for (f = 0; f < 150; f++)
        printf "static void g%d(int n) { for (int i = 0; i < n; i++) a[i] += %d; }%s", f, f, (f % 3 == 2) ? "\n" : " "
    print "\nint main(void) {"
    for (f = 149; f >= 0; f--)
        printf "  g%d(%d);\n", f, 10 + f % 7
    print "  printf(\"%.0f\\n\", a[3]); return 0; }"
}' >many.c
$KC many.c -o many || bad "keelcc many.c"
KEEL_VERBOSE=2 ./many >many.out 2>err.txt
expect_eq "$(cat many.out)" 11175 "many sites: output"
expect_eq "$(grep -c '^keel: many.c' err.txt)" 150 "many sites: one line per launch"
# line L holds g(3(L-3)), g(3(L-3)+1), g(3(L-3)+2): the named function is on its line
expect_eq "$(awk -F'[: ]' '/^keel: many.c/ { f = substr($5, 2); l = $4; if (int(f / 3) != l - 3) bad++ } END { print bad + 0 }' err.txt)" 0 \
    "many sites: every site gets its own nest's facts"

# ---- KEEL_VERBOSE and a very long function name ---------------------------
name=$(awk 'BEGIN { s = "f_"; for (i = 0; i < 20000; i++) s = s "x"; print s }')
cat >long.c <<SRC
#include <stdio.h>
static double a[1000];
double $name(int n) { double s = 0; for (int i = 0; i < n; i++) s += a[i] * 2.0; return s; }
int main(void) { for (int i = 0; i < 1000; i++) a[i] = i; printf("%g\\n", $name(1000)); return 0; }
SRC
$KC long.c -o long || bad "keelcc long.c"
expect_eq "$(KEEL_VERBOSE=2 ./long 2>err.txt)" 999000 "long name, verbose: output"
expect_eq "$(awk 'length > 1023' err.txt | wc -l | tr -d ' ')" 0 "long name: lines cut at 1023"
grep -q '^keel: long.c:3 f_xxxx' err.txt && ok || bad "long name: verbose line: $(cut -c1-80 err.txt)"

finish
