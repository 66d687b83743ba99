#!/usr/bin/env bash
# What a register cap costs the cooperative applications on the lent NVIDIA
# machine (device tool), the cap apart from the groups it adds: bc (2048
# sources), game, p-sssp, mis and BFS on the 2^18 grid, each with no cap,
# with auto, and with auto and --max-groups at the uncapped count (the
# counts measured on an H100: edit G below for another device), two
# rounds of ckrun --runs 5 alone, without the CPU reference. Reuses the
# build and caches of tools/bench/device_cap_cache.sh on a warm machine.
# Output: OUTDIR/cause.txt, one line per run.
# Usage: tools/bench/device_cap_cost.sh OUTDIR
set -u
out=${1:?usage: device_cap_cost.sh OUTDIR}; mkdir -p "$out"
b=/tmp/ckb_capcache
if [ ! -x $b/tools/ckrun ]; then
  echo libnvidia-opencl.so.1 > /etc/OpenCL/vendors/nvidia.icd
  (meson setup -Dtests=disabled $b . && meson compile -C $b) > $out/meson.log 2>&1 || { tail -20 $out/meson.log; exit 1; }
fi
export CUDA_CACHE_PATH=/tmp/ck_capcache_state/nv XDG_CACHE_HOME=/tmp/ck_capcache_state/xdg CUDA_CACHE_DISABLE=0
one() { # label cap maxgroups args...
  local label=$1 cap=$2 mg=$3; shift 3
  local extra=(); [ "$mg" != 0 ] && extra=(--max-groups $mg)
  CK_REGISTER_CAP=$cap timeout 200 $b/tools/ckrun --device NVIDIA --noncoop none --plain none --json --no-reference --runs 5 "${extra[@]}" "$@" > $out/$label.json 2>$out/$label.err
  python3 -c "
import json,sys
j=json.load(open('$out/$label.json')); r=j.get('megakernel_resources') or {}
c=[x for x in j['configs'] if x['kind']=='standalone'][0]
print('%-22s regs=%s workers=%s coop_ms=%s runs=%s' % ('$label', r.get('registers','?'), j['workers'], c['coop_ms'], c['coop_ms_runs']))" 2>&1 | tee -a $out/cause.txt
}
for r in 1 2; do
  one bc_none_$r none 0 --app bc --bc-sources 2048
  one bc_auto_$r auto 0 --app bc --bc-sources 2048
  one bc_auto_mg_$r auto 1848 --app bc --bc-sources 2048
  for a in game p-sssp mis; do
    g=2640; [ $a = p-sssp ] && g=2112
    one ${a}_none_$r none 0 --app $a
    one ${a}_auto_$r auto 0 --app $a
    one ${a}_auto_mg_$r auto $g --app $a
  done
  one grid18_none_$r none 0 --app bfs --graph grid --scale 18
  one grid18_auto_$r auto 0 --app bfs --graph grid --scale 18
  one grid18_auto_mg_$r auto 2640 --app bfs --graph grid --scale 18
done
