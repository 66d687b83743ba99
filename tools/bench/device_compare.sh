#!/usr/bin/env bash
# A change against its baseline on the lent NVIDIA machine (device tool), in
# one call: ckbench of the working tree and of the baseline, alternating,
# RUNS times each at the register cap auto, once each with no cap (both
# megakernels' registers and spills are in every JSON), then the working
# tree's device checks: the semantic tests, the launch API (scheduler path
# and task table), the task API, and app chaos (ckrun --chaos on bfs and ws,
# APP_SEEDS seeds). Carry .devpkgs (device_setup.sh) and the baseline's
# source folder (device_prepare.sh BASE_COMMIT makes .base). CKBENCH_ARGS
# adds options to every ckbench run (both trees); NOCAP=0 skips the
# uncapped pair.
# Usage: tools/bench/device_compare.sh OUTDIR BASELINE_SOURCE_DIR [RUNS [APP_SEEDS]]
set -u
out=${1:?usage: device_compare.sh OUTDIR BASELINE_SOURCE_DIR [RUNS [APP_SEEDS]]}
base=${2:?usage: device_compare.sh OUTDIR BASELINE_SOURCE_DIR [RUNS [APP_SEEDS]]}
runs=${3:-3}; app_seeds=${4:-2}
read -r -a extra <<< "${CKBENCH_ARGS:-}"
t0=$(date +%s)
mkdir -p "$out"
b=/tmp/ckb
. "$(dirname "$0")/device_setup.sh"
meson setup -Dtests=disabled /tmp/ckb_base "$base" >>"$out/meson.log" 2>&1 &&
  meson compile -C /tmp/ckb_base >>"$out/meson.log" 2>&1 || { tail -30 "$out/meson.log"; exit 1; }
echo "builds ready after $(( $(date +%s) - t0 )) s"
export CK_DEVICE=NVIDIA
for r in $(seq 1 "$runs"); do
  timeout 250 /tmp/ckb_base/tools/ckbench --device NVIDIA --json "${extra[@]}" > "$out/base_$r.json" 2> "$out/base_$r.err" ||
    { echo "baseline ckbench run $r failed"; tail -5 "$out/base_$r.err"; }
  timeout 250 $b/tools/ckbench --device NVIDIA --json "${extra[@]}" > "$out/new_$r.json" 2> "$out/new_$r.err" ||
    { echo "working tree ckbench run $r failed"; tail -5 "$out/new_$r.err"; }
  echo "ckbench run $r done after $(( $(date +%s) - t0 )) s"
done
[ "${NOCAP:-1}" = 0 ] || {
CK_REGISTER_CAP=none timeout 250 /tmp/ckb_base/tools/ckbench --device NVIDIA --json "${extra[@]}" > "$out/base_nocap.json" 2>/dev/null
CK_REGISTER_CAP=none timeout 250 $b/tools/ckbench --device NVIDIA --json "${extra[@]}" > "$out/new_nocap.json" 2>/dev/null
}
echo "ckbench done after $(( $(date +%s) - t0 )) s"
check() { # name, timeout, command...
  local name=$1 limit=$2; shift 2
  if timeout "$limit" "$@" > "$out/$name.log" 2>&1; then echo "$name: PASS"; else echo "$name: FAIL"; tail -15 "$out/$name.log"; fi
}
check semantics 500 $b/tests/megakernel/test_semantics cl12 tests/megakernel/semantics.cl 4
check launch_api 300 $b/tests/megakernel/test_launch_api cl12 tests/megakernel/launch_kernels.cl
check launch_api_table 300 $b/tests/megakernel/test_launch_api cl12 tests/megakernel/launch_kernels.cl table
check tasks_api 300 $b/tests/megakernel/test_tasks cl12 tests/megakernel/task_kernels.cl 2
check policy 60 $b/tests/megakernel/test_policy
for s in $(seq 1 "$app_seeds"); do
  for args in "--app bfs --graph rmat --scale 16" "--app bfs --graph grid --scale 16" "--app ws --ws-roots 4096"; do
    mm=$([ $((s % 2)) = 0 ] && echo N/2 || echo 1,N-1)
    check "app_chaos_${s}_$(echo $args | tr -c 'a-z0-9\n' _)" 120 $b/tools/ckrun --device NVIDIA --chaos $s $args \
      --noncoop $mm --matmul-size 256 --plain none
  done
done
echo "all done after $(( $(date +%s) - t0 )) s"
