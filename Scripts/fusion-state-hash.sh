#!/usr/bin/env bash
# Bit-exactness check for speed work on the fixed-point core (issue #28): builds
# Scripts/fusion-state-hash.swift with this checkout's Sources/IMUFusion (`swiftc -O -wmo`) and
# prints the whole state's hashes on every BROAD trial (see the Swift file for the four runs).
# Run it before and after a change; the output must not differ.
# Usage: Scripts/fusion-state-hash.sh [DATASET_DIR]   (default $IMU_BROAD_DATASET, else ../shared/datasets/broad)
set -euo pipefail
cd "$(dirname "$0")/.."
dataset=${1:-${IMU_BROAD_DATASET:-../shared/datasets/broad}}
[ -d "$dataset" ] || { echo "fusion-state-hash: $dataset is absent"; exit 0; }
out=.build-broad/state-hash
mkdir -p "$out"
cp Scripts/fusion-state-hash.swift "$out/main.swift"  # top-level code: swiftc wants main.swift
swiftc -O -wmo -module-name FusionStateHash -o "$out/fusion-state-hash" "$out/main.swift" Scripts/fusion-trial.swift \
    $(find Sources/IMUFusion -name '*.swift')
"$out/fusion-state-hash" "$dataset"/*.csv
