#!/usr/bin/env python3
"""Test of fuzz_driver's finding detection, with the planted faults of
selftest_target.c: a crash (abort, segfault, a UBSan report where UBSan is
built in), a hang and a fault that only a
mutation reaches each end the run with a failure (exit 1, or death by the
signal) and the input that did it in the artifact folder; clean inputs end with 0 and "no finding"; a bad
command line with 2.  Usage: test_driver.py SELFTEST_DRIVER DICT WORKDIR"""
import os
import shutil
import subprocess
import sys

driver, words, work = sys.argv[1:4]
shutil.rmtree(work, ignore_errors=True)
os.makedirs(work)
failures = []


def write(name, data):
    path = os.path.join(work, name)
    with open(path, 'wb') as f:
        f.write(data)
    return path


def run(*args):
    art = os.path.join(work, 'artifacts')
    shutil.rmtree(art, ignore_errors=True)
    os.makedirs(art)
    env = dict(os.environ)
    env.pop('UBSAN_OPTIONS', None)  # the driver's own defaults must save the input of a UBSan report
    p = subprocess.run([driver, '--artifacts', art, '--timeout', '1'] + list(args), capture_output=True, timeout=60,
                       env=env)
    found = {}
    for name in os.listdir(art):
        with open(os.path.join(art, name), 'rb') as f:
            found[name] = f.read()
    return p.returncode, p.stdout.decode() + p.stderr.decode(), found


def expect_finding(what, kind, args, must_contain):
    rc, out, found = run(*args)
    hits = [n for n in found if n.startswith(kind + '-') and must_contain in found[n]]
    if rc == 0 or rc == 2 or not hits:
        failures.append('%s: exit %d, artifacts %s (want a failure and a %s- file holding %r)\n%s'
                        % (what, rc, sorted(found), kind, must_contain, out[-2000:]))


clean = write('clean', b'k\nkernel void k() {}\n')
rc, out, found = run(write('overflow', b'overflow here'))
if 'runtime error' in out and not any(v == b'overflow here' for v in found.values()):  # UBSan builds only
    failures.append('UBSan report: exit %d, artifacts %s (want the input saved)\n%s' % (rc, sorted(found), out[-2000:]))
expect_finding('abort', 'crash', [clean, write('abort', b'abort here')], b'abort here')
expect_finding('segv', 'crash', [write('segv', b'segv here')], b'segv here')
expect_finding('hang', 'timeout', [write('hang', b'hang here')], b'hang here')
expect_finding('mutation', 'crash', ['--runs', '100000', '--dict', words, clean], b'offer_kill();')

rc, out, found = run(clean)
if rc != 0 or 'no finding' not in out or found:
    failures.append('clean input: exit %d, artifacts %s\n%s' % (rc, sorted(found), out))
rc, out, _ = run('--frobnicate', clean)
if rc != 2 or 'unknown option' not in out:
    failures.append('bad option: exit %d\n%s' % (rc, out))
rc, out, _ = run()
if rc != 2 or 'no input' not in out:
    failures.append('no input: exit %d\n%s' % (rc, out))

for f in failures:
    print('FAIL ' + f)
print('%d failures' % len(failures))
sys.exit(1 if failures else 0)
