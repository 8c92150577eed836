#!/usr/bin/env bash
# Sets up a fresh Debian 12 machine (with Swift installed), builds `imu` and runs the main job:
# `imu read` on the IMU hat when an I²C bus is there, on the simulated IMU (the digital twin)
# otherwise. Extra arguments go to `imu read` (e.g. --count 50 --format csv).
set -euo pipefail
cd "$(dirname "$0")/.."

bash Scripts/setup.sh
swift build -c release --product imu
imu=".build/release/imu"

if ls /dev/i2c-* >/dev/null 2>&1; then
  exec "$imu" read "$@"
else
  echo "(no I²C bus on this machine: reading the simulated IMU; see Docs/hardware.md to enable I²C on a Pi)" >&2
  exec "$imu" read --sim seed-sequence --count 40 "$@"
fi
