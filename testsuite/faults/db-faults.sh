#!/bin/bash
# db-faults.sh BIN SRC [N] -- a damaged or odd attribute database never breaks
# a build, the keel tool or a program.
#
# A program with three nests (two GPU verdicts against h100 with a good
# database) is built once with keelcc into a base database.  Each case puts
# the database into one fault: a fixed list (truncations, a garbage header, a
# newer and an older schema version, a foreign SQLite file, a text file, a
# garbage WAL, read-only file and folder, a FIFO, /dev/null, a folder, a
# missing folder, a symlink loop, a database locked by another process) and N
# random byte runs written at random offsets.  Then, for each:
#   compile: keelcc --keel-db=FAULT still builds (exit 0, at most one
#     `keelcc: warning:` line, the new program prints what clang-19's does),
#     and a database that fails its integrity check (or is no database) is
#     left byte for byte as it was;
#   keel loops FAULT: exit 0, or 1/2 with exactly one line on stderr; no crash,
#     no hang;
#   runtime: KEEL_DB=FAULT ./prog prints the plain build's output, exit 0,
#     nothing on stderr; with KEEL_VERBOSE=2 KEEL_DEVICE=h100 the same output,
#     and a database that is unreadable as such gives only CPU verdicts; the
#     runtime writes nothing into a database whose log tables fail their
#     integrity check (it checks only those: damage confined to keelcc's
#     tables may receive decisions).
SHORT_N=2 LONG_N=120 DEFAULT_SEED=1602
. "$(dirname "$0")/lib.sh"

cd "$work" || exit 1
write_matmul prog.c 192
clang-19 -O1 prog.c -o ref && ./ref >ref.out || { echo "db-faults: clang-19 build failed"; exit 1; }
"$KEELCC" --keel-db="$work/base.db" -O1 prog.c -o prog 2>build.err ||
    { echo "db-faults: keelcc build failed: $(cat build.err)"; exit 1; }
sqlite3 base.db 'PRAGMA wal_checkpoint(TRUNCATE)' >/dev/null
rm -f base.db-wal base.db-shm
size=$(stat -c %s base.db)

# bytes LEN: LEN seeded pseudo-random bytes (1..255) on stdout
bytes() { awk -v n="$1" -v s="$2" 'BEGIN { srand(s); for (i = 0; i < n; i++) printf "%c", 1 + int(rand() * 255) }'; }
# poke FILE OFFSET LEN: overwrite LEN bytes at OFFSET with seeded garbage
poke() { rnd; bytes "$3" "$R" | dd of="$1" bs=1 seek="$2" conv=notrunc 2>/dev/null; }
integrity() { timeout 20 sqlite3 "$1" 'PRAGMA integrity_check' 2>&1 | head -1; }
# logsound FILE: the run-time log's own check passes -- sqlite_schema (the
# schema page and the freelist), then each log table it has with its indexes
logsound() {
    local t
    for t in sqlite_schema decisions history host_calibration host_bandwidth; do
        [ "$t" = sqlite_schema ] || [ "$(timeout 20 sqlite3 "$1" \
            "SELECT count(*) FROM sqlite_schema WHERE type = 'table' AND name = '$t'" 2>&1)" = 1 ] ||
            continue
        [ "$(timeout 20 sqlite3 "$1" "PRAGMA integrity_check($t)" 2>&1 | head -1)" = ok ] || return 1
    done
}

# make_fault KIND: sets F (the path), BAD (1: not a usable database), FILE (1: a regular file to compare)
make_fault() {
    local d=$work/case
    chmod -R u+rwx "$d" 2>/dev/null; rm -rf "$d"; mkdir -p "$d"
    F=$d/k.db BAD=1 FILE=1
    case $1 in
    corrupt)
        cp base.db "$F"
        rnd; local off=$R; rnd; off=$(((off * 32768 + R) % size)); rnd
        poke "$F" $off $((R % 256 + 1))
        [ "$(integrity "$F")" = ok ] && BAD=0 ;;
    truncate) cp base.db "$F"; rnd; truncate -s $((R * 7 % size)) "$F" ;;
    truncate-page) cp base.db "$F"; truncate -s $((size - 4096)) "$F" ;;
    empty) : >"$F"; BAD=0 ;;            # SQLite's view: a new, empty database
    header) cp base.db "$F"; poke "$F" 0 100 ;;
    newer) cp base.db "$F"; sqlite3 "$F" 'PRAGMA user_version = 999' ;;
    older) cp base.db "$F"; sqlite3 "$F" 'PRAGMA user_version = 1' ;;
    foreign) sqlite3 "$F" 'CREATE TABLE loops(x); INSERT INTO loops VALUES (1); PRAGMA user_version = 6' ;;
    text) printf 'this is not a database\n' >"$F" ;;
    wal) cp base.db "$F"; rnd; bytes 8192 "$R" >"$F-wal"; BAD=0 ;;
    ro-file) cp base.db "$F"; chmod 444 "$F"; BAD=0 ;;
    ro-dir) cp base.db "$F"; chmod 555 "$d"; BAD=0 ;;
    fifo) mkfifo "$F"; FILE=0 ;;
    devnull) F=/dev/null FILE=0 ;;
    folder) mkdir "$F"; FILE=0 ;;
    missing) F=$d/no/such/folder/k.db FILE=0 ;;
    loop) ln -s "$F" "$F"; FILE=0 ;;
    locked) cp base.db "$F"; BAD=0 ;;
    esac
}

