#!/bin/sh
# sql_home_planted.sh SCRIPT -- sql_home.sh finds what it must: a tree
# with one use of SQLite of each kind outside db/ (a call, a connection
# pointer, the two includes), a harmless mention ("sqlite3" alone), and
# the same in db/ and testsuite/, which may (and a build folder, skipped).
S=${1:?usage: sql_home_planted.sh SQL_HOME_SH}
. "$(dirname "$0")/../lib.sh"
tmp=$(mktemp -d /tmp/keel-sqlhome-XXXXXX) || exit 1
trap 'rm -rf "$tmp"' EXIT
mkdir -p "$tmp/cli" "$tmp/db" "$tmp/testsuite/db" "$tmp/runtime" "$tmp/build/x"
printf '/* keeps a sqlite3 database */\nint ok;\n' > "$tmp/cli/fine.c"
printf '#include <sqlite3.h>\nstatic sqlite3 *h;\nint f(void) { return sqlite3_close(h); }\n' > "$tmp/cli/bad.c"
printf '#include "db_private.h"\n' > "$tmp/runtime/log.h"
printf '#include <sqlite3.h>\nint g(void) { return sqlite3_close(0); }\n' > "$tmp/db/db.c"
cp "$tmp/db/db.c" "$tmp/testsuite/db/t.c"
cp "$tmp/db/db.c" "$tmp/build/x/gen.c"

out=$(sh "$S" "$tmp"); rc=$?
want="cli/bad.c:1:#include <sqlite3.h>
cli/bad.c:2:static sqlite3 *h;
cli/bad.c:3:int f(void) { return sqlite3_close(h); }
runtime/log.h:1:#include \"db_private.h\"
sql_home: 4 uses of SQLite outside db testsuite"
[ "$rc" = 1 ] && ok || bad "exit $rc, want 1"
[ "$out" = "$want" ] && ok || bad "output:
$out"
sh "$S" "$tmp" --except runtime >/dev/null 2>&1; rc=$?
[ "$rc" = 2 ] && ok || bad "an extra argument: exit $rc, want 2 (no folder can be left out)"
finish sql_home_planted
