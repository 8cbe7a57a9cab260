#!/bin/bash
# runtime-faults.sh BIN SRC [N] -- a keelcc-built program behaves as the plain
# clang-19 build whatever its surroundings.
#
# Five programs, each built twice (clang-19 and keelcc, one database): a
# matrix product (verdicts GPU against h100); one that closes its stdout after
# the first nest and reopens a file on fd 1 (`close(1); open(...)`), printing
# the descriptor numbers it gets; 16 threads running nests at once; a SIGALRM
# handler every 100 us whose own loop is instrumented; a fork after the first
# nest with the child running nests too.  A case draws (seeded) a program, a
# database state at run time (good, missing, corrupt bytes, empty, text, FIFO,
# /dev/null, a folder, a newer schema), an environment (KEEL_VERBOSE,
# KEEL_DEVICE, KEEL_FORCE, unknown profile names, KEEL_LOG=0,
# OMP_TARGET_OFFLOAD ...) and descriptors (stdin or stderr closed, stdin
# from /dev/null).  It holds when the keelcc build exits as the plain build
# does, prints the same stdout (and the same file for the fd program), writes
# nothing to stderr unless KEEL_VERBOSE is set, and finishes within 60 s.
SHORT_N=10 LONG_N=300 DEFAULT_SEED=1604
. "$(dirname "$0")/lib.sh"

cd "$work" || exit 1
write_matmul mm.c 160
cat >fd.c <<'C'
#include <fcntl.h>
#include <stdio.h>
#include <unistd.h>
static double v[4096];
int main(void)
{
    int n = 4096;
    for (int i = 0; i < n; i++)
        v[i] = i * 0.5;
    fflush(stdout);
    close(1);
    int fd = open("fd.out", O_WRONLY | O_CREAT | O_TRUNC, 0644);
    double s = 0;
    for (int i = 0; i < n; i++)
        s += v[i];
    int other = open("/dev/null", O_RDONLY);
    printf("sum %.1f stdout fd %d next fd %d\n", s, fd, other);
    return 0;
}
C
cat >threads.c <<'C'
#include <pthread.h>
#include <stdio.h>
#define T 16
#define N 2048
static double x[T][N];
static double out[T];
static void *work(void *p)
{
    int t = (int)(long)p, n = N;
    for (int r = 0; r < 20; r++) {
        for (int i = 0; i < n; i++)
            x[t][i] = x[t][i] * 0.5 + i + t;
        double s = 0;
        for (int i = 0; i < n; i++)
            s += x[t][i];
        out[t] = s;
    }
    return 0;
}
int main(void)
{
    pthread_t th[T];
    for (long t = 0; t < T; t++)
        pthread_create(&th[t], 0, work, (void *)t);
    for (int t = 0; t < T; t++)
        pthread_join(th[t], 0);
    for (int t = 0; t < T; t++)
        printf("%d %.3f\n", t, out[t]);
    return 0;
}
C
cat >sig.c <<'C'
#include <signal.h>
#include <stdio.h>
#include <sys/time.h>
static double h[64], a[512];
static void on_alarm(int s)
{
    int n = 64;
    (void)s;
    for (int i = 0; i < n; i++)
        h[i] = h[i] * 0.5 + i;
}
static double step(int n, int k)
{
    double s = 0;
    for (int i = 0; i < n; i++)
        a[i] = a[i] * 0.25 + k;
    for (int i = 0; i < n; i++)
        s += a[i];
    return s;
}
int main(void)
{
    struct sigaction sa = { 0 };
    sa.sa_handler = on_alarm;
    sa.sa_flags = SA_RESTART;
    sigaction(SIGALRM, &sa, 0);
    struct itimerval it = { { 0, 100 }, { 0, 100 } };
    setitimer(ITIMER_REAL, &it, 0);
    double t = 0;
    for (int r = 0; r < 4000; r++)
        t += step(512, r % 9);
    it.it_value.tv_usec = it.it_interval.tv_usec = 0;
    setitimer(ITIMER_REAL, &it, 0);
    printf("%.3f\n", t);
    return 0;
}
C
cat >fork.c <<'C'
#include <stdio.h>
#include <sys/wait.h>
#include <unistd.h>
static double a[1024];
static double sum(int n, double k)
{
    double s = 0;
    for (int i = 0; i < n; i++)
        a[i] = i * k;
    for (int i = 0; i < n; i++)
        s += a[i];
    return s;
}
int main(void)
{
    printf("parent %.1f\n", sum(1024, 1.0));
    fflush(stdout);
    pid_t p = fork();
    if (p == 0) {
        printf("child %.1f\n", sum(1024, 2.0));
        return 3;
    }
    int st = 0;
    waitpid(p, &st, 0);
    printf("child status %d, parent again %.1f\n", WEXITSTATUS(st), sum(512, 3.0));
    return 0;
}
C
progs=(mm fd threads sig fork)
for p in "${progs[@]}"; do
    clang-19 -O1 -pthread "$p.c" -o "$p.ref" || { echo "runtime-faults: clang-19 $p.c failed"; exit 1; }
    "$KEELCC" --keel-db="$work/good.db" -O1 -pthread "$p.c" -o "$p.kc" 2>"$p.err" ||
        { echo "runtime-faults: keelcc $p.c failed: $(head -1 "$p.err")"; exit 1; }
    [ "$(nm "$p.kc" | grep -c ' keel_decide')" -gt 0 ] || { echo "runtime-faults: $p.kc calls no keel_decide"; exit 1; }
