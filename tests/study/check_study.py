#!/usr/bin/env python3
"""tests/study/check_study.py: the tests of tools/ckstudy (meson tests study-quick, study-table2).

usage: check_study.py CKSTUDY WORKDIR            (meson test 'study-quick': 1-4)
       check_study.py CKSTUDY WORKDIR --table2   (meson test 'study-table2': 5-6)

1. Bad input (unknown app, class, preset; an output folder that cannot be
   made; gnuplot missing): one line on stderr, exit 2, no runs.csv.
2. `ckstudy --quick` on PoCL: every file exists and parses (runs.csv columns,
   summary.json and timeline JSON, PNG magic), and table2/table3 are
   recomputed here from runs.csv, independently of ckstudy's C code, and
   compared with what it wrote.
3. --resume: a sweep cut short (rows removed, a torn last line) is completed
   by running only what is missing; a finished one runs nothing.
4. Files (no device: --report-only on a hand-made runs.csv, and refusals
   that come before any run): a runs.csv that is a FIFO or a folder, an
   output (table, summary, figure, an old timeline) that is a FIFO or a link
   to /dev/full, are refused in seconds with one line and left as they
   were; a write that fails (past the file size limit) leaves the old file
   whole; a file named like the folder probe is kept; numbers in runs.csv
   are strict (NaN, inf, -1 where a time cannot be unknown, trailing text:
   an error naming the line and the column, also after a 5000-character
   line); -1 in the launch statistics (unknown) reads back.
5. An old runs.csv (the header before device_ms and round_pos) reads:
   --report-only makes the sweep's Table 2 from it and leaves it as it was.
6. `ckstudy --table2 --quick --runs 2` on PoCL (bfs, ws): bad arguments
   refused with one line; each item has the three forms once per round in
   the alternating order, every row PASS, the cooperative runs without a
   kill, fork or resize on the plain runs' N; table2.csv/.md and
   summary.json recomputed here from runs.csv (device clock; host times
   when a cooperative device time is unknown); ratios finite and above 0;
   --resume redoes a torn round whole; under chaos the cooperative runs
   FAIL as no fair comparison.
Exit 0 on success, 1 with the failures listed."""
import csv
import json
import math
import os
import resource
import shutil
import signal
import stat
import statistics
import subprocess
import sys
import time

# runs.csv's header, and the one before device_ms and round_pos (still read).
COLUMNS_V1 = ("app,input,barrier,mode,class,groups_expr,run,workers,coop_groups,mm_groups,period_ms,target_exec_ms,"
              "matmul_n,coop_ms,coop_wall_ms,kills,forks,resizes,max_active,initial_groups,mm_launches,mm_missed,"
              "mm_bad,gather_med_ms,gather_mean_ms,gather_max_ms,exec_med_ms,exec_mean_ms,queue_med_ms,period_med_ms,"
              "period_mean_ms,check,message").split(",")
COLUMNS = COLUMNS_V1[:-2] + ["device_ms", "round_pos"] + COLUMNS_V1[-2:]
WORK_STEALING = {"ws", "octree", "game"}
CLASSES = ["light", "medium", "heavy"]
TOLERANCE = 1.05
failures = []


def fail(msg):
    failures.append(msg)
    print("FAIL: " + msg, flush=True)


def run(cmd, **kw):
    t0 = time.time()
    p = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, **kw)
    return p, time.time() - t0


def bad_inputs(ckstudy, work):
    out = os.path.join(work, "bad")
    blocker = os.path.join(work, "a-file")
    with open(blocker, "w") as f:
        f.write("not a folder\n")
    cases = [
        (["--quick", "--apps", "nosuchapp"], "unknown app"),
        (["--quick", "--classes", "light,ultra"], "unknown class"),
        (["--preset", "huge"], "unknown preset"),
        (["--quick", "--out", os.path.join(blocker, "sub")], "unwritable output folder"),
        (["--quick", "--runs", "1.5"], "--runs 1.5"),
        (["--quick", "--runs", "-1"], "--runs -1"),
        (["--quick", "--runs", "3abc"], "--runs 3abc"),
        (["--quick", "--time-scale", "nan"], "--time-scale nan"),
        (["--quick", "--time-scale", "inf"], "--time-scale inf"),
        (["--quick", "--timeout", "0"], "--timeout 0"),
    ]
    for args, what in cases:
        o = out if "--out" not in args else None
        cmd = [ckstudy] + args + (["--out", o] if o else [])
        p, dt = run(cmd)
        lines = p.stderr.strip().splitlines()
        if p.returncode != 2 or len(lines) != 1:
            fail(f"{what}: want exit 2 and one line, got {p.returncode} and {lines}")
        if dt > 10:
            fail(f"{what}: took {dt:.1f} s: it ran something before refusing")
        if os.path.exists(os.path.join(out, "runs.csv")):
            fail(f"{what}: runs.csv was written")
    # gnuplot missing: a PATH without it
    p, _ = run([ckstudy, "--quick", "--out", out], env=dict(os.environ, PATH="/nonexistent"))
    lines = p.stderr.strip().splitlines()
    if p.returncode != 2 or len(lines) != 1 or "gnuplot-nox" not in p.stderr:
        fail(f"gnuplot missing: want exit 2 and one line naming gnuplot-nox, got {p.returncode}: {lines}")


