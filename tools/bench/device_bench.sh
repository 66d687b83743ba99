#!/usr/bin/env bash
# Dispatch speed on the lent NVIDIA machine (device tool): ckbench (dispatch,
# barriers, gathers, occupancy) beside its CUDA peer on the same GPU, for the
# working tree and, if given, for an earlier commit built in the same call, so
# a change is measured against its baseline in one run. Also the
# megakernel's register, shared and local memory use (ptxas -v on its PTX).
# The device copy has no git history: give the baseline as a source folder
# the call carries (git archive COMMIT | tar -x -C .base; carry .base).
# CK_BENCH_MAXRREG="auto 32 40" also runs ckbench with those register caps
# (CK_REGISTER_CAP; its JSON gives each megakernel's registers and spills)
# and, with CK_BENCH_APPS=1, BFS and work stealing under each.
# With CK_BENCH_APPS=1 it also runs BFS (grid 2^18) and work stealing alone
# against their plain baselines.
# Usage: tools/bench/device_bench.sh OUTDIR [BASELINE_SOURCE_DIR]
set -u
out=${1:?usage: device_bench.sh OUTDIR [BASELINE_SOURCE_DIR]}; base=${2:-}
mkdir -p "$out"
echo libnvidia-opencl.so.1 > /etc/OpenCL/vendors/nvidia.icd
nvcc -O2 -arch=sm_90 tools/bench/ckbench_cuda.cu -o /tmp/ckbench_cuda >$out/nvcc.log 2>&1 || { cat $out/nvcc.log; exit 1; }
build() { # source dir, build dir
  meson setup -Dtests=disabled "$2" "$1" >>$out/meson.log 2>&1 && meson compile -C "$2" >>$out/meson.log 2>&1 ||
    { tail -30 $out/meson.log; exit 1; }
}
build . /tmp/ckb_new
if [ -n "$base" ]; then
  build "$base" /tmp/ckb_base
fi
for r in 1 2; do
  if [ -n "$base" ]; then
    echo "== baseline $base, run $r"
    timeout 250 /tmp/ckb_base/tools/ckbench --device NVIDIA --json --cuda /tmp/ckbench_cuda | tee $out/base_$r.json
  fi
  echo "== working tree, run $r"
  timeout 250 /tmp/ckb_new/tools/ckbench --device NVIDIA --json --cuda /tmp/ckbench_cuda | tee $out/new_$r.json
done
CK_DUMP_BINARY=/tmp/mk.ptx timeout 250 /tmp/ckb_new/tools/ckbench --device NVIDIA | tee $out/new_table.txt
echo "== megakernel resources (ptxas -v of the dumped PTX)"
ls -la /tmp/mk.ptx; head -c 300 /tmp/mk.ptx; echo
tr -d '\000' < /tmp/mk.ptx > /tmp/mk_clean.ptx
"$(dirname "$(command -v nvcc)")/ptxas" -arch=sm_90 -v /tmp/mk_clean.ptx -o /tmp/mk.cubin 2>&1 | tail -4 | tee $out/ptxas.txt
apps() { # file suffix
  timeout 250 /tmp/ckb_new/tools/ckrun --device NVIDIA --app bfs --graph grid --scale 18 --noncoop none --runs 3 \
    2>&1 | tail -4 | tee $out/bfs_grid$1.txt
  timeout 250 /tmp/ckb_new/tools/ckrun --device NVIDIA --app ws --noncoop none --runs 3 2>&1 | tail -4 | tee $out/ws$1.txt
}
for r in ${CK_BENCH_MAXRREG:-}; do
  echo "== working tree with CK_REGISTER_CAP=$r"
  CK_REGISTER_CAP=$r timeout 250 /tmp/ckb_new/tools/ckbench --device NVIDIA --json | tee $out/maxrreg_$r.json
  if [ "${CK_BENCH_APPS:-0}" = 1 ]; then
    echo "== applications alone with CK_REGISTER_CAP=$r (3 runs each)"
    (export CK_REGISTER_CAP=$r; apps "_cap$r")
  fi
done
if [ "${CK_BENCH_APPS:-0}" = 1 ]; then
  echo "== applications alone against their plain baselines (3 runs each)"
  apps ""
fi