done
sqlite3 good.db 'PRAGMA wal_checkpoint(TRUNCATE)' >/dev/null
mkfifo fifo.db
mkdir folder.db
printf 'not a database\n' >text.db
: >empty.db
cp good.db newer.db && sqlite3 newer.db 'PRAGMA user_version = 999'

dbstate() {     # KIND: sets DBP, the KEEL_DB value for it (fresh files for those a run may change)
    case $1 in
    good) cp good.db run.db; DBP=$work/run.db ;;
    corrupt)
        cp good.db run.db
        local sz off
        sz=$(stat -c %s run.db); rnd; off=$R; rnd; off=$(((off * 32768 + R) % sz)); rnd
        awk -v n=$((R % 200 + 1)) -v s=$R 'BEGIN { srand(s); for (i = 0; i < n; i++) printf "%c", 1 + int(rand() * 255) }' |
            dd of=run.db bs=1 seek="$off" conv=notrunc 2>/dev/null
        DBP=$work/run.db ;;
    missing) DBP=$work/no/such/k.db ;;
    devnull) DBP=/dev/null ;;
    *) DBP=$work/$1.db ;;
    esac
}
dbs=(good good corrupt missing empty text fifo devnull folder newer)
envs=("" "KEEL_VERBOSE=2" "KEEL_VERBOSE=2 KEEL_DEVICE=h100" "KEEL_DEVICE=h100" "KEEL_FORCE=gpu"
      "KEEL_FORCE=cpu KEEL_VERBOSE=2" "KEEL_DEVICE=no-such-gpu" "KEEL_HOST=no-such-host KEEL_VERBOSE=2"
      "KEEL_MACHINES=/nonexistent KEEL_DEVICE=h100" "KEEL_LOG=0 KEEL_DEVICE=h100"
      "OMP_TARGET_OFFLOAD=DISABLED" "OMP_TARGET_OFFLOAD=MANDATORY KEEL_DEVICE=h100"
      "KEEL_DEVICE= KEEL_FORCE=" "KEEL_FORCE=bogus")
fdsets=(normal normal no-stdin no-stderr null-stdin)

# runit BINARY FDSET: stdout to run.out, stderr to run.err (unless closed), status in rc
runit() {
    rm -f fd.out
    case $2 in
    normal) timeout 60 "./$1" >run.out 2>run.err ;;
    no-stdin) timeout 60 "./$1" <&- >run.out 2>run.err ;;
    no-stderr) : >run.err; timeout 60 "./$1" >run.out 2>&- ;;
    null-stdin) timeout 60 "./$1" </dev/null >run.out 2>run.err ;;
    esac
    rc=$?
    [ -f fd.out ] && cat fd.out >>run.out
}

i=0
while [ $i -lt "$N" ]; do
    i=$((i + 1))
    if [ "$LONG" = 0 ] && [ $i -le ${#progs[@]} ]; then
        p=${progs[i - 1]}        # the short run tries every program once
    else
        pick "${progs[@]}"; p=$PICKED
    fi
    pick "${dbs[@]}"; d=$PICKED
    pick "${envs[@]}"; e=$PICKED
    pick "${fdsets[@]}"; f=$PICKED
    case_begin "$p db=$d env='$e' fds=$f"
    ([ -z "$e" ] || eval "export $e"; runit "$p.ref" "$f"; echo $rc >ref.rc) 2>/dev/null
    mv run.out ref.out
    dbstate "$d"
    (eval "export KEEL_DB=\$DBP $e"; runit "$p.kc" "$f"; echo $rc >kc.rc) 2>/dev/null
    krc=$(cat kc.rc) rrc=$(cat ref.rc)
    [ "$krc" = 124 ] && fail "hung (killed after 60 s)"
    [ "$krc" -ge 128 ] && fail "killed by signal $((krc - 128))"
    [ "$krc" = "$rrc" ] || fail "exit status $krc, plain build $rrc"
    cmp -s run.out ref.out || fail "output differs: $(diff ref.out run.out | grep '^[<>]' | head -2 | tr '\n' ' ')"
    case $e in
    *KEEL_VERBOSE=2*) ;;
    *) [ -s run.err ] && fail "stderr without KEEL_VERBOSE: $(head -1 run.err)" ;;
    esac
    case_end
done
summary runtime-faults
