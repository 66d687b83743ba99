#!/usr/bin/env python3
"""One ckbench --json file's synchronisation figures on a few lines: the
plain barrier in its forms, the megakernel's barriers, grid.sync when the
CUDA reference ran, and the lock forms (tools/plain_sync.h)."""
import json
import sys

for path in sys.argv[1:]:
    d = json.load(open(path))
    p = d["plain_sync"]
    c = d.get("cuda") or {}
    if isinstance(c, str):
        c = json.loads(c)
    print(f"{path}: groups {p['groups']} plain {p['plain_barrier_us']} fenced {p['plain_barrier_fenced_us']}"
          f" megakernel {d['global_barrier_us']} resizing {d['resizing_barrier_us']}"
          f" offer_kill_ns {d['offer_kill_ns']} grid.sync {c.get('grid_sync_us')} ({c.get('grid_sync_blocks')} blocks)")
    print(f"  one-counter form (before the ticket form): {p.get('plain_barrier_counter_us')} us")
    for m in p.get("master_barriers", []):
        print(f"  master barrier, {m['counters']} counters {m['stride_words']} words apart: {m['us']} us")
    print(f"  megakernel: {d.get('workers')} workers, resources {d.get('megakernel_resources')}")
    for name, v in p["mutex_ns"].items():
        print(f"  mutex {name}: {v}")
