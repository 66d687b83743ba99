#!/usr/bin/env python3
"""The tools' --json output on PoCL is JSON that a parser takes, with each
tool's keys in their order: ckinfo, ckgraph (its "written" path holds a quote,
a backslash and a tab, which must come back as they were), ckrun (a short BFS
with its plain baseline and the cooperative run alone) and ckbench.
Usage: check_tool_json.py CKINFO CKGRAPH CKRUN CKBENCH WORKDIR"""
import json
import os
import subprocess
import sys


def fail(msg):
    print("FAIL: " + msg)
    sys.exit(1)


def run_json(args, timeout=300):
    p = subprocess.run(args, capture_output=True, text=True, timeout=timeout)
    if p.returncode != 0:
        fail(f"{' '.join(args)}: exit {p.returncode}: {p.stderr[-2000:]}")
    try:
        return json.loads(p.stdout)
    except json.JSONDecodeError as e:
        fail(f"{' '.join(args)}: not JSON ({e}):\n{p.stdout}")


def keys_are(what, obj, want):
    if list(obj.keys()) != want:
        fail(f"{what}: keys {list(obj.keys())}, want {want}")


def main():
    ckinfo, ckgraph, ckrun, ckbench, work = sys.argv[1:6]
    os.makedirs(work, exist_ok=True)

    d = run_json([ckinfo, "--json", "--wg-size", "16", "--round-trips", "20"])
    keys_are("ckinfo", d, ["platform", "platform_version", "device", "vendor", "device_version", "driver_version",
                           "opencl_c_version", "opencl_c_max", "type", "compute_units", "max_work_group_size", "svm",
                           "c11_atomics", "atomic_memory_caps", "cl_nv_create_buffer", "path_cl20_missing",
                           "path_cl12_missing", "path", "transport", "nv_ptx_fences", "occupancy", "round_trip"])
    keys_are("ckinfo svm", d["svm"], ["coarse_buffer", "fine_buffer", "fine_system", "atomics"])
    if len(d["occupancy"]) != 1 or d["occupancy"][0]["work_group_size"] != 16:
        fail(f"ckinfo occupancy: {d['occupancy']}")
    keys_are("ckinfo round_trip", d["round_trip"], ["count", "min_us", "median_us", "p99_us", "max_us"])
    if d["round_trip"]["count"] != 20:
        fail(f"ckinfo round_trip count {d['round_trip']['count']}, want 20")

    path = os.path.join(work, 'odd "name" \\ with\ttab.gr')
    d = run_json([ckgraph, "--graph", "grid", "--scale", "6", "--json", "--write", path])
    keys_are("ckgraph", d, ["input", "nodes", "arcs", "edges", "degree", "weighted", "components",
                            "largest_component", "bfs_from_0", "written", "format"])
    if d["written"] != path or not os.path.exists(path):
        fail(f"ckgraph written {d['written']!r}, want {path!r}")
    if d["nodes"] != 64 or d["edges"] * 2 != d["arcs"]:
        fail(f"ckgraph: {d['nodes']} nodes, {d['edges']} edges, {d['arcs']} arcs for a 2^6 grid")

    d = run_json([ckrun, "--app", "bfs", "--scale", "8", "--noncoop", "none", "--json", "--quiet"])
    keys_are("ckrun", d, ["app", "input", "device", "path", "work_group_size", "workers", "coop_groups",
                          "megakernel_resources", "register_cap_note", "chaos_seed", "barrier", "period_ms",
                          "matmul_size", "runs", "cpu_reference_ms", "build_ms", "configs", "error", "checked",
                          "pass"])
    if d["pass"] is not True or [c["kind"] for c in d["configs"]] != ["plain", "standalone"]:
        fail(f"ckrun: pass {d['pass']}, configs {[c['kind'] for c in d['configs']]}")
    for c in d["configs"]:
        if len(c["coop_ms_runs"]) != c["runs"] or not all(isinstance(t, float) for t in c["coop_ms_runs"]):
            fail(f"ckrun config {c['name']}: coop_ms_runs {c['coop_ms_runs']} for {c['runs']} runs")

    d = run_json([ckbench, "--json", "--iterations", "10", "--launches", "20", "--barriers", "5",
                  "--gather-reps", "1", "--gap-sweep"], timeout=500)
    for k in ("device", "workers", "launch_rt_us_median", "gather_us", "megakernel_resources", "task_burst",
              "scheduler_path", "host_gap_sweep"):
        if k not in d:
            fail(f"ckbench lacks {k}")
    keys_are("ckbench gather_us", d["gather_us"], ["1", "N/4", "N/2", "N-1"])
    keys_are("ckbench host_gap_sweep", d["host_gap_sweep"], ["gap_ns", "task_rt_us_median",
                                                              "table_launch_rt_us_median"])
    if d["host_gap_sweep"]["gap_ns"] != [0, 250, 500, 750, 1000, 1250, 1500, 2000, 3000]:
        fail(f"ckbench gap_ns {d['host_gap_sweep']['gap_ns']}")
    print("PASS: ckinfo, ckgraph, ckrun and ckbench --json parse with their keys")


if __name__ == "__main__":
    main()
