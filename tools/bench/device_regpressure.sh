#!/usr/bin/env bash
# Occupancy on the lent NVIDIA machine: where the megakernel's
# registers go. Takes the PTX that ckbench built (CK_DUMP_BINARY), assembles
# it with ptxas for the device, and writes the SASS with nvdisasm's count of
# live registers at each instruction, plus a histogram of those counts, so
# the code that sets the register footprint can be found and read.
# Usage: tools/bench/device_regpressure.sh OUTDIR CKBENCH [ARCH]
set -u
out=${1:?usage: device_regpressure.sh OUTDIR CKBENCH [ARCH]}
bench=${2:?usage: device_regpressure.sh OUTDIR CKBENCH [ARCH]}
arch=${3:-sm_90}
mkdir -p "$out"
bin="$(dirname "$(command -v nvcc)")"
CK_DUMP_BINARY="$out/mk%u.ptx" timeout 200 "$bench" --device NVIDIA --iterations 10 --launches 100 \
  >/dev/null 2>"$out/ckbench.err"
for f in "$out"/mk*.ptx; do
  b=${f%.ptx}
  tr -d '\000' <"$f" >"$b.clean.ptx"
  "$bin/ptxas" -arch="$arch" -v "$b.clean.ptx" -o "$b.cubin" >"$b.ptxas.log" 2>&1
  "$bin/nvdisasm" -plr -lrm count "$b.cubin" >"$b.sass" 2>&1
  # Histogram: how many instructions run with N registers live.
  awk -F'|' '/^ *\/\*[0-9a-f]+\*\// && NF > 2 { n = $2 + 0; h[n]++ } END { for (k in h) print k, h[k] }' \
    "$b.sass" | sort -n >"$b.live_hist"
  printf '%s: %s; peak live %s\n' "$(basename "$b")" \
    "$(grep -o 'Used [0-9]* registers' "$b.ptxas.log" | head -1)" "$(tail -1 "$b.live_hist")"
done
