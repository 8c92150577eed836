#!/usr/bin/env bash
# libFuzzer targets (Fuzz/*Fuzz), built with `-sanitize=fuzzer,address` (a debug build on purpose:
# its bounds checks on unsafe buffers turn an overrun into a finding). Each target checks what the
# code under test promises, not only that it survives. Any finding fails: a crash, a broken
# promise, a leak, a timeout, memory past the limit.
#
#   Scripts/fuzz.sh [TARGET…]                 CI: the same result for the same commit. Every input in
#                                             Fuzz/Corpus/<target>/ (the seeds and every past finding,
#                                             kept as regression-*) is run once, then a bounded run with
#                                             a fixed seed (IMU_FUZZ_RUNS executions, default 20000)
#                                             from a fresh working corpus.
#   Scripts/fuzz.sh --campaign SECONDS [TARGET…]
#                                             a search for new bugs: SECONDS per target, a random seed,
#                                             inputs up to the readers' limits (-max_len), the working
#                                             corpus kept in .build-fuzz/corpus/<target>/ between runs.
#                                             Prints executions and findings per target.
#
# A finding is left in .build-fuzz/artifacts/; re-run it with `.build-fuzz/debug/<Target> <file>`,
# fix it, and copy it to Fuzz/Corpus/<target>/regression-<what>.
#
# IMU_FUZZ=1 is what adds the targets to Package.swift; the separate scratch path keeps the
# instrumented build apart from the plain one.
set -euo pipefail
cd "$(dirname "$0")/.."

mode=ci
seconds=0
if [ "${1:-}" = "--campaign" ]; then
    mode=campaign
    seconds=${2:?"--campaign needs SECONDS per target"}
    shift 2
fi
targets=("$@")
if [ ${#targets[@]} -eq 0 ]; then
    targets=(TOMLFuzz ReplayLogFuzz BoardProfileFuzz RulesFileFuzz CalibrationFileFuzz RegisterDecodeFuzz ShareRequestFuzz MQTTCommandFuzz)
fi
runs=${IMU_FUZZ_RUNS:-20000}

# The largest input worth generating per target: the readers' own limits (TOML files 1 MiB, log
# lines 64 KiB), kept to 64 KiB in campaigns (past that, libFuzzer spends its time copying) and
# to 8 KiB in CI runs.
max_len() {
    if [ "$mode" = ci ]; then echo 8192; return; fi
    case "$1" in
        RegisterDecodeFuzz) echo 4096 ;;
        *) echo 65536 ;;
    esac
}

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
export ASAN_OPTIONS=detect_leaks=1
failed=()
for target in "${targets[@]}"; do
    corpus=Fuzz/Corpus/$target
    mkdir -p "$scratch/artifacts"
    log=$scratch/$target.log
    common=(-timeout=10 -rss_limit_mb=2048 -max_len="$(max_len "$target")" -print_final_stats=1
        -artifact_prefix="$scratch/artifacts/$target-")
    set +e
    if [ "$mode" = ci ]; then
        # Every kept input once (regressions first to fail fast), then the seeded run.
        echo "== fuzz: $target: $(find "$corpus" -type f | wc -l) kept inputs, then $runs runs with seed 1"
        "$bin/$target" -runs=0 "${common[@]}" $(find "$corpus" -type f | sort) >"$log" 2>&1
        status=$?
        if [ "$status" -eq 0 ]; then
            work=$(mktemp -d)
            "$bin/$target" "$work" "$corpus" -seed=1 -runs="$runs" "${common[@]}" >>"$log" 2>&1
            status=$?
            rm -rf "$work"
        fi
    else
        work=$scratch/corpus/$target
        mkdir -p "$work"
        echo "== fuzz: $target campaign for $seconds s (kept inputs: $(find "$corpus" -type f | wc -l), working corpus: $(find "$work" -type f | wc -l))"
        "$bin/$target" "$work" "$corpus" -max_total_time="$seconds" "${common[@]}" >"$log" 2>&1
        status=$?
    fi
    set -e
    grep -E "stat::number_of_executed_units|stat::peak_rss_mb|stat::new_units_added" "$log" | tail -n 3 | sed 's/^/  /' || true
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
if [ "$mode" = ci ]; then
    echo "fuzz: PASS (${#targets[@]} targets: kept inputs replayed, $runs seeded runs each, no findings)"
else
    echo "fuzz: PASS (${#targets[@]} targets, $seconds s each, no findings)"
fi
