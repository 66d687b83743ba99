#!/usr/bin/env bash
# Registers and spills of megakernel source variants on the lent NVIDIA
# machine (device tool), without rebuilding the library: each SOURCE is a
# whole device source as CK_DUMP_SOURCE writes it (for example edited copies
# of one dump, carried in an ignored folder), built by cl_build_report with
# the megakernel's defines (tasks on, chaos and checks off), at each cap of
# CAPS and with none. NVIDIA's compute cache is off, so every build reports.
# Usage: tools/bench/device_register_variants.sh OUTDIR SOURCE... (CAPS="32 40" by default)
set -u
out=${1:?usage: device_register_variants.sh OUTDIR SOURCE...}; shift
[ $# -ge 1 ] || { echo "usage: device_register_variants.sh OUTDIR SOURCE..." >&2; exit 2; }
mkdir -p "$out"
echo libnvidia-opencl.so.1 > /etc/OpenCL/vendors/nvidia.icd
export CUDA_CACHE_DISABLE=1
gcc -O1 -o "$out/cl_build_report" tools/bench/cl_build_report.c -lOpenCL || exit 1
opts="-cl-std=CL3.0 -DCK_PATH_CL12 -DCK_MEGAKERNEL -DCK_LOCAL_POOL_BYTES=8192 -DCK_CHAOS_BUILD=0 -DCK_CHECK_BUILD=0 -DCK_TASKS_BUILD=${TASKS:-1} -cl-nv-verbose"
for src in "$@"; do
  for cap in ${CAPS:-32 40} none; do
    c=""; [ "$cap" != none ] && c="-cl-nv-maxrregcount=$cap"
    printf '%s, cap %s: %s\n' "$(basename "$src")" "$cap" "$(timeout 120 "$out/cl_build_report" "$src" "$opts $c")"
  done
done | tee "$out/variants.txt"
