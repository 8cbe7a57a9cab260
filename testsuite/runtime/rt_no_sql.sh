#!/bin/sh
# rt_no_sql.sh SRCDIR -- db/ owns the runtime's SQL: no file of runtime/
# includes sqlite3.h or calls an sqlite3_ function (the decisions, history
# and calibration rows go through db/db_log.h, the facts through db.h).
# Prints each offending line and fails.
src=$1/runtime
[ -d "$src" ] || { echo "rt_no_sql: $src: no such folder"; exit 1; }
n=$(ls "$src"/*.c "$src"/*.h | wc -l)
[ "$n" -gt 5 ] || { echo "rt_no_sql: only $n files in $src"; exit 1; }
if grep -n -E 'sqlite3_[a-z]|#[[:space:]]*include[[:space:]]*<sqlite3\.h>' "$src"/*.c "$src"/*.h; then
    echo "rt_no_sql: SQLite used in runtime/ (the lines above); move it into db/"
    exit 1
fi
echo "rt_no_sql: ok ($n files)"
