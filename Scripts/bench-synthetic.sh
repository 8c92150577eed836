#!/usr/bin/env bash
# Issue 28's two weak kinds as synthetic trials (Scripts/synthetic_broad.py: fast turns with rests,
# a walk past a magnetic dipole; true attitude known), scored like BROAD: VQF 2.1.2 with its
# defaults (Scripts/broad_vqf.py vqf) and the fusion's fixed core and Double reference
# (`imu bench broad --dataset DIR [--filter reference] --json`), then the table of both.
#
#     bash Scripts/bench-synthetic.sh [SEED]      default seed 28 (the tests' seed)
#
# IMU=path/to/imu uses that binary instead of building the release one. GYRO_SENSITIVITY=PERCENT
# draws the gyro sensitivities within ±PERCENT instead of the generator's default ±0.3 % (the
# same trials otherwise; issue 28 measures ±2 %); its trials go to synthetic-SEED-sPERCENT/.
# IMU_SET="NAME=VALUE ..." adds `--set NAME=VALUE` for each to the cores' runs, FILTERS="reference"
# runs only that core (the reference's experiments are refused by the fixed core).
# VQF_PARAMS='{"tauAcc": 4}' runs VQF with those keyword parameters instead of its defaults
# (Scripts/broad_vqf.py; e.g. with the fusion's τ_acc, Docs/fusion-accuracy.md's ninth pass). Caches
# (gitignored) in .build-broad/: the venv with vqf and numpy, the trials in synthetic-SEED/.
set -euo pipefail
cd "$(dirname "$0")/.."

seed=${1:-28}
case $seed in
    ''|*[!0-9]*) echo "bench-synthetic: SEED: expected a non-negative integer, got \"$seed\"" >&2; exit 2 ;;
esac
cache=.build-broad
mkdir -p "$cache"
if [ ! -x "$cache/venv/bin/python" ]; then
    python3 -m venv "$cache/venv"
fi
python=$cache/venv/bin/python
if ! "$python" -c 'import importlib.metadata as m, numpy; assert m.version("vqf") == "2.1.2"' 2>/dev/null; then
    "$python" -m pip install --quiet "vqf==2.1.2" numpy
fi

imu=${IMU:-}
if [ -z "$imu" ]; then
    if ! swift build -c release --static-swift-stdlib --product imu >"$cache/swift-build.log" 2>&1; then
        tail -n 30 "$cache/swift-build.log" >&2
        echo "bench-synthetic: the release build of imu failed (log: $cache/swift-build.log)" >&2
        exit 1
    fi
    imu=.build/release/imu
fi

sensitivity=${GYRO_SENSITIVITY:-}
name=synthetic-$seed
if [ -n "$sensitivity" ]; then
    case $sensitivity in
        *[!0-9.]*|.|*.*.*) echo "bench-synthetic: GYRO_SENSITIVITY: expected a percentage, got \"$sensitivity\"" >&2; exit 2 ;;
    esac
    name=$name-s$sensitivity
fi
settings=()
for setting in ${IMU_SET:-}; do
    settings+=(--set "$setting")
done
trials=$cache/$name
rm -rf "$trials"
"$python" Scripts/synthetic_broad.py "$trials" "$seed" ${sensitivity:+"$sensitivity"}
"$python" Scripts/broad_vqf.py vqf "$trials" "$cache/$name-vqf.json"
for filter in ${FILTERS:-fixed reference}; do
    "$imu" bench broad --dataset "$trials" --filter "$filter" --json ${settings[@]+"${settings[@]}"} >"$cache/$name-$filter.json"
    echo "== $filter core vs VQF 2.1.2${VQF_PARAMS:+ with $VQF_PARAMS} (seed $seed${sensitivity:+, sensitivities within ±$sensitivity %})"
    "$python" Scripts/broad_vqf.py table "$trials" "$cache/$name-vqf.json" "$cache/$name-$filter.json" \
        | sed '/^goal:/d'
done