def row_text(columns=COLUMNS, **over):
    """One runs.csv line (of `columns`): a plain bfs row, with fields replaced by over."""
    r = {c: "0" for c in COLUMNS}
    r.update({"app": "bfs", "input": "ci", "barrier": "-", "mode": "plain", "class": "-", "groups_expr": "-",
              "device_ms": "-1.00000", "round_pos": "-1",
              "workers": "4", "coop_groups": "4", "coop_ms": "1.5000", "coop_wall_ms": "1.6000", "check": "PASS",
              "message": ""})
    r.update(over)
    return ",".join(r[c] for c in columns)


def good_rows():
    return [row_text(), row_text(barrier="query", mode="alone", coop_ms="2.0000", gather_med_ms="-1.00000",
                                 exec_med_ms="-1.00000", queue_med_ms="-0.50000")]


def fresh(work, name, lines=None, columns=COLUMNS):
    d = os.path.join(work, name)
    shutil.rmtree(d, ignore_errors=True)
    os.makedirs(d)
    if lines is not None:
        with open(os.path.join(d, "runs.csv"), "w") as f:
            f.write("\n".join([",".join(columns)] + lines) + "\n")
    return d


def refused(cmd, status, needles, what, **kw):
    """Runs cmd (at most 20 s); wants `status` and one stderr line holding every needle."""
    try:
        p, dt = run(cmd, timeout=20, **kw)
    except subprocess.TimeoutExpired:
        fail(f"{what}: still running after 20 s (a blocking open?)")
        return
    # The closing status line ("ckstudy: N runs in DIR/runs.csv, ...") is not an error.
    lines = [x for x in p.stderr.strip().splitlines() if " runs in " not in x]
    if p.returncode != status or len(lines) != 1 or any(n not in lines[0] for n in needles):
        fail(f"{what}: want exit {status} and one line with {needles}, got {p.returncode}: {lines[-3:]}")


def kind(path):
    try:
        return stat.S_IFMT(os.lstat(path).st_mode)
    except OSError:
        return None


def temporaries(d):
    return [n for n in os.listdir(d) if ".tmp-" in n]


def file_safety(ckstudy, work):
    report = [ckstudy, "--report-only", "--no-plots", "--out"]
    # Strict numbers, exact line numbers (line 3 is 5000+ characters long).
    long_row = row_text(message="x" * 5000)
    cases = [
        ({"coop_ms": "nan"}, "column coop_ms", "'nan' is not a finite number"),
        ({"coop_ms": "inf"}, "column coop_ms", "not a finite number"),
        ({"coop_ms": "1e999"}, "column coop_ms", "not a finite number"),
        ({"coop_ms": "-1"}, "column coop_ms", "'-1' is below 0"),
        ({"period_ms": "12abc"}, "column period_ms", "'12abc' is not a number"),
        ({"gather_med_ms": "-2"}, "column gather_med_ms", "is below -1"),
        ({"exec_mean_ms": "NaN"}, "column exec_mean_ms", "not a finite number"),
        ({"run": "-1"}, "column run", "'-1' is below 0"),
        ({"workers": "4.5"}, "column workers", "not a whole number"),
        ({"kills": "99999999999"}, "column kills", "is above"),
        ({"matmul_n": "3000000000"}, "column matmul_n", "is above"),
        ({"check": "MAYBE"}, "column check", "'MAYBE' is not PASS"),
    ]
    for i, (over, col, why) in enumerate(cases):
        d = fresh(work, f"num{i}", good_rows() + [long_row, row_text(**over), row_text()])
        refused(report + [d], 1, ["runs.csv:5: ", col, why], f"runs.csv with {over}")
    d = fresh(work, "fields", good_rows() + [long_row, "bfs,ci,-,plain"])
    refused(report + [d], 1, ["runs.csv:5: ", "4 fields, want 35"], "a short row")
    for over, col, why in (({"device_ms": "-2"}, "column device_ms", "is below -1"),
                           ({"round_pos": "-2"}, "column round_pos", "is below -1"),
                           ({"round_pos": "1.5"}, "column round_pos", "not a whole number")):
        d = fresh(work, "new-cols", good_rows() + [long_row, row_text(**over)])
        refused(report + [d], 1, ["runs.csv:5: ", col, why], f"runs.csv with {over}")
    # Good rows, -1 statistics and a long message included, read back and reported.
    d = fresh(work, "good", good_rows() + [long_row])
    p, _ = run(report + [d])
    if p.returncode != 0:
        fail(f"--report-only on good rows: exit {p.returncode}: {p.stderr[-1500:]}")
    elif temporaries(d):
        fail(f"temporary files left: {temporaries(d)}")
    # runs.csv that is no regular file, for --report-only and --resume.
    for name, make in (("fifo", os.mkfifo), ("dir", os.mkdir)):
        d = fresh(work, "runs-" + name)
        make(os.path.join(d, "runs.csv"))
        want = "is a FIFO" if name == "fifo" else "is a directory"
        refused(report + [d], 1, ["runs.csv", want], f"runs.csv {name}, --report-only")
        refused([ckstudy, "--quick", "--no-plots", "--resume", "--out", d], 2, ["--resume", want],
                f"runs.csv {name}, --resume")
    # Outputs that are no regular file: refused, left as they were.
    for name in ("table2.csv", "table3.md", "fig6.gp", "summary.json"):
        d = fresh(work, "out-" + name.replace(".", "-"), good_rows())
        target = os.path.join(d, name)
        os.mkfifo(target)
        refused(report + [d], 1, [name, "is a FIFO"], f"{name} a FIFO")
        if kind(target) != stat.S_IFIFO:
            fail(f"{name}: the FIFO is gone")
    d = fresh(work, "out-full", good_rows())
    os.symlink("/dev/full", os.path.join(d, "table2.md"))
    refused(report + [d], 1, ["table2.md", "is a character device"], "table2.md a link to /dev/full")
    if kind("/dev/full") != stat.S_IFCHR:
        fail("/dev/full is no longer a character device")
    if shutil.which("gnuplot"):
        d = fresh(work, "out-png", good_rows())
        os.mkfifo(os.path.join(d, "fig6.png"))
        refused([ckstudy, "--report-only", "--out", d], 1, ["fig6.png", "is a FIFO"], "fig6.png a FIFO")
        d = fresh(work, "plots", good_rows())
        p, _ = run([ckstudy, "--report-only", "--out", d])
        if p.returncode != 0:
            fail(f"--report-only with plots: exit {p.returncode}: {p.stderr[-1500:]}")
        check_png(os.path.join(d, "fig6.png"))
        if temporaries(d):
            fail(f"temporary files left after plotting: {temporaries(d)}")
    # A fresh sweep removes old timelines only when they are regular files.
    d = fresh(work, "timeline-fifo")
    os.mkfifo(os.path.join(d, "timeline_bfs.json"))
    refused([ckstudy, "--quick", "--no-plots", "--out", d], 2, ["timeline_bfs.json", "not a regular file"],
            "an old timeline that is a FIFO")
    if kind(os.path.join(d, "timeline_bfs.json")) != stat.S_IFIFO:
        fail("timeline_bfs.json: the FIFO is gone")
    # The folder probe: a file of the old probe's name, and a FIFO of it, stay.
    d = fresh(work, "probe", good_rows())
    with open(os.path.join(d, ".ckstudy-probe"), "w") as f:
        f.write("mine\n")
    p, _ = run(report + [d], timeout=20)
    try:
        with open(os.path.join(d, ".ckstudy-probe")) as f:
            kept = f.read() == "mine\n"
    except OSError:
        kept = False
    if p.returncode != 0 or not kept:
        fail(f"a file named .ckstudy-probe: exit {p.returncode}, or it was changed or removed")
    d = fresh(work, "probe-fifo", good_rows())
    os.mkfifo(os.path.join(d, ".ckstudy-probe"))
    try:
        p, _ = run(report + [d], timeout=20)
        if p.returncode != 0 or kind(os.path.join(d, ".ckstudy-probe")) != stat.S_IFIFO:
            fail(f"a FIFO named .ckstudy-probe: exit {p.returncode}, or it was removed")
    except subprocess.TimeoutExpired:
        fail("a FIFO named .ckstudy-probe: blocked for 20 s")
    # A write that fails on the way (the file size limit; SIGXFSZ ignored so
    # the write call fails): one line naming the file, the old file whole.
    d = fresh(work, "limit", good_rows())
    old = "scope,app\nthe old table\n"
    for name in ("table2.csv", "table2.md"):
        with open(os.path.join(d, name), "w") as f:
            f.write(old)

    def small_files():
        signal.signal(signal.SIGXFSZ, signal.SIG_IGN)
        resource.setrlimit(resource.RLIMIT_FSIZE, (64, resource.RLIM_INFINITY))

    refused(report + [d], 1, ["table2.md", "failed", "left as it was"], "a write past the size limit",
            preexec_fn=small_files)
    for name in ("table2.csv", "table2.md"):
        with open(os.path.join(d, name)) as f:
            if f.read() != old:
                fail(f"a failed write changed the old {name}")
    if temporaries(d):
        fail(f"temporary files left after a failed write: {temporaries(d)}")


