#!/bin/sh
# fuzz_long.sh [RUNS] [OUT_DIR] -- the on-demand long libFuzzer run of kx_parse.
#
# Same build as the ctest smoke run (fuzz_smoke.sh: clang-19, ASan + UBSan,
# fuzz_expr_parse.c + ipda/expr.c) but RUNS executions (default 10000000,
# the figure the README records) in one process, with its own scratch
# corpus and artifacts under OUT_DIR (default /tmp/keel-fuzz-long).  Prints
# libFuzzer's final stats (number of executed units, exec/s); a crash leaves
# crash-* under OUT_DIR and a nonzero exit status.
# SEED and MAX_LEN (input bytes) may be set in the environment (defaults 1
# and 512); several processes with other seeds add up on several cores.
#     sh testsuite/ipda/fuzz_long.sh                # 10 million
#     nohup sh testsuite/ipda/fuzz_long.sh 10000000 /tmp/f > /tmp/f.log 2>&1 &
#     SEED=4 MAX_LEN=128 sh testsuite/ipda/fuzz_long.sh 3600000 /tmp/f4
set -eu
runs=${1:-10000000}
out=${2:-/tmp/keel-fuzz-long}
seed=${SEED:-1}
max_len=${MAX_LEN:-512}
here=$(cd "$(dirname "$0")" && pwd)
ipda=$here/../../ipda
clang=${KEEL_CLANG:-clang-19}
mkdir -p "$out/corpus"
"$clang" -g -O1 -std=c11 -D_POSIX_C_SOURCE=200809L -Wall -Wextra -Werror \
    -fsanitize=fuzzer,address,undefined -fno-sanitize-recover=all \
    -I"$ipda" "$ipda/expr.c" "$here/fuzz_expr_parse.c" -o "$out/fuzz_expr_parse"
exec "$out/fuzz_expr_parse" -runs="$runs" -seed="$seed" -max_len="$max_len" -timeout=10 \
    -rss_limit_mb=4096 -artifact_prefix="$out/" -print_final_stats=1 \
    "$out/corpus" "$here/corpus"
