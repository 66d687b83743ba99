#!/usr/bin/env bash
# The paper's whole study (tools/ckstudy, docs/STUDY.md) on the lent NVIDIA
# machine (device tool): builds the project without tests into /tmp, runs
# ckstudy on the NVIDIA device with the preset asked for, and copies its
# output folder (runs.csv, summary.json, tables, figures, timelines, .gp and
# .dat files) to OUT/study-PRESET, with ckstudy's stderr beside it.
# Usage: tools/bench/device_study.sh OUT [quick|full] [extra ckstudy options...]
# The full preset is sized for the H100: well under 20 minutes of device time
# (ckstudy prints its estimate as it goes; --resume continues a cut sweep).
set -u
out=${1:?usage: device_study.sh OUT [quick|full] [ckstudy options...]}; preset=${2:-full}
shift $(( $# >= 2 ? 2 : 1 ))
case $preset in quick|full) ;; *) echo "device_study.sh: preset '$preset' is not quick or full" >&2; exit 2 ;; esac
mkdir -p "$out" || exit 1
. "$(dirname "$0")/device_build.sh"
command -v gnuplot >/dev/null || { apt-get install -y -qq gnuplot-nox >/dev/null 2>&1 || echo "device_study.sh: no gnuplot: plots skipped" >&2; }
plots=; command -v gnuplot >/dev/null || plots=--no-plots
work=/tmp/ckstudy-$preset
t0=$(date +%s)
timeout 1500 $b/tools/ckstudy --preset "$preset" --device NVIDIA --out "$work" $plots "$@" 2> >(tee "$out/ckstudy-$preset.err" >&2)
rc=$?
echo "== ckstudy --preset $preset: rc=$rc in $(( $(date +%s) - t0 )) s"
rm -rf "$out/study-$preset" && cp -r "$work" "$out/study-$preset"
cat "$out/study-$preset/table2.md" "$out/study-$preset/table3.md" 2>/dev/null
exit $rc