def read_rows(path):
    with open(path, newline="") as f:
        r = csv.reader(f)
        header = next(r)
        if header != COLUMNS:
            fail(f"{path}: columns {header}")
            return []
        rows = []
        for i, line in enumerate(r, 2):
            if len(line) != len(COLUMNS):
                fail(f"{path}:{i}: {len(line)} fields")
                continue
            rows.append(dict(zip(COLUMNS, line)))
        return rows


def usable(r):
    return r["check"] in ("PASS", "unchecked")


def med(xs):
    return statistics.median(xs) if xs else None


def median_where(rows, field, **kw):
    xs = []
    for r in rows:
        if not usable(r) or any(r[k] != v for k, v in kw.items()):
            continue
        if field == "gather_med_ms" and int(r["mm_launches"]) == 0:
            continue
        if field == "period_med_ms" and int(r["mm_launches"]) < 2:
            continue
        xs.append(float(r[field]))
    return med(xs)


def close(a, b, what):
    if a is None or b is None or (isinstance(b, float) and math.isnan(b)):
        if not (a is None and (b is None or (isinstance(b, float) and math.isnan(b)))):
            fail(f"{what}: recomputed {a}, ckstudy wrote {b}")
        return
    if abs(a - b) > 1e-3 + 1e-3 * abs(a):
        fail(f"{what}: recomputed {a:.6g}, ckstudy wrote {b:.6g}")


def num(s):
    return float("nan") if s in ("NaN", "") else float(s)


