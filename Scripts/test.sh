#!/usr/bin/env bash
# Sets up a fresh Debian 12 machine (with Swift installed) and runs every test the project has:
# the Swift tests, the kernel test under QEMU, the libgpiod 2.x build check. Exits non-zero
# when any of them fails.
set -euo pipefail
cd "$(dirname "$0")/.."

bash Scripts/setup.sh

echo "== swift build"
swift build --build-tests

echo "== swift test"
swift test --skip-build 2>&1 | tee .build/swift-test.log
# swift test's own exit code is what counts; tee must not hide it.
test "${PIPESTATUS[0]}" -eq 0

echo "== kernel test (Debian's kernel under QEMU, imu on i2c-stub)"
bash Scripts/qemu-kernel-test.sh

echo "== libgpiod 2.x build check"
bash Scripts/check-libgpiod-v2.sh
