#!/usr/bin/env bash
# The task API on the lent NVIDIA machine (device tool, carrying
# .devpkgs and, for a baseline, a source folder): the task API tests on the
# NVIDIA device, ckbench (empty tasks beside launches, with the CUDA peer)
# for the working tree and the baseline built in the same call, and
# tools/cktasks: the F1 table with forms a, d and f, continuous against
# batched spawning, the task-count and the work-items-per-task sweeps, each
# as JSON under OUTDIR. Stages stop starting once BUDGET_S seconds have
# passed; OUTDIR/stages.txt says what ran. STAGES="a b" runs only those
# (names: api bench regs base f1 batched count wg).
# Usage: tools/bench/device_task_api.sh OUTDIR [BUDGET_S] [BASELINE_SOURCE_DIR]
set -u
out=${1:?usage: device_task_api.sh OUTDIR [BUDGET_S] [BASELINE_SOURCE_DIR]}; budget=${2:-540}; base=${3:-}
want=${STAGES:-api bench regs base f1 batched count wg}
mkdir -p "$out"
b=/tmp/bt
source "$(dirname "$0")/device_setup.sh"
ck=$b/tools/cktasks
nvcc -O2 -arch=sm_90 tools/bench/ckbench_cuda.cu -o /tmp/ckbench_cuda >$out/nvcc.log 2>&1
on() { [[ " $want " == *" $1 "* ]]; }
stage() { # name, timeout, command...
  local name=$1 t=$2; shift 2
  if (( SECONDS + 10 > budget )); then echo "$name skipped (budget)" >> $out/stages.txt; return; fi
  (( t > budget - SECONDS )) && t=$((budget - SECONDS))
  local t0=$SECONDS
  timeout "$t" "$@" > "$out/$name.out" 2> "$out/$name.err"
  echo "$name rc=$? ${SECONDS}s (took $((SECONDS - t0))s)" >> $out/stages.txt
}
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader > $out/gpu.txt 2>&1
on api && CK_DEVICE=NVIDIA stage tasks-api 150 $b/tests/megakernel/test_tasks cl12 tests/megakernel/task_kernels.cl 5
on bench && stage ckbench 150 $b/tools/ckbench --device NVIDIA --json --cuda /tmp/ckbench_cuda
if on regs; then # the megakernel's registers (ptxas -v on its dumped PTX)
  CK_DUMP_BINARY=/tmp/mk.ptx timeout 120 $b/tools/ckbench --device NVIDIA --iterations 10 >/dev/null 2>&1
  tr -d '\000' < /tmp/mk.ptx > /tmp/mk_clean.ptx
  "$(dirname "$(command -v nvcc)")/ptxas" -arch=sm_90 -v /tmp/mk_clean.ptx -o /tmp/mk.cubin > $out/ptxas.txt 2>&1
fi
if on base && [ -n "$base" ]; then
  meson setup -Dtests=disabled /tmp/bbase "$base" >>$out/meson_base.log 2>&1 && meson compile -C /tmp/bbase \
    >>$out/meson_base.log 2>&1 && stage ckbench_base 150 /tmp/bbase/tools/ckbench --device NVIDIA --json
  on bench && stage ckbench_2 150 $b/tools/ckbench --device NVIDIA --json
fi
on f1 && stage f1 300 $ck --device NVIDIA --forms a,d,f --json
on batched && stage batched_1024 90 $ck --device NVIDIA --forms f --task-batch 1024 --json --quiet
for n in 64 512 4096 65536; do
  on count && stage tasks_$n 90 $ck --device NVIDIA --forms a,f --tasks $n --json --quiet
done
for wg in 32 256 1024; do
  on wg && stage wg_$wg 90 $ck --device NVIDIA --forms a,f --wg $wg --json --quiet
done
exit 0