def check_table2(rows, out):
    pairs = []
    for r in rows:
        if (r["app"], r["input"]) not in pairs:
            pairs.append((r["app"], r["input"]))
    want = {}
    for app, inp in pairs:
        p = median_where(rows, "coop_ms", app=app, input=inp, mode="plain")
        a = median_where(rows, "coop_ms", app=app, input=inp, mode="alone", barrier="query")
        if p is None or a is None or p <= 0:
            continue
        want[(app, inp)] = a / p
    with open(os.path.join(out, "table2.csv"), newline="") as f:
        got = list(csv.DictReader(f))
    seen = set()
    for g in got:
        if g["scope"] in ("barrier", "workstealing"):
            key = (g["app"], g["input"])
            seen.add(key)
            scope = "workstealing" if g["app"] in WORK_STEALING else "barrier"
            if g["scope"] != scope:
                fail(f"table2 {key}: scope {g['scope']}, want {scope}")
            close(want.get(key), num(g["slowdown"]), f"table2 slowdown {key}")
    if seen != set(want):
        fail(f"table2 rows {sorted(seen)}, want {sorted(want)}")
    for scope in ("overall", "barrier", "workstealing"):
        vals = {k: v for k, v in want.items()
                if scope == "overall" or (scope == "workstealing") == (k[0] in WORK_STEALING)}
        gm = math.exp(sum(math.log(v) for v in vals.values()) / len(vals)) if vals else None
        mx = max(vals.values()) if vals else None
        g = [x for x in got if x["scope"] == "geomean-" + scope]
        m = [x for x in got if x["scope"] == "max-" + scope]
        if len(g) != 1 or len(m) != 1:
            fail(f"table2: no single geomean/max row for {scope}")
            continue
        close(gm, num(g[0]["slowdown"]), f"table2 geomean {scope}")
        close(mx, num(m[0]["slowdown"]), f"table2 max {scope}")
        if vals:
            arg = max(vals, key=vals.get)
            if (m[0]["app"], m[0]["input"]) != arg:
                fail(f"table2 max {scope} at {m[0]['app']} {m[0]['input']}, want {arg}")
    return len(want)


def check_table3(rows, out, groups):
    items = []
    for r in rows:
        if r["barrier"] != "-" and (r["app"], r["input"], r["barrier"]) not in items:
            items.append((r["app"], r["input"], r["barrier"]))
    with open(os.path.join(out, "table3.csv"), newline="") as f:
        got = {g["class"]: g for g in csv.DictReader(f)}
    for cls in CLASSES:
        stream = [r for r in rows if r["mode"] == "stream" and r["class"] == cls]
        if cls not in got:
            fail(f"table3: no row for {cls}")
            continue
        g = got[cls]
        if not stream:
            if g["groups"] != "none":
                fail(f"table3 {cls}: no stream runs but groups {g['groups']}")
            continue
        P = med([float(r["period_ms"]) for r in stream if usable(r)])
        E = float(stream[-1]["target_exec_ms"])
        close(P / (P - E), num(g["kernel_level"]), f"table3 {cls} model")
        found = None
        for ge in groups:
            slows, periods = [], []
            for app, inp, bar in items:
                a = median_where(rows, "coop_ms", app=app, input=inp, barrier=bar, mode="alone")
                kw = dict(app=app, input=inp, barrier=bar, mode="stream", **{"class": cls}, groups_expr=ge)
                m = median_where(rows, "coop_ms", **kw)
                per = median_where(rows, "period_med_ms", **kw)
                if a is not None and m is not None and a > 0:
                    slows.append(m / a)
                if per is not None:
                    periods.append(per)
            mp = med(periods)
            if mp is not None and mp <= TOLERANCE * P:
                found = (ge, med(slows), mp)
                break
        if found is None:
            if g["groups"] != "none":
                fail(f"table3 {cls}: groups {g['groups']}, recomputed none")
        else:
            if g["groups"] != found[0]:
                fail(f"table3 {cls}: groups {g['groups']}, recomputed {found[0]}")
            close(found[1], num(g["cooperative"]), f"table3 {cls} slowdown")
            close(found[2], num(g["median_period_ms"]), f"table3 {cls} period")


def check_png(path):
    try:
        with open(path, "rb") as f:
            if f.read(8) != b"\x89PNG\r\n\x1a\n":
                fail(f"{path}: not a PNG")
    except OSError as e:
        fail(f"{path}: {e}")


def check_output(out, summary_expect_rows=None):
    for name in ("runs.csv", "summary.json", "table2.csv", "table2.md", "table3.csv", "table3.md", "fig6.png",
                 "fig6.gp", "fig6.dat"):
        if not os.path.isfile(os.path.join(out, name)):
            fail(f"{name} missing")
    rows = read_rows(os.path.join(out, "runs.csv"))
    with open(os.path.join(out, "summary.json")) as f:
        summary = json.load(f)
    if summary.get("rows") != len(rows):
        fail(f"summary.json rows {summary.get('rows')}, runs.csv has {len(rows)}")
    for c in summary.get("classes", []):
        cal = c.get("calibration", {})
        if not cal.get("matmul_size") or "measured_exec_ms" not in cal:
            fail(f"summary.json: class {c.get('class')} lacks its calibration")
    apps = sorted({r["app"] for r in rows})
    pairs = sorted({(r["app"], r["input"]) for r in rows})
    for app, inp in pairs:
        check_png(os.path.join(out, f"fig5_{app}_{inp}.png"))
        if not os.path.isfile(os.path.join(out, f"fig5_{app}_{inp}.gp")):
            fail(f"fig5_{app}_{inp}.gp missing")
    check_png(os.path.join(out, "fig6.png"))
    for app in apps:
        check_png(os.path.join(out, f"timeline_{app}.png"))
        try:
            with open(os.path.join(out, f"timeline_{app}.json")) as f:
                tl = json.load(f)
            ev = tl["traceEvents"]
            counters = [e for e in ev if e.get("ph") == "C"]
            spans = [e for e in ev if e.get("ph") == "X"]
            if not counters or any("M" not in e["args"] for e in counters):
                fail(f"timeline_{app}.json: no active-group samples")
            if counters and counters[-1]["args"]["M"] != 0:
                fail(f"timeline_{app}.json: the trace does not end with M = 0")
            if not any(e.get("cat") == "gather" for e in spans) or not any(e.get("cat") == "exec" for e in spans):
                fail(f"timeline_{app}.json: no gather/execution spans")
            if any(e["dur"] < 0 for e in spans):
                fail(f"timeline_{app}.json: a negative duration")
        except (OSError, ValueError, KeyError) as e:
            fail(f"timeline_{app}.json: {e}")
    if any(r["round_pos"] != "-1" for r in rows):
        fail("a sweep row has a round position (only --table2 rows do)")
    n2 = check_table2(rows, out)
    if n2 == 0:
        fail("table2: no app/input had both an original and a cooperative time")
    check_table3(rows, out, summary.get("groups", []))
    bad = [r for r in rows if not usable(r)]
    for r in bad[:5]:
        fail(f"run not passing: {r['app']} {r['input']} {r['barrier']} {r['mode']} {r['class']} "
             f"{r['groups_expr']}: {r['check']} {r['message']}")
    return rows


