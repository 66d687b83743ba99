#!/usr/bin/env python3
"""Runs the stitcher's fuzz target (docs/FUZZING.md) over a seed corpus made
from the project's kernels, which it writes fresh into WORKDIR/seeds: every
.cl file under apps/, tests/ and examples/, once with the cooperative kernels
that tests/cooperative_kernels.txt names for it (none if unlisted) and once
with every kernel it defines made cooperative. tests/fuzz/regress/ is always
run too; both fuzzers insert the tokens of tests/fuzz/stitcher.dict.

  run_fuzz.py regress  DRIVER    ROOT WORKDIR            each input once (fuzz_driver)
  run_fuzz.py driver   DRIVER    ROOT WORKDIR SECONDS [ARGS]  self-driven mutation
  run_fuzz.py libfuzzer FUZZER   ROOT WORKDIR SECONDS [ARGS]  libFuzzer

ARGS go to the fuzzer as they are. Findings go to WORKDIR/artifacts/; the
exit status is the fuzzer's (0: no finding). libFuzzer keeps the inputs it
finds new coverage with in WORKDIR/corpus between runs."""
import os
import re
import subprocess
import sys

KERNEL = re.compile(r'\b(?:__kernel|kernel)\b\s+(?:__attribute__\s*\(\(.*?\)\)\s*)?void\s+(\w+)\s*\(', re.S)
MAX_NAMES = 8  # FUZZ_MAX_COOP in fuzz_stitcher.c


def listed_names(root):
    names = {}
    with open(os.path.join(root, 'tests', 'cooperative_kernels.txt')) as f:
        for line in f:
            words = line.split()
            if len(words) == 2 and not line.startswith('#'):
                names[words[0]] = '' if words[1] == '-' else words[1]
    return names


def write_seeds(root, out):
    os.makedirs(out, exist_ok=True)
    for old in os.listdir(out):
        os.remove(os.path.join(out, old))
    listed = listed_names(root)
    count = 0
    for top in ('apps', 'tests', 'examples'):
        for folder, dirs, files in os.walk(os.path.join(root, top)):
            dirs.sort()
            for name in sorted(files):
                if not name.endswith('.cl'):
                    continue
                path = os.path.join(folder, name)
                rel = os.path.relpath(path, root)
                with open(path, 'rb') as f:
                    text = f.read()
                every = ','.join(KERNEL.findall(text.decode('utf-8', 'replace'))[:MAX_NAMES])
                heads = [listed.get(rel, '')]
                if every not in heads:
                    heads.append(every)
                for i, head in enumerate(heads):
                    seed = rel.replace('/', '_') + '.' + str(i)
                    with open(os.path.join(out, seed), 'wb') as f:
                        f.write(head.encode() + b'\n' + text)
                    count += 1
    return count


def main():
    if len(sys.argv) < 5 or sys.argv[1] not in ('regress', 'driver', 'libfuzzer') or \
            (sys.argv[1] != 'regress' and len(sys.argv) < 6):
        sys.exit('usage: run_fuzz.py regress|driver|libfuzzer BINARY ROOT WORKDIR [SECONDS [ARGS...]]')
    mode, binary, root, work = sys.argv[1:5]
    seeds = os.path.join(work, 'seeds')
    artifacts = os.path.join(work, 'artifacts')
    corpus = os.path.join(work, 'corpus')
    regress = os.path.join(root, 'tests', 'fuzz', 'regress')
    words = os.path.join(root, 'tests', 'fuzz', 'stitcher.dict')
    for d in (artifacts, corpus):
        os.makedirs(d, exist_ok=True)
    print('run_fuzz: %d seeds from the project\'s kernels in %s' % (write_seeds(root, seeds), seeds), flush=True)
    env = dict(os.environ)
    # A UBSan report must stop the run, through abort(), which both fuzzers catch to save the
    # input (fuzz_driver has the same defaults; this keeps them when UBSAN_OPTIONS is set).
    env['UBSAN_OPTIONS'] = env.get('UBSAN_OPTIONS', 'print_stacktrace=1') + ':halt_on_error=1:abort_on_error=1'
    if mode == 'regress':
        cmd = [binary, '--artifacts', artifacts, seeds, regress]
    elif mode == 'driver':
        cmd = [binary, '--seconds', sys.argv[5], '--dict', words, '--artifacts', artifacts] + sys.argv[6:] + \
            [seeds, regress]
    else:
        cmd = [binary, '-max_total_time=' + sys.argv[5], '-rss_limit_mb=2048', '-timeout=10',
               '-print_final_stats=1', '-dict=' + words, '-artifact_prefix=' + artifacts + '/'] + sys.argv[6:] + [corpus, seeds, regress]
    print('run_fuzz: ' + ' '.join(cmd), flush=True)
    sys.exit(subprocess.call(cmd, env=env))


if __name__ == '__main__':
    main()
