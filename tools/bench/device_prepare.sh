#!/usr/bin/env bash
# Prepares, on the development machine, what a run of the tools/bench/device_*.sh
# scripts on the lent NVIDIA machine needs and cannot fetch there (that
# machine reaches no network):
#   .devpkgs/  the Debian packages libcmocka0 and libcmocka-dev (the tests
#              link cmocka; the lent machine does not have it), fetched with
#              apt-get download;
#   .base/     with a BASE commit given: that commit's source tree (git
#              archive), the baseline that tools/bench/device_bench.sh measures
#              beside the working tree;
#   .exp/trees/ with --trees C1 C2 ...: one `git archive` tarball per commit,
#              C.tar.gz (C as given), for tools/bench/device_trees.sh.
# The folders are ignored by git; pass them to the device tool's `carry`.
# usage: tools/bench/device_prepare.sh [BASE_COMMIT | --trees COMMIT...]
set -euo pipefail
top=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
cd "$top"

if ! ls .devpkgs/libcmocka0_*.deb .devpkgs/libcmocka-dev_*.deb >/dev/null 2>&1; then
  mkdir -p .devpkgs
  if ! (cd .devpkgs && apt-get download libcmocka0 libcmocka-dev >/dev/null 2>&1); then
    echo "device_prepare: apt-get download libcmocka0 libcmocka-dev failed; run 'apt-get update' (as root) and try again" >&2
    exit 1
  fi
fi
echo "device_prepare: .devpkgs has $(ls .devpkgs/*.deb | xargs -n1 basename | tr '\n' ' ')"

if [ "${1:-}" = --trees ]; then
  shift
  mkdir -p .exp/trees
  for c in "$@"; do
    if ! git rev-parse --verify -q "$c^{commit}" >/dev/null; then
      echo "device_prepare: '$c' is not a commit of this repository" >&2
      exit 2
    fi
    git archive --format=tar.gz -o ".exp/trees/$c.tar.gz" "$c"
  done
  echo "device_prepare: .exp/trees has $(ls .exp/trees | tr '\n' ' ')"
elif [ $# -ge 1 ]; then
  if ! git rev-parse --verify -q "$1^{commit}" >/dev/null; then
    echo "device_prepare: '$1' is not a commit of this repository" >&2
    exit 2
  fi
  rm -rf .base && mkdir .base
  git archive "$1" | tar -x -C .base
  echo "device_prepare: .base holds the tree of $(git rev-parse --short "$1")"
fi
