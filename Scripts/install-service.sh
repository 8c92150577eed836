#!/usr/bin/env bash
# Installs `imu` as a systemd service: the binary, the board profiles, an example rules file (kept
# if one is there), a system user `imu` in the i2c and gpio groups, and the unit. Run as root.
#   bash Scripts/install-service.sh               build, install, enable and start
#   DESTDIR=/tmp/x bash Scripts/install-service.sh --no-systemctl   lay the files out only (tests)
set -euo pipefail
cd "$(dirname "$0")/.."
destdir="${DESTDIR:-}"
use_systemctl=1
[ "${1:-}" = "--no-systemctl" ] && use_systemctl=0

if [ -z "${IMU_BINARY:-}" ]; then
    swift build -c release --product imu
    IMU_BINARY=.build/release/imu
fi

install -d "$destdir/usr/local/bin" "$destdir/usr/local/share/imu/boards" "$destdir/etc/imu" "$destdir/etc/systemd/system"
install -m 0755 "$IMU_BINARY" "$destdir/usr/local/bin/imu"
install -m 0644 Boards/*.toml "$destdir/usr/local/share/imu/boards/"
install -m 0644 README.md "$destdir/usr/local/share/imu/README.md"
install -m 0644 Scripts/imu.service "$destdir/etc/systemd/system/imu.service"
if [ ! -e "$destdir/etc/imu/rules.toml" ]; then
    install -m 0644 Scripts/rules.example.toml "$destdir/etc/imu/rules.toml"
    echo "install-service: wrote an example $destdir/etc/imu/rules.toml: edit it for your wiring"
fi

if [ "$use_systemctl" = 1 ]; then
    # A system user without a login, in the groups that own /dev/i2c-N and /dev/gpiochipN.
    for group in i2c gpio; do getent group "$group" >/dev/null || groupadd --system "$group"; done
    id imu >/dev/null 2>&1 || useradd --system --no-create-home --shell /usr/sbin/nologin --groups i2c,gpio imu
    chown -R imu:imu /etc/imu
    systemctl daemon-reload
    systemctl enable --now imu.service
    echo "install-service: imu.service is running; logs: journalctl -u imu -f"
fi