def synthetic(ckstudy, work, out):
    """Table 3's "meets the period" branch, which PoCL never reaches: a copy
    of runs.csv whose N/2 and N-1 runs meet P (and other times moved), put
    through ckstudy --report-only and recomputed here."""
    syn = os.path.join(work, "synthetic")
    shutil.rmtree(syn, ignore_errors=True)
    os.makedirs(syn)
    rows = read_rows(os.path.join(out, "runs.csv"))
    for i, r in enumerate(rows):
        r["coop_ms"] = "%.4f" % (float(r["coop_ms"]) * (1 + (i % 7) / 10))
        if r["mode"] == "stream":
            r["mm_launches"] = "5"
            P = float(r["period_ms"])
            r["period_med_ms"] = "%.4f" % (P * (1.01 if r["groups_expr"] in ("N/2", "N-1") else 3 + i % 3))
    with open(os.path.join(syn, "runs.csv"), "w", newline="") as f:
        w = csv.writer(f, lineterminator="\n")
        w.writerow(COLUMNS)
        for r in rows:
            w.writerow([r[c] for c in COLUMNS])
    p, _ = run([ckstudy, "--report-only", "--no-plots", "--out", syn])
    if p.returncode != 0:
        fail(f"--report-only exit {p.returncode}: {p.stderr[-2000:]}")
        return
    check_table2(rows, syn)
    check_table3(rows, syn, ["1", "N/4", "N/2", "N-1"])
    with open(os.path.join(syn, "table3.csv"), newline="") as f:
        got = {g["class"]: g["groups"] for g in csv.DictReader(f)}
    if got != {c: "N/2" for c in CLASSES}:
        fail(f"synthetic table3: groups {got}, want N/2 for every class")

def old_header(ckstudy, work):
    """A runs.csv with the header before device_ms and round_pos: read by
    --report-only (the sweep's Table 2 from it), left as it was; a row of
    the new width under the old header is refused naming the count."""
    lines = [row_text(COLUMNS_V1), row_text(COLUMNS_V1, barrier="query", mode="alone", coop_ms="3.0000"),
             row_text(COLUMNS_V1, input="other", coop_ms="2.0000"),
             row_text(COLUMNS_V1, input="other", barrier="query", mode="alone", coop_ms="2.5000")]
    d = fresh(work, "old-header", lines, COLUMNS_V1)
    with open(os.path.join(d, "runs.csv")) as f:
        before = f.read()
    p, _ = run([ckstudy, "--report-only", "--no-plots", "--out", d])
    if p.returncode != 0:
        fail(f"--report-only on an old runs.csv: exit {p.returncode}: {p.stderr[-1500:]}")
        return
    with open(os.path.join(d, "runs.csv")) as f:
        if f.read() != before:
            fail("--report-only changed an old runs.csv")
    with open(os.path.join(d, "table2.csv"), newline="") as f:
        got = {(g["app"], g["input"]): num(g["slowdown"]) for g in csv.DictReader(f) if g["scope"] == "barrier"}
    want = {("bfs", "ci"): 3.0 / 1.5, ("bfs", "other"): 2.5 / 2.0}
    if set(got) != set(want):
        fail(f"old runs.csv: table2 rows {sorted(got)}, want {sorted(want)}")
    for k, v in want.items():
        close(v, got.get(k), f"old runs.csv: slowdown {k}")
    with open(os.path.join(d, "summary.json")) as f:
        if json.load(f).get("rows") != 4:
            fail("old runs.csv: summary.json does not count its 4 rows")
    d = fresh(work, "old-header-wide", lines + [row_text()], COLUMNS_V1)
    refused([ckstudy, "--report-only", "--no-plots", "--out", d], 1, ["runs.csv:6: ", "want 33"],
            "a new-width row under the old header")


# ---------------------------------------------------------------- Table 2

T2_FORMS = ("alone", "plain", "plain-fenced")


def t2_usable_times(rows, app, inp, mode, clock):
    xs = []
    for r in rows:
        if (r["app"], r["input"], r["mode"]) != (app, inp, mode) or int(r["round_pos"]) < 0 or not usable(r):
            continue
        xs.append(float(r["device_ms"] if clock == "device" else r["coop_ms"]))
    return xs


