#!/bin/sh
# run.sh TEST_OOM STEP MODE INPUT -- one allocation-failure loop in a fresh
# scratch folder (in /dev/shm when it is writable: the loop writes a small
# database thousands of times), removed afterwards.
set -u
prog=$1 step=$2 mode=$3 input=$4
base=${TMPDIR:-/tmp}
[ -d /dev/shm ] && [ -w /dev/shm ] && base=/dev/shm
dir=$(mktemp -d "$base/keel-oom.XXXXXX") || exit 1
OOM_STEP=$step "$prog" "$mode" "$input" "$dir"
rc=$?
rm -rf "$dir"
exit $rc
