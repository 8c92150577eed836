#!/usr/bin/env bash
# What sharing the IMU costs: `imu run` at 100 Hz on the twin with 0, 1 and 10 socket clients
# (each subscribed to device motion at the full rate and to events, reading everything), and
# the same run with one client stopped (SIGSTOP) for the whole time. The daemon's CPU time per
# second of operation and its peak resident memory (a benchmark, not a test).
#   bash Scripts/bench-share.sh [SECONDS] [BUILD]     BUILD: release (default) or debug
set -euo pipefail
cd "$(dirname "$0")/.."
seconds="${1:-30}"
build="${2:-release}"
swift build -c "$build" --product imu >/dev/null
imu=".build/$build/imu"
[ -x /usr/bin/time ] || { apt-get install -y -qq time >/dev/null; }
command -v socat >/dev/null || { echo "bench-share: needs socat (bash Scripts/setup.sh --tests)"; exit 1; }
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
printf '[[rule]]\nname = "quiet"\non = "slap"\n  [[rule.action]]\n  command = ["/bin/true"]\n' >"$work/rules.toml"

run() {  # $1: clients, $2: "stopped" to SIGSTOP the first client
    local clients=$1 socket="$work/imu.sock" report="$work/time" pids=()
    rm -f "$socket"
    /usr/bin/time -f '%U %S %M' -o "$report" "$imu" run --config "$work/rules.toml" --sim walk --rate 100 \
        --socket "$socket" --duration "$seconds" 2>/dev/null &
    local daemon=$!
    for _ in $(seq 200); do [ -S "$socket" ] && break; sleep 0.05; done
    for i in $(seq "$clients"); do
        (printf '{"op":"subscribe","stream":"motion"}\n{"op":"subscribe","stream":"events"}\n'; sleep "$((seconds + 5))") \
            | socat - UNIX-CONNECT:"$socket" >"$work/client-$i.jsonl" 2>/dev/null &
        pids+=($!)
    done
    if [ "${2:-}" = stopped ] && [ "$clients" -gt 0 ]; then
        sleep 1
        kill -STOP "${pids[0]}"  # the socat of the first client (the last command of its pipeline)
    fi
    wait "$daemon"
    for pid in "${pids[@]}"; do kill -CONT "$pid" 2>/dev/null || true; kill "$pid" 2>/dev/null || true; done
    wait 2>/dev/null || true
    read -r user system rss_kb <"$report"
    local lines=0
    [ "$clients" -gt 0 ] && lines=$(cat "$work"/client-*.jsonl | grep -c '"quat_w"' || true)
    awk -v u="$user" -v s="$system" -v r="$rss_kb" -v n="$seconds" -v c="$clients" -v l="$lines" -v st="${2:-}" 'BEGIN {
        printf "%2d client%s%s: CPU %.1f ms per second (%.2f %% of one core), max resident %.1f MiB, %d motion lines received\n",
            c, (c == 1 ? " " : "s"), (st == "stopped" ? " (one stopped)" : "            "), (u + s) * 1000 / n, (u + s) * 100 / n, r / 1024, l }'
    rm -f "$work"/client-*.jsonl
}

echo "imu run, 100 Hz, twin (walk), $seconds s each, $build build:"
run 0
run 1
run 10
run 10 stopped
