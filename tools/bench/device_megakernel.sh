#!/usr/bin/env bash
# Runs the megakernel's semantic tests, the launch API tests and both
# applications under chaos seeds (ckrun --chaos, multitasked with matmul) on
# the lent NVIDIA machine (device tool). The call carries .devpkgs/ (see
# device_setup.sh).
# Usage: tools/bench/device_megakernel.sh OUTDIR [CHAOS_SEEDS [APP_CHAOS_SEEDS]]
set -u
out=${1:?usage: device_megakernel.sh OUTDIR [CHAOS_SEEDS [APP_CHAOS_SEEDS]]}; seeds=${2:-4}; app_seeds=${3:-0}
mkdir -p "$out"
b=/tmp/ckb
. "$(dirname "$0")/device_setup.sh"
export CK_DEVICE=NVIDIA
set -o pipefail
CK_DUMP_SOURCE=$out/megakernel.cl timeout 500 $b/tests/megakernel/test_semantics cl12 tests/megakernel/semantics.cl $seeds 2>&1 | tee $out/semantics.log
timeout 300 $b/tests/megakernel/test_launch_api cl12 tests/megakernel/launch_kernels.cl 2>&1 | tee $out/launch_api.log
# The same with ordinary launches through the task table (a context with tasks).
timeout 300 $b/tests/megakernel/test_launch_api cl12 tests/megakernel/launch_kernels.cl table 2>&1 | tee $out/launch_api_table.log
# A chaos failure replays (a kernel that breaks a rule on purpose), the API's
# misuse cases, the loop-phase kernel, and the three examples, plainly and under a chaos seed.
timeout 300 $b/tests/megakernel/test_chaos_replay cl12 tests/megakernel/chaos_replay.cl 2>&1 | tee $out/chaos_replay.log | tail -4
timeout 120 $b/tests/api/test_api_misuse cl12 2>&1 | tee $out/api_misuse.log | tail -3
# A loop counter made transmit (the stitcher rejects it without), under chaos seeds 1..10.
timeout 300 $b/tests/megakernel/test_loop_phase cl12 tests/megakernel/loop_phase.cl 10 2>&1 | tee $out/loop_phase.log | tail -3
set +o pipefail
for e in reduction workstealing multitask; do
  for chaos in "" "--chaos 7"; do
    if (cd examples/$e && timeout 120 $b/examples/$e $chaos $(cat run-args)) > $out/example_tmp.txt 2>&1; then
      echo "example $e $chaos: PASS"
    else
      echo "example $e $chaos: FAIL"; cat $out/example_tmp.txt
    fi
  done
done | tee $out/examples.log
# Chaos on the device: every legal scheduling choice at random, thousands of
# groups, results checked against the CPU reference by ckrun.
for s in $(seq 1 $app_seeds); do
  for args in "--app bfs --graph rmat --scale 16" "--app bfs --graph grid --scale 16" "--app ws --ws-roots 4096"; do
    mm=$([ $((s % 2)) = 0 ] && echo N/2 || echo 1,N-1)
    if timeout 120 $b/tools/ckrun --device NVIDIA --chaos $s $args --noncoop $mm --matmul-size 256 --plain none \
        > $out/chaos_tmp.txt 2>&1; then
      echo "chaos $s $args: PASS $(grep -c PASS $out/chaos_tmp.txt) configurations"
    else
      echo "chaos $s $args: FAIL"; cat $out/chaos_tmp.txt
    fi
  done
done | tee $out/chaos.log
echo "app chaos runs failed: $(grep -c ': FAIL' $out/chaos.log)"
