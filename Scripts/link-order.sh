#!/usr/bin/env bash
# Writes Scripts/imu-link-order.txt, the functions an idle daemon runs, which the release link of
# `imu` places side by side (lld's --symbol-ordering-file, Package.swift). The kernel maps a
# binary's code in blocks of up to 64 KiB around each page touched; scattered over 24 MB of code,
# the few thousand functions of the start and of the sample loop kept 10 MiB of it resident
# (Docs/performance.md, "The daemon with no client").
#   bash Scripts/link-order.sh [BINARY]     # default .build/release/imu
# The list is the functions callgrind sees run in 3 s of `imu run` on the twin with the example
# rules and a socket, sorted by name. Names that no longer exist are ignored by the linker, so a
# stale list costs memory, never correctness; run this again after large changes, then relink
# (remove the binary: SwiftPM does not see the list change).
set -euo pipefail
cd "$(dirname "$0")/.."
binary="${1:-.build/release/imu}"
for tool in valgrind nm strip python3; do
    command -v "$tool" >/dev/null || { echo "link-order: $tool is missing" >&2; exit 1; }
done
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
# valgrind 3.19 cannot read Swift 6.3's DWARF: a copy without it.
strip --strip-debug -o "$work/imu" "$binary"
valgrind --tool=callgrind --demangle=no --callgrind-out-file="$work/callgrind.out" \
    "$work/imu" run --config Scripts/rules.example.toml --sim walk --rate 100 --duration 3 \
    --socket "$work/imu.sock" >/dev/null 2>"$work/valgrind.log" \
    || { cat "$work/valgrind.log" >&2; exit 1; }
nm --defined-only "$work/imu" | awk '$2 ~ /^[tTwW]$/ { print $3 }' >"$work/defined"
python3 - "$work/callgrind.out" "$work/defined" >Scripts/imu-link-order.txt <<'PYTHON'
import re
import sys

defined = set(open(sys.argv[2]).read().split())
ran = set()
for line in open(sys.argv[1], errors="replace"):
    match = re.match(r"^c?fn=\(\d+\) (\S+)", line)
    if match and match.group(1) in defined:
        ran.add(match.group(1))
print("\n".join(sorted(ran)))
PYTHON
echo "link-order: $(wc -l <Scripts/imu-link-order.txt) functions in Scripts/imu-link-order.txt"
