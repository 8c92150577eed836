#!/usr/bin/env bash
# Event timing on the twin (issue 6's acceptance figures), as markdown tables: shakes found and
# how soon began/ended come, motions that must not be shakes or slaps, orientation changes and a
# ±3° wobble around 45°, slaps; then `imu run`'s action latency (sample → GPIO line change) and
# pulse length, on the twin in real time (the GPIO chip's timestamps). A benchmark, not a test;
# EventTimingTests bound the same virtual-time figures.
#   bash Scripts/bench-events.sh [SECONDS]     # seconds of the real-time action run (default 30)
set -euo pipefail
cd "$(dirname "$0")/.."
seconds="${1:-30}"
swift build -c release --static-swift-stdlib --product imu >/dev/null
.build/release/imu bench events --seconds "$seconds"
