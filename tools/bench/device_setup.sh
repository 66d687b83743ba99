# Sourced by the tools/bench/device_*.sh scripts that run tests on the lent NVIDIA
# machine: registers NVIDIA's OpenCL driver, unpacks the libcmocka packages
# the call carries in .devpkgs/ (made by tools/bench/device_prepare.sh on the
# development machine; cmocka is not installed there and the machine has no
# network) under /tmp/cm, and configures and builds the project in $b.
# Needs $out (log folder) and $b (build folder) set.
if ! ls .devpkgs/libcmocka0_*.deb .devpkgs/libcmocka-dev_*.deb >/dev/null 2>&1; then
  echo "device_setup: .devpkgs/ has no libcmocka packages: run tools/bench/device_prepare.sh on the development machine and carry .devpkgs" >&2
  exit 1
fi
echo libnvidia-opencl.so.1 > /etc/OpenCL/vendors/nvidia.icd
mkdir -p /tmp/cm && for f in .devpkgs/*.deb; do dpkg -x "$f" /tmp/cm; done
export PKG_CONFIG_PATH=/tmp/cm/usr/lib/x86_64-linux-gnu/pkgconfig PKG_CONFIG_SYSROOT_DIR=/tmp/cm
export LD_LIBRARY_PATH=/tmp/cm/usr/lib/x86_64-linux-gnu
rm -rf "$b"
meson setup "$b" >"$out/meson.log" 2>&1 && meson compile -C "$b" >>"$out/meson.log" 2>&1 ||
  { tail -30 "$out/meson.log"; exit 1; }
