#!/bin/sh
# fuzz_smoke.sh CLANG IPDA_DIR TEST_DIR OUT_DIR -- a short libFuzzer run of
# kx_parse (ctest ipda_fuzz_smoke).
#
# The project builds with gcc; libFuzzer needs clang, so this script builds
# fuzz_expr_parse.c and ipda/expr.c with clang-19 directly, under
# AddressSanitizer and UBSan, and runs 20000 inputs grown from corpus/ with
# a fixed seed.  Exits 77 (ctest: skipped) when clang cannot link
# -fsanitize=fuzzer, i.e. the libFuzzer runtime (Debian: libclang-rt-19-dev)
# is not installed.
set -eu
clang=$1 ipda=$2 tests=$3 out=$4
mkdir -p "$out"

probe="$out/probe.c"
printf 'int LLVMFuzzerTestOneInput(const unsigned char *d, unsigned long n) { (void)d; (void)n; return 0; }\n' > "$probe"
if ! "$clang" -fsanitize=fuzzer,address,undefined "$probe" -o "$out/probe" 2>/dev/null; then
    echo "ipda_fuzz_smoke: skipped: $clang cannot link -fsanitize=fuzzer (install libclang-rt-19-dev)"
    exit 77
fi

"$clang" -g -O1 -std=c11 -D_POSIX_C_SOURCE=200809L -Wall -Wextra -Werror \
    -fsanitize=fuzzer,address,undefined -fno-sanitize-recover=all \
    -I"$ipda" -I"$ipda/../util" "$ipda/expr.c" "$ipda/../util/util.c" "$tests/fuzz_expr_parse.c" -o "$out/fuzz_expr_parse"

# New inputs go to a scratch corpus; the checked-in seeds are only read.
rm -rf "$out/corpus"
mkdir -p "$out/corpus"
exec "$out/fuzz_expr_parse" -runs=20000 -seed=1 -max_len=512 -timeout=10 \
    -rss_limit_mb=2048 -artifact_prefix="$out/" -print_final_stats=1 \
    "$out/corpus" "$tests/corpus"