def t2_recompute(rows):
    """Table 2 from runs.csv, independently of ckstudy's C code: per item
    the clock, the medians and the ratios of medians with the per-round
    min..max; then the geomean and max over the passing items."""
    items = []
    for r in rows:
        if r["mode"] in T2_FORMS and int(r["round_pos"]) >= 0 and (r["app"], r["input"]) not in items:
            items.append((r["app"], r["input"]))
    out = {}
    for app, inp in items:
        dev = [t2_usable_times(rows, app, inp, m, "device") for m in T2_FORMS]
        clock = "device" if all(xs and min(xs) >= 0 for xs in dev) else "host"
        t = [t2_usable_times(rows, app, inp, m, clock) for m in T2_FORMS]
        it = {"clock": clock, "med": [med(x) for x in t], "min": [min(x) if x else None for x in t],
              "max": [max(x) if x else None for x in t]}
        it["ratio"] = [it["med"][0] / it["med"][k] if it["med"][0] is not None and it["med"][k] else None
                       for k in (1, 2)]
        per = {1: [], 2: []}
        for c in rows:
            if (c["app"], c["input"], c["mode"]) != (app, inp, "alone") or not usable(c):
                continue
            for k in (1, 2):
                p = [r for r in rows if (r["app"], r["input"], r["mode"], r["run"]) ==
                     (app, inp, T2_FORMS[k], c["run"]) and usable(r)]
                if p:
                    key = "device_ms" if clock == "device" else "coop_ms"
                    per[k].append(float(c[key]) / float(p[0][key]))
        it["round"] = [(min(per[k]), max(per[k])) if per[k] else (None, None) for k in (1, 2)]
        it["pass"] = all(usable(r) for r in rows if (r["app"], r["input"]) == (app, inp) and r["mode"] in T2_FORMS)
        out[(app, inp)] = it
    counted = {k: v for k, v in out.items() if v["pass"]}
    clock = "device" if all(v["clock"] == "device" for v in counted.values()) else "host"
    summary = {"clock": clock, "counted": len(counted), "geomean": [None, None], "max": [None, None]}
    for k in (0, 1):
        vals = {key: v["ratio"][k] for key, v in counted.items()}
        if vals:
            summary["geomean"][k] = math.exp(sum(math.log(x) for x in vals.values()) / len(vals))
            summary["max"][k] = max(vals.values())
    return out, summary


def t2_rows_shape(rows, runs):
    """Every item has each form once per round, in the alternating order."""
    items = sorted({(r["app"], r["input"]) for r in rows})
    for app, inp in items:
        for run in range(runs):
            got = {r["mode"]: int(r["round_pos"]) for r in rows
                   if (r["app"], r["input"], r["run"]) == (app, inp, str(run))}
            want = {m: (k if run % 2 == 0 else 2 - k) for k, m in enumerate(T2_FORMS)}
            if got != want:
                fail(f"table2 {app} {inp} round {run}: forms and places {got}, want {want}")
    return items


def t2_check_files(out, rows):
    """table2.csv, table2.md and summary.json against t2_recompute."""
    want, summ = t2_recompute(rows)
    for name in ("table2.csv", "table2.md", "summary.json"):
        if not os.path.isfile(os.path.join(out, name)):
            fail(f"--table2: {name} missing")
            return
    with open(os.path.join(out, "table2.csv"), newline="") as f:
        got = list(csv.DictReader(f))
    items = {(g["app"], g["input"]): g for g in got if g["row"] == "item"}
    if set(items) != set(want):
        fail(f"table2.csv items {sorted(items)}, want {sorted(want)}")
    for key, w in want.items():
        g = items.get(key)
        if not g:
            continue
        if g["clock"] != w["clock"]:
            fail(f"table2 {key}: clock {g['clock']}, want {w['clock']}")
        for k, form in enumerate(("coop", "plain", "fenced")):
            close(w["med"][k], num(g[f"{form}_{w['clock']}_med"]), f"table2 {key} {form} median")
            close(w["min"][k], num(g[f"{form}_{w['clock']}_min"]), f"table2 {key} {form} min")
            close(w["max"][k], num(g[f"{form}_{w['clock']}_max"]), f"table2 {key} {form} max")
        for k, name in enumerate(("plain", "fenced")):
            close(w["ratio"][k], num(g[f"ratio_{name}"]), f"table2 {key} ratio {name}")
            close(w["round"][k][0], num(g[f"ratio_{name}_min"]), f"table2 {key} ratio {name} round min")
            close(w["round"][k][1], num(g[f"ratio_{name}_max"]), f"table2 {key} ratio {name} round max")
        if (g["check"] in ("PASS", "unchecked")) != w["pass"]:
            fail(f"table2 {key}: check {g['check']}, recomputed {'PASS' if w['pass'] else 'FAIL'}")
    geo = [g for g in got if g["row"] == "geomean"]
    if len(geo) != 1:
        fail("table2.csv: no single geomean row")
    else:
        if geo[0]["clock"] != summ["clock"]:
            fail(f"table2 geomean clock {geo[0]['clock']}, want {summ['clock']}")
        close(summ["geomean"][0], num(geo[0]["ratio_plain"]), "table2 geomean coop/plain")
        close(summ["geomean"][1], num(geo[0]["ratio_fenced"]), "table2 geomean coop/plain-fenced")
    with open(os.path.join(out, "summary.json")) as f:
        t2 = json.load(f).get("table2", {})
    if t2.get("items_counted") != summ["counted"] or t2.get("clock") != summ["clock"]:
        fail(f"summary.json table2: counted {t2.get('items_counted')} clock {t2.get('clock')}, want "
             f"{summ['counted']} {summ['clock']}")
    g, m = t2.get("geomean", {}), t2.get("max", {})
    close(summ["geomean"][0], g.get("coop_over_plain"), "summary.json geomean coop/plain")
    close(summ["geomean"][1], g.get("coop_over_plain_fenced"), "summary.json geomean coop/plain-fenced")
    close(summ["max"][0], m.get("coop_over_plain"), "summary.json max coop/plain")
    close(summ["max"][1], m.get("coop_over_plain_fenced"), "summary.json max coop/plain-fenced")
    if g.get("paper") != 1.07 or m.get("paper") != 1.23:
        fail(f"summary.json table2: paper {g.get('paper')} / {m.get('paper')}, want 1.07 / 1.23")
    for it in t2.get("items", []):
        key = (it.get("app"), it.get("input"))
        if key in want:
            w = want[key]
            close(w["ratio"][0], it["coop_over_plain"]["ratio_of_medians"], f"summary.json {key} coop/plain")
            close(w["med"][0], it["coop"][w["clock"] + "_ms"]["median"], f"summary.json {key} coop median")
    with open(os.path.join(out, "table2.md")) as f:
        md = f.read()
    if "1.07" not in md or "1.23" not in md or "plain-fenced" not in md:
        fail("table2.md lacks the paper's numbers or the plain-fenced column")
    if summ["clock"] == "host" and "Host times" not in md:
        fail("table2.md on host times does not say so")
    return want, summ


