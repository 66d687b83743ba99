#!/usr/bin/env bash
# ckbench over several source trees on the lent NVIDIA machine (device tool),
# in one call: to find at which commit of a series a figure moved. Each tree
# is a `git archive` tarball (tools/bench/device_prepare.sh --trees C1 C2 ...
# writes .exp/trees/C.tar.gz; carry .exp/trees); all are built at once with
# -Dtests=disabled, then `ckbench --json` runs over the trees in turn, RUNS
# rounds, the order rotated each round so that no tree always runs first.
# CKBENCH_ARGS adds options to every run. The last lines are, for every key
# in KEYS (JSON paths joined by dots, e.g. scheduler_path.gather_us.1;
# default: task throughput, burst starts, spawn time), the median of
# each tree's runs and its ratio to the first tree's. SECONDS_MAX (default
# 480) ends the rounds early, after a whole round, once that much has passed.
# Usage: tools/bench/device_trees.sh OUTDIR RUNS TARBALL...
set -u
out=${1:?usage: device_trees.sh OUTDIR RUNS TARBALL...}
runs=${2:?usage: device_trees.sh OUTDIR RUNS TARBALL...}
shift 2
[ $# -ge 1 ] || { echo "device_trees: no tarball given" >&2; exit 2; }
read -r -a extra <<< "${CKBENCH_ARGS:-}"
keys=${KEYS:-task_throughput_per_s task_burst.starts_per_s task_spawn_us}
t0=$(date +%s)
mkdir -p "$out"
echo libnvidia-opencl.so.1 > /etc/OpenCL/vendors/nvidia.icd
names=()
for tb in "$@"; do
  n=$(basename "$tb" .tar.gz)
  names+=("$n")
  rm -rf "/tmp/ckt/$n" && mkdir -p "/tmp/ckt/$n/src" && tar -xzf "$tb" -C "/tmp/ckt/$n/src" || exit 1
  ( meson setup -Dtests=disabled "/tmp/ckt/$n/b" "/tmp/ckt/$n/src" > "$out/build_$n.log" 2>&1 &&
      meson compile -C "/tmp/ckt/$n/b" tools/ckbench >> "$out/build_$n.log" 2>&1 ||
      { echo "tree $n did not build"; tail -20 "$out/build_$n.log"; } ) &
done
wait
echo "builds ready after $(( $(date +%s) - t0 )) s"
k=${#names[@]}
for r in $(seq 1 "$runs"); do
  for i in $(seq 0 $((k - 1))); do
    n=${names[$(( (i + r - 1) % k ))]}
    timeout 250 "/tmp/ckt/$n/b/tools/ckbench" --device NVIDIA --json "${extra[@]}" > "$out/${n}_$r.json" \
      2> "$out/${n}_$r.err" || { echo "tree $n run $r failed"; tail -5 "$out/${n}_$r.err"; }
  done
  echo "round $r done after $(( $(date +%s) - t0 )) s"
  [ $(( $(date +%s) - t0 )) -lt "${SECONDS_MAX:-480}" ] || { echo "stopping after round $r: SECONDS_MAX"; break; }
done
python3 - "$out" "$runs" "$keys" "${names[@]}" <<'EOF'
import json, statistics, sys
out, runs, keys, names = sys.argv[1], int(sys.argv[2]), sys.argv[3].split(), sys.argv[4:]
def flat(o, p=''):
    for k, v in o.items():
        if isinstance(v, dict):
            yield from flat(v, p + k + '.')
        elif isinstance(v, (int, float)):
            yield p + k, v
vals = {}
for n in names:
    for r in range(1, runs + 1):
        try:
            d = dict(flat(json.load(open(f'{out}/{n}_{r}.json'))))
        except (OSError, ValueError):
            continue
        for key in keys:
            if key in d:
                vals.setdefault((key, n), []).append(d[key])
for key in keys:
    base = vals.get((key, names[0]))
    b = statistics.median(base) if base else None
    for n in names:
        v = vals.get((key, n))
        if not v:
            print(f'{key} {n}: no value')
            continue
        m = statistics.median(v)
        ratio = f'{m / b:.3f}' if b else '-'
        print(f'{key} {n}: median {m:.6g} of {len(v)} ({min(v):.6g}..{max(v):.6g}), ratio {ratio}')
EOF
echo "all done after $(( $(date +%s) - t0 )) s"
