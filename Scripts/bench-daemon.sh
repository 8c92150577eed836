#!/usr/bin/env bash
# What `imu run` costs at 100 Hz on the twin with no client: CPU time per second of operation and
# resident memory, over a real-time run of the daemon with the example rules and its local socket
# (a benchmark, not a test). Docs/performance.md, "The daemon with no client", says where it goes.
#   bash Scripts/bench-daemon.sh [SECONDS]
# It measures the binary users get: the Debian package's and the installer's build
# (`--static-swift-stdlib`), in a scratch path of its own so the other release builds are not
# rebuilt. IMU_BENCH_BINARY=PATH measures that binary instead (e.g. a build against the
# toolchain's shared runtime, .build/release/imu).
set -euo pipefail
cd "$(dirname "$0")/.."
seconds="${1:-30}"
binary="${IMU_BENCH_BINARY:-}"
if [ -z "$binary" ]; then
    swift build -c release --static-swift-stdlib --scratch-path .build/static --product imu >/dev/null
    binary=.build/static/release/imu
fi
[ -x /usr/bin/time ] || { apt-get install -y -qq time >/dev/null; }
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
# The binary as a start after a reboot reads it: out of the page cache first (dd's nocache, i.e.
# POSIX_FADV_DONTNEED), then brought in by the start's own page faults. How the file came into the
# cache decides how much the kernel maps around each page touched (page-cache folios of one page or
# of many: one binary measured 16.0 and 17.4 MiB for `--version` as read or as just written).
sync "$binary"
dd if="$binary" iflag=nocache count=0 status=none
# A socket of its own: the daemon serves it as it would /run/imu/imu.sock, and a run beside
# another daemon (or another run of this script) measures the same work.
/usr/bin/time -f '%U %S %M' -o "$work/time" "$binary" run --config Scripts/rules.example.toml \
    --sim walk --rate 100 --duration "$seconds" --socket "$work/imu.sock" 2>/dev/null
read -r user system rss_kb <"$work/time"
awk -v u="$user" -v s="$system" -v r="$rss_kb" -v n="$seconds" 'BEGIN {
    printf "imu run, 100 Hz, twin (walk scenario), no client, %d s: CPU %.1f ms per second of operation (%.2f %% of one core), max resident memory %.1f MiB\n",
        n, (u + s) * 1000 / n, (u + s) * 100 / n, r / 1024 }'
