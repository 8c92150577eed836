#!/usr/bin/env bash
# The BROAD table and the speed ratio against VQF (issue 3, "Benchmarks"):
#   1. VQF 2.1.2 (PyPI), default parameters, 9D and 6D, on every trial in ../shared/datasets/broad (or $IMU_BROAD_DATASET),
#      scored with the BROAD metric in this run (Scripts/broad_vqf.py);
#   2. the project's filter on the same trials through `imu bench broad --dataset DIR --json`;
#   3. the per-trial table of both, the means, and the dataset README's published VQF figures;
#   4. VQF's C++ (shipped inside the PyPI package) built with g++ -O2 and timed per 9D update on
#      trial 07 (Scripts/vqf-timing.cpp), then `imu bench fusion --input` on the same samples as
#      a replay CSV, and the ratio ours / VQF;
#   5. x-io Fusion's C (the sources inside the PyPI sdist imufusion 1.3.3) built with gcc -O2 and
#      timed per 9D update on the same trial (Scripts/xio-fusion-timing.c: ENU, gain 0.5, 10°
#      rejections, 5 s timeout), and the ratio ours / x-io Fusion (issue 19, goal ≤ 1.0).
#   The three timed programs take turns, BENCH_ROUNDS rounds (default 5), each keeping its best:
#   one after the other, a heavy step just before one of them moved a ratio by a third.
# Where `imu bench broad` or `imu bench fusion` does not exist yet, VQF's side is printed and
# ours is said to be missing; nothing is made up. Exits 0 when the dataset is absent.
#
# JSON the two `imu` subcommands print on stdout (the contract this script reads):
#
#   imu bench broad --dataset DIR --json
#     {"trials": [{"name": "02_undisturbed_slow_rotation_B",   # file name without .csv
#                  "samples": 53240,                          # rows in the file
#                  "total_deg": 1.41, "heading_deg": 1.30,    # 9D, BROAD metric (RMSE, degrees)
#                  "inclination_deg": 0.45,
#                  "inclination_6d_deg": 0.44},               # 6D run (no magnetometer)
#                 … one object per .csv in DIR …],
#      "mean_total_deg": …, "mean_heading_deg": …, "mean_inclination_deg": …,
#      "mean_inclination_6d_deg": …}
#     Required: every trial in DIR, with name and the four *_deg keys (the script computes the
#     means itself from the trials, the same way for both filters). One fixed parameter set;
#     the filter starts at each file's first row; metric as IMULog.BROADMetric.
#
#   imu bench fusion --input LOG.csv --json
#     {"ns_per_update": 61.5, "updates": 52518, "total_seconds": 0.00323}
#     ns_per_update (key exactly that) is the 9D fixed-point update's time per sample, best pass,
#     excluding reading and parsing the log.
#
# Needs: python3 with venv, g++, gcc, swift. Caches (gitignored) in .build-broad/: the venv with vqf
# and numpy, the compiled harness, the replay CSV of trial 07, and each step's JSON.
set -euo pipefail
cd "$(dirname "$0")/.."

dataset=${IMU_BROAD_DATASET:-../shared/datasets/broad}
if [ ! -d "$dataset" ]; then
    echo "bench-broad: $dataset is absent (BROAD trials are never in the repository): skipped"
    exit 0
fi
dataset=$(cd "$dataset" && pwd)
cache=.build-broad
timing_trial=07_undisturbed_fast_rotation_B
mkdir -p "$cache"

echo "== VQF 2.1.2 and numpy (venv in $cache/venv)"
if [ ! -x "$cache/venv/bin/python" ]; then
    python3 -m venv "$cache/venv"
fi
python=$cache/venv/bin/python
# Reinstall only when the pinned version is not what the venv has, so reruns need no network.
if ! "$python" -c 'import importlib.metadata as m, numpy; assert m.version("vqf") == "2.1.2"' 2>/dev/null; then
    "$python" -m pip install --quiet "vqf==2.1.2" numpy
fi

# x-io Fusion's C sources: the pinned sdist, fetched once with pip (which prepares its metadata
# in an isolated build environment; `--no-binary imufusion` rather than `:all:`, so that the
# build tools come as wheels: `:all:` compiled them from source, over an hour on a loaded
# machine), checked against its SHA-256 and unpacked in the cache.
xio_version=1.3.3
xio_sha256=b2175e5ed1e1cca95ef8673432d1f089037f957cde4325a510738c9e7ad3b87d
xio_tarball=$cache/imufusion-$xio_version.tar.gz
xio_dir=$cache/imufusion-$xio_version
if [ ! -f "$xio_tarball" ]; then
    echo "== x-io Fusion $xio_version sdist (pip download)"
    "$python" -m pip download --quiet --no-deps --no-binary imufusion "imufusion==$xio_version" -d "$cache"
fi
if ! echo "$xio_sha256  $xio_tarball" | sha256sum --check --status; then
    echo "bench-broad: $xio_tarball is not the imufusion $xio_version sdist (SHA-256 differs)" >&2
    exit 1
fi
[ -f "$xio_dir/Fusion/FusionAhrs.c" ] || tar -xzf "$xio_tarball" -C "$cache"

echo "== VQF on every trial (9D and 6D, default parameters)"
"$python" Scripts/broad_vqf.py vqf "$dataset" "$cache/vqf.json"

echo "== imu (release build)"
# The benchmarks time optimised code; reuses .build/release, so only the first build is slow.
if ! swift build -c release --static-swift-stdlib --product imu >"$cache/swift-build.log" 2>&1; then
    tail -n 30 "$cache/swift-build.log" >&2
    echo "bench-broad: the release build of imu failed (log: $cache/swift-build.log)" >&2
    exit 1
