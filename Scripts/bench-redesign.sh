#!/usr/bin/env bash
# Before/after figures for a change that must not slow the twin down (issue #13's one-engine
# redesign: before = 65eb95f, the tree before it), measured in one session, interleaved, release
# builds of both trees:
#   1. Benchmarks/DecodeBenchmark and FusionBenchmark, each tree's own sources, built with plain
#      swiftc against that tree's release modules and a stand-in for package-benchmark's API
#      (Scripts/bench-redesign/), because package-benchmark cannot be resolved without network:
#      CPU ns per sample or update (fastest, median) over ROUNDS interleaved runs, and
#      callgrind instructions per sample or update in the timed loop (deterministic).
#   2. The twin through the whole pipeline in virtual time (acquisition → calibration → fusion
#      → recognisers → output): `imu events --sim shake --virtual-time` and `imu stream --sim
#      figure-eight --virtual-time --format jsonl`: callgrind instructions per sample (the
#      difference of two durations, so start-up cancels) and CPU seconds per run, interleaved.
#   3. The daemon in real time: `imu run --sim shake --config Scripts/rules.example.toml
#      --duration 20`: CPU seconds and max resident memory (/usr/bin/time -v), interleaved.
#
#   bash Scripts/bench-redesign.sh [BEFORE_REV] [ROUNDS]     # defaults 65eb95f, 5
# BEFORE_TREE=/path reuses (or creates) that worktree for BEFORE_REV; default ../imu-before-REV.
# SECTIONS="benchmarks_time benchmarks_callgrind pipeline_callgrind pipeline_cpu daemon" (the
# default) picks what to measure.
# The after tree is this checkout as it is. Output: markdown-ish lines on stdout, raw logs in
# .build-redesign/ of each tree.
set -euo pipefail
cd "$(dirname "$0")/.."
after_tree=$(pwd)
before_rev="${1:-65eb95f}"
rounds="${2:-5}"
before_tree="${BEFORE_TREE:-$(dirname "$after_tree")/imu-before-$before_rev}"
harness="$after_tree/Scripts/bench-redesign"
# The after tree's daemon serves a socket under the runtime directory: a fresh one of our own, so
# no other daemon's socket is met (the before tree ignores it).
RUNTIME_DIRECTORY=$(mktemp -d)
export RUNTIME_DIRECTORY
trap 'rm -rf "$RUNTIME_DIRECTORY"' EXIT

[ -x /usr/bin/time ] || apt-get install -y -qq time >/dev/null
command -v valgrind >/dev/null || apt-get install -y -qq valgrind >/dev/null

if [ ! -d "$before_tree" ]; then
    git worktree add --detach "$before_tree" "$before_rev" >/dev/null
fi
# The plain build's pins, so both trees build the same dependency versions without resolving.
if [ -f Package.resolved ] && [ ! -f "$before_tree/Package.resolved" ]; then
    cp Package.resolved "$before_tree/Package.resolved"
fi

# Builds `imu` (release) in a tree, then the two benchmark executables against its modules.
build_tree() {
    local tree=$1 out=$1/.build-redesign
    mkdir -p "$out"
    (cd "$tree" && swift build -c release --product imu >"$out/build.log" 2>&1) || {
        tail -20 "$out/build.log" >&2
        return 1
    }
    local bin
    bin=$(cd "$tree" && swift build -c release --show-bin-path)
    # Every release object but the executable's, as an archive: the linker takes only what the
    # benchmarks reach.
    rm -f "$out/libimu.a"
    find "$bin" -path "$bin/imu.build" -prune -o -name '*.o' -path '*.build/*' -print0 | xargs -0 ar rcs "$out/libimu.a"
    # The system libraries the archive's C shims call (GPIO, I²C, MQTT, D-Bus): linked as needed.
    swiftc -O -wmo -parse-as-library -swift-version 6 -module-name Benchmark -c \
        "$harness/Benchmark.swift" "$harness/BenchmarkRunner.swift" \
        -emit-module -emit-module-path "$out/Benchmark.swiftmodule" -o "$out/Benchmark.o"
    local target
    for target in DecodeBenchmark FusionBenchmark; do
        swiftc -O -wmo -swift-version 6 -module-name "$target" -I "$out" -I "$bin/Modules" \
            "$tree/Benchmarks/$target"/*.swift "$harness/main.swift" "$out/Benchmark.o" "$out/libimu.a" \
            -lgpiod -li2c -lmosquitto -lsystemd -o "$out/$target" 2>"$out/$target.log" || {
            cat "$out/$target.log" >&2
            return 1
        }
    done
}

# The instructions one run of a program executes (callgrind). It runs a copy without debug
# information: this valgrind cannot read the DWARF 5 that swiftc writes and gives up.
callgrind_total() {
    local program=$1 log
    shift
    [ "$program.nodebug" -nt "$program" ] || objcopy --strip-debug "$program" "$program.nodebug"
    log=$(mktemp)
    valgrind --tool=callgrind --callgrind-out-file=/dev/null "$program.nodebug" "$@" >/dev/null 2>"$log" || true
    local total
    total=$(sed -n 's/.*Collected : \([0-9]*\).*/\1/p' "$log")
    [ -n "$total" ] || { echo "callgrind failed: $program $*" >&2; tail -5 "$log" >&2; }
    rm -f "$log"
    echo "${total:-0}"
}

