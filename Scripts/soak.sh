#!/usr/bin/env bash
# The soak: the whole live path (twin → driver → acquisition loop with its fault recovery →
# stored calibration → fixed-point fusion → events) for SAMPLES samples on virtual time, with a
# fault every 30 s of it (NACK bursts, I/O error bursts, unplug/replug, FIFO overflow, a stuck
# bus), printing at intervals what must stay flat: resident memory, the fusion core's quaternion
# norm, the attitude error against the twin's truth, faults injected and recovered, samples
# dropped. Fails when any of them is not as it should be. Docs/reliability.md, "Soak".
#
# Usage: Scripts/soak.sh [SAMPLES] [imu soak options…]
#   SAMPLES defaults to 100000000 (10⁸: about 29 h of the LSM9DS1 at 952 Hz, ~5 minutes here);
#   `Scripts/soak.sh 1000000` is a quick check (a few seconds).
#
# The twin's chip is calibrated first, the way a user would (`imu calibrate gyro|accel|mag` on the
# twin), into a scratch configuration directory, so the soak applies a real calibration file.
set -euo pipefail
cd "$(dirname "$0")/.."

samples=${1:-100000000}
shift || true

bash Scripts/setup.sh >/dev/null
swift build -c release --static-swift-stdlib --product imu 2>&1 | tail -n 1
imu=$(swift build -c release --show-bin-path)/imu

export XDG_CONFIG_HOME
XDG_CONFIG_HOME=$(mktemp -d)
trap 'rm -rf "$XDG_CONFIG_HOME"' EXIT
echo "== calibrating the twin's LSM9DS1 (into $XDG_CONFIG_HOME/imu)"
"$imu" calibrate gyro --sim --virtual-time | tail -n 2 | head -n 1
"$imu" calibrate accel --sim seed-sequence --virtual-time | tail -n 2 | head -n 1
"$imu" calibrate mag --sim tumble --virtual-time | tail -n 2 | head -n 1

echo "== imu soak --samples $samples $*"
mkdir -p .build
"$imu" soak --samples "$samples" "$@" | tee .build/soak.log
exit "${PIPESTATUS[0]}"
