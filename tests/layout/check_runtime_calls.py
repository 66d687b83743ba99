#!/usr/bin/env python3
"""tests/layout/check_runtime_calls.py: the runtime's files call each other
without a loop.

Reads every runtime/*.c, finds which file defines each function that is not
static, and counts a file as using another when it names a function that
the other defines (a call, or the function taken as a value). The files
and those uses make a graph; a loop in it (file A uses B, ..., B uses A)
fails the test, which names the files of each loop and the functions that
tie them. Only .c files are read: a call made through a macro of a header
is not seen.

  check_runtime_calls.py [RUNTIME_DIR]   check (default: ../../runtime)
  check_runtime_calls.py --selftest      check the checker on a made-up tree
                                         with a loop and one without

Exit status: 0 without a loop, 1 with one (or a failed self-test), 2 on a
bad command line or an unreadable folder.
"""
import os
import re
import sys
import tempfile

IDENT = re.compile(r'[A-Za-z_]\w*')
# A function definition's head at file scope: ... name ( params ) before '{'.
DEF_HEAD = re.compile(r'([A-Za-z_]\w*)\s*\((?:[^()]|\([^()]*\))*\)\s*$', re.S)
NOT_FUNCTION = re.compile(r'\b(struct|union|enum|typedef)\b|=')


def strip_code(text):
    """The text without comments, string and character literals and
    preprocessor lines (each replaced by blanks, so lines keep their
    numbers)."""
    out = []
    i, n = 0, len(text)
    at_line_start = True
    while i < n:
        c = text[i]
        if at_line_start and c == '#':
            # A directive, with its continuation lines.
            j = i
            while j < n and (text[j] != '\n' or text[j - 1] == '\\'):
                j += 1
            out.append(re.sub(r'[^\n]', ' ', text[i:j]))
            i = j
            continue
        if c == '/' and text.startswith('/*', i):
            j = text.find('*/', i + 2)
            j = n if j < 0 else j + 2
            out.append(re.sub(r'[^\n]', ' ', text[i:j]))
            i = j
            continue
        if c == '/' and text.startswith('//', i):
            j = text.find('\n', i)
            j = n if j < 0 else j
            out.append(' ' * (j - i))
            i = j
            continue
        if c in '"\'':
            j = i + 1
            while j < n and text[j] != c:
                j += 2 if text[j] == '\\' else 1
            j = min(j + 1, n)
            out.append(c + re.sub(r'[^\n]', ' ', text[i + 1:j - 1]) + c)
            i = j
            continue
        out.append(c)
        if c == '\n':
            at_line_start = True
        elif not c.isspace():
            at_line_start = False
        i += 1
    return ''.join(out)


def definitions(code):
    """(exported, static): the names of the functions the code defines, with
    and without the static keyword."""
    exported, static = set(), set()
    depth = 0
    head_start = 0
    for i, c in enumerate(code):
        if c == '{':
            if depth == 0:
                head = code[head_start:i]
                m = DEF_HEAD.search(head)
                if m and not NOT_FUNCTION.search(head):
                    (static if re.search(r'\bstatic\b', head) else exported).add(m.group(1))
            depth += 1
        elif c == '}':
            depth -= 1
            if depth == 0:
                head_start = i + 1
        elif c == ';' and depth == 0:
            head_start = i + 1
    return exported, static


def read_tree(runtime_dir):
    """{file name: stripped code} of the folder's .c files."""
    files = {}
    for name in sorted(os.listdir(runtime_dir)):
        if name.endswith('.c'):
            with open(os.path.join(runtime_dir, name), encoding='utf-8') as f:
                files[name] = strip_code(f.read())
    return files


def call_graph(files):
    """{file: {other file: sorted names it uses from there}}."""
    owner = {}
    statics = {}
    for name, code in files.items():
        exported, static = definitions(code)
        statics[name] = static
        for fn in exported:
            owner.setdefault(fn, name)
    graph = {name: {} for name in files}
    for name, code in files.items():
        used = set()
        for m in IDENT.finditer(code):
            fn = m.group(0)
            if fn not in owner or owner[fn] == name or fn in statics[name]:
                continue
            before = code[:m.start()].rstrip()
            if before.endswith('.') or before.endswith('->'):
                continue  # a member of that name, not the function
            used.add(fn)
        for fn in sorted(used):
            graph[name].setdefault(owner[fn], []).append(fn)
    return graph


