#!/bin/sh
# h100-rescore.sh BUNDLE RESULTS [KEEL] -- back here, score keel's models
# with the calibration that BUNDLE/run.sh (bench/h100-run.sh) measured on
# the other machine; RESULTS holds the files it wrote ($OUT: host.txt,
# dbs.tar.gz, measured.txt ...).  No timing is done here.
#
#  1. the CPU truth: bench/cpu-truth.py --measured RESULTS/measured.txt over
#     the calibrated databases (sequential and omp-target inputs, MEDIUM and
#     LARGE; the omp-target ones at 1 thread and at that machine's cores);
#  2. bench/measured-h100.txt's rows (bench/verdicts.py --programs --terms,
#     16 threads) twice: with the host profile bench/machines/
#     lent-host.machine, then with `--host host`, the calibration.  The
#     profiles (lent-host.machine, lent-h100.machine) are this
#     repository's, not the bundle's copies: a profile edited since the
#     bundle was made is the one scored.
#
# A calibration is read by the hostname it was measured on, so both run
# under that machine's hostname in a user and UTS namespace of their own
# (unshare -rU --uts; nothing else changes).  Databases of an older schema
# are migrated to KEEL's first (an empty `keel scan`).  KEEL defaults to the bundle's
# keel (with BUNDLE/lib).  The scripts are the bundle's copies (BUNDLE/src):
# the databases name those sources.
set -eu
bundle=$(cd "${1:?usage: h100-rescore.sh BUNDLE RESULTS [KEEL]}" && pwd)
res=$(cd "${2:?usage: h100-rescore.sh BUNDLE RESULTS [KEEL]}" && pwd)
keel=${3:-$bundle/bin/keel}
machines=$(cd "$(dirname "$0")/machines" && pwd)
export LD_LIBRARY_PATH="$bundle/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
host=$(sed -n '/^== hostname$/{n;p;q}' "$res/host.txt")
cores=$(sed -n '/^== nproc$/{n;p;q}' "$res/host.txt")
[ -n "$host" ] && [ -n "$cores" ] || { echo "h100-rescore.sh: no hostname or nproc in $res/host.txt" >&2; exit 1; }
work=$(mktemp -d)
tar xzf "$res/dbs.tar.gz" -C "$work"
# databases of an older schema: keel opens them read-only and refuses; an
# empty scan opens each for writing, which migrates it (and adds nothing)
echo '[]' > "$work/compile_commands.json"
for d in "$work"/*.db; do
    "$keel" scan -p "$work/compile_commands.json" "$d" >/dev/null
done
as_host() { unshare -rU --uts sh -c 'hostname "$0" && exec "$@"' "$host" "$@"; }
# the thread counts measured.txt holds (1 and the cores; nproc / 4 too from
# bundles that run it)
thr=$(sed -n 's/.* thr \([0-9]*\) .*/\1/p' "$res/measured.txt" | sort -nu | paste -sd, -)
echo "== CPU truth on $host ($cores cores; threads ${thr:-1,$cores}), with its calibration"
as_host python3 "$bundle/src/bench/cpu-truth.py" --omp --work "$work" \
    --measured "$res/measured.txt" --keel "$keel" --threads "${thr:-1,$cores}" ||
    echo "cpu-truth.py: exit $? (no rows scored)"
echo
echo "== bench/measured-h100.txt, host profile lent-host.machine"
as_host python3 "$bundle/src/bench/verdicts.py" --programs "$bundle/src/bench/measured-h100.txt" \
    --terms --threads 16 --dbdir "$work" --keel "$keel" \
    --host "$machines/lent-host.machine" --device "$machines/lent-h100.machine" || echo "verdicts.py: exit $?"
echo
echo "== bench/measured-h100.txt, --host host: the calibration of $host"
as_host python3 "$bundle/src/bench/verdicts.py" --programs "$bundle/src/bench/measured-h100.txt" \
    --terms --host host --device "$machines/lent-h100.machine" --threads 16 --dbdir "$work" \
    --keel "$keel" || echo "verdicts.py: exit $?"
echo "(databases kept in $work)"
