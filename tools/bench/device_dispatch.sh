#!/usr/bin/env bash
# Dispatch speed on the lent NVIDIA machine (device tool), in one call: the
# correctness checks (semantic tests, launch API, application chaos seeds:
# tools/bench/device_megakernel.sh), ckbench beside its baseline and the CUDA peer
# (tools/bench/device_bench.sh, with the applications alone), and the applications
# multitasked with matmul at 1,N/4,N/2,N-1 in both resizing-barrier forms.
# Carry .devpkgs (cmocka packages) and .base (baseline source, see
# device_bench.sh).
# Usage: tools/bench/device_dispatch.sh OUTDIR [APP_CHAOS_SEEDS]
set -u
out=${1:?usage: device_dispatch.sh OUTDIR [APP_CHAOS_SEEDS]}; seeds=${2:-8}
mkdir -p "$out"
here=$(dirname "$0")
bash "$here/device_megakernel.sh" "$out/mk" 2 "$seeds" > "$out/mk.log" 2>&1
grep -E "PASSED|FAILED|failed" "$out/mk.log"
CK_BENCH_APPS=1 bash "$here/device_bench.sh" "$out/bench" .base > "$out/bench.log" 2>&1
grep -A3 "Function properties" "$out/bench.log"
b=/tmp/ckb_new/tools/ckrun
for form in "" "--naive-barrier"; do
  for args in "--app bfs --graph rmat --scale 18" "--app bfs --graph grid --scale 18" "--app ws"; do
    echo "== ckrun $args $form --noncoop 1,N/4,N/2,N-1 --runs 3 --plain none"
    timeout 200 $b --device NVIDIA $args $form --noncoop 1,N/4,N/2,N-1 --runs 3 --plain none 2>&1 | tail -8
  done
done > "$out/apps.txt"
cat "$out/apps.txt"
