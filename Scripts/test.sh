#!/usr/bin/env bash
# Sets up a fresh Debian 12 machine (with Swift installed) and runs every test the project has:
# the Swift tests, the kernel test under QEMU, the libgpiod 2.x build check, the embedded build of
# the fusion core, the fusion core as firmware on an emulated Cortex-M0 (bit-exact against
# Linux, its cost beside x-io Fusion's), a minute of fuzzing (Scripts/fuzz.sh). Exits non-zero when
# any of them fails, and ends with one summary line counting what passed.
set -euo pipefail
cd "$(dirname "$0")/.."

# Each step's header says when it started (seconds since the start), so a run shows where the time goes.
step() { printf '== %s [%d s]\n' "$1" "$SECONDS"; }

bash Scripts/setup.sh --tests

# The VM service test's image (debootstrap, minutes of downloading) is made while the builds run,
# only when its cache lacks it; the test itself, near the end, waits for it.
mkdir -p .build
bash Scripts/vm-service-test.sh --prepare >.build/vm-image.log 2>&1 &
vm_image=$!

step "swift build"
swift build --build-tests

step "architecture (imports against Package.swift and Docs/architecture.md's modules and layers)"
python3 Scripts/check-architecture.py --self-test; python3 Scripts/check-architecture.py

step "release build (the binary the service installs: Swift runtime linked in, no toolchain path)"
swift build -c release --static-swift-stdlib --product imu

step "swift test"
mkdir -p .build
set +e
swift test --skip-build 2>&1 | tee .build/swift-test.log
status=${PIPESTATUS[0]}
set -e
[ "$status" -eq 0 ] || { echo "swift test failed (exit $status)"; exit "$status"; }
swift_tests=$(sed -n 's/.*Test run with \([0-9]*\) tests\{0,1\} .* passed.*/\1/p' .build/swift-test.log | tail -n 1)
[ -n "$swift_tests" ] || { echo "swift test ran no Swift Testing tests"; exit 1; }

step "documentation (every shell block of README.md and Docs/ run on the twin)"; python3 Scripts/check-docs.py --self-test; python3 Scripts/check-docs.py --imu .build/debug/imu

step "dashboard in a real browser (headless Chromium over the DevTools protocol: attitude, frames, events, screenshots, calibration, ten pages)"
/usr/bin/python3 Scripts/check-dashboard.py --imu .build/debug/imu --ten --out .build/dashboard-check 2>&1 | tee .build/dashboard-check.log

step "Python client (python/: python3 -m unittest against imu run on the twin)"
set +e
IMU=.build/debug/imu python3 -m unittest discover -s python/tests 2>&1 | tee .build/python-test.log
status=${PIPESTATUS[0]}
set -e
[ "$status" -eq 0 ] || { echo "the Python client's tests failed (exit $status)"; exit "$status"; }
python_tests=$(sed -n 's/^Ran \([0-9]*\) tests\{0,1\} .*/\1/p' .build/python-test.log | tail -n 1)

step "kernel test (Debian's kernel under QEMU, imu on i2c-stub)"
bash Scripts/qemu-kernel-test.sh 2>&1 | tee .build/kernel-test.log
kernel_checks=$(sed -n 's/^qemu kernel test: PASS (\([0-9]*\) checks.*/\1/p' .build/kernel-test.log)
[ -n "$kernel_checks" ] || { echo "the kernel test reported no result"; exit 1; }

step "the service's network (Scripts/imu-network-generator: the drop-in [mqtt]/[http] get, exposure ≤ 2.0)"
bash Scripts/check-network-generator.sh 2>&1 | tee .build/network-generator.log
step "Debian package (Scripts/package-deb.sh, the release build above; lintian: no errors)"
deb=$(bash Scripts/package-deb.sh --binary .build/release/imu | tail -n 1)
lintian --fail-on error --tag-display-limit 0 "$deb"
step "the service under a real systemd (Scripts/vm-service-test.sh: Debian 12 under QEMU, the package installed, its first day checked)"
wait "$vm_image" || { cat .build/vm-image.log; echo "the VM service test's image could not be made"; exit 1; }
bash Scripts/vm-service-test.sh --deb "$deb" 2>&1 | tee .build/vm-service-test.log
vm_checks=$(sed -n 's/^vm service test: PASS (\([0-9]*\) checks.*/\1/p' .build/vm-service-test.log)
[ -n "$vm_checks" ] || { echo "the VM service test reported no PASS"; exit 1; }
step "libgpiod 2.x build check"
bash Scripts/check-libgpiod-v2.sh
step "embedded check (the fusion core for a Cortex-M0+, no soft float)"
bash Scripts/check-embedded.sh .build/embedded
step "firmware check (the fusion core and the chip drivers on QEMU's microbit, bit-exact against Linux)"
bash Scripts/check-firmware.sh .build/firmware

step "fuzzing (libFuzzer: the TOML reader and loaders, the log reader, the register decoders, the socket's requests; kept inputs, then fixed-seed runs)"
bash Scripts/fuzz.sh

step "done"
echo "summary: $((swift_tests + python_tests + kernel_checks + vm_checks + 9)) passed, 0 failed"