def table2(ckstudy, work):
    t0 = time.time()
    # Bad arguments: one line, exit 2, nothing run.
    for args, what in ((["--table2", "--quick", "--runs", "1"], "--table2 --runs 1"),
                       (["--table2", "--quick", "--apps", "nosuchapp"], "--table2 unknown app")):
        p, dt = run([ckstudy] + args + ["--out", os.path.join(work, "t2-bad")])
        lines = p.stderr.strip().splitlines()
        if p.returncode != 2 or len(lines) != 1 or dt > 10:
            fail(f"{what}: want exit 2 and one line at once, got {p.returncode} in {dt:.1f} s: {lines}")
    if os.path.exists(os.path.join(work, "t2-bad", "runs.csv")):
        fail("a refused --table2 wrote runs.csv")
    p, _ = run([ckstudy, "--table2", "--quick", "--dry-run"])
    if p.returncode != 0 or "Table 2: 2 app/input pairs x 10 rounds" not in p.stdout or "ws ci" not in p.stdout:
        fail(f"--table2 --dry-run: exit {p.returncode}: {p.stdout[-600:]}")
    # The quick run: bfs and ws, 2 rounds.
    out = os.path.join(work, "t2")
    shutil.rmtree(out, ignore_errors=True)
    p, dt = run([ckstudy, "--table2", "--quick", "--runs", "2", "--out", out])
    print(f"ckstudy --table2 --quick --runs 2: exit {p.returncode} in {dt:.0f} s", flush=True)
    if p.returncode != 0:
        fail(f"ckstudy --table2 exit {p.returncode}:\n{p.stderr[-3000:]}")
    rows = read_rows(os.path.join(out, "runs.csv"))
    items = t2_rows_shape(rows, 2)
    if items != [("bfs", "ci"), ("ws", "ci")]:
        fail(f"--table2 items {items}")
    for r in rows:
        if r["check"] != "PASS":
            fail(f"--table2 row not PASS: {r['app']} {r['mode']} run {r['run']}: {r['check']} {r['message']}")
        if r["mode"] == "alone":
            plain = {x["coop_groups"] for x in rows if x["app"] == r["app"] and x["mode"] != "alone"}
            if (r["kills"], r["forks"], r["resizes"]) != ("0", "0", "0") or \
                    {r["initial_groups"], r["max_active"], r["coop_groups"]} != plain or int(r["coop_groups"]) < 1:
                fail(f"--table2 alone {r['app']} run {r['run']}: kills/forks/resizes {r['kills']}/{r['forks']}/"
                     f"{r['resizes']}, groups {r['initial_groups']}/{r['max_active']}/{r['coop_groups']}, "
                     f"plain {plain}")
        if float(r["coop_ms"]) <= 0 or not (float(r["device_ms"]) > 0 or r["device_ms"].startswith("-1")):
            fail(f"--table2 {r['app']} {r['mode']} run {r['run']}: times {r['coop_ms']} / {r['device_ms']}")
    want, summ = t2_check_files(out, rows)
    for key, w in want.items():
        for k in (0, 1):
            lo, hi = w["round"][k]
            if not (w["ratio"][k] and math.isfinite(w["ratio"][k]) and w["ratio"][k] > 0 and lo and lo > 0):
                fail(f"--table2 {key}: ratio {k} {w['ratio'][k]} (rounds {lo}..{hi}) not finite and above 0")
    if summ["counted"] != 2:
        fail(f"--table2: {summ['counted']} items counted, want 2")
    # Host times: the same rows with the cooperative runs' device times unknown.
    host = fresh(work, "t2-host")
    with open(os.path.join(host, "runs.csv"), "w", newline="") as f:
        w = csv.writer(f, lineterminator="\n")
        w.writerow(COLUMNS)
        for r in rows:
            w.writerow([("-1.00000" if c == "device_ms" and r["mode"] == "alone" else r[c]) for c in COLUMNS])
    p, _ = run([ckstudy, "--report-only", "--out", host])
    if p.returncode != 0:
        fail(f"--report-only of a Table 2 on host times: exit {p.returncode}: {p.stderr[-1500:]}")
    else:
        _, hs = t2_check_files(host, read_rows(os.path.join(host, "runs.csv")))
        if hs["clock"] != "host":
            fail("a Table 2 without the cooperative device times is not on host times")
    # --resume: a round torn (its last row gone) is redone whole, nothing else.
    path = os.path.join(out, "runs.csv")
    with open(path) as f:
        lines = f.read().splitlines()
    with open(path, "w") as f:
        f.write("\n".join(lines[:-1]) + "\n")
    p, dt = run([ckstudy, "--table2", "--quick", "--runs", "2", "--resume", "--out", out])
    rounds = [x for x in p.stderr.splitlines() if " round " in x and x.startswith("ckstudy: [")]
    rows2 = read_rows(path)
    if p.returncode != 0 or len(rows2) != len(rows) or len(rounds) != 1 or "ws ci round 2/2" not in rounds[0]:
        fail(f"--table2 --resume of a torn round: exit {p.returncode}, {len(rows2)} rows (want {len(rows)}), "
             f"rounds redone {rounds}")
    t2_rows_shape(rows2, 2)
    # Chaos makes the scheduler kill, fork and resize: every cooperative run
    # then is no fair comparison and FAILs, naming what moved.
    out = os.path.join(work, "t2-chaos")
    shutil.rmtree(out, ignore_errors=True)
    p, dt = run([ckstudy, "--table2", "--quick", "--apps", "bfs", "--runs", "2", "--out", out],
                env=dict(os.environ, CK_CHAOS_SEED="7"))
    rows = read_rows(os.path.join(out, "runs.csv"))
    alone = [r for r in rows if r["mode"] == "alone"]
    if p.returncode != 1 or len(alone) != 2 or \
            any(r["check"] != "FAIL" or "not a fair comparison" not in r["message"] for r in alone):
        fail(f"--table2 under chaos: exit {p.returncode}, alone rows {[(r['check'], r['message']) for r in alone]}")
    with open(os.path.join(out, "table2.csv"), newline="") as f:
        got = [g for g in csv.DictReader(f) if g["row"] == "item"]
    if len(got) != 1 or got[0]["check"] != "FAIL":
        fail(f"--table2 under chaos: table2 items {[(g['app'], g['check']) for g in got]}, want one FAIL")
    t2_check_files(out, rows)
    print(f"--table2 checks: {time.time() - t0:.0f} s", flush=True)