ratio() { awk -v a="$1" -v b="$2" 'BEGIN { if (b > 0) printf "%.3f", a / b; else print "n/a" }'; }

build_tree "$before_tree"
build_tree "$after_tree"
before_rev_name=$(git -C "$before_tree" rev-parse --short HEAD)
after_rev_name=$(git rev-parse --short HEAD)$(git diff --quiet HEAD -- Sources Benchmarks || echo "+changes")
echo "# bench-redesign $(date -u '+%Y-%m-%d %H:%M UTC'): before $before_rev_name ($before_tree), after $after_rev_name ($after_tree), $rounds rounds"

# 1a. Benchmarks, CPU time, interleaved.
benchmarks_time() {
for round in $(seq "$rounds"); do
    for side in before after; do
        tree=$before_tree; [ "$side" = after ] && tree=$after_tree
        for target in DecodeBenchmark FusionBenchmark; do
            "$tree/.build-redesign/$target" --seconds 1 | sed "s/^/$side\tround $round\t/"
        done
    done
done | tee "$after_tree/.build-redesign/benchmarks-wall.txt" >/dev/null
python3 - "$after_tree/.build-redesign/benchmarks-wall.txt" <<'EOF'
import re, sys, statistics
rows = {}
for line in open(sys.argv[1]):
    side, _, name, _, timing, _ = line.rstrip("\n").split("\t")
    m = re.search(r"min ([\d.]+) p25 ([\d.]+) median ([\d.]+)", timing)
    # A fusion unit is 1 000 updates: per update, like the decode path's per sample.
    scale = 1000 if name.startswith("fusion") else 1
    rows.setdefault(name, {}).setdefault(side, []).append((float(m.group(1)) / scale, float(m.group(3)) / scale))
print("\n## Benchmarks, CPU ns per sample or update (fastest of all rounds / median of the rounds' medians)")
print("| benchmark | before fastest | after fastest | after/before | before median | after median | after/before |")
print("|---|---:|---:|---:|---:|---:|---:|")
for name, sides in rows.items():
    bf = min(v[0] for v in sides["before"]); af = min(v[0] for v in sides["after"])
    bm = statistics.median(v[1] for v in sides["before"]); am = statistics.median(v[1] for v in sides["after"])
    print(f"| {name} | {bf:.1f} | {af:.1f} | {af / bf:.3f} | {bm:.1f} | {am:.1f} | {am / bm:.3f} |")
EOF
}


benchmarks_callgrind() {
# 1b. Benchmarks, callgrind instructions per sample or update: one call with more units minus one
# call with fewer, so what the closure does untimed (building the twin, the driver) cancels.
# Decode: 11 000 − 1 000 samples; fusion: (12 − 2) × 1 000 updates.
echo
echo "## Benchmarks, callgrind instructions per sample or update (timed loop only)"
echo "| benchmark | before | after | after/before |"
echo "|---|---:|---:|---:|"
local target name side tree small large fewer more per_unit
for target in DecodeBenchmark FusionBenchmark; do
    fewer=1000 more=11000 per_unit=1
    if [ "$target" = FusionBenchmark ]; then fewer=2 more=12 per_unit=1000; fi
    names=$("$after_tree/.build-redesign/$target" --iterations 1 --units "$fewer" | cut -f1)
    while IFS= read -r name; do
        declare -A per=()
        for side in before after; do
            tree=$before_tree; [ "$side" = after ] && tree=$after_tree
            small=$(callgrind_total "$tree/.build-redesign/$target" --filter "$name" --iterations 1 --units "$fewer")
            large=$(callgrind_total "$tree/.build-redesign/$target" --filter "$name" --iterations 1 --units "$more")
            per[$side]=$(( (large - small) / ((more - fewer) * per_unit) ))
        done
        echo "| $name | ${per[before]} | ${per[after]} | $(ratio "${per[after]}" "${per[before]}") |"
    done <<<"$names"
done
}

