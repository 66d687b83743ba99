#!/usr/bin/env bash
# Plain-OpenCL synchronisation against the megakernel's and CUDA's on the
# lent NVIDIA machine (device tool): ckbench's plain_sync figures (the plain
# global barrier of ck_cooperative.h in its current and earlier form, the
# lock forms against a hand-written atom.cas + membar.gl lock) beside the
# megakernel's barrier and grid.sync at the same group count, at work-groups
# of 128 (the study's) and 64, two runs each; then the plain-compatibility
# and synchronisation tests on the GPU. The call carries .devpkgs/ (see
# device_setup.sh).
# Usage: tools/bench/device_plain_sync.sh OUTDIR [BARRIERS]
set -u
out=${1:?usage: device_plain_sync.sh OUTDIR [BARRIERS]}; barriers=${2:-10000}
mkdir -p "$out"
b=/tmp/ckb
. "$(dirname "$0")/device_setup.sh"
nvcc -O2 -arch=sm_90 tools/bench/ckbench_cuda.cu -o /tmp/ckbench_cuda >"$out/nvcc.log" 2>&1 || { cat "$out/nvcc.log"; exit 1; }
for wg in 128 64; do
  for r in 1 2; do
    echo "== ckbench, work-groups of $wg, run $r"
    timeout 250 $b/tools/ckbench --device NVIDIA --wg-size $wg --barriers "$barriers" --json \
      --cuda /tmp/ckbench_cuda > "$out/bench_wg${wg}_$r.json" 2> "$out/bench_wg${wg}_$r.err"
    echo "exit $?"
    python3 tools/bench/plain_sync_summary.py "$out/bench_wg${wg}_$r.json" || tail -5 "$out/bench_wg${wg}_$r.err"
  done
done
echo "== plain compatibility and synchronisation tests on the GPU"
export CK_DEVICE=NVIDIA
for p in cl12; do
  timeout 200 $b/tests/megakernel/test_plain_compat $p tests/megakernel/compat_kernels.cl include 2>&1 | tail -5
  timeout 300 $b/tests/megakernel/test_sync $p tests/megakernel/sync_kernels.cl include 3 2>&1 | tail -5
done
