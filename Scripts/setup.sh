#!/usr/bin/env bash
# Installs the Debian packages the project builds and runs with (`--tests`: also what the tests
# need). Idempotent: packages already installed are skipped, and the package lists are refreshed
# only when something is missing. Works as root; otherwise uses sudo.
set -euo pipefail

packages=(
    libi2c-dev     # <i2c/smbus.h> and libi2c, for the CI2C system library
    libgpiod-dev   # <gpiod.h> and libgpiod (1.6 on Debian 12), for CGPIOD / CGPIOBridge
    i2c-tools      # i2cdetect / i2cget, to compare with `imu probe` on a real board
    pkg-config     # SwiftPM finds libgpiod through it
    libmosquitto-dev  # <mosquitto.h> and libmosquitto, for the daemon's MQTT front end (CMosquitto)
    libsystemd-dev    # <systemd/sd-bus.h> and libsystemd, for iio-sensor-proxy's D-Bus interface (CSensorProxyBus)
)
if [ "${1:-}" = "--tests" ]; then
    packages+=(
        python3-pip      # Scripts/check-libgpiod-v2.sh downloads libgpiod 2.x's sources from PyPI
        qemu-system-x86  # Scripts/qemu-kernel-test.sh boots Debian's kernel under QEMU
        busybox-static   # … with a static busybox (shell, insmod, i2cset/i2cget/i2cdetect) as its userland
        util-linux       # `script`: the pseudo-terminal of the calibration display test
        mosquitto mosquitto-clients  # a real broker and subscriber for the MQTT tests
        openssl          # the MQTT TLS test makes its own CA and broker certificate
        golang-github-burntsushi-toml-dev  # ships toml-test, TOML's conformance suite, for the TOML reader's tests
        qemu-system-arm            # Scripts/check-firmware.sh runs the firmware on QEMU's microbit (Cortex-M0)
        gcc-arm-none-eabi          # … links it (and builds x-io Fusion's C for the comparison)
        libnewlib-arm-none-eabi    # … with newlib's soft-float libm
        tmux             # a real terminal for the live views' tests (80×24, 120×40, resized)
        systemd          # systemd-analyze: the service unit's exposure rating
        chromium         # a real browser, headless, for the dashboard's checks (Scripts/check-dashboard.py)
        python3-websocket  # … which drives it over the DevTools protocol (and reads the daemon's WebSocket)
        fonts-dejavu-core  # … with a font, so the screenshots are readable
        dbus             # dbus-daemon (a private bus for the D-Bus test) and dbus-send
        iio-sensor-proxy # monitor-sensor: a real desktop client of net.hadess.SensorProxy (its service is not started)
        socat            # Docs/protocol.md's examples and the socket's hostile-client checks
        jq netcat-openbsd curl  # … the other tools the documentation's examples use (Scripts/check-docs.py runs them)
        python3          # the Python client (python/) and its tests against a twin daemon
        lintian          # Scripts/package-deb.sh's package checked against Debian's policy
        debootstrap qemu-utils  # Scripts/vm-service-test.sh: the VM's root file system and its overlay
    )
fi

if [ "$(id -u)" -eq 0 ]; then
    as_root=()
elif command -v sudo >/dev/null; then
    as_root=(sudo)
else
    echo "setup: run as root or install sudo" >&2
    exit 1
fi

missing=()
for package in "${packages[@]}"; do
    if ! dpkg-query -W -f='${Status}' "$package" 2>/dev/null | grep -q "install ok installed"; then
        missing+=("$package")
    fi
done

if [ ${#missing[@]} -eq 0 ]; then
    echo "setup: all packages present (${packages[*]})"
    exit 0
fi

echo "setup: installing ${missing[*]}"
export DEBIAN_FRONTEND=noninteractive
# A fresh machine may have empty package lists; refresh them only if apt cannot see a package.
for package in "${missing[@]}"; do
    if ! apt-cache show "$package" >/dev/null 2>&1; then
        "${as_root[@]}" apt-get update
        break
    fi
done
"${as_root[@]}" apt-get install -y --no-install-recommends "${missing[@]}"
echo "setup: done"
