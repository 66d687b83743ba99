#!/usr/bin/env bash
# The portable mutex against the hand-written NVIDIA lock in the lock-heavy
# applications (ws, octree, game), on the lent NVIDIA machine (device tool):
# ckstudy --table2 on those apps built as they are, then with
# CK_BUILD_OPTIONS=-DCK_MUTEX_HANDWRITTEN_PTX (ck_cooperative.h's mutex
# becomes ck_atomics.h's atomicCAS + membar.gl lock, in the cooperative and in
# the plain form alike), alternating for PAIRS pairs of runs of RUNS rounds;
# then the lock microbenchmark (ckbench's plain_sync). Every table goes to
# OUTDIR, tarred into OUTDIR/locks.tar.gz.
# Usage: tools/bench/device_locks.sh OUTDIR [RUNS [PAIRS]]
set -u
out=${1:?usage: device_locks.sh OUTDIR [RUNS [PAIRS]]}; runs=${2:-5}; pairs=${3:-2}
mkdir -p "$out/locks" || exit 1
. "$(dirname "$0")/device_build.sh"
t2() { # NAME, then the environment's CK_BUILD_OPTIONS
  timeout 200 $b/tools/ckstudy --table2 --preset full --device NVIDIA --no-plots --runs "$runs" \
    --apps ws,octree,game --out "$out/locks/$1" >/dev/null 2>"$out/locks/$1.err"
  echo "== $1 (CK_BUILD_OPTIONS='${CK_BUILD_OPTIONS:-}'): rc $?"
  sed -n '/^| [a-z]/p' "$out/locks/$1/table2.md" | grep -v '^| app\|^| geomean\|^| max'
}
for p in $(seq 1 "$pairs"); do
  t2 portable-$p
  CK_BUILD_OPTIONS=-DCK_MUTEX_HANDWRITTEN_PTX t2 handwritten-$p
done
timeout 100 $b/tools/ckbench --device NVIDIA --wg-size 128 --barriers 2000 --json > "$out/locks/bench.json" 2>/dev/null &&
  python3 tools/bench/plain_sync_summary.py "$out/locks/bench.json" | grep mutex
tar -czf "$out/locks.tar.gz" -C "$out" locks
