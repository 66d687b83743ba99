#!/usr/bin/env bash
# Occupancy on the lent NVIDIA machine (device tool): what the
# register cap costs and gives, in one call. Builds the working tree, then
#  1. the spills of both of ckbench's megakernels (without and with tasks)
#     under each cap of CAPS, from ptxas on the PTX ckbench built;
#  2. ROUNDS rounds of ckbench --json (its default: --register-cap auto)
#     against ckbench --register-cap none, one line of key figures per run;
#  3. the wall time of a minimal ckbench under CK_REGISTER_CAP=none and
#     auto: what auto's extra builds cost a program that builds two
#     megakernels (ckbench turns the driver's compute cache off, so every
#     build of both modes compiles; with the cache on, a build without a
#     cap would cost less and auto's builds the same).
# Usage: tools/bench/device_register_cap.sh OUTDIR [ROUNDS [CAPS]]   (CAPS: "32 40 48")
set -u
out=${1:?usage: device_register_cap.sh OUTDIR [ROUNDS [CAPS]]}; rounds=${2:-3}; caps=${3:-32 40 48}
mkdir -p "$out"
echo libnvidia-opencl.so.1 > /etc/OpenCL/vendors/nvidia.icd
bin="$(dirname "$(command -v nvcc)")"
b=/tmp/ckb_cap
cuda=()
if "$bin/nvcc" -O2 -arch=sm_90 tools/bench/ckbench_cuda.cu -o /tmp/ckbench_cuda >"$out/nvcc.log" 2>&1; then
  cuda=(--cuda /tmp/ckbench_cuda)
fi
(meson setup -Dtests=disabled "$b" . && meson compile -C "$b") >"$out/meson.log" 2>&1 ||
  { tail -30 "$out/meson.log"; exit 1; }
rm -rf /tmp/ckb_cap_ptx && mkdir -p /tmp/ckb_cap_ptx
# Without a cap, ckbench's builds are: the plain reference's, then the
# megakernel with tasks, then the one without (the two highest numbers).
CK_DUMP_BINARY="/tmp/ckb_cap_ptx/mk%u.ptx" timeout 200 "$b/tools/ckbench" --device NVIDIA --iterations 10 \
  --launches 100 --register-cap none >/dev/null 2>"$out/dump.err"
mapfile -t ptx < <(ls /tmp/ckb_cap_ptx/mk*.ptx | sort -V | tail -2)
names=("with tasks" "without tasks")
for i in 0 1; do
  f=${ptx[$i]:-}
  [ -n "$f" ] || { echo "no PTX dumped (see $out/dump.err)"; break; }
  tr -d '\000' <"$f" >"$f.clean"
  for cap in 0 $caps; do
    o=(); [ "$cap" != 0 ] && o=(-maxrregcount="$cap")
    printf 'megakernel %-13s cap %-4s ' "${names[$i]}," "$cap:"
    "$bin/ptxas" -arch=sm_90 -v "${o[@]}" "$f.clean" -o /dev/null 2>&1 |
      grep -o "Used [0-9]* registers\|[0-9]* bytes spill stores, [0-9]* bytes spill loads" | tr '\n' ' '
    echo
  done
done
sed -n '/^line()/,/^}/p' tools/bench/device_variants.sh >/tmp/ckb_cap_line.sh
. /tmp/ckb_cap_line.sh
for r in $(seq 1 "$rounds"); do
  timeout 200 "$b/tools/ckbench" --device NVIDIA --json "${cuda[@]}" >"$out/auto_$r.json" 2>"$out/auto_$r.err"
  line "auto" "$out/auto_$r.json"
  timeout 200 "$b/tools/ckbench" --device NVIDIA --json "${cuda[@]}" --register-cap none >"$out/none_$r.json" \
    2>"$out/none_$r.err"
  line "none" "$out/none_$r.json"
done
python3 - "$out/auto_1.json" <<'PY'
import json, sys
try:
    j = json.load(open(sys.argv[1]))
except Exception as e:
    sys.exit(f"no auto result ({e})")
for k in ("megakernel_resources", "register_cap_note"):
    print(f"with tasks, {k}: {j.get(k)}")
    print(f"without tasks, {k}: {j.get('scheduler_path', {}).get(k)}")
PY
for v in none auto; do
  for i in 1 2; do
    python3 - "$b/tools/ckbench" "$v" "$i" <<'PY'
import os, subprocess, sys, time
env = dict(os.environ, CK_REGISTER_CAP=sys.argv[2])
t = time.time()
subprocess.run([sys.argv[1], "--device", "NVIDIA", "--iterations", "1", "--launches", "1", "--barriers", "1",
                "--gather-reps", "1"], env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
print(f"minimal ckbench, CK_REGISTER_CAP={sys.argv[2]}, run {sys.argv[3]}: {time.time() - t:.2f} s")
PY
  done
done
