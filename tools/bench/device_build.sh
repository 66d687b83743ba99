# Sourced by the tools/bench/device_*.sh scripts that need no tests: registers
# NVIDIA's OpenCL driver and builds the project without tests in
# /tmp/ckstudy-build ($b after this). A machine that is still warm keeps the
# folder from an earlier call; the compile is incremental, so what runs is
# always the tree of this call. Needs $out (log folder).
echo libnvidia-opencl.so.1 > /etc/OpenCL/vendors/nvidia.icd
b=/tmp/ckstudy-build
{ [ -f $b/build.ninja ] || meson setup -Dtests=disabled $b . >"$out/meson.log" 2>&1; } &&
  meson compile -C $b >>"$out/meson.log" 2>&1 || { tail -30 "$out/meson.log"; exit 1; }
