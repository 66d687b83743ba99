#!/usr/bin/env python3
"""tests/public_symbols.py: the exported-symbols rule. The shared library must
export exactly the functions declared in include/ck.h (the header is the one
list of the public API), each under a version node of runtime/coopkernels.map.

usage: public_symbols.py NM HEADER LIBRARY
       public_symbols.py --list HEADER      (print the header's functions)
Exit 0 when the exports match, 1 with the differences otherwise."""
import re
import subprocess
import sys


def header_functions(path):
    """Names of the functions the header declares, outside the C++ guards,
    preprocessor lines, struct/enum bodies and typedefs."""
    with open(path, encoding='utf-8') as f:
        text = f.read()
    text = re.sub(r'/\*.*?\*/', ' ', text, flags=re.S)
    text = re.sub(r'//[^\n]*', ' ', text)
    text = re.sub(r'#\s*ifdef\s+__cplusplus.*?#\s*endif', ' ', text, flags=re.S)
    text = re.sub(r'^\s*#(?:[^\n]*\\\n)*[^\n]*', ' ', text, flags=re.M)
    # Keep only what is at brace depth 0.
    flat, depth = [], 0
    for ch in text:
        if ch == '{':
            depth += 1
        elif ch == '}':
            depth -= 1
            if depth < 0:
                sys.exit(f'{path}: unbalanced braces; cannot read the declarations')
        elif depth == 0:
            flat.append(ch)
    names = []
    for stmt in ''.join(flat).split(';'):
        stmt = ' '.join(stmt.split())
        if not stmt or stmt.startswith('typedef') or re.match(r'(enum|struct|union)\b', stmt):
            continue
        m = re.search(r'\b([A-Za-z_]\w*)\s*\(([^()]*)\)\s*(__attribute__\s*\(\(.*\)\))?$', stmt)
        if m:
            names.append(m.group(1))
    return names


def exported(nm, lib):
    """Defined dynamic symbols of lib: {name: version or ''}; version nodes
    themselves (absolute symbols named after the node) are left out."""
    out = subprocess.run([nm, '-D', '--defined-only', lib], capture_output=True, text=True)
    if out.returncode != 0:
        sys.exit(f'{nm} -D --defined-only {lib} failed: {out.stderr.strip()}')
    syms = {}
    for line in out.stdout.splitlines():
        parts = line.split()
        if len(parts) < 2:
            continue
        kind, name = parts[-2], parts[-1]
        base, _, version = name.partition('@')
        version = version.lstrip('@')
        if kind == 'A' and (not version or version == base):
            continue  # a version node, not a symbol
        syms[base] = version
    return syms


def main(argv):
    if len(argv) == 3 and argv[1] == '--list':
        print('\n'.join(sorted(header_functions(argv[2]))))
        return 0
    if len(argv) != 4:
        print(__doc__, file=sys.stderr)
        return 2
    nm, header, lib = argv[1:]
    public = set(header_functions(header))
    if len(public) < 10 or 'ck_version' not in public:
        print(f'{header}: read only {len(public)} functions (ck_version among them: '
              f'{"ck_version" in public}); the header parser is broken', file=sys.stderr)
        return 1
    syms = exported(nm, lib)
    extra = sorted(set(syms) - public)
    missing = sorted(public - set(syms))
    unversioned = sorted(n for n in public & set(syms) if not syms[n])
    ok = True
    if extra:
        ok = False
        print(f'{lib} exports {len(extra)} symbols that include/ck.h does not declare '
              f'(hide them: they are internal): {" ".join(extra)}', file=sys.stderr)
    if missing:
        ok = False
        print(f'{lib} does not export {len(missing)} functions of include/ck.h '
              f'(add them to runtime/coopkernels.map): {" ".join(missing)}', file=sys.stderr)
    if unversioned and len(unversioned) != len(public & set(syms)):
        ok = False  # nm prints versions, and some symbols have none
        print(f'symbols without a version node: {" ".join(unversioned)}', file=sys.stderr)
    if ok:
        print(f'{lib}: exports exactly the {len(public)} functions of {header}')
    return 0 if ok else 1


if __name__ == '__main__':
    sys.exit(main(sys.argv))
