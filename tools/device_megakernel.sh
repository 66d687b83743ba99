#!/usr/bin/env bash
# Runs the megakernel's semantic tests and a smoke of the tools on the lent
# NVIDIA machine (device tool). cmocka is not installed there: the call
# carries Debian's libcmocka packages in .devpkgs/, unpacked under /tmp.
# Usage: tools/device_megakernel.sh OUTDIR [CHAOS_SEEDS]
set -u
out=${1:?usage: device_megakernel.sh OUTDIR [CHAOS_SEEDS]}; seeds=${2:-4}
mkdir -p "$out"
echo libnvidia-opencl.so.1 > /etc/OpenCL/vendors/nvidia.icd
mkdir -p /tmp/cm && for f in .devpkgs/*.deb; do dpkg -x "$f" /tmp/cm; done
export PKG_CONFIG_PATH=/tmp/cm/usr/lib/x86_64-linux-gnu/pkgconfig PKG_CONFIG_SYSROOT_DIR=/tmp/cm
export LD_LIBRARY_PATH=/tmp/cm/usr/lib/x86_64-linux-gnu
b=/tmp/ckb
rm -rf $b
meson setup $b >$out/meson.log 2>&1 && meson compile -C $b >>$out/meson.log 2>&1 || { tail -30 $out/meson.log; exit 1; }
export CK_DEVICE=NVIDIA
set -o pipefail
CK_DUMP_SOURCE=$out/megakernel.cl timeout 500 $b/tests/megakernel/test_semantics cl12 tests/megakernel/semantics.cl $seeds 2>&1 | tee $out/semantics.log