fi
tail -n 1 "$cache/swift-build.log"
imu=.build/release/imu

# Runs `imu ARGS…` into $cache/NAME.json. Returns 0 when it worked; 1 when imu rejects the
# command line (ArgumentParser's usage error, exit 64: "Unexpected argument 'bench'", "Unknown
# option '--dataset'", …), i.e. the subcommand is not there yet, after printing imu's own words
# so a misspelt option cannot pass for a missing command; and stops the script on any other
# failure: a subcommand that exists and fails is a bug to see, not a gap.
run_imu() {
    local name=$1
    shift
    local status=0
    "$imu" "$@" >"$cache/$name.json" 2>"$cache/$name.err" || status=$?
    if [ "$status" -eq 0 ]; then
        return 0
    fi
    if [ "$status" -eq 64 ] && grep -qiE "unexpected argument|unknown|not a valid subcommand" "$cache/$name.err"; then
        echo "bench-broad: imu $1 $2: $(head -n 1 "$cache/$name.err")"
        return 1
    fi
    echo "bench-broad: imu $* failed (exit $status):" >&2
    cat "$cache/$name.err" >&2
    exit 1
}

echo "== ours: imu bench broad --dataset $dataset --json"
ours_json=()
if run_imu ours-broad bench broad --dataset "$dataset" --json; then
    ours_json=("$cache/ours-broad.json")
else
    echo "bench-broad: 'imu bench broad' is not implemented yet: our side of the table is missing (shown as –)"
fi

echo
echo "== BROAD: RMSE over movement phases, degrees (D. Laidig, M. Caruso, A. Cereatti, T. Seel, Data 6(7), 2021, CC BY 4.0)"
"$python" Scripts/broad_vqf.py table "$dataset" "$cache/vqf.json" "${ours_json[@]}"

echo
echo "== speed: one 9D update, trial $timing_trial, best of 5 passes in each program, the three programs in turns"
vqf_cpp=$("$python" -c 'import vqf; print(vqf.get_cpp_path())')
# VQF's own sources, unchanged, in double precision (its default); -O2 as in the dataset README.
g++ -O2 -std=c++17 -I "$vqf_cpp" -o "$cache/vqf-timing" Scripts/vqf-timing.cpp "$vqf_cpp/vqf.cpp"
# x-io Fusion's own sources, unchanged, in single precision (its only one); gcc -O2.
gcc -O2 -std=c99 -D_POSIX_C_SOURCE=199309L -I "$xio_dir/Fusion" -o "$cache/xio-fusion-timing" \
    Scripts/xio-fusion-timing.c "$xio_dir"/Fusion/*.c -lm
# The same samples in the project's own log format, which is what `imu bench fusion` reads.
"$python" Scripts/broad_vqf.py replay-csv "$dataset/$timing_trial.csv" "$cache/$timing_trial.replay.csv"

# A shared machine's speed drifts by a third between seconds (a heavy step just before makes
# the next program slow): the three programs take turns, $rounds rounds, and each keeps its best.
rounds=${BENCH_ROUNDS:-5}
best() {  # best FILE.json NEW.json: keeps the faster of the two in FILE.json
    if [ ! -f "$1" ] || "$python" -c 'import json,sys; a,b=(json.load(open(p))["ns_per_update"] for p in sys.argv[1:]); sys.exit(0 if b < a else 1)' "$1" "$2"; then
        cp "$2" "$1"
    fi
}
rm -f "$cache/vqf-timing.json" "$cache/xio-fusion-timing.json" "$cache/ours-fusion.json"
ours_timed=1
for _ in $(seq "$rounds"); do
    "$cache/vqf-timing" "$dataset/$timing_trial.csv" >"$cache/round.json" && best "$cache/vqf-timing.json" "$cache/round.json"
    if [ "$ours_timed" -eq 1 ] && run_imu ours-round bench fusion --input "$cache/$timing_trial.replay.csv" --json; then
        best "$cache/ours-fusion.json" "$cache/ours-round.json"
    else
        ours_timed=0
    fi
    "$cache/xio-fusion-timing" "$dataset/$timing_trial.csv" >"$cache/round.json" && best "$cache/xio-fusion-timing.json" "$cache/round.json"
done
vqf_ns=$("$python" -c 'import json,sys; print(json.load(open(sys.argv[1]))["ns_per_update"])' "$cache/vqf-timing.json")
echo "VQF C++ (g++ -O2): $vqf_ns ns per 9D update (best of $rounds rounds)"
if [ "$ours_timed" -eq 1 ]; then
    "$python" - "$cache/ours-fusion.json" "$vqf_ns" <<'EOF'
import json, sys
ours = json.load(open(sys.argv[1]))["ns_per_update"]
vqf = float(sys.argv[2])
print(f"ours (imu bench fusion): {ours:.1f} ns per 9D update (best of the same rounds)")
print(f"ratio ours / VQF: {ours / vqf:.3f} (goal ≤ 0.200)")
EOF
else
    echo "bench-broad: 'imu bench fusion' is not implemented yet: our time and the ratio are missing"
fi

xio_ns=$("$python" -c 'import json,sys; print(json.load(open(sys.argv[1]))["ns_per_update"])' "$cache/xio-fusion-timing.json")
echo "x-io Fusion C $xio_version (gcc -O2): $xio_ns ns per 9D update (best of the same rounds)"
if [ "$ours_timed" -eq 1 ]; then
    "$python" - "$cache/ours-fusion.json" "$xio_ns" <<'EOF'
import json, sys
ours = json.load(open(sys.argv[1]))["ns_per_update"]
xio = float(sys.argv[2])
print(f"ratio ours / x-io Fusion: {ours / xio:.3f} (goal ≤ 1.0)")
EOF
fi
