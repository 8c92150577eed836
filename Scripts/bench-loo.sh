#!/usr/bin/env bash
# Leave-one-out cross-validation of the fusion's time constants on the shared BROAD trials
# (issue 19, goal 3): how well the parameters generalise to a trial they were not chosen on.
#
# A grid of the two time constants a filter like ours is most often tuned by (accelerometer τ:
# how long the gyro is trusted for the inclination; magnetometer τ: for the heading) is run
# once on every trial (`imu bench broad --set …`, the fixed-point core, 9D). Then for each
# trial in turn the grid point with the lowest mean total error on the OTHER trials is chosen
# and scored on the held-out one. The leave-one-out mean is the mean of those held-out scores:
# what choosing parameters on this dataset would give on an unseen trial of its kind. Beside it:
# the defaults (derived, not fitted: see Docs/fusion-reference.md) on every trial, and VQF 2.1.2
# with its defaults (scored in the same way as bench-broad.sh does).
#
#     bash Scripts/bench-loo.sh        prints the table; caches in .build-broad/loo/
#     IMU_BROAD_DATASET=DIR            the trials from DIR instead of ../shared/datasets/broad
#
# Needs what bench-broad.sh needs (python3 with venv, swift); exits 0 without the dataset.
set -euo pipefail
cd "$(dirname "$0")/.."

dataset=${IMU_BROAD_DATASET:-../shared/datasets/broad}
if [ ! -d "$dataset" ]; then
    echo "bench-loo: $dataset is absent (BROAD trials are never in the repository): skipped"
    exit 0
fi
dataset=$(cd "$dataset" && pwd)
cache=.build-broad
mkdir -p "$cache/loo"

if [ ! -x "$cache/venv/bin/python" ]; then
    python3 -m venv "$cache/venv"
fi
python=$cache/venv/bin/python
if ! "$python" -c 'import importlib.metadata as m, numpy; assert m.version("vqf") == "2.1.2"' 2>/dev/null; then
    "$python" -m pip install --quiet "vqf==2.1.2" numpy
fi
if [ ! -f "$cache/vqf.json" ]; then
    echo "== VQF on every trial (9D and 6D, default parameters)"
    "$python" Scripts/broad_vqf.py vqf "$dataset" "$cache/vqf.json"
fi

echo "== imu (release build)"
if ! swift build -c release --static-swift-stdlib --product imu >"$cache/swift-build.log" 2>&1; then
    tail -n 30 "$cache/swift-build.log" >&2
    echo "bench-loo: the release build of imu failed (log: $cache/swift-build.log)" >&2
    exit 1
fi
imu=.build/release/imu

accelerometer_taus="2 3 4 6"
magnetometer_taus="10 20 40"
echo "== the grid: accelerometer τ {$accelerometer_taus} s × magnetometer τ {$magnetometer_taus} s"
for a in $accelerometer_taus; do
    for m in $magnetometer_taus; do
        out=$cache/loo/acc$a-mag$m.json
        "$imu" bench broad --dataset "$dataset" --json --set "accelerometer-tau=$a" --set "magnetometer-tau=$m" >"$out"
        echo "accelerometer τ $a s, magnetometer τ $m s: mean $("$python" -c 'import json,sys; print(round(json.load(open(sys.argv[1]))["mean_total_deg"], 3))' "$out")°"
    done
done
"$imu" bench broad --dataset "$dataset" --json >"$cache/loo/defaults.json"

echo
echo "== leave-one-out (9D total RMSE, degrees)"
"$python" - "$cache/loo" "$cache/vqf.json" <<'PY'
import glob, json, os, sys
folder, vqf_path = sys.argv[1], sys.argv[2]
grid = {}
for path in sorted(glob.glob(os.path.join(folder, "acc*-mag*.json"))):
    name = os.path.basename(path)[:-5]
    grid[name] = {t["name"]: t["total_deg"] for t in json.load(open(path))["trials"]}
defaults = {t["name"]: t["total_deg"] for t in json.load(open(os.path.join(folder, "defaults.json")))["trials"]}
vqf_json = json.load(open(vqf_path))
vqf = {t["name"]: t["total_deg"] for t in vqf_json["trials"]} if "trials" in vqf_json else {k: v["total_deg"] for k, v in vqf_json.items()}
trials = sorted(defaults)
def mean(values): return sum(values) / len(values)
print(f"{'held-out trial':48} {'chosen on the others':22} {'held out':>9} {'defaults':>9} {'VQF':>6}")
held = []
for trial in trials:
    others = [t for t in trials if t != trial]
    chosen = min(grid, key=lambda g: mean([grid[g][t] for t in others]))
    held.append(grid[chosen][trial])
    print(f"{trial:48} {chosen:22} {grid[chosen][trial]:9.2f} {defaults[trial]:9.2f} {vqf[trial]:6.2f}")
print(f"{'mean':48} {'':22} {mean(held):9.2f} {mean([defaults[t] for t in trials]):9.2f} {mean([vqf[t] for t in trials]):6.2f}")
best = min(grid, key=lambda g: mean(list(grid[g].values())))
print(f"(the grid point best on all twelve, i.e. fitted: {best}, mean {mean(list(grid[best].values())):.2f}°)")
PY
