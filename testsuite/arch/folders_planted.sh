#!/bin/sh
# folders_planted.sh ROOT -- folders.sh finds what it is meant to find.
# On a copy of docs/architecture.md whose plugin/ row says what plugin/
# includes (analysis, ipda, db, util, libclang) it passes; with a planted
# folder that does not exist, a folder of the tree left out, a use the
# table forbids, a use that never happens and a
# source file that is not there, it fails with one line for
# each of them.
ROOT=${1:?usage: folders_planted.sh ROOT}
CHECK=$(dirname "$0")/folders.sh
dir=$(mktemp -d "${TMPDIR:-/tmp}/keel-arch.XXXXXX") || exit 2
trap 'rm -rf "$dir"' EXIT
plugin_row='| `plugin/` | analysis, ipda, db (the writer), util, libclang (the walker module only) |'
awk -v row="$plugin_row" '/^\| `plugin\/` \| analysis/ && !done { print row; done = 1; next } { print }' \
    "$ROOT/docs/architecture.md" > "$dir/good.md"
fail=0
if ! out=$(sh "$CHECK" "$ROOT" "$dir/good.md"); then
    echo "FAIL: the corrected note does not pass:"; printf '%s\n' "$out"; fail=1
fi
# plant: a ghost folder instead of bench/, db/ without util, runtime/ with plugin
awk '
  /^\| `bench\/` \|/ { print "| `ghost/` | nothing |"; next }
  /^\| `db\/` \| SQLite, util/ { print "| `db/` | SQLite |"; next }
  /^\| `runtime\/` \|/ { print "| `runtime/` | db, analysis, ipda, util, plugin |"; next }
  /^## Conventions/ { print "The walk ends in `runtime/gone.c`."; print "" }
  { print }' "$dir/good.md" > "$dir/bad.md"
out=$(sh "$CHECK" "$ROOT" "$dir/bad.md")
rc=$?
out=$(printf '%s\n' "$out" | sed 's/ ([^)]*)//')   # the example file may change
want='architecture.md: Folders lists ghost/, which does not exist
architecture.md: Folders does not list bench/
architecture.md: db/ uses util, which '"'"'may use'"'"' does not allow
architecture.md: '"'"'may use'"'"' says runtime/ uses plugin, but no file of runtime/ includes it
architecture.md: names runtime/gone.c, which is not in the tree'
if [ $rc -ne 1 ] || [ "$out" != "$want" ]; then
    echo "FAIL: planted errors: rc $rc, got:"; printf '%s\n' "$out"; echo "want:"; printf '%s\n' "$want"
    fail=1
fi
[ $fail = 0 ] && echo "ok: the corrected note passes, 5 planted errors found"
exit $fail
