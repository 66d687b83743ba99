#!/usr/bin/env bash
# The register cap's default (auto) and its cache on the lent NVIDIA machine
# (device tool), in one call:
#  1. build times of the BFS megakernel (ckrun's build_ms) with the driver's
#     compute cache on, from cold caches: no cap twice (the second served by
#     the driver's cache), auto's first build (its tries; the decision goes
#     to the cap cache), then ROUNDS alternating rounds of no cap against
#     auto served by the cap cache; and the same pair with the driver's cache
#     off (every build compiles);
#  2. bad cache entries: garbage, an entry of another driver, a folder in an
#     entry's place, a cache folder that cannot be made: each build must
#     succeed with one warning at most (the folder: ignored entries are
#     replaced; a file where the folder should be is not);
#  3. every application on its default input (and BFS on the 2^18 grid)
#     alone, no cap against auto, APP_ROUNDS (default 2) alternating rounds
#     of --runs 3 without the CPU reference (the timings are the point; the
#     checks run in the device test scripts): the median of the cooperative
#     kernel's time and the megakernel's registers and workers.
# Output: OUTDIR/cap_cache.txt (a table per part) and the JSON of every run.
# Usage: tools/bench/device_cap_cache.sh OUTDIR [ROUNDS]
set -u
out=${1:?usage: device_cap_cache.sh OUTDIR [ROUNDS]}; rounds=${2:-3}
mkdir -p "$out"
echo libnvidia-opencl.so.1 > /etc/OpenCL/vendors/nvidia.icd
b=/tmp/ckb_capcache
rm -rf "$b"
(meson setup -Dtests=disabled "$b" . && meson compile -C "$b") >"$out/meson.log" 2>&1 ||
  { tail -30 "$out/meson.log"; exit 1; }
ckrun=$b/tools/ckrun
t=/tmp/ck_capcache_state
rm -rf "$t" && mkdir -p "$t"
export CUDA_CACHE_PATH=$t/nv XDG_CACHE_HOME=$t/xdg CUDA_CACHE_DISABLE=0
report=$out/cap_cache.txt
: >"$report"

# One ckrun: label, cap mode (none|auto), ckrun arguments... Prints a line
# of build_ms, registers, cap, workers, warnings, the cooperative median and the note.
one() {
  local label=$1 cap=$2; shift 2
  CK_REGISTER_CAP=$cap timeout 280 "$ckrun" --device NVIDIA --noncoop none --plain none --json "$@" \
    >"$out/$label.json" 2>"$out/$label.err"
  local rc=$?
  python3 - "$out/$label.json" "$out/$label.err" "$label" "$rc" <<'PY' | tee -a "$report"
import json, sys
path, err, label, rc = sys.argv[1:5]
warnings = sum(1 for l in open(err, errors="replace") if "ck: warning" in l)
try:
    j = json.load(open(path))
except Exception as e:
    print(f"{label:24s} rc={rc} no JSON ({e}); stderr: {open(err, errors='replace').read()[-300:]!r}")
    sys.exit(0)
res = j.get("megakernel_resources") or {}
alone = [c for c in j.get("configs", []) if c.get("kind") == "standalone"]
coop = alone[0]["coop_ms"] if alone else float("nan")
status = alone[0]["status"] if alone else "-"
print(f"{label:24s} rc={rc} build_ms={j.get('build_ms')} regs={res.get('registers', '?')} "
      f"cap={res.get('register_cap', '?')} workers={j.get('workers')} warnings={warnings} "
      f"coop_ms={coop} {status} note={j.get('register_cap_note', '')!r}")
PY
}

small=(--app bfs --graph grid --scale 14 --runs 1)
echo "== 1. build times, driver cache on (BFS kernels)" | tee -a "$report"
one none_cold none "${small[@]}"
one none_warm none "${small[@]}"
one auto_miss auto "${small[@]}"
for r in $(seq 1 "$rounds"); do
  one "none_$r" none "${small[@]}"
  one "auto_hit_$r" auto "${small[@]}"
done
echo "== 1b. build times, driver cache off (every build compiles)" | tee -a "$report"
for r in $(seq 1 "$rounds"); do
  CUDA_CACHE_DISABLE=1 one "nocache_none_$r" none "${small[@]}"
  CUDA_CACHE_DISABLE=1 one "nocache_auto_hit_$r" auto "${small[@]}"
done

echo "== 2. bad cache entries (each: build passes, at most one warning)" | tee -a "$report"
dir=$XDG_CACHE_HOME/coopkernels
ls -l "$dir" >>"$report" 2>&1
for f in "$dir"/cap-*.txt; do printf 'garbage\n' >"$f"; done
one bad_garbage auto "${small[@]}"
one bad_garbage_replaced auto "${small[@]}"
for f in "$dir"/cap-*.txt; do sed -i 's/^driver .*/driver 1.0.0-elsewhere/' "$f"; done
one bad_foreign_driver auto "${small[@]}"
for f in "$dir"/cap-*.txt; do rm -f "$f" && mkdir "$f"; done
one bad_folder_in_place auto "${small[@]}"
for f in "$dir"/cap-*.txt; do rmdir "$f"; done
# The cache's folder is a file (PoCL keeps its own cache under
# XDG_CACHE_HOME too, so the variable itself stays a folder).
rm -rf "$dir" && printf 'x' >"$dir"
one bad_cache_folder_is_a_file auto "${small[@]}"
rm -f "$dir"
one refilled auto "${small[@]}"

echo "== 3. applications alone, no cap against auto (cap cache warm), --runs 3" | tee -a "$report"
apps=(bfs ws color mis p-sssp bc bfs-wl l-sssp octree game)
for r in $(seq 1 "${APP_ROUNDS:-2}"); do
  for a in "${apps[@]}"; do
    one "app_${a}_none_$r" none --app "$a" --runs 3 --no-reference
    one "app_${a}_auto_$r" auto --app "$a" --runs 3 --no-reference
  done
  one "app_bfsgrid18_none_$r" none --app bfs --graph grid --scale 18 --runs 3 --no-reference
  one "app_bfsgrid18_auto_$r" auto --app bfs --graph grid --scale 18 --runs 3 --no-reference
done
