#!/usr/bin/env bash
# Narrow tasks on the lent NVIDIA machine (device tool, carrying .devpkgs): the
# narrow-task benchmarks. Builds the project, runs every benchmark's kernel
# as one fused NDRange on the NVIDIA device against its CPU reference
# (task-kernels), then tools/cktasks: the F1 table (32 K tasks x 128
# work-items, every bench x forms a-e), the task-count sweep and the
# work-items-per-task sweep, each as JSON under OUTDIR. Stages stop starting
# once BUDGET_S seconds have passed, so that the call ends inside the device
# tool's limit; what ran is in OUTDIR/stages.txt.
# Usage: tools/bench/device_tasks.sh OUTDIR [BUDGET_S]
set -u
out=${1:?usage: device_tasks.sh OUTDIR [BUDGET_S]}; budget=${2:-540}
mkdir -p "$out"
b=/tmp/bt
source "$(dirname "$0")/device_setup.sh"
ck=$b/tools/cktasks
stage() { # name, timeout, command...
  local name=$1 t=$2; shift 2
  if (( SECONDS + 10 > budget )); then echo "$name skipped (budget)" >> $out/stages.txt; return; fi
  (( t > budget - SECONDS )) && t=$((budget - SECONDS))
  local t0=$SECONDS
  timeout "$t" "$@" > "$out/$name.out" 2> "$out/$name.err"
  echo "$name rc=$? ${SECONDS}s (took $((SECONDS - t0))s)" >> $out/stages.txt
}
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader > $out/gpu.txt 2>&1
stage task-kernels 120 $b/tests/tasks/test_task_kernels cl12 NVIDIA
stage f1 240 $ck --device NVIDIA --json
# 64 K tasks: the host's CPU reference that checks every task takes most of
# the stage (des3 alone about 100 s of CPU at that count), so it gets 300 s.
for n in 64 512 4096 65536; do
  stage tasks_$n $(( n > 4096 ? 300 : 90 )) $ck --device NVIDIA --tasks $n --json --quiet
done
for wg in 32 256 1024; do
  stage wg_$wg 90 $ck --device NVIDIA --wg $wg --json --quiet
done
