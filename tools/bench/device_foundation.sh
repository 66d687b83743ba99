#!/usr/bin/env bash
# Runs the foundation checks on the lent NVIDIA machine (device tool): registers
# NVIDIA's OpenCL ICD, builds (meson if available, else gcc), runs ckinfo on
# the GPU and on PoCL, and keeps the PTX of the probe kernels.
# Usage: tools/bench/device_foundation.sh OUTDIR
set -u
out=${1:?usage: device_foundation.sh OUTDIR}
mkdir -p "$out"
echo libnvidia-opencl.so.1 > /etc/OpenCL/vendors/nvidia.icd
ls /etc/OpenCL/vendors
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
b=/tmp/ckb
rm -rf $b; mkdir -p $b
if command -v meson >/dev/null && command -v ninja >/dev/null && meson setup -Dtests=disabled $b >$out/meson.log 2>&1 \
   && meson compile -C $b >>$out/meson.log 2>&1; then
  ck=$b/tools/ckinfo
else
  echo "meson build unavailable; building with gcc"; tail -5 $out/meson.log
  gcc -O2 megakernel/embed_sources.c -o $b/embed && \
  $b/embed $b/emb.c --order megakernel/megakernel.order include/ck_atomics.h include/ck_cooperative.h \
     megakernel/*.h megakernel/*.cl && \
  gcc -O2 -std=c11 -D_POSIX_C_SOURCE=200809L -DCL_TARGET_OPENCL_VERSION=300 -Iinclude -Imegakernel -Imegakernel/stitcher -Iruntime \
     runtime/*.c megakernel/stitcher/*.c $b/emb.c tools/ckinfo.c tools/cli.c -o $b/ckinfo -lOpenCL -lpthread -lm || exit 1
  ck=$b/ckinfo
fi
$ck --list
CK_DUMP_BINARY=$out/probe_nvidia.ptx $ck --device NVIDIA --wg-size 64,128,256 --round-trips 20000 | tee $out/ckinfo_nvidia.txt
$ck --device NVIDIA --wg-size 64,128,256 --round-trips 20000 --json > $out/ckinfo_nvidia.json
grep -c "membar" $out/probe_nvidia.ptx; grep -o "membar[.a-z]*\|fence[.a-z_]*" $out/probe_nvidia.ptx | sort | uniq -c
for p in cl20 cl12; do POCL_MAX_PTHREAD_COUNT=16 $ck --device Portable --path $p --round-trips 2000 | tail -3; done