check_fault() {     # KIND
    local kind=$1 rc n lockpid=
    case_begin "$kind #$tried"
    make_fault "$kind"
    [ "$FILE" = 1 ] && [ "$BAD" = 1 ] && cp "$F" "$work/before"
    if [ "$kind" = locked ]; then
        (echo 'BEGIN EXCLUSIVE; DELETE FROM keel_meta;'; sleep 3; echo 'ROLLBACK;') |
            sqlite3 "$F" >/dev/null 2>&1 &
        lockpid=$!
        sleep 0.5
    fi
    # compile
    timeout 120 "$KEELCC" --keel-db="$F" -O1 prog.c -o p2 >c.out 2>c.err
    rc=$?
    crashed $rc c.err && fail "keelcc crashed (status $rc)"
    [ $rc = 0 ] || fail "keelcc exit status $rc: $(head -1 c.err)"
    n=$(nlines c.err)
    [ "$n" -le 1 ] || fail "keelcc printed $n lines: $(head -2 c.err | tr '\n' ' ')"
    [ "$n" = 0 ] || grep -q '^keelcc: warning: ' c.err || fail "keelcc: not a warning line: $(head -1 c.err)"
    [ -s c.out ] && fail "keelcc wrote to stdout"
    [ $rc = 0 ] && { [ "$(./p2 2>&1)" = "$(cat ref.out)" ] || fail "rebuilt program prints something else"; }
    [ -n "$lockpid" ] && wait "$lockpid"
    if [ "$FILE" = 1 ] && [ "$BAD" = 1 ]; then
        cmp -s "$F" "$work/before" || fail "keelcc wrote into a database that fails its integrity check"
    fi
    # keel tool
    timeout 20 "$KEEL" loops "$F" >l.out 2>l.err
    rc=$?
    crashed $rc l.err && fail "keel loops crashed (status $rc)"
    [ $rc = 124 ] && fail "keel loops hung"
    case $rc in
    0) ;;
    1|2) n=$(nlines l.err); [ "$n" = 1 ] || fail "keel loops: $n lines on stderr" ;;
    *) fail "keel loops exit status $rc" ;;
    esac
    # runtime (a fresh fault: keelcc may have written a usable one); its log
    # checks only the tables it writes
    make_fault "$kind"
    LOGBAD=$BAD
    case $kind in
    corrupt|truncate|truncate-page) [ "$BAD" = 1 ] && logsound "$F" && LOGBAD=0 ;;
    esac
    [ "$FILE" = 1 ] && [ "$LOGBAD" = 1 ] && cp "$F" "$work/before"
    # (KEEL_FACTS=db: the database route; prog carries its own facts too)
    KEEL_FACTS=db KEEL_DB=$F timeout 60 ./prog >r.out 2>r.err
    rc=$?
    [ $rc = 0 ] || fail "program exit status $rc"
    cmp -s r.out ref.out || fail "program output differs"
    [ -s r.err ] && fail "program wrote to stderr without KEEL_VERBOSE: $(head -1 r.err)"
    KEEL_FACTS=db KEEL_DB=$F KEEL_VERBOSE=2 KEEL_DEVICE=h100 timeout 60 ./prog >r.out 2>r.err
    rc=$?
    [ $rc = 0 ] || fail "verbose program exit status $rc"
    cmp -s r.out ref.out || fail "verbose program output differs"
    if [ "$BAD" = 1 ] && [ "$kind" != corrupt ] && grep -q -- '-> GPU' r.err; then
        fail "a GPU verdict from a database that is unreadable: $(grep -m1 -- '-> GPU' r.err)"
    fi
    if [ "$FILE" = 1 ] && [ "$LOGBAD" = 1 ]; then
        cmp -s "$F" "$work/before" || fail "the runtime wrote into a database whose log tables fail their integrity check"
    fi
    case_end
}

kinds=(truncate truncate-page empty header newer older foreign text wal ro-file ro-dir fifo devnull
       folder missing loop locked)
short=(header newer fifo devnull locked)
if [ "$LONG" = 1 ]; then
    for k in "${kinds[@]}"; do check_fault "$k"; done
    for _ in $(seq 1 10); do check_fault truncate; done
else
    for k in "${short[@]}"; do check_fault "$k"; done
fi
for _ in $(seq 1 "$N"); do check_fault corrupt; done
summary db-faults
