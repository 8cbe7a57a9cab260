#!/bin/sh
# install-deps.sh -- make sure everything keel needs to build and test is installed.
#
# Idempotent: it checks each tool first and calls apt-get only for what is
# missing, so `make check` can run it every time at no cost.  It needs root
# (or sudo) only when something is actually missing.  Debian bookworm ships
# LLVM 19 as clang-19 / libclang-19-dev / llvm-19 (which holds llvm-mca-19).
set -eu

pkgs=""
need() {  # need PACKAGE TEST-PATH
    if [ ! -e "$2" ]; then pkgs="$pkgs $1"; fi
}
need clang-19          /usr/bin/clang-19
need libclang-19-dev   /usr/lib/llvm-19/include/clang-c/Index.h
need llvm-19           /usr/bin/llvm-mca-19
need libclang-rt-19-dev /usr/lib/llvm-19/lib/clang/19/lib/linux/libclang_rt.fuzzer-x86_64.a
need libomp-19-dev     /usr/lib/llvm-19/lib/libomp.so
need libsqlite3-dev    /usr/include/sqlite3.h
need sqlite3           /usr/bin/sqlite3
need cmake             /usr/bin/cmake
need make              /usr/bin/make
need gcc               /usr/bin/gcc
need pkg-config        /usr/bin/pkg-config
# csmith and its headers: the differential tests of testsuite/csmith (issue 15).
need csmith            /usr/bin/csmith
need libcsmith-dev     /usr/include/csmith/csmith.h
# isl: the exact dependence test for affine nests (analysis/parallel.c)
need libisl-dev        /usr/include/isl/set.h
# testsuite/scan reads keel report --html's page with python3's html.parser.
need python3           /usr/bin/python3
# testsuite/browser loads keel report --html's page in headless Chromium.
need chromium          /usr/bin/chromium
# groff checks the man pages (testsuite/install: no warnings).
need groff-base        /usr/bin/groff
# C library headers of the cross targets keelcc's llvm-mca stage compiles for
# (--keel-mcpu=pwr9, neoverse-v1, ...): clang-19 needs them for --target=.
need libc6-dev-ppc64el-cross /usr/powerpc64le-linux-gnu/include/stdio.h
need libc6-dev-arm64-cross   /usr/aarch64-linux-gnu/include/stdio.h

if [ -z "$pkgs" ]; then
    exit 0
fi

echo "keel: installing missing packages:$pkgs"
if [ "$(id -u)" -eq 0 ]; then
    SUDO=""
elif command -v sudo >/dev/null 2>&1; then
    SUDO="sudo"
else
    echo "keel: error: need root to install:$pkgs (run 'sudo make deps' or install them yourself)" >&2
    exit 1
fi
export DEBIAN_FRONTEND=noninteractive
$SUDO apt-get update -qq
# shellcheck disable=SC2086
$SUDO apt-get install -y -qq --no-install-recommends $pkgs
