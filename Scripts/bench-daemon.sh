#!/usr/bin/env bash
# What `imu run` costs at 100 Hz on the twin: CPU time per second of operation and resident
# memory, over a real-time run of the daemon with the example rules (a benchmark, not a test).
#   bash Scripts/bench-daemon.sh [SECONDS]
set -euo pipefail
cd "$(dirname "$0")/.."
seconds="${1:-30}"
swift build -c release --product imu >/dev/null
[ -x /usr/bin/time ] || { apt-get install -y -qq time >/dev/null; }
report=$(mktemp)
/usr/bin/time -f '%U %S %M' -o "$report" .build/release/imu run --config Scripts/rules.example.toml \
    --sim walk --rate 100 --duration "$seconds" 2>/dev/null
read -r user system rss_kb <"$report"
rm -f "$report"
awk -v u="$user" -v s="$system" -v r="$rss_kb" -v n="$seconds" 'BEGIN {
    printf "imu run, 100 Hz, twin (walk scenario), %d s: CPU %.1f ms per second of operation (%.2f %% of one core), max resident memory %.1f MiB\n",
        n, (u + s) * 1000 / n, (u + s) * 100 / n, r / 1024 }'
