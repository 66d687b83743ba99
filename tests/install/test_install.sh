#!/usr/bin/env bash
# tests/install/test_install.sh: the install test (meson test 'install', suite
# packaging). Installs the current build with DESTDIR into a temporary folder,
# then checks what a user gets there:
#   (a) no installed file has the name of a file of Debian's libck-dev/libck0;
#       every application kernel and the headers they include are in the data folder;
#   (b) a fresh program (consumer.c) builds with pkg-config against the staged
#       install and runs a cooperative kernel on PoCL;
#   (c) the installed ckrun, started outside the source and build trees, finds
#       its kernels in the installed data folder;
#   (d) where cmake is installed, find_package(CoopKernels) builds the same program;
#   (e) build_examples_against_install: every examples/*/*.c builds the same way
#       and runs where examples/*/run-args exists.
# usage: test_install.sh BUILD_DIR SOURCE_DIR PREFIX BINDIR LIBDIR INCLUDEDIR DATADIR
set -euo pipefail

if [ $# -ne 7 ]; then
  sed -n '2,15p' "$0" >&2
  exit 2
fi
build=$1 src=$2 prefix=$3 bindir=$4 libdir=$5 includedir=$6 datadir=$7
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
export POCL_MAX_PTHREAD_COUNT=${POCL_MAX_PTHREAD_COUNT:-4}
# The tools must find their files by themselves: no overrides from the caller.
unset CK_APPS_KERNELS CK_INCLUDE_DIR

work=$(mktemp -d "${TMPDIR:-/tmp}/ck-install-test.XXXXXX")
trap 'rm -rf "$work"' EXIT
stage=$work/stage

fail() { echo "test_install: FAIL: $*" >&2; exit 1; }
step() { echo "== $*"; }

# A configured folder as installed (relative ones are below the prefix), and
# where it lies in the staged tree.
final() {
  case $1 in
    /*) echo "$1" ;;
    *) echo "$prefix/$1" ;;
  esac
}
staged() { echo "$stage$(final "$1")"; }

step "meson install --destdir $stage"
meson install -C "$build" --destdir "$stage" --no-rebuild --quiet >"$work/install.log" 2>&1 ||
  { cat "$work/install.log" >&2; fail "meson install failed"; }
s_lib=$(staged "$libdir") s_bin=$(staged "$bindir") s_inc=$(staged "$includedir")
s_data=$(staged "$datadir")/coopkernels

# ---------------------------------------------------------------- (a) names
step "(a) installed names against Debian's libck-dev and libck0"
find "$stage" \( -type f -o -type l \) | sed "s|^$stage/||" | sort >"$work/installed.txt"
[ -s "$work/installed.txt" ] || fail "nothing was installed"
grep -v '^#' "$here/libck-dev-files.txt" | sed 's|.*/||' | sort -u >"$work/debian-names.txt"
clashes=$(sed 's|.*/||' "$work/installed.txt" | sort -u | comm -12 - "$work/debian-names.txt")
if [ -n "$clashes" ]; then
  fail "installed files named like files of libck-dev/libck0: $(echo "$clashes" | tr '\n' ' ')"
fi
for f in "$s_lib/libcoopkernels.so.0" "$s_lib/libcoopkernels.so" "$s_lib/pkgconfig/coopkernels.pc" \
         "$s_inc/coopkernels/ck.h" "$s_inc/coopkernels/ck_cooperative.h" "$s_inc/coopkernels/ck_atomics.h" \
         "$s_lib/cmake/CoopKernels/CoopKernelsConfig.cmake" \
         "$s_lib/cmake/CoopKernels/CoopKernelsConfigVersion.cmake" \
         "$s_data/include/ck_cooperative.h" "$s_data/include/ck_atomics.h"; do
  [ -e "$f" ] || fail "not installed: ${f#"$stage"}"
done
if command -v readelf >/dev/null; then
  soname=$(readelf -d "$s_lib/libcoopkernels.so.0" | sed -n 's/.*Library soname: \[\(.*\)\]/\1/p')
  [ "$soname" = libcoopkernels.so.0 ] || fail "SONAME of libcoopkernels.so.0 is '$soname'"
fi
# Every kernel file of the applications, with its path below apps/.
while read -r cl; do
  [ -f "$s_data/apps/$cl" ] || fail "kernel apps/$cl is not installed in ${s_data#"$stage"}/apps"
done < <(cd "$src/apps" && find . -name '*.cl' | sed 's|^\./||')
echo "$(wc -l <"$work/installed.txt") files installed; none named like a libck-dev or libck0 file"

# ----------------------------------------------------------- (b) pkg-config
step "(b) a fresh program built with pkg-config against the staged install"
# The .pc file names the final prefix; the sysroot points its -I and -L into the stage.
pc() { PKG_CONFIG_PATH=$s_lib/pkgconfig PKG_CONFIG_SYSROOT_DIR=$stage pkg-config "$@" coopkernels; }
command -v pkg-config >/dev/null || fail "pkg-config is not installed"
flags=$(pc --cflags --libs) || fail "pkg-config does not know coopkernels"
echo "pkg-config --cflags --libs coopkernels: $flags"
case " $flags " in
  *" -I$s_inc/coopkernels "*) ;;
  *) fail "pkg-config's Cflags do not add $s_inc/coopkernels" ;;
