#!/usr/bin/env bash
# Dispatch speed and narrow tasks on the lent NVIDIA machine (device tool):
# measures several source trees side by side in one call, so that each step
# of a change is compared with the others under the same conditions. Builds
# the working tree and every folder .exp/NAME (made on the development
# machine with `git archive COMMIT | tar -x -C .exp/NAME`; carry .exp) in
# parallel, runs `ckbench --json` on each in turn, ROUNDS times
# interleaved, prints one line of key figures per run, and the registers of
# each program ckbench built (ptxas -v on its PTX, numbered in build order:
# since e7280c7 the megakernel with tasks comes before the one without). A file
# .exp/NAME/ckbench.env (VAR=value lines) sets the environment of NAME's
# ckbench runs, e.g. CK_REGISTER_CAP=48.
# Usage: tools/bench/device_variants.sh OUTDIR [ROUNDS]
set -u
out=${1:?usage: device_variants.sh OUTDIR [ROUNDS]}; rounds=${2:-2}
mkdir -p "$out"
echo libnvidia-opencl.so.1 > /etc/OpenCL/vendors/nvidia.icd
# The CUDA peer (grid.sync at each run's worker count), where nvcc exists.
cuda=()
if command -v nvcc >/dev/null && nvcc -O2 -arch=sm_90 tools/bench/ckbench_cuda.cu -o /tmp/ckbench_cuda >"$out/nvcc.log" 2>&1; then
  cuda=(--cuda /tmp/ckbench_cuda)
fi
names=(tree); srcs=(.)
for d in .exp/*/; do [ -d "$d" ] && names+=("$(basename "$d")") && srcs+=("$d"); done
for i in "${!names[@]}"; do
  ( meson setup -Dtests=disabled "/tmp/v_${names[$i]}" "${srcs[$i]}" >"$out/meson_${names[$i]}.log" 2>&1 &&
    meson compile -C "/tmp/v_${names[$i]}" >>"$out/meson_${names[$i]}.log" 2>&1 ) || echo "BUILD FAILED: ${names[$i]}" &
done
wait
grep -l "BUILD FAILED\|error:" "$out"/meson_*.log 2>/dev/null && { tail -20 "$out"/meson_*.log; exit 1; }
line() { # name json-file
  python3 - "$1" "$2" <<'EOF'
import json, sys
n, f = sys.argv[1], sys.argv[2]
try:
    j = json.load(open(f))
except Exception as e:
    print(f"{n:10s} no result ({e})"); sys.exit()
g = j["gather_us"]
q = j.get("scheduler_path", {})
print(f"{n:10s} launch {j['launch_rt_us_median']:6.2f} us p99 {j['launch_rt_us_p99']:6.2f} "
      f"{j['launch_throughput_per_s']/1e3:6.1f} k/s | plain {j['plain_launch_rt_us_median']:6.2f} us "
      f"{j['plain_launch_throughput_per_s']/1e3:6.1f} k/s | ratios {j['launch_rt_us_median']/j['plain_launch_rt_us_median']:.2f}x "
      f"{j['launch_throughput_per_s']/j['plain_launch_throughput_per_s']:.2f}x | task {j['task_rt_us_median']:5.2f} us "
      f"p99 {j['task_rt_us_p99']:6.2f} {j['task_throughput_per_s']/1e6:5.3f} M/s | barrier "
      f"{j['global_barrier_us']:5.2f} resizing {j['resizing_barrier_us']:5.2f} | gathers "
      f"{min(g.values()):5.1f}-{max(g.values()):5.1f} | workers {j['workers']}"
      + (f" | task phases spawn/exec/rest {ph['spawn_call']:.2f}/{ph['exec']:.2f}/{ph['to_worker_and_back']:.2f}"
         if (ph := j.get('task_phases_us_median')) else "")
      + (f" | 2-group task {j['task2_rt_us_median']:5.2f} us" if 'task2_rt_us_median' in j else "")
      + (f" | scheduler path: launch {q['launch_rt_us_median']:5.2f} us {q['launch_throughput_per_s']/1e3:6.1f} k/s "
         f"barrier {q['global_barrier_us']:5.2f} gathers {min(q['gather_us'].values()):5.1f}-{max(q['gather_us'].values()):5.1f} "
         f"workers {q['workers']}" if q else "")
      + (f" | table launch (ckbench before e7280c7) {j['table_launch_rt_us_median']:5.2f} us "
         f"{j['table_launch_throughput_per_s']/1e3:6.1f} k/s, workers with tasks {j['task_workers']}"
         if 'table_launch_rt_us_median' in j else "")
      + (f" | grid.sync {j['cuda']['grid_sync_us']:5.2f} @{j['cuda']['grid_sync_blocks']}" if 'cuda' in j else ""))
EOF
}
for r in $(seq 1 "$rounds"); do
  for i in "${!names[@]}"; do
    n=${names[$i]}
    # A variant's ckbench.env (VAR=value lines, e.g. CK_REGISTER_CAP=48)
    # sets the environment of its runs.
    envs=(); [ -f "${srcs[$i]}/ckbench.env" ] && mapfile -t envs <"${srcs[$i]}/ckbench.env"
    env "${envs[@]}" timeout 200 "/tmp/v_$n/tools/ckbench" --device NVIDIA --json "${cuda[@]}" >"$out/${n}_$r.json" 2>"$out/${n}_$r.err"
    line "$n" "$out/${n}_$r.json"
  done
done
ptxas="$(dirname "$(command -v nvcc)")/ptxas"
for n in "${names[@]}"; do
  rm -rf "/tmp/p_$n" && mkdir -p "/tmp/p_$n"
  CK_DUMP_BINARY="/tmp/p_$n/mk%u.ptx" timeout 200 "/tmp/v_$n/tools/ckbench" --device NVIDIA --iterations 10 \
    --launches 100 >/dev/null 2>&1
  for f in "/tmp/p_$n"/mk*.ptx; do
    tr -d '\000' <"$f" >"$f.clean"
    printf '%-10s %s: ' "$n" "$(basename "$f" .ptx)"
    "$ptxas" -arch=sm_90 -v "$f.clean" -o /dev/null 2>&1 | grep -o "Used [0-9]* registers" | head -1
  done
done
