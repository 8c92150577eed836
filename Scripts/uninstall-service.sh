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

# systemd only when it runs (off systemd, e.g. in a container, `systemctl disable` still removes
# the enablement link; daemon-reload would fail and is skipped).
booted=0
[ -d /run/systemd/system ] && booted=1
if [ "$use_systemctl" = 1 ] && command -v systemctl >/dev/null; then
    if [ "$booted" = 1 ]; then systemctl disable --now imu.service 2>/dev/null || true
    else systemctl disable imu.service 2>/dev/null || true; fi
fi
# The user and groups first, while the list that names them is still there: nothing below can
# leave them behind.
if [ "$use_systemctl" = 1 ]; then
    if printf '%s\n' "$created" | grep -qx "user imu"; then userdel imu 2>/dev/null || true; fi
    getent group imu >/dev/null && ! getent passwd imu >/dev/null && groupdel imu 2>/dev/null || true
    for group in i2c gpio; do
        if printf '%s\n' "$created" | grep -qx "group $group"; then groupdel "$group" 2>/dev/null || true; fi
    done
fi
rm -f "$destdir/etc/systemd/system/imu.service" "$destdir/usr/local/bin/imu" "$destdir/etc/dbus-1/system.d/imu-sensor-proxy.conf" \
    "$destdir/usr/local/lib/systemd/system-generators/imu-network-generator" "$destdir/etc/udev/rules.d/60-imu.rules"
# Folders only if the installer made them (empty now).
rmdir "$destdir/etc/dbus-1/system.d" "$destdir/etc/dbus-1" 2>/dev/null || true
for folder in usr/local/lib/systemd/system-generators usr/local/lib/systemd usr/local/lib etc/udev/rules.d etc/udev; do
    if printf '%s\n' "$created" | grep -qx "folder /$folder"; then rmdir "$destdir/$folder" 2>/dev/null || true; fi
done
rm -rf "$share"
if [ "$keep_data" = 0 ]; then
    rm -rf "$destdir/etc/imu" "$destdir/var/lib/imu"
fi
if [ "$use_systemctl" = 1 ] && [ "$booted" = 1 ]; then
    systemctl daemon-reload || echo "uninstall-service: systemctl daemon-reload failed; the files are gone, run it again later" >&2
    systemctl reset-failed imu.service 2>/dev/null || true
fi
echo "uninstall-service: removed imu.service$([ "$keep_data" = 0 ] && echo ", its rules and calibration" || echo "; kept /etc/imu and /var/lib/imu")"
