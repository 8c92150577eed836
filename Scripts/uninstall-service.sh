#!/usr/bin/env bash
# Removes what Scripts/install-service.sh installed. /etc/imu (rules and calibration) is kept
# unless --purge is given. Run as root; DESTDIR and --no-systemctl as for the installer.
set -euo pipefail
destdir="${DESTDIR:-}"
use_systemctl=1
purge=0
for argument in "$@"; do
    case "$argument" in
        --no-systemctl) use_systemctl=0 ;;
        --purge) purge=1 ;;
        *) echo "uninstall-service: unknown argument $argument" >&2; exit 2 ;;
    esac
done
if [ "$use_systemctl" = 1 ]; then
    systemctl disable --now imu.service 2>/dev/null || true
fi
rm -f "$destdir/etc/systemd/system/imu.service" "$destdir/usr/local/bin/imu"
rm -rf "$destdir/usr/local/share/imu"
[ "$purge" = 1 ] && rm -rf "$destdir/etc/imu"
if [ "$use_systemctl" = 1 ]; then
    systemctl daemon-reload
    id imu >/dev/null 2>&1 && userdel imu || true
fi
echo "uninstall-service: removed imu.service$([ "$purge" = 1 ] && echo ", its rules and calibration")"
