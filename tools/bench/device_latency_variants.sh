#!/usr/bin/env bash
# Experiment on the lent NVIDIA machine: channel round-trip latency of the
# 1.2 path as committed (ld.volatile + membar.sys) against a scratch variant
# using scoped ld.acquire.sys / st.release.sys. Usage: OUTDIR [ROUND_TRIPS]
set -u
out=${1:?usage: device_latency_variants.sh OUTDIR [ROUND_TRIPS]}; trips=${2:-20000}
mkdir -p "$out"
echo libnvidia-opencl.so.1 > /etc/OpenCL/vendors/nvidia.icd
build() { # $1 = source tree, $2 = build dir
  mkdir -p $2
  gcc -O2 $1/megakernel/embed_sources.c -o $2/embed && \
  $2/embed $2/emb.c --order $1/megakernel/megakernel.order $1/include/ck_atomics.h $1/include/ck_cooperative.h \
     $1/megakernel/*.h $1/megakernel/*.cl && \
  gcc -O2 -std=c11 -D_POSIX_C_SOURCE=200809L -DCL_TARGET_OPENCL_VERSION=300 -I$1/include -I$1/megakernel \
     -I$1/megakernel/stitcher -I$1/runtime $1/runtime/*.c $1/megakernel/stitcher/*.c $2/emb.c $1/tools/ckinfo.c $(ls $1/tools/cli.c 2>/dev/null) -o $2/ckinfo -lOpenCL -lpthread -lm
}
build . /tmp/base || exit 1
rm -rf /tmp/var; cp -r . /tmp/var
python3 - <<'PY'
p='/tmp/var/include/ck_atomics.h'; s=open(p).read()
s=s.replace("uint ck_sys_load_acquire(CK_PTR p) { uint v = *p; ck_sys_fence(); return v; }",
 'uint ck_sys_load_acquire(CK_PTR p) { uint v; __asm__ volatile("ld.acquire.sys.global.u32 %0, [%1];" : "=r"(v) : "l"(p) : "memory"); return v; }')
s=s.replace("void ck_sys_store_release(CK_PTR p, uint v) { ck_sys_fence(); *p = v; }",
 'void ck_sys_store_release(CK_PTR p, uint v) { __asm__ volatile("st.release.sys.global.u32 [%0], %1;" :: "l"(p), "r"(v) : "memory"); }')
open(p,'w').write(s)
p='/tmp/var/megakernel/ck_channel.cl'; s=open(p).read()
s=s.replace("""    if (ck_sys_load_relaxed(ch + CK_CH_H2D_HEAD) == c->h2d_tail)
        return -1;
    ck_sys_fence(); /* acquire: the payload is read after the head */""","""    if (ck_sys_load_acquire(ch + CK_CH_H2D_HEAD) == c->h2d_tail)
        return -1;""")
open(p,'w').write(s)
PY
build /tmp/var /tmp/varb || echo "variant build failed"
for i in 1 2; do
  for v in base varb; do
    echo "== $v run $i"
    CK_DUMP_BINARY=$out/probe_$v.ptx /tmp/$v/ckinfo --device NVIDIA --wg-size 64 --round-trips $trips | tail -3
  done
done
grep -a -c "ld.acquire.sys" $out/probe_varb.ptx
