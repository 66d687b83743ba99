#!/usr/bin/env bash
# The paper's applications on the lent NVIDIA machine (device tool): each at its
# paper-sized input (the look-alike generators of apps/common/graph_gen_like.c),
# with its plain persistent baseline, its plain multi-launch baseline (graph
# apps) and the cooperative form alone, all checked against the CPU
# references. Both the persistent baseline and the cooperative launch use
# GROUPS work-groups of WG work-items (the paper compares them at equal group
# counts; 1024 groups of 128 fit every kernel's occupancy on the H100).
# Needs no carried folders (no tests are built).
# Usage: tools/bench/device_apps_paper.sh OUTDIR [SET [GROUPS [WG]]]
#   SET: pannotia (color, mis, p-sssp, bc), lonestar (bfs-wl, l-sssp),
#        ws (octree, game, ws), or all (default)
set -u
out=${1:?usage: device_apps_paper.sh OUTDIR [SET [GROUPS [WG]]]}; set_=${2:-all}; groups=${3:-1024}; wg=${4:-128}
mkdir -p "$out"
echo libnvidia-opencl.so.1 > /etc/OpenCL/vendors/nvidia.icd
meson setup -Dtests=disabled /tmp/ap . >"$out/meson.log" 2>&1 && meson compile -C /tmp/ap >>"$out/meson.log" 2>&1 ||
  { tail -30 "$out/meson.log"; exit 1; }
ck=/tmp/ap/tools/ckrun
# One ckrun: baseline form ($2: multi|persistent), then the cooperative run.
run() { # name form ckrun-args...
  local name=$1 form=$2; shift 2
  local t0=$(date +%s)
  timeout 400 $ck --device NVIDIA --noncoop none --runs 1 --timeout 120 --wg "$wg" --groups "$groups" \
    --plain "$form" --plain-groups "$groups" "$@" >"$out/$name.txt" 2>&1
  local rc=$?
  echo "== $name ($form) rc=$rc $(( $(date +%s) - t0 )) s: ckrun $*"
  grep -E "^ckrun:|^(plain|standalone)|overhead|^result" "$out/$name.txt" | cut -c1-160
}
graph_app() { # app input [extra]
  local app=$1 input=$2; shift 2
  run "${app}_${input}_multi" multi --app "$app" --graph "$input" "$@"
  run "${app}_${input}_persistent" persistent --app "$app" --graph "$input" "$@"
}
case $set_ in pannotia|all)
  graph_app color ecology; graph_app color circuit
  graph_app mis ecology; graph_app mis circuit
  graph_app p-sssp road-ny; graph_app p-sssp ecology
  graph_app bc bc-1k; graph_app bc bc-2k ;;
esac
case $set_ in lonestar|all)
  graph_app bfs-wl rmat22; graph_app bfs-wl road-w
  graph_app l-sssp road-ny; graph_app l-sssp road-nw; graph_app l-sssp rmat20 ;;
esac
case $set_ in ws|all)
  run octree persistent --app octree --arena-mb 1024
  run game persistent --app game
  run ws persistent --app ws ;;
esac