def loops(graph):
    """The strongly connected components of more than one file (Tarjan),
    each as a sorted list."""
    index, low, on_stack, stack, found = {}, {}, set(), [], []
    counter = [0]

    def visit(v):
        index[v] = low[v] = counter[0]
        counter[0] += 1
        stack.append(v)
        on_stack.add(v)
        for w in sorted(graph[v]):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on_stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            part = []
            while True:
                w = stack.pop()
                on_stack.discard(w)
                part.append(w)
                if w == v:
                    break
            if len(part) > 1:
                found.append(sorted(part))

    sys.setrecursionlimit(10000)
    for v in sorted(graph):
        if v not in index:
            visit(v)
    return found


def one_cycle(graph, part):
    """A path through the component that comes back to its start."""
    members = set(part)
    start = part[0]
    path, seen = [start], {start}

    def walk(v):
        for w in sorted(graph[v]):
            if w not in members:
                continue
            if w == start:
                path.append(w)
                return True
            if w not in seen:
                seen.add(w)
                path.append(w)
                if walk(w):
                    return True
                path.pop()
        return False

    walk(start)
    return path


def report(graph, parts, where):
    lines = []
    for part in parts:
        lines.append('%s: %d files call each other in a loop: %s' % (where, len(part), ', '.join(part)))
        cycle = one_cycle(graph, part)
        for a, b in zip(cycle, cycle[1:]):
            lines.append('  %s -> %s: %s' % (a, b, ', '.join(graph[a][b])))
    return '\n'.join(lines)


def check(runtime_dir):
    """0 and a summary without a loop; 1 and the loops with one."""
    files = read_tree(runtime_dir)
    if not files:
        return 2, '%s: no .c files to read' % runtime_dir
    graph = call_graph(files)
    parts = loops(graph)
    if parts:
        return 1, report(graph, parts, runtime_dir) + (
            '\nMove what both sides need into a file below both (or pass it in), so that calls run one way.')
    edges = sum(len(v) for v in graph.values())
    return 0, '%s: %d files, %d file-to-file uses, no loop' % (runtime_dir, len(files), edges)


def selftest():
    """The checker on two made-up trees: one whose files call in a loop
    through a static helper, a function taken as a value and a member of a
    function's name that is no call, and one without a loop."""
    base = {
        'low.c': '#include "low.h"\nint low_fn(int x) { return x + 1; }\n'
                 'static int helper(void) { return 2; }\n',
        'mid.c': '/* calls high_fn in a comment only */\nint mid_fn(void) { const char *s = "high_fn()";'
                 ' return low_fn(1) + (s != 0); }\n',
        'high.c': 'struct ops { int (*mid_fn)(void); };\nstatic int helper(void) { return 3; }\n'
                  'int high_fn(struct ops *o) { return mid_fn() + helper() + o->mid_fn(); }\n',
    }
    looped = dict(base)
    looped['low.c'] = base['low.c'] + 'int (*low_hook)(void) = 0;\nvoid low_set(void) { low_hook = mid_fn; }\n'
    failures = []
    for tree, want in ((base, 0), (looped, 1)):
        with tempfile.TemporaryDirectory() as d:
            for name, text in tree.items():
                with open(os.path.join(d, name), 'w', encoding='utf-8') as f:
                    f.write(text)
            rc, text = check(d)
        if rc != want:
            failures.append('expected exit %d, got %d:\n%s' % (want, rc, text))
        elif want == 1 and ('low.c -> mid.c: mid_fn' not in text or 'mid.c -> low.c: low_fn' not in text):
            failures.append('the loop is not named as expected:\n' + text)
        elif want == 0 and '3 files, 2 file-to-file uses' not in text:
            failures.append('the graph without a loop is not as expected:\n' + text)
    if failures:
        print('\n'.join(failures))
        return 1
    print('selftest: a loop through mid_fn taken as a value is found and named; '
          'comments, strings, statics and members are not calls')
    return 0


def main(argv):
    if argv[1:] == ['--selftest']:
        return selftest()
    if len(argv) > 2 or (len(argv) == 2 and argv[1].startswith('-')):
        print('usage: check_runtime_calls.py [RUNTIME_DIR] | --selftest', file=sys.stderr)
        return 2
    here = os.path.dirname(os.path.abspath(__file__))
    runtime_dir = argv[1] if len(argv) == 2 else os.path.join(here, '..', '..', 'runtime')
    if not os.path.isdir(runtime_dir):
        print('%s: not a folder' % runtime_dir, file=sys.stderr)
        return 2
    rc, text = check(os.path.normpath(runtime_dir))
    print(text)
    return rc


if __name__ == '__main__':
    sys.exit(main(sys.argv))
