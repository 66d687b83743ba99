#!/usr/bin/env bash
# Formats the project's own C and OpenCL C sources (.c, .h, .cl) with
# clang-format 14 and the tree's .clang-format files (the root one; the
# stitcher's folders, megakernel/stitcher/ and tests/stitcher/, have their own).
#   tools/format.sh --check   list the files that differ from the style
#   tools/format.sh --fix     format those files in place
#   tools/format.sh --list    print the files it formats, one a line
# The files: every .c, .h and .cl file under the folders below that git
# tracks or would track (outside a git checkout: every such file found
# there, less build folders), less the exclusions of excluded(). This
# script is the one place that says which files follow the style.
# CLANG_FORMAT names the program (default: clang-format-14, else clang-format).
# Exit status: 0 every file follows the style (or was formatted), 1 a file
# differs (--check), 2 a bad command line or no clang-format.
set -euo pipefail

top=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd -P)
folders=(apps examples include megakernel runtime tests tools)

# Files left as they are, and why. Paths are relative to the top of the tree.
excluded() {
    case $1 in
    # Hand-aligned tables of the layouts host and device share: clang-format 14
    # takes `(x) & m` in their macros for a cast and writes `(x)&m`.
    megakernel/ck_channel_layout.h | megakernel/ck_messages.h | megakernel/ck_sched_layout.h) return 0 ;;
    # Kernels whose text the tests check: diagnostics' line:column positions
    # (tests/megakernel/test_loop_phase.c, test_infer.c) and the declarations
    # the annotated source must show (test_infer.c).
    tests/megakernel/loop_phase.cl | tests/megakernel/infer_kernels.cl) return 0 ;;
    # The stitcher tests' input programs: shapes written on purpose (statements
    # after case labels, one-line structs and functions, a split kernel head).
    tests/stitcher/cl/*) return 0 ;;
    esac
    # Files with README regions ("README:begin NAME"): the test readme-snippets
    # compares them with README.md byte for byte.
    grep -q 'README:begin' "$top/$1"
}

# The candidates, relative to $top, one a line.
candidates() {
    if git -C "$top" rev-parse --is-inside-work-tree >/dev/null 2>&1 &&
        [ "$(git -C "$top" rev-parse --show-toplevel)" = "$top" ]; then
        git -C "$top" ls-files --cached --others --exclude-standard -- "${folders[@]}"
    else
        # No git checkout (a release tarball, an exported tree): the same folders,
        # less hidden folders and Meson build folders.
        (cd "$top" && find "${folders[@]}" \( -name '.*' -o -type d -exec test -e '{}/meson-private' \; \) -prune \
            -o -type f -print 2>/dev/null) || true
    fi
}

list_files() {
    local f
    candidates | LC_ALL=C sort -u | while IFS= read -r f; do
        case $f in
        *.c | *.h | *.cl) ;;
        *) continue ;;
        esac
        [ -f "$top/$f" ] || continue # deleted, not yet committed
        excluded "$f" || printf '%s\n' "$f"
    done
}

usage() {
    sed -n '2,/^set -euo/{/^set -euo/d;s/^# \{0,1\}//;p}' "${BASH_SOURCE[0]}"
}

find_clang_format() {
    local c
    for c in ${CLANG_FORMAT:-} clang-format-14 clang-format; do
        if command -v "$c" >/dev/null 2>&1; then
            echo "$c"
            return 0
        fi
    done
    echo "format.sh: clang-format not found: install Debian's clang-format package (tools/ck setup does)," \
        "or name the program in CLANG_FORMAT" >&2
    return 1
}

mode=${1:-}
[ $# -le 1 ] || mode=bad
case $mode in
--check | --fix) ;;
--list) list_files; exit 0 ;;
-h | --help) usage; exit 0 ;;
*) usage >&2; exit 2 ;;
esac

cf=$(find_clang_format) || exit 2
version=$("$cf" --version)
case $version in
*" version 14."*) ;;
*) echo "format.sh: warning: the style is set for clang-format 14; $cf is: $version" >&2 ;;
esac

mapfile -t files < <(list_files)
if [ ${#files[@]} -eq 0 ]; then
    echo "format.sh: no source files found under $top" >&2
    exit 2
fi
cd "$top"
if [ "$mode" = --fix ]; then
    printf '%s\0' "${files[@]}" | xargs -0 -n 32 "$cf" -i --style=file
    echo "format.sh: formatted ${#files[@]} files"
    exit 0
fi
# --check: clang-format names each file that differs in one line ("FILE:LINE:COL: error: code
# should be clang-formatted [-Wclang-format-violations]"; --ferror-limit=1: once a file).
status=0
out=$(printf '%s\0' "${files[@]}" | xargs -0 -n 64 "$cf" --dry-run --Werror --style=file --ferror-limit=1 2>&1) ||
    status=$?
mapfile -t differ < <(printf '%s\n' "$out" | sed -n 's/^\(.*\):[0-9]*:[0-9]*: error: code should be clang-formatted.*/\1/p' |
    LC_ALL=C sort -u)
if [ "$status" -ne 0 ] && [ ${#differ[@]} -eq 0 ]; then
    printf 'format.sh: %s failed:\n%s\n' "$cf" "$out" >&2
    exit 2
fi
if [ ${#differ[@]} -ne 0 ]; then
    echo "format.sh: ${#differ[@]} of ${#files[@]} files differ from the style (.clang-format):" >&2
    printf '  %s\n' "${differ[@]}" >&2
    echo "format.sh: run tools/format.sh --fix to format them (clang-format -i)" >&2
    exit 1
fi
echo "format.sh: all ${#files[@]} files follow the style"
