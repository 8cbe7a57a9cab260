#!/bin/sh
# sql_home.sh ROOT -- db/ is the only home of SQL.
#
# Fails (exit 1, one line per finding, "FILE:LINE: text") when a C source
# or header of ROOT outside the folders below uses SQLite: calls or names
# a sqlite3_ function or type, declares a `sqlite3 *` connection, or
# includes <sqlite3.h> or db/'s private header db_private.h.  Everything
# else reaches the database through db/'s functions (db.h, db_*.h).
#
# The folders that may use SQLite, in one place:
#   db         the schema, migrations, every query (the database's owner)
#   testsuite  tests open databases directly to craft and inspect them
ALLOWED="db testsuite"
ROOT=${1:?usage: sql_home.sh ROOT}
[ $# -eq 1 ] || { echo "sql_home.sh: usage: sql_home.sh ROOT" >&2; exit 2; }
cd "$ROOT" || exit 2

# the sources: git's list when ROOT is a checkout, else every *.c / *.h
# outside build folders
if git rev-parse --is-inside-work-tree >/dev/null 2>&1; then
    files=$(git ls-files --cached --others --exclude-standard -- '*.c' '*.h' | LC_ALL=C sort)
else
    files=$(find . -path './build*' -prune -o \( -name '*.c' -o -name '*.h' \) -print | sed 's|^\./||' | LC_ALL=C sort)
fi
found=0
for f in $files; do
    top=${f%%/*}
    [ "$top" = "$f" ] && top=.
    skip=0
    for a in $ALLOWED; do
        [ "$top" = "$a" ] && skip=1
    done
    [ $skip = 1 ] && continue
    [ -f "$f" ] || continue
    hits=$(grep -nE '\bsqlite3_[A-Za-z0-9_]+|\bsqlite3[[:space:]]*\*|#[[:space:]]*include[[:space:]]*[<"](sqlite3\.h|db_private\.h)[>"]' "$f")
    if [ -n "$hits" ]; then
        printf '%s\n' "$hits" | sed "s|^|$f:|"
        found=$((found + $(printf '%s\n' "$hits" | wc -l)))
    fi
done
if [ "$found" -gt 0 ]; then
    echo "sql_home: $found uses of SQLite outside $ALLOWED"
    exit 1
fi
echo "sql_home: no SQLite outside $ALLOWED"
