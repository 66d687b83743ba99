#!/usr/bin/env python3
"""Chaos stress harness: many chaos seeds of the ported applications on PoCL,
with the machine loaded on purpose, reporting every failure and every hang
with its output (the scheduler's state dump, the record and the replay
command the test prints).

It runs the suite's own chaos test (tests/apps/test_apps_chaos) in chunks of
seeds, each chunk a process with a deadline, for every application and path
asked, while CPU hogs and further chunks run beside it: more spinning
work-groups than cores, so that PoCL's threads are preempted at every point
of the megakernel. A chunk that fails keeps its log; a chunk that outlives
its deadline is a hang: its process group is killed and its log kept. With
--check the megakernel is built with its accounting checks (CK_CHECK=1,
docs/DESIGN.md section 3.8) and a violation is counted apart.

Run from the project's top folder after `tools/ck build` (or through
`tools/ck stress`). Not part of the test suite: thousands of seeds take
hours on a 2-core machine. Exit status: 0 if every seed passed and nothing
hung, 1 otherwise, 2 for bad arguments.
"""
import argparse
import json
import os
import re
import signal
import subprocess
import sys
import time

APPS = ["bfs", "ws", "octree", "game", "color", "mis", "bfs-wl", "l-sssp", "p-sssp", "bc"]
PATHS = ["cl20", "cl12"]
SUMMARY = re.compile(r"on (cl20|cl12): chaos seeds (\d+)\.\.(\d+): (\d+) failed")
FAILED_SEED = re.compile(r"chaos seed (\d+) \(")
VIOLATION = "accounting check failed"


def whole(minimum):
    def parse(text):
        try:
            v = int(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"'{text}' is not a whole number")
        if v < minimum:
            raise argparse.ArgumentTypeError(f"'{text}' must be at least {minimum}")
        return v
    return parse


positive, non_negative = whole(1), whole(0)


def word_list(allowed, what):
    def parse(text):
        items = [t for t in text.split(",") if t]
        bad = [t for t in items if t not in allowed]
        if bad or not items:
            raise argparse.ArgumentTypeError(f"unknown {what} '{','.join(bad) or text}' (known: {', '.join(allowed)})")
        return items
    return parse


