#!/bin/sh
# clang_home.sh ROOT -- the walker is the only code that sees libclang.
#
# Fails (exit 1, one line per finding, "FILE:LINE: text") when a C source
# or header of ROOT outside the walker module includes a <clang-c/...>
# header or calls a clang_ function.  The walker module, in one place:
#   plugin/walker.c, plugin/walk_*.c, plugin/walk_int.h
# Everything else gets the loop IR from walk_file (plugin/walker.h).
ROOT=${1:?usage: clang_home.sh ROOT}
cd "$ROOT" || exit 2
if git rev-parse --is-inside-work-tree >/dev/null 2>&1; then
    files=$(git ls-files --cached --others --exclude-standard -- '*.c' '*.h' | LC_ALL=C sort)
else
    files=$(find . -path './build*' -prune -o \( -name '*.c' -o -name '*.h' \) -print | sed 's|^\./||' | LC_ALL=C sort)
fi
found=0
for f in $files; do
    case $f in
        plugin/walker.c|plugin/walk_*.c|plugin/walk_int.h) continue ;;
    esac
    [ -f "$f" ] || continue
    hits=$(grep -nE '#[[:space:]]*include[[:space:]]*<clang-c/|(^|[^A-Za-z0-9_])clang_[A-Za-z0-9_]+[[:space:]]*\(' "$f")
    if [ -n "$hits" ]; then
        echo "$hits" | sed "s|^|$f:|"
        found=1
    fi
done
exit $found
