#!/usr/bin/env bash
# Follow-up measurements of the ported applications on the lent NVIDIA
# machine (device tool), for the two open questions of docs/RESULTS.md:
#   rmat: how BFS on R-MAT 2^20 scales with its group count, alone, with and
#         without idle workers spinning beside it (cooperative --groups G
#         against the persistent baseline at G groups), and the multitasked
#         runs at N/2 and N-1 in full JSON, at the usual 40 ms period and with
#         one matmul launch only;
#   ws:   work stealing at inputs large enough for the matmul stream to force
#         kills (the default input ends in about 9 ms on the H100).
# Usage: tools/bench/device_apps_study.sh OUTDIR rmat|rmat-mt|ws [RUNS]
set -u
out=${1:?usage: device_apps_study.sh OUTDIR rmat|rmat-mt|ws [RUNS]}; what=${2:?rmat, rmat-mt or ws}; runs=${3:-3}
mkdir -p "$out"
echo libnvidia-opencl.so.1 > /etc/OpenCL/vendors/nvidia.icd
b=/tmp/ckb
if [ ! -x $b/tools/ckrun ]; then
  rm -rf $b
  meson setup -Dtests=disabled $b >$out/meson.log 2>&1 && meson compile -C $b >>$out/meson.log 2>&1 ||
    { tail -30 $out/meson.log; exit 1; }
fi
run() { # name, args...
  local name=$1; shift
  echo "== $name: ckrun $*"
  timeout 250 $b/tools/ckrun --device NVIDIA "$@" --json > $out/$name.json 2>$out/$name.err
  echo "rc=$?"; tail -2 $out/$name.err
  python3 - "$out/$name.json" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
for c in d.get("configs", []):
    g = c.get("gather_ms") or {}
    print("  %-22s %-5s %9.2f ms  kills %-7s forks %-7s resizes %-5s maxM %-6s initM %-6s mm %-3s gather med %s p99 %s exec %s" % (
        c["name"], c["status"], c["coop_ms"], c.get("kills"), c.get("forks"), c.get("resizes"),
        c.get("max_active"), c.get("initial_groups"), c.get("matmul_launches"),
        g.get("median"), g.get("p99"), (c.get("exec_ms") or {}).get("median")))
PY
}
rmat="--app bfs --graph rmat --scale 20 --matmul-size 256"
case $what in
rmat)
  run rmat_alone_all $rmat --noncoop none --plain persistent --plain-groups 2375 --runs $runs
  for g in 1188 594 148 1; do
    run rmat_alone_$g $rmat --noncoop none --groups $g --plain persistent --plain-groups $g --runs $runs
  done
  ;;
rmat-mt)
  run rmat_mt40 $rmat --noncoop N/2,N-1 --runs $runs
  run rmat_mt1000 $rmat --noncoop N/4,N/2,N-1 --period-ms 1000 --runs $runs
  ;;
ws)
  for r in 65536 262144; do
    run ws_alone_$r --app ws --ws-roots $r --noncoop none --runs 1
  done
  run ws_mt_65536 --app ws --ws-roots 65536 --matmul-size 256 --runs $runs
  ;;
esac
