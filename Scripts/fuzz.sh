#!/usr/bin/env bash
# Builds the libFuzzer targets (Fuzz/*Fuzz) with `-sanitize=fuzzer,address` and runs each for
# its share of SECONDS (default 60 in all), starting from the seed corpus kept in the repo
# (Fuzz/Corpus/<target>/). Fails on any finding: a crash, a broken promise (each target checks
# what the code under test guarantees, not only that it survives), a leak, a timeout. The
# finding is left in .build-fuzz/artifacts/; re-run it with
#   .build-fuzz/debug/<Target> .build-fuzz/artifacts/<target>-crash-…
#
# Usage: Scripts/fuzz.sh [SECONDS] [TARGET…]
#
# IMU_FUZZ=1 is what adds the targets to Package.swift; the separate scratch path keeps the
# instrumented build apart from the plain one. A debug build on purpose: its bounds checks on
# unsafe buffers are what turn an overrun into a finding. New inputs the fuzzer finds go to
# .build-fuzz/corpus/<target>/ (the repo's seeds are only read); copy the interesting ones over.
set -euo pipefail
cd "$(dirname "$0")/.."

seconds=${1:-60}
shift || true
targets=("$@")
if [ ${#targets[@]} -eq 0 ]; then
    targets=(ReplayLogFuzz BoardProfileFuzz RulesFileFuzz CalibrationFileFuzz RegisterDecodeFuzz)
fi
per_target=$((seconds / ${#targets[@]}))
[ "$per_target" -ge 1 ] || per_target=1

export IMU_FUZZ=1
scratch=.build-fuzz
flags=(--scratch-path "$scratch" -Xswiftc -sanitize=fuzzer,address
    -Xcc -fsanitize=fuzzer-no-link,address -Xcxx -fsanitize=fuzzer-no-link,address)
mkdir -p "$scratch"
for target in "${targets[@]}"; do
    echo "== fuzz: building $target"
    # (ld.gold warns about every AddressSanitizer helper it cannot export; the log keeps them.)
    if ! swift build "${flags[@]}" --product "$target" >"$scratch/build-$target.log" 2>&1; then
        grep -v "Cannot export local symbol" "$scratch/build-$target.log" | tail -n 30
        echo "fuzz: building $target failed"
        exit 1
    fi
    tail -n 1 "$scratch/build-$target.log"
done
bin=$(swift build "${flags[@]}" --show-bin-path)

# The Swift runtime's backtracer reads freed memory as it walks a crashed process, which
# AddressSanitizer reports over the real finding; libFuzzer prints its own stack.
export SWIFT_BACKTRACE=enable=no
# Leaks inside TOMLKit are that dependency's (see the file); ours still fail the run.
export LSAN_OPTIONS=suppressions=$PWD/Fuzz/lsan-suppressions.txt:print_suppressions=0
failed=()
for target in "${targets[@]}"; do
    corpus=Fuzz/Corpus/$target
    work=$scratch/corpus/$target
    mkdir -p "$work" "$scratch/artifacts"
    echo "== fuzz: $target for ${per_target} s (seeds: $(find "$corpus" -type f | wc -l) files in $corpus)"
    log=$scratch/$target.log
    set +e
    "$bin/$target" "$work" "$corpus" -max_total_time="$per_target" -timeout=10 -rss_limit_mb=2048 \
        -max_len=8192 -print_final_stats=1 -artifact_prefix="$scratch/artifacts/$target-" >"$log" 2>&1
    status=$?
    set -e
    grep -E "^#[0-9]+ *DONE|stat::number_of_executed_units|stat::peak_rss_mb" "$log" | sed 's/^/  /' || true
    if [ "$status" -ne 0 ]; then
        echo "fuzz: $target FAILED (exit $status); the end of its log ($log):"
        grep -v "^#[0-9]" "$log" | tail -n 40
        failed+=("$target")
    else
        echo "fuzz: $target ok"
    fi
done

if [ ${#failed[@]} -ne 0 ]; then
    echo "fuzz: FAIL (${failed[*]}); inputs in $scratch/artifacts/"
    exit 1
fi
echo "fuzz: PASS (${#targets[@]} targets, ${per_target} s each, no findings)"
