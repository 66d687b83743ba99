#!/bin/sh
# Checks that the README's code snippets are the examples' code: every line
#   <!-- snippet: FILE NAME -->
# in the README must be followed by a fenced code block whose lines equal the
# region of FILE (relative to SRCROOT) between the lines holding
# "README:begin NAME" and "README:end NAME", less the begin marker's
# indentation. Prints a diff for each snippet that differs.
# Usage: check_readme_snippets.sh README SRCROOT
# Exit status: 0 all snippets match, 1 a snippet differs or is missing, 2 usage.
set -u
[ $# -eq 2 ] && [ -f "$1" ] && [ -d "$2" ] || { echo "usage: $0 README SRCROOT" >&2; exit 2; }
readme=$1
root=$2
tmp=$(mktemp -d) || exit 2
trap 'rm -rf "$tmp"' EXIT

# The README's tags as "LINE FILE NAME", one per line.
awk '/^<!-- snippet: [^ ]+ [^ ]+ -->$/ { print NR, $3, $4 }' "$readme" > "$tmp/tags"
if [ ! -s "$tmp/tags" ]; then
    echo "$readme: no '<!-- snippet: FILE NAME -->' tags: nothing ties its code to the examples" >&2
    exit 1
fi

status=0
while read -r line file name; do
    # The fenced block right after the tag line.
    if ! awk -v start="$line" '
        NR == start + 1 { if ($0 !~ /^```/) exit 1; inside = 1; next }
        inside && /^```/ { found = 1; exit }
        inside { print }
        END { if (!found) exit 1 }' "$readme" > "$tmp/readme_part"; then
        echo "$readme:$line: the snippet tag is not followed by a closed \`\`\` code block" >&2
        status=1
        continue
    fi
    if [ ! -f "$root/$file" ]; then
        echo "$readme:$line: $file does not exist" >&2
        status=1
        continue
    fi
    # The marked region of the source, without the begin marker's indentation.
    if ! awk -v name="$name" '
        index($0, "README:end " name " ") || $0 ~ ("README:end " name "$") { done = inside; exit }
        inside { if (substr($0, 1, length(indent)) == indent) $0 = substr($0, length(indent) + 1); print; next }
        index($0, "README:begin " name " ") || $0 ~ ("README:begin " name "$") {
            inside = 1; match($0, /^[ \t]*/); indent = substr($0, 1, RLENGTH) }
        END { if (!done) exit 1 }' "$root/$file" > "$tmp/source_part"; then
        echo "$readme:$line: $file has no region 'README:begin $name' ... 'README:end $name'" >&2
        status=1
        continue
    fi
    if ! diff -u --label "$file ($name)" --label "$readme:$line" "$tmp/source_part" "$tmp/readme_part" >&2; then
        echo "$readme:$line: the snippet differs from $file's region '$name' (copy the region into the README)" >&2
        status=1
    fi
done < "$tmp/tags"
[ $status -eq 0 ] && echo "$(wc -l < "$tmp/tags") README snippets match the examples"
exit $status