# 2. The whole pipeline on the twin in virtual time.
# The stream writes a JSON line per sample (about 14 times the events' cost), so it runs shorter.
declare -A short=([events]=60 [stream]=20) long=([events]=360 [stream]=80) cpu_seconds=([events]=3600 [stream]=600)
events_cmd() { echo "imu events --sim shake --virtual-time --rate 100 --format jsonl --duration $1"; }
stream_cmd() { echo "imu stream --sim figure-eight --virtual-time --rate 100 --format jsonl --duration $1"; }
pipeline_callgrind() {
echo
echo "## The twin through the whole pipeline, virtual time, 100 Hz"
echo "| command | before instr/sample | after instr/sample | after/before |"
echo "|---|---:|---:|---:|"
for kind in events stream; do
    declare -A per=()
    samples=$(( (long[$kind] - short[$kind]) * 100 ))
    for side in before after; do
        tree=$before_tree; [ "$side" = after ] && tree=$after_tree
        # shellcheck disable=SC2046
        small=$(cd "$tree" && callgrind_total .build/release/$(${kind}_cmd "${short[$kind]}"))
        # shellcheck disable=SC2046
        large=$(cd "$tree" && callgrind_total .build/release/$(${kind}_cmd "${long[$kind]}"))
        per[$side]=$(( (large - small) / samples ))
    done
    echo "| \`$(${kind}_cmd "${short[$kind]} / ${long[$kind]}")\` (difference over $samples samples) | ${per[before]} | ${per[after]} | $(ratio "${per[after]}" "${per[before]}") |"
done

}

pipeline_cpu() {
echo
echo "## CPU seconds per run (user+system), $rounds interleaved rounds: median (fastest)"
echo "| command | before | after | after/before (medians) |"
echo "|---|---:|---:|---:|"
cpu_file="$after_tree/.build-redesign/pipeline-cpu.txt"
: >"$cpu_file"
for round in $(seq "$rounds"); do
    for kind in events stream; do
        for side in before after; do
            tree=$before_tree; [ "$side" = after ] && tree=$after_tree
            # shellcheck disable=SC2046
            (cd "$tree" && /usr/bin/time -f "$kind $side %U %S" -a -o "$cpu_file" .build/release/$(${kind}_cmd "${cpu_seconds[$kind]}") >/dev/null 2>&1)
        done
    done
done
python3 - "$cpu_file" "$(events_cmd "${cpu_seconds[events]}")" "$(stream_cmd "${cpu_seconds[stream]}")" <<'EOF'
import sys, statistics
runs = {}
for line in open(sys.argv[1]):
    kind, side, user, system = line.split()
    runs.setdefault(kind, {}).setdefault(side, []).append(float(user) + float(system))
for kind, command in (("events", sys.argv[2]), ("stream", sys.argv[3])):
    b, a = runs[kind]["before"], runs[kind]["after"]
    print(f"| `{command}` | {statistics.median(b):.2f} ({min(b):.2f}) | {statistics.median(a):.2f} ({min(a):.2f}) | {statistics.median(a) / statistics.median(b):.3f} |")
EOF

}

# 3. The daemon in real time.
daemon() {
daemon_rounds=$(( rounds < 3 ? rounds : 3 ))
echo
echo "## imu run --sim shake --config Scripts/rules.example.toml --duration 20 (real time), $daemon_rounds interleaved rounds"
echo "| side | CPU s (user+sys) per run | max RSS MiB |"
echo "|---|---|---|"
daemon_file="$after_tree/.build-redesign/daemon.txt"
: >"$daemon_file"
for round in $(seq "$daemon_rounds"); do
    for side in before after; do
        tree=$before_tree; [ "$side" = after ] && tree=$after_tree
        log=$(mktemp)
        (cd "$tree" && /usr/bin/time -v -o "$log" .build/release/imu run --sim shake --config Scripts/rules.example.toml \
            --duration 20 >/dev/null 2>&1) || true
        awk -v side="$side" -F': ' '/User time/ { u = $2 } /System time/ { s = $2 } /Maximum resident/ { r = $2 }
            END { printf "%s %.2f %.1f\n", side, u + s, r / 1024 }' "$log" >>"$daemon_file"
        rm -f "$log"
    done
done
for side in before after; do
    awk -v side="$side" '$1 == side { cpu = cpu (cpu ? ", " : "") $2; rss = rss (rss ? ", " : "") $3 }
        END { printf "| %s | %s | %s |\n", side, cpu, rss }' "$daemon_file"
done
}

for section in ${SECTIONS:-benchmarks_time benchmarks_callgrind pipeline_callgrind pipeline_cpu daemon}; do
    "$section"
done
