#!/usr/bin/env bash
# Runs the benchmarks (package-benchmark, release build): the decode path (Benchmarks/DecodeBenchmark:
# samples/s, driver+twin against twin only) and the fusion update (Benchmarks/FusionBenchmark:
# fixed-point 9D and 6D against the Double reference). Docs/performance.md.
#
# IMU_BENCHMARKS=1 is what adds the benchmark dependency and target to Package.swift; without it
# `swift build` and `swift test` never resolve package-benchmark. The separate scratch path keeps
# the two dependency graphs' builds apart. Extra arguments go to `swift package benchmark`
# (e.g. --filter "MPU6050.*").
set -euo pipefail
cd "$(dirname "$0")/.."

bash Scripts/setup.sh
export IMU_BENCHMARKS=1
mkdir -p .build-bench

# SwiftPM has one Package.resolved per package, and it checks out every package pinned there. Put
# back the plain build's pins afterwards, or the next `swift build` would clone package-benchmark
# and its dependencies (unused, but cloned all the same).
if [ -f Package.resolved ]; then cp Package.resolved .build-bench/Package.resolved.plain; fi
restore_pins() {
    if [ -f .build-bench/Package.resolved.plain ]; then
        mv .build-bench/Package.resolved.plain Package.resolved
    else
        rm -f Package.resolved
    fi
}
trap restore_pins EXIT
report=.build-bench/decode-benchmark.md

swift package --scratch-path .build-bench benchmark --target DecodeBenchmark \
    --no-progress --format markdown --path stdout "$@" | tee "$report"
python3 Scripts/bench-summary.py < "$report"

fusion=.build-bench/fusion-benchmark.md
swift package --scratch-path .build-bench benchmark --target FusionBenchmark \
    --no-progress --format markdown --path stdout "$@" | tee "$fusion"
