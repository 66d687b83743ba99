#!/bin/sh
# Shows that check_readme_snippets.sh catches drift: on copies of the README
# and of one example it must pass when nothing changed and fail when a README
# snippet line changes, when the example's marked region changes, and when a
# tag names a region that does not exist.
# Usage: check_readme_snippets_selftest.sh CHECKER README SRCROOT
# Exit status: 0 every case behaved, 1 a case did not, 2 usage.
set -u
[ $# -eq 3 ] || { echo "usage: $0 CHECKER README SRCROOT" >&2; exit 2; }
checker=$1
readme=$2
root=$3
tmp=$(mktemp -d) || exit 2
trap 'rm -rf "$tmp"' EXIT
failed=0

# expect WANT CASE README SRCROOT: runs the checker, compares pass/fail with WANT.
expect() {
    if sh "$checker" "$3" "$4" > "$tmp/out" 2>&1; then got=pass; else got=fail; fi
    if [ "$got" != "$1" ]; then
        echo "case '$2': the checker should $1 but did $got:" >&2
        cat "$tmp/out" >&2
        failed=1
    fi
}

# A copy of the tree's examples, and the first tagged file and region.
mkdir -p "$tmp/root" && cp -R "$root/examples" "$tmp/root/" || exit 2
set -- $(awk '/^<!-- snippet: [^ ]+ [^ ]+ -->$/ { print NR, $3, $4; exit }' "$readme")
[ $# -eq 3 ] || { echo "$readme has no snippet tag" >&2; exit 1; }
line=$1 file=$2 name=$3

expect pass "unchanged" "$readme" "$tmp/root"

# The README's snippet changed: its second code line gets a comment.
awk -v l="$line" 'NR == l + 3 { $0 = $0 " /* edited */" } { print }' "$readme" > "$tmp/edited.md"
expect fail "README snippet edited" "$tmp/edited.md" "$tmp/root"

# The example changed: a line added inside the marked region.
cp -R "$tmp/root" "$tmp/root2"
awk -v n="$name" '{ print } index($0, "README:begin " n " ") { print "/* a new line */" }' \
    "$root/$file" > "$tmp/root2/$file"
expect fail "example region edited" "$readme" "$tmp/root2"

# A tag naming a region that does not exist.
sed "${line}s/ $name -->/ no_such_region -->/" "$readme" > "$tmp/missing.md"
expect fail "missing region" "$tmp/missing.md" "$tmp/root"

[ $failed -eq 0 ] && echo "the snippet checker passes an unchanged README and catches each kind of drift"
exit $failed
