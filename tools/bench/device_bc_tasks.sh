#!/usr/bin/env bash
# On the lent NVIDIA machine (device tool, carrying .devpkgs): bc with its
# phases as helpers holding resizing barriers at the paper-sized
# bc-1k input against its plain baselines, and 5 chaos seeds multitasked with
# matmul, every result checked against the CPU reference by ckrun; then the
# narrow-task work-items-per-task sweep at 4096 tasks (wg 32, 64
# and 256 for every bench; wg 1024 for the benches that take it on NVIDIA).
# Usage: tools/bench/device_bc_tasks.sh OUTDIR
set -u
out=${1:?usage: device_bc_tasks.sh OUTDIR}; mkdir -p $out; b=/tmp/bt
source "$(dirname "$0")/device_setup.sh"
ck=$b/tools/cktasks
( time timeout 200 $b/tools/ckrun --device NVIDIA --app bc --graph bc-1k --runs 1 ) > $out/bc1k.txt 2>&1
echo "bc1k rc=$?" >> $out/stages.txt
for s in 1 2 3 4 5; do
  timeout 100 $b/tools/ckrun --device NVIDIA --chaos $s --app bc --graph bc-1k-ci --bc-sources 32 --noncoop $([ $((s % 2)) = 0 ] && echo N/2 || echo 1,N-1) --matmul-size 256 --plain none > $out/bc_chaos_$s.txt 2>&1
  echo "bc chaos $s rc=$? PASS=$(grep -c PASS $out/bc_chaos_$s.txt)" >> $out/stages.txt
done
for wg in 32 64 256; do
  timeout 120 $ck --device NVIDIA --wg $wg --tasks 4096 --json --quiet > $out/wg_$wg.json 2> $out/wg_$wg.err
  echo "wg $wg rc=$?" >> $out/stages.txt
done
for bn in mb conv dct fb des3; do
  timeout 60 $ck --device NVIDIA --wg 1024 --tasks 4096 --bench $bn --json --quiet > $out/wg_1024_$bn.json 2> $out/wg_1024_$bn.err
  echo "wg 1024 $bn rc=$?" >> $out/stages.txt
done
cat $out/stages.txt