def main():
    if len(sys.argv) not in (3, 4) or (len(sys.argv) == 4 and sys.argv[3] != "--table2"):
        sys.exit(__doc__)
    ckstudy, work = sys.argv[1], sys.argv[2]
    shutil.rmtree(work, ignore_errors=True)
    os.makedirs(work)
    if len(sys.argv) == 4:
        old_header(ckstudy, work)
        table2(ckstudy, work)
        if failures:
            print(f"{len(failures)} failure(s)")
            return 1
        print("PASS")
        return 0
    bad_inputs(ckstudy, work)
    file_safety(ckstudy, work)
    out = os.path.join(work, "quick")
    p, dt = run([ckstudy, "--quick", "--out", out])
    print(f"ckstudy --quick: exit {p.returncode} in {dt:.0f} s", flush=True)
    progress = [line for line in p.stderr.splitlines() if line.startswith("ckstudy: [")]
    if not progress or "calibration" not in p.stderr:
        fail("no progress or calibration lines on stderr")
    if p.returncode != 0:
        fail(f"ckstudy --quick exit {p.returncode}:\n{p.stderr[-3000:]}")
    rows = check_output(out)
    # Resume: drop the rows of the last app and tear the last line kept.
    path = os.path.join(out, "runs.csv")
    with open(path) as f:
        lines = f.read().splitlines()
    last_app = rows[-1]["app"] if rows else ""
    keep = [lines[0]] + [line for line in lines[1:] if not line.startswith(last_app + ",")]
    removed = len(lines) - len(keep)
    torn = keep[-1][: len(keep[-1]) // 2]
    with open(path, "w") as f:
        f.write("\n".join(keep[:-1]) + "\n" + torn)
    for name in os.listdir(out):
        if name.startswith(f"timeline_{last_app}."):
            os.remove(os.path.join(out, name))
    p, dt = run([ckstudy, "--quick", "--out", out, "--resume"])
    print(f"ckstudy --quick --resume (removed {removed} rows + a torn one): exit {p.returncode} in {dt:.0f} s",
          flush=True)
    if p.returncode != 0:
        fail(f"resume exit {p.returncode}:\n{p.stderr[-3000:]}")
    rows2 = check_output(out)
    if len(rows2) != len(rows):
        fail(f"after --resume runs.csv has {len(rows2)} rows, want {len(rows)}")
    done = [line for line in p.stderr.splitlines() if line.endswith(": done")]
    if len(done) != removed + 1:
        fail(f"--resume redid {len(done)} configurations, want {removed + 1} (the removed and the torn one)")
    p, dt = run([ckstudy, "--quick", "--out", out, "--resume"])
    done = [line for line in p.stderr.splitlines() if line.endswith(": done")]
    if p.returncode != 0 or done or len(read_rows(path)) != len(rows):
        fail(f"a finished sweep resumed: exit {p.returncode}, redid {len(done)} configurations")
    print(f"ckstudy --resume of a finished sweep: {dt:.0f} s", flush=True)
    synthetic(ckstudy, work, out)
    if failures:
        print(f"{len(failures)} failure(s)")
        return 1
    print("PASS")
    return 0


if __name__ == "__main__":
    sys.exit(main())