def parse_args(argv):
    p = argparse.ArgumentParser(prog="tools/ck stress", description=__doc__.split("\n\n")[0],
                                formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--build", default="build", help="the build folder (default: build)")
    p.add_argument("--apps", type=word_list(APPS, "application"), default=APPS,
                   help="comma-separated applications (default: all ten)")
    p.add_argument("--paths", type=word_list(PATHS, "path"), default=PATHS, help="cl20,cl12 (default: both)")
    p.add_argument("--seeds", type=positive, default=1000, help="seeds per application and path (default 1000)")
    p.add_argument("--first", type=positive, default=1000, help="first seed (default 1000, past the suite's 1..50)")
    p.add_argument("--chunk", type=positive, default=50, help="seeds per test process (default 50, as the suite)")
    p.add_argument("--parallel", type=positive, default=2, help="test processes at once (default 2)")
    p.add_argument("--hogs", type=non_negative, default=os.cpu_count() or 2,
                   help="busy-looping processes beside them (default: one per core)")
    p.add_argument("--pool", type=positive, default=8, help="POCL_MAX_PTHREAD_COUNT (default 8, as the suite)")
    p.add_argument("--deadline", type=float, default=0,
                   help="seconds a chunk may take before it counts as a hang (default: 10 s a seed + 300 s)")
    p.add_argument("--check", action="store_true", help="megakernel with its accounting checks (CK_CHECK=1)")
    p.add_argument("--out", default="", help="folder for the logs of failed and hung chunks "
                   "(default: <build>/stress-logs)")
    p.add_argument("--json", action="store_true", help="print the summary as one JSON object on stdout (progress "
                   "and problems go to stderr either way)")
    a = p.parse_args(argv)
    if a.deadline < 0:
        p.error("--deadline must not be negative")
    return a


class Chunk:
    def __init__(self, app, path, first, last):
        self.app, self.path, self.first, self.last = app, path, first, last
        self.proc = None
        self.log = None
        self.started = 0.0

    def name(self):
        return f"{self.app}-{self.path}-{self.first}-{self.last}"


def start_hogs(n):
    hogs = []
    for _ in range(n):
        hogs.append(subprocess.Popen([sys.executable, "-c", "while True: pass"], start_new_session=True))
    return hogs


def stop(proc):
    try:
        os.killpg(proc.pid, signal.SIGKILL)
    except ProcessLookupError:
        pass
    proc.wait()


def main(argv):
    a = parse_args(argv)
    exe = os.path.join(a.build, "tests", "apps", "test_apps_chaos")
    if not os.path.isfile(exe) or not os.access(exe, os.X_OK):
        print(f"chaos_stress: {exe} is not built (run tools/ck build first, or give --build)", file=sys.stderr)
        return 2
    out = a.out or os.path.join(a.build, "stress-logs")
    os.makedirs(out, exist_ok=True)
    deadline = a.deadline or 10.0 * a.chunk + 300.0
    env = dict(os.environ)
    env["POCL_MAX_PTHREAD_COUNT"] = str(a.pool)
    env.pop("CK_CHAOS_RECORD", None)
    env.pop("CK_CHAOS_REPLAY", None)
    env.pop("CK_CHAOS_SEED", None)
    if a.check:
        env["CK_CHECK"] = "1"
    env["TMPDIR"] = out  # the records the failing seeds keep land beside their logs
    todo = []
    for app in a.apps:
        for path in a.paths:
            s = a.first
            while s < a.first + a.seeds:
                e = min(s + a.chunk - 1, a.first + a.seeds - 1)
                todo.append(Chunk(app, path, s, e))
                s = e + 1
    # Interleave applications so that different kernels share the machine.
    todo.sort(key=lambda c: (c.first, a.apps.index(c.app), c.path))
    hogs = start_hogs(a.hogs)
    running, done = [], []
    totals = {"seeds": 0, "failed_seeds": 0, "hangs": 0, "violations": 0, "chunks": 0}
    per_app = {}
    problems = []
    t0 = time.time()
    try:
        while todo or running:
            while todo and len(running) < a.parallel:
                c = todo.pop(0)
                c.log = open(os.path.join(out, c.name() + ".log"), "w+")
                c.started = time.time()
                c.proc = subprocess.Popen([exe, c.app, c.path, str(c.first), str(c.last)], stdout=c.log,
                                          stderr=subprocess.STDOUT, env=env, start_new_session=True)
                running.append(c)
            time.sleep(0.5)
            for c in list(running):
                rc = c.proc.poll()
                hung = rc is None and time.time() - c.started > deadline
                if rc is None and not hung:
                    continue
                if hung:
                    stop(c.proc)
                running.remove(c)
                c.log.flush()
                c.log.seek(0)
                text = c.log.read()
                c.log.close()
                m = SUMMARY.search(text)
                ran = int(m.group(3)) - int(m.group(2)) + 1 if m else 0
                failed = sorted({int(x) for x in FAILED_SEED.findall(text)})
                violation = text.count(VIOLATION)
                app = per_app.setdefault(c.app, {"seeds": 0, "failed_seeds": 0, "hangs": 0, "violations": 0})
                for d in (totals, app):
                    d["seeds"] += ran if ran else (0 if hung else c.last - c.first + 1)
                    d["failed_seeds"] += len(failed)
                    d["hangs"] += 1 if hung else 0
                    d["violations"] += violation
                totals["chunks"] += 1
                bad = hung or rc != 0 or failed or violation
                log_path = os.path.join(out, c.name() + ".log")
                if bad:
                    what = "HANG" if hung else f"FAIL (exit {rc})"
                    problems.append({"chunk": c.name(), "what": what, "failed_seeds": failed, "log": log_path})
                    print(f"chaos_stress: {c.name()}: {what}; seeds {failed or '?'}; log {log_path}", file=sys.stderr,
                          flush=True)
                else:
                    os.remove(log_path)
                el = time.time() - t0
                print(f"chaos_stress: {totals['chunks']} chunks, {totals['seeds']} seeds, "
                      f"{totals['failed_seeds']} failed, {totals['hangs']} hangs, "
                      f"{totals['violations']} check violations, {el:.0f} s ({c.name()})", file=sys.stderr, flush=True)
    finally:
        for c in running:
            stop(c.proc)
        for h in hogs:
            stop(h)
    summary = {"build": a.build, "apps": a.apps, "paths": a.paths, "first_seed": a.first,
               "seeds_per_app_path": a.seeds, "chunk": a.chunk, "parallel": a.parallel, "hogs": a.hogs,
               "pool": a.pool, "check": a.check, "seconds": round(time.time() - t0, 1), "logs": out,
               "per_app": per_app, "problems": problems, **totals}
    if a.json:
        print(json.dumps(summary, indent=1))
    else:
        print(f"chaos_stress: done: {totals['seeds']} seeds, {totals['failed_seeds']} failed, "
              f"{totals['hangs']} hangs, {totals['violations']} check violations in {summary['seconds']} s")
    return 0 if not problems else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
