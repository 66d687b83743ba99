#!/usr/bin/env bash
# Shutdown, the checking build and chaos stress on the lent NVIDIA machine
# (device tool; carry .devpkgs, see device_setup.sh). Builds the project in
# /tmp/ckb unless a build of this tree is there (a warm machine keeps it),
# runs the shutdown, accounting and input tests on the GPU (cl12), the app
# chaos checks of device_megakernel.sh (ckrun --chaos on bfs and ws, APP_SEEDS
# seeds), then the applications' chaos test (tests/apps/test_apps_chaos, the
# suite's, on the GPU through CK_DEVICE) for chunks of seeds over all ten
# applications, round after round, until SECONDS have passed since the start;
# every failing chunk's log is kept. The last line counts seeds and failures.
# STREAMS test processes run at once (each its own seeds: stream k from
# FIRST_SEED + k * 100000), so that their megakernels share the GPU.
# Usage: tools/bench/device_reliability.sh OUTDIR [SECONDS [APP_SEEDS [FIRST_SEED [CHUNK [STREAMS [TESTS]]]]]]
# (TESTS 0 skips the shutdown, accounting and input tests.) The environment's APPS
# (names separated by spaces) limits the stress to those applications.
set -u
out=${1:?usage: device_reliability.sh OUTDIR [SECONDS [APP_SEEDS [FIRST_SEED [CHUNK [STREAMS [TESTS]]]]]]}
budget=${2:-480}; app_seeds=${3:-2}; first=${4:-1000}; chunk=${5:-25}; streams=${6:-1}; tests=${7:-1}
t0=$(date +%s)
mkdir -p "$out"
b=/tmp/ckb
stamp=$(git rev-parse HEAD 2>/dev/null; git status --porcelain 2>/dev/null | md5sum)
if [ ! -x $b/tests/apps/test_apps_chaos ] || [ "$(cat $b/.tree 2>/dev/null)" != "$stamp" ]; then
  . "$(dirname "$0")/device_setup.sh"
  echo "$stamp" > $b/.tree
else
  echo libnvidia-opencl.so.1 > /etc/OpenCL/vendors/nvidia.icd
  export LD_LIBRARY_PATH=/tmp/cm/usr/lib/x86_64-linux-gnu
fi
echo "build ready after $(( $(date +%s) - t0 )) s"
export CK_DEVICE=NVIDIA
[ "$tests" = 0 ] && set --
[ "$tests" != 0 ] && set -- "megakernel/test_shutdown cl12 tests/megakernel/shutdown_kernels.cl" \
  "megakernel/test_accounting cl12 tests/megakernel/accounting_kernels.cl" "api/test_inputs cl12"
for t in "$@"; do
  name=$(basename "${t%% *}")
  if timeout 400 $b/tests/$t > "$out/$name.log" 2>&1; then echo "$name: PASS"; else echo "$name: FAIL"; tail -20 "$out/$name.log"; fi
done
echo "tests done after $(( $(date +%s) - t0 )) s"
for s in $(seq 1 "$app_seeds"); do
  for args in "--app bfs --graph rmat --scale 16" "--app bfs --graph grid --scale 16" "--app ws --ws-roots 4096"; do
    mm=$([ $((s % 2)) = 0 ] && echo N/2 || echo 1,N-1)
    if timeout 120 $b/tools/ckrun --device NVIDIA --chaos $s $args --noncoop $mm --matmul-size 256 --plain none \
        > "$out/chaos_tmp.txt" 2>&1; then
      echo "app chaos $s $args: PASS $(grep -c PASS "$out/chaos_tmp.txt") configurations"
    else
      echo "app chaos $s $args: FAIL"; cat "$out/chaos_tmp.txt"
    fi
  done
done | tee "$out/app_chaos.log"
echo "app chaos done after $(( $(date +%s) - t0 )) s"
apps=${APPS:-"bfs ws octree game color mis bfs-wl l-sssp p-sssp bc"}
stream() { # k: seeds from first + k * 100000
  local next=$((first + $1 * 100000))
  while [ $(( $(date +%s) - t0 )) -lt "$budget" ]; do
    for app in $apps; do
      [ $(( $(date +%s) - t0 )) -lt "$budget" ] || break
      local log="$out/stress_${app}_${next}.log"
      TMPDIR=$out timeout 300 $b/tests/apps/test_apps_chaos "$app" cl12 $next $((next + chunk - 1)) > "$log" 2>&1
      local rc=$?
      local ran=$(grep -oE "chaos seeds [0-9]+\.\.[0-9]+" "$log" | awk -F'[ .]+' '{print $4 - $3 + 1}')
      local bad=$(grep -cE "^chaos seed [0-9]+ \(" "$log")
      echo "$app seeds $next..$((next + chunk - 1)): rc $rc, ${ran:-0} run, $bad failed, $(( $(date +%s) - t0 )) s"
      [ "$rc" = 0 ] && rm -f "$log"
    done
    next=$((next + chunk))
  done
}
for k in $(seq 0 $((streams - 1))); do stream "$k" > "$out/stress_$k.log" & done
wait
cat "$out"/stress_[0-9]*.log > "$out/stress.log"
grep -h "failed" "$out/stress.log" | grep -v " 0 failed" || true
awk '/ run, /{s+=$6; f+=$8} END {print "device stress: " s " seeds, " f " failed"}' "$out/stress.log"
awk '/ run, /{n[$1]+=$6} END {for (a in n) printf "%s %d  ", a, n[a]; print ""}' "$out/stress.log"
rm -f "$out"/ck-chaos-*.txt 2>/dev/null
echo "total $(( $(date +%s) - t0 )) s"
