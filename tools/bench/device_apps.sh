#!/usr/bin/env bash
# Runs the ported applications multitasked with matmul on the lent NVIDIA
# machine (device tool): both barrier forms for BFS, work stealing, matmul
# asking for 1, N/4, N/2 and N-1 groups. JSON and tables go to OUTDIR.
# Usage: tools/bench/device_apps.sh OUTDIR [RUNS]
set -u
out=${1:?usage: device_apps.sh OUTDIR [RUNS]}; runs=${2:-3}
mkdir -p "$out"
echo libnvidia-opencl.so.1 > /etc/OpenCL/vendors/nvidia.icd
b=/tmp/ckb
rm -rf $b
meson setup -Dtests=disabled $b >$out/meson.log 2>&1 && meson compile -C $b >>$out/meson.log 2>&1 || { tail -30 $out/meson.log; exit 1; }
run() { # name, args...
  local name=$1; shift
  echo "== $name: ckrun $*"
  timeout 280 $b/tools/ckrun --device NVIDIA --runs $runs "$@" --json > $out/$name.json 2>$out/$name.err
  echo "rc=$?"; tail -3 $out/$name.err
  timeout 280 $b/tools/ckrun --device NVIDIA --runs 1 "$@" 2>/dev/null | tail -9
}
run bfs_grid_query --app bfs --graph grid --scale 18 --matmul-size 256
run bfs_grid_naive --app bfs --graph grid --scale 18 --matmul-size 256 --naive-barrier
run bfs_rmat_query --app bfs --graph rmat --scale 20 --matmul-size 256
run ws --app ws --matmul-size 256