esac
[ "$(pc --modversion)" = "$(sed -n 's/^#define CK_VERSION_STRING "\(.*\)"/\1/p' "$s_inc/coopkernels/ck.h")" ] ||
  fail "pkg-config's version differs from ck.h's CK_VERSION_STRING"
# shellcheck disable=SC2086 # flags are words
cc -std=c11 -Wall -Werror -o "$work/consumer" "$here/consumer.c" $flags || fail "consumer.c does not build"
resolved=$(LD_LIBRARY_PATH=$s_lib ldd "$work/consumer" | awk '/libcoopkernels/ {print $3}')
[ "$resolved" = "$s_lib/libcoopkernels.so.0" ] || fail "consumer loads libcoopkernels from '$resolved'"
(cd "$work" && LD_LIBRARY_PATH=$s_lib timeout 120 ./consumer) || fail "consumer failed"

# ---------------------------------------------------------------- (c) ckrun
step "(c) the installed ckrun finds its kernels in the data folder"
ckrun=$s_bin/ckrun
[ -x "$ckrun" ] || fail "ckrun is not installed in ${s_bin#"$stage"}"
run_ckrun() { (cd "$work" && LD_LIBRARY_PATH=$s_lib timeout 120 "$ckrun" "$@"); }
if run_ckrun --help 2>&1 | grep -q -- '--version'; then
  version=$(run_ckrun --version) || fail "ckrun --version failed"
  echo "ckrun --version: $version"
  case $version in
    *"$(pc --modversion)"*) ;;
    *) fail "ckrun --version does not name the version $(pc --modversion)" ;;
  esac
else
  echo "ckrun --help does not list --version yet: skipping that check"
fi
job=(--app ws --ws-roots 8 --ws-depth 3 --noncoop none)
run_ckrun "${job[@]}" >"$work/ckrun.log" 2>&1 || { cat "$work/ckrun.log" >&2; fail "installed ckrun ${job[*]} failed"; }
tail -n 1 "$work/ckrun.log"
grep -q 'result: PASS' "$work/ckrun.log" || fail "installed ckrun did not pass"
# Without the data folder it must fail (it read its kernels there, nowhere else),
# unless the prefix's own data folder exists on this machine.
if [ ! -d "$(final "$datadir")/coopkernels" ]; then
  mv "$s_data" "$s_data.moved"
  if run_ckrun "${job[@]}" >"$work/ckrun-moved.log" 2>&1; then
    fail "ckrun passed with its data folder moved away: it read kernels from elsewhere"
  fi
  grep -q 'coopkernels/apps' "$work/ckrun-moved.log" ||
    { cat "$work/ckrun-moved.log" >&2; fail "ckrun's error does not name the data folder"; }
  mv "$s_data.moved" "$s_data"
  echo "with the data folder moved away ckrun fails: $(grep -m1 'coopkernels/apps' "$work/ckrun-moved.log")"
fi

# ---------------------------------------------------------------- (d) CMake
step "(d) find_package(CoopKernels)"
if command -v cmake >/dev/null; then
  mkdir -p "$work/cmake-src"
  cp "$here/consumer.c" "$work/cmake-src/"
  cat >"$work/cmake-src/CMakeLists.txt" <<'EOF'
cmake_minimum_required(VERSION 3.13)
project(consumer C)
find_package(CoopKernels 0.1 REQUIRED)
add_executable(consumer consumer.c)
set_property(TARGET consumer PROPERTY C_STANDARD 11)
target_link_libraries(consumer PRIVATE CoopKernels::coopkernels)
EOF
  cmake -S "$work/cmake-src" -B "$work/cmake-build" -DCMAKE_PREFIX_PATH="$stage$prefix" \
    >"$work/cmake.log" 2>&1 || { cat "$work/cmake.log" >&2; fail "cmake could not configure with find_package(CoopKernels)"; }
  cmake --build "$work/cmake-build" >>"$work/cmake.log" 2>&1 ||
    { cat "$work/cmake.log" >&2; fail "the CMake build of consumer.c failed"; }
  (cd "$work" && LD_LIBRARY_PATH=$s_lib timeout 120 "$work/cmake-build/consumer") || fail "the CMake-built consumer failed"
else
  echo "cmake is not installed: skipping the CMake package check"
fi

# ------------------------------------------------------------- (e) examples
# Every examples/NAME/*.c is a standalone program: built with pkg-config against
# the staged install and, where examples/NAME/run-args exists, run from its own
# folder with those arguments. Examples added later are covered without edits here.
build_examples_against_install() {
  local dir c exe n=0
  for dir in "$src"/examples/*/; do
    [ -d "$dir" ] || continue
    for c in "$dir"*.c; do
      [ -f "$c" ] || continue
      exe=$work/examples/$(basename "$dir")-$(basename "$c" .c)
      mkdir -p "$work/examples"
      # shellcheck disable=SC2086 # flags are words
      cc -std=c11 -Wall -o "$exe" "$c" $flags || fail "example ${c#"$src"/} does not build"
      if [ -f "$dir/run-args" ]; then
        local args=()
        read -r -d '' -a args <"$dir/run-args" || true
        (cd "$dir" && LD_LIBRARY_PATH=$s_lib timeout 300 "$exe" "${args[@]}") ||
          fail "example ${c#"$src"/} failed (run from its folder with: ${args[*]})"
      fi
      n=$((n + 1))
    done
  done
  echo "$n example programs built against the install"
}
step "(e) examples against the install"
build_examples_against_install

echo "test_install: PASS"
