#!/usr/bin/env bash
# Sets up a fresh Debian 12 machine (with Swift installed), builds `imu` and runs the main job:
# `imu read` on the IMU hat when an I²C bus is there, on the simulated IMU (the digital twin)
# otherwise. Extra arguments go to `imu read` (e.g. --count 50 --format csv).
#
# A debug build: the first reading needs no optimiser, and the debug build of the whole package
# takes a fraction of the release build's compile time (the service's release binary comes
# from Scripts/package-deb.sh, or `swift build -c release --static-swift-stdlib --product imu`).
set -euo pipefail
cd "$(dirname "$0")/.."

step() { printf '== %s (%s s)\n' "$1" "$SECONDS" >&2; }
step "setup"
bash Scripts/setup.sh
step "build"
swift build --product imu
imu=".build/debug/imu"
step "read"

if ls /dev/i2c-* >/dev/null 2>&1; then
  exec "$imu" read "$@"
else
  echo "(no I²C bus on this machine: reading the simulated IMU; see Docs/hardware.md to enable I²C on a Pi)" >&2
  exec "$imu" read --sim seed-sequence --count 40 "$@"
fi
