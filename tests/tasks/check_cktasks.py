#!/usr/bin/env python3
"""tests/tasks/check_cktasks.py: tests of tools/cktasks on PoCL (owner:
apps, tasks).

  check_cktasks.py run CKTASKS PATH   cktasks --bench all --json on the atomics
      path PATH (cl20 or cl12), twice: 64 tasks of 128 work-items, and 16 tasks
      of 32 (and form f with batched spawning once); every bench x form must PASS with positive figures (no timing
      thresholds), mpe must be there with the kinds it used, and the keys of
      docs/TASKS.md must be present. Then forms d and f of every bench beside
      a cooperative kernel under two chaos seeds: PASS, and the cooperative
      kernel's counts add up (it claimed units, each counted once).
  check_cktasks.py cli CKTASKS        bad command lines: exit 2 and one line
      on stderr, quickly; --help and --version exit 0; and a corrupted
      output (CKTASKS_CORRUPT, on PoCL, 4 tasks) must make its row FAIL and
      the exit status 1.
Exit 0 when every check holds, 1 otherwise (each failure printed)."""
import json
import subprocess
import sys

FORMS = ["queues", "batches", "fused", "ck", "cpu", "tasks"]
TOP_KEYS = ["tool", "version", "device", "path", "tasks", "wg", "seed", "queues", "batch", "threads",
            "ck_window", "task_batch", "results", "geomean_ck_over_queues", "geomean_tasks_over_queues", "pass"]
ROW_KEYS = ["bench", "kinds", "form", "letter", "tasks", "status", "total_ms", "tasks_per_s", "median_us",
            "p99_us", "speedup_vs_queues", "failed_tasks", "note", "message"]
failures = []


def fail(msg):
    failures.append(msg)
    print("FAIL:", msg)


def run_json(tool, path, tasks, wg):
    args = [tool, "--bench", "all", "--tasks", str(tasks), "--wg", str(wg), "--path", path, "--json",
            "--quiet", "--timeout", "60"]
    p = subprocess.run(args, capture_output=True, text=True, timeout=300)
    label = " ".join(args[1:])
    if p.returncode != 0:
        fail(f"{label}: exit {p.returncode}; stderr: {p.stderr.strip()[:2000]}")
    try:
        doc = json.loads(p.stdout)
    except json.JSONDecodeError as e:
        fail(f"{label}: output is not JSON ({e}): {p.stdout[:500]}")
        return
    for k in TOP_KEYS:
        if k not in doc:
            fail(f"{label}: key '{k}' missing")
    if doc.get("path") != path or doc.get("tasks") != tasks or doc.get("wg") != wg:
        fail(f"{label}: path/tasks/wg echoed as {doc.get('path')}/{doc.get('tasks')}/{doc.get('wg')}")
    rows = doc.get("results", [])
    benches = sorted({r["bench"] for r in rows})
    for b in ["mm", "mb", "mpe"]:
        if b not in benches:
            fail(f"{label}: bench {b} missing (have {benches})")
    for b in benches:
        forms = [r["form"] for r in rows if r["bench"] == b]
        if forms != FORMS:
            fail(f"{label}: {b}: forms {forms}, expected {FORMS}")
    for r in rows:
        name = f"{label}: {r.get('bench')} {r.get('form')}"
        for k in ROW_KEYS:
            if k not in r:
                fail(f"{name}: key '{k}' missing")
        if r.get("status") != "PASS" or r.get("failed_tasks") != 0:
            fail(f"{name}: {r.get('status')}: {r.get('message')}")
            continue
        for k in ["total_ms", "tasks_per_s", "median_us", "p99_us", "speedup_vs_queues"]:
            v = r.get(k)
            if not isinstance(v, (int, float)) or not v > 0:
                fail(f"{name}: {k} = {v!r} is not a positive number")
        if r["median_us"] > r["p99_us"]:
            fail(f"{name}: median {r['median_us']} above p99 {r['p99_us']}")
        if r["bench"] == "mpe":
            if not r["kinds"] or "mb" not in r["kinds"].split(",") or "mm" not in r["kinds"].split(","):
                fail(f"{name}: kinds '{r['kinds']}' should name the mixed kinds (mb and mm at least)")
        elif r["kinds"] != r["bench"] or r["tasks"] != tasks:
            fail(f"{name}: kinds '{r['kinds']}' / tasks {r['tasks']}")
    for key in ["geomean_ck_over_queues", "geomean_tasks_over_queues"]:
        g = doc.get(key)
        if not isinstance(g, (int, float)) or not g > 0:
            fail(f"{label}: {key} = {g!r}")
    if doc.get("pass") is not True:
        fail(f"{label}: pass is {doc.get('pass')!r}")


def run_cli(tool):
    bad = [
        ["--bench", "nosuch"],
        ["--bench", ""],
        ["--tasks", "0"],
        ["--tasks", "-3"],
        ["--tasks", "99999999999"],
        ["--wg", "48"],
        ["--wg", "16"],
        ["--wg", "2048"],
        ["--wg", "0"],
        ["--forms", "a,x"],
        ["--forms", "a,,b"],
        ["--queues", "0"],
        ["--batch", "0"],
        ["--threads", "0"],
        ["--ck-window", "0"],
        ["--task-batch", "-1"],
        ["--task-batch", "x"],
        ["--timeout", "nan"],
        ["--path", "cl99"],
        ["--seed", "abc"],
        ["--chaos", "0"],
        ["--chaos", "x"],
        ["--beside", "1"],
        ["--no-such-option"],
        ["--bench"],
        ["extra-operand"],
    ]
    for args in bad:
        try:
            p = subprocess.run([tool] + args, capture_output=True, text=True, timeout=30)
        except subprocess.TimeoutExpired:
            fail(f"{args}: did not end within 30 s")
            continue
        lines = p.stderr.strip().splitlines()
        if p.returncode != 2 or len(lines) != 1 or p.stdout:
            fail(f"{args}: exit {p.returncode}, stderr {lines!r}, stdout {p.stdout[:200]!r}")
        elif not lines[0].startswith("cktasks: "):
            fail(f"{args}: message does not name the tool: {lines[0]!r}")
    for args, want in [(["--help"], "usage: cktasks"), (["--version"], "cktasks")]:
        p = subprocess.run([tool] + args, capture_output=True, text=True, timeout=30)
        if p.returncode != 0 or want not in p.stdout:
            fail(f"{args}: exit {p.returncode}, stdout {p.stdout[:200]!r}")


