#!/usr/bin/env bash
# Synchronisation for kernel authors on the lent NVIDIA machine (device
# tool): the portable synchronisation calls of ck_cooperative.h (test_sync:
# plain OpenCL at the occupancy, and through the framework under chaos
# seeds), and the work-stealing app whose queue locks use them: plain
# persistent baseline at the occupancy, cooperative alone and multitasked
# with matmul, chaos seeds.
# The call carries .devpkgs/ (see device_setup.sh).
# Usage: tools/bench/device_sync.sh OUTDIR [CHAOS_SEEDS]
set -u
out=${1:?usage: device_sync.sh OUTDIR [CHAOS_SEEDS]}; seeds=${2:-5}
mkdir -p "$out"
b=/tmp/ckb
. "$(dirname "$0")/device_setup.sh"
export CK_DEVICE=NVIDIA
set -o pipefail
echo "== test_sync (plain and framework, $seeds chaos seeds)"
timeout 400 $b/tests/megakernel/test_sync cl12 tests/megakernel/sync_kernels.cl include $seeds 2>&1 | tee $out/sync.log
echo "== work stealing: plain persistent baseline, alone, multitasked (3 runs each)"
timeout 400 $b/tools/ckrun --device NVIDIA --app ws --matmul-size 256 --runs 3 2>&1 | tee $out/ws.log
set +o pipefail
echo "== work stealing under chaos, multitasked"
for s in $(seq 1 $seeds); do
  mm=$([ $((s % 2)) = 0 ] && echo N/2 || echo 1,N-1)
  if timeout 120 $b/tools/ckrun --device NVIDIA --chaos $s --app ws --noncoop $mm --matmul-size 256 \
      --plain none > $out/chaos_tmp.txt 2>&1; then
    echo "chaos $s ws --noncoop $mm: PASS $(grep -c PASS $out/chaos_tmp.txt) configurations"
  else
    echo "chaos $s ws --noncoop $mm: FAIL"; cat $out/chaos_tmp.txt
  fi
done | tee $out/chaos.log
echo "ws chaos runs failed: $(grep -c ': FAIL' $out/chaos.log)"
