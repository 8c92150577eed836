#!/usr/bin/env bash
# Instructions per 9D update, ours and x-io Fusion's, on BROAD trial 07 (issue 19, goal 4):
# callgrind's counts are repeatable where times on a shared machine are not.
#   ours: Scripts/fusion-loop.swift with every Sources/IMUFusion file, `swiftc -O -wmo`, one
#         pass, counted inside `timedPass` (the loop included: ~15–24 instructions per update);
#         and counted the way x-io's is, `fusionUpdateCall` inclusive (the update as a function
#         of its own: call, prologue and epilogue in, the caller's loop out);
#   x-io: Scripts/xio-fusion-timing.c with Fusion 1.3.3's C (gcc -O2, the sdist bench-broad.sh
#         fetches into .build-broad), `FusionAhrsUpdate` inclusive, over its five passes.
# Then both programs' best-of-5 times, interleaved RUNS times (default 5), and the ratio of
# the best times. Needs valgrind, swiftc, gcc; run Scripts/bench-broad.sh once first (the sdist).
# Usage: Scripts/fusion-callgrind.sh [RUNS]   (IMU_BROAD_DATASET=DIR: the trial from DIR)
set -euo pipefail
cd "$(dirname "$0")/.."
runs=${1:-5}
trial=${IMU_BROAD_DATASET:-../shared/datasets/broad}/07_undisturbed_fast_rotation_B.csv
xio_dir=.build-broad/imufusion-1.3.3
[ -f "$trial" ] || { echo "fusion-callgrind: $trial is absent"; exit 0; }
[ -f "$xio_dir/Fusion/FusionAhrs.c" ] || { echo "fusion-callgrind: run Scripts/bench-broad.sh first ($xio_dir)" >&2; exit 1; }
out=.build-broad/callgrind
mkdir -p "$out"
cp Scripts/fusion-loop.swift "$out/main.swift"  # top-level code: swiftc wants it in main.swift
swiftc -O -wmo -module-name FusionLoop -o "$out/fusion-loop" "$out/main.swift" Scripts/fusion-trial.swift $(find Sources/IMUFusion -name '*.swift')
gcc -O2 -std=c99 -D_POSIX_C_SOURCE=199309L -I "$xio_dir/Fusion" -o "$out/xio-fusion-timing" \
    Scripts/xio-fusion-timing.c "$xio_dir"/Fusion/*.c -lm
updates=$(wc -l <"$trial"); updates=$((updates - 1))
valgrind --tool=callgrind --callgrind-out-file="$out/ours.cg" --toggle-collect='*timedPass*' \
    "$out/fusion-loop" "$trial" 1 >/dev/null 2>"$out/ours.log"
valgrind --tool=callgrind --callgrind-out-file="$out/xio.cg" "$out/xio-fusion-timing" "$trial" >/dev/null 2>"$out/xio.log"
valgrind --tool=callgrind --callgrind-out-file="$out/ours-call.cg" "$out/fusion-loop" "$trial" 0 >/dev/null 2>"$out/ours-call.log"
ours=$(grep -o 'Collected : [0-9]*' "$out/ours.log" | grep -o '[0-9]*$')
ours_call=$(callgrind_annotate --inclusive=yes "$out/ours-call.cg" 2>/dev/null | grep 'fusionUpdateCall' | head -n 1 | awk '{gsub(",", "", $1); print $1}')
xio=$(callgrind_annotate --inclusive=yes "$out/xio.cg" 2>/dev/null | grep ':FusionAhrsUpdate \[' | head -n 1 | awk '{gsub(",", "", $1); print $1}')
echo "callgrind, trial 07 ($updates updates): ours $((ours / updates)) instructions per update (loop included), $((ours_call / updates)) as a function (inclusive, like x-io's), x-io FusionAhrsUpdate $((xio / updates / 5))"
best_ours=1e9; best_xio=1e9
for _ in $(seq "$runs"); do
    o=$("$out/fusion-loop" "$trial" | sed 's/.*"ns_per_update": \([0-9.]*\).*/\1/')
    x=$("$out/xio-fusion-timing" "$trial" | sed 's/.*"ns_per_update": \([0-9.]*\).*/\1/')
    echo "run: ours $o ns, x-io $x ns"
    best_ours=$(python3 -c "print(min($best_ours, $o))"); best_xio=$(python3 -c "print(min($best_xio, $x))")
done
python3 -c "print(f'best of $runs interleaved runs ($(date -u +%Y-%m-%dT%H:%MZ)): ours {$best_ours:.1f} ns, x-io {$best_xio:.1f} ns, ratio {$best_ours / $best_xio:.3f} (goal ≤ 1.0)')"
