#!/usr/bin/env bash
# Removes everything Scripts/install-service.sh installed and leaves no trace: the service (stopped,
# disabled), the binary, /usr/local/share/imu, /etc/imu, /var/lib/imu (calibration), and the user
# and groups the installer created (listed in /usr/local/share/imu/installed). Run as root.
#   --keep-data      keep /etc/imu (your rules) and /var/lib/imu (calibration)
#   --no-systemctl   files only, as the installer's (DESTDIR=/tmp/x)
set -euo pipefail
destdir="${DESTDIR:-}"
use_systemctl=1
keep_data=0
for argument in "$@"; do
    case "$argument" in
        --no-systemctl) use_systemctl=0 ;;
        --keep-data) keep_data=1 ;;
        --purge) ;;  # the default now; kept so older instructions still work
        *) echo "uninstall-service: unknown argument $argument (expected --keep-data or --no-systemctl)" >&2; exit 2 ;;
    esac
done
if [ "$use_systemctl" = 1 ] && [ "$(id -u)" -ne 0 ]; then
    echo "uninstall-service: run as root: sudo bash Scripts/uninstall-service.sh" >&2
    exit 1
fi
share="$destdir/usr/local/share/imu"
created=""
[ -f "$share/installed" ] && created=$(grep -v '^#' "$share/installed" || true)

if [ "$use_systemctl" = 1 ]; then
    systemctl disable --now imu.service 2>/dev/null || true
fi
rm -f "$destdir/etc/systemd/system/imu.service" "$destdir/usr/local/bin/imu" "$destdir/etc/dbus-1/system.d/imu-sensor-proxy.conf"
# The D-Bus policy's directories only if the installer made them (empty now).
rmdir "$destdir/etc/dbus-1/system.d" "$destdir/etc/dbus-1" 2>/dev/null || true
rm -rf "$share"
if [ "$keep_data" = 0 ]; then
    rm -rf "$destdir/etc/imu" "$destdir/var/lib/imu"
fi
if [ "$use_systemctl" = 1 ]; then
    systemctl daemon-reload
    systemctl reset-failed imu.service 2>/dev/null || true
    if printf '%s\n' "$created" | grep -qx "user imu"; then userdel imu 2>/dev/null || true; fi
    getent group imu >/dev/null && ! getent passwd imu >/dev/null && groupdel imu 2>/dev/null || true
    for group in i2c gpio; do
        if printf '%s\n' "$created" | grep -qx "group $group"; then groupdel "$group" 2>/dev/null || true; fi
    done
fi
echo "uninstall-service: removed imu.service$([ "$keep_data" = 0 ] && echo ", its rules and calibration" || echo "; kept /etc/imu and /var/lib/imu")"
