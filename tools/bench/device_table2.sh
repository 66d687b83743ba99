#!/usr/bin/env bash
# The paper's Table 2, fairly (ckstudy --table2, docs/STUDY.md "Table 2"), on
# the lent NVIDIA machine (device tool): builds the project without tests
# into /tmp, runs the full preset's app/input pairs for RUNS rounds (default
# 10) of the cooperative kernel alone, the plain persistent kernel and the
# plain one built with -DCK_PLAIN_BARRIER_FENCED, writes OUTDIR/t2 (runs.csv,
# table2.md/.csv, summary.json), ckstudy's stderr beside it, and tars the
# folder into OUTDIR/t2.tar.gz. Extra options go to ckstudy (--apps bfs,color
# to split the work over several calls: each call has 10 minutes).
# Usage: tools/bench/device_table2.sh OUTDIR [RUNS [ckstudy options...]]
# CK_T2_TIMEOUT_S (default 540) bounds ckstudy, leaving the copy and the tar
# their time within the device tool's 600 s per call.
set -u
out=${1:?usage: device_table2.sh OUTDIR [RUNS [ckstudy options...]]}; runs=${2:-10}
shift $(( $# >= 2 ? 2 : 1 ))
case $runs in ''|*[!0-9]*) echo "device_table2.sh: RUNS '$runs' is not a whole number" >&2; exit 2 ;; esac
mkdir -p "$out" || exit 1
. "$(dirname "$0")/device_build.sh"
t0=$(date +%s)
timeout "${CK_T2_TIMEOUT_S:-540}" $b/tools/ckstudy --table2 --preset full --device NVIDIA --no-plots --runs "$runs" \
  --out "$out/t2" "$@" 2> >(tee "$out/ckstudy-table2.err" >&2)
rc=$?
echo "== ckstudy --table2 --preset full --runs $runs $*: rc=$rc in $(( $(date +%s) - t0 )) s"
cp "$out/ckstudy-table2.err" "$out/t2/" 2>/dev/null
tar -czf "$out/t2.tar.gz" -C "$out" t2 || rc=1
cat "$out/t2/table2.md" 2>/dev/null
exit $rc