def run_corrupt(tool):
    import os
    for letter, form in [("a", "queues"), ("e", "cpu"), ("f", "tasks")]:
        env = dict(os.environ, CKTASKS_CORRUPT=letter)
        other = "cpu" if form == "queues" else "queues"
        for bench in ["mm", "mb"]:
            args = [tool, "--bench", bench, "--tasks", "4", "--forms", "a," + ("e" if letter == "a" else letter),
                    "--json", "--quiet", "--timeout", "60"]
            p = subprocess.run(args, capture_output=True, text=True, timeout=120, env=env)
            label = f"CKTASKS_CORRUPT={letter} {' '.join(args[1:])}"
            try:
                rows = {r["form"]: r for r in json.loads(p.stdout)["results"]}
            except (json.JSONDecodeError, KeyError) as e:
                fail(f"{label}: no JSON ({e}); stderr {p.stderr[:500]}")
                continue
            if p.returncode != 1 or rows[form]["status"] != "FAIL" or rows[form]["failed_tasks"] != 1:
                fail(f"{label}: exit {p.returncode}, {form} row {rows[form]}")
            elif rows[other]["status"] != "PASS":
                fail(f"{label}: the uncorrupted {other} row is {rows[other]['status']}")
            elif "task 2" not in rows[form]["message"]:
                fail(f"{label}: the message should name task 2: {rows[form]['message']!r}")


def run_task_batches(tool, path):
    """Form (f) with batched spawning (--task-batch 5 of 16 tasks): PASS, and the note says so."""
    args = [tool, "--bench", "mm", "--tasks", "16", "--forms", "f", "--task-batch", "5", "--path", path,
            "--json", "--quiet", "--timeout", "60"]
    p = subprocess.run(args, capture_output=True, text=True, timeout=300)
    label = " ".join(args[1:])
    try:
        doc = json.loads(p.stdout)
        row = doc["results"][0]
    except (json.JSONDecodeError, KeyError, IndexError) as e:
        fail(f"{label}: no JSON ({e}); stderr {p.stderr[:500]}")
        return
    if p.returncode != 0 or row["status"] != "PASS" or doc.get("task_batch") != 5 or "batches of 5" not in row["note"]:
        fail(f"{label}: exit {p.returncode}, task_batch {doc.get('task_batch')}, row {row}")


def run_beside(tool, path, seed):
    """Forms (d) and (f) of every bench, 16 tasks of 32 work-items, beside the
    cooperative kernel of tasks/beside.cl, under chaos seed `seed`."""
    args = [tool, "--bench", "all", "--tasks", "16", "--wg", "32", "--forms", "d,f", "--beside", "--chaos", str(seed),
            "--path", path, "--json", "--quiet", "--timeout", "60"]
    p = subprocess.run(args, capture_output=True, text=True, timeout=400)
    label = " ".join(args[1:])
    try:
        doc = json.loads(p.stdout)
    except json.JSONDecodeError as e:
        fail(f"{label}: output is not JSON ({e}); exit {p.returncode}; stderr {p.stderr.strip()[:2000]}")
        return
    if p.returncode != 0 or doc.get("pass") is not True or doc.get("beside") is not True or doc.get("chaos") != seed:
        fail(f"{label}: exit {p.returncode}, pass {doc.get('pass')!r}, beside {doc.get('beside')!r}, "
             f"chaos {doc.get('chaos')!r}")
    rows = doc.get("results", [])
    if sorted({r["form"] for r in rows}) != ["ck", "tasks"] or len(rows) != 14:
        fail(f"{label}: rows {[(r['bench'], r['form']) for r in rows]}, expected the 7 benches x ck, tasks")
    for r in rows:
        name = f"{label}: {r.get('bench')} {r.get('form')}"
        if r.get("status") != "PASS" or r.get("failed_tasks") != 0:
            fail(f"{name}: {r.get('status')}: {r.get('message')}")
            continue
        note = r.get("note", "")
        at = note.find("beside a cooperative kernel (")
        units = note[at:].split("(")[1].split(" ")[0] if at >= 0 else ""
        if not units.isdigit() or int(units) <= 0:
            fail(f"{name}: the note should say how many units the kernel beside claimed: {note!r}")


def main():
    if len(sys.argv) == 4 and sys.argv[1] == "run":
        run_json(sys.argv[2], sys.argv[3], 64, 128)
        run_json(sys.argv[2], sys.argv[3], 16, 32)
        run_task_batches(sys.argv[2], sys.argv[3])
        for seed in ([3, 11] if sys.argv[3] == "cl12" else [5, 13]):
            run_beside(sys.argv[2], sys.argv[3], seed)
    elif len(sys.argv) == 3 and sys.argv[1] == "cli":
        run_cli(sys.argv[2])
        run_corrupt(sys.argv[2])
    else:
        print(__doc__)
        return 2
    print(f"{len(failures)} failure(s)")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
