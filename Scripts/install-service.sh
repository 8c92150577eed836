#!/usr/bin/env bash
# Installs `imu` as a systemd service. Build as yourself, install as root:
#   swift build -c release --static-swift-stdlib --product imu   # a binary without the toolchain
#   sudo bash Scripts/install-service.sh                           # works with sudo's secure PATH
# What it lays out: /usr/local/bin/imu, /usr/local/share/imu (board profiles, README, the example
# rules), /etc/imu/rules.toml (kept if there; the one installed touches no pin), /var/lib/imu (the
# calibration shared by `imu calibrate` and the service), the user `imu` (groups i2c, gpio) and
# /etc/systemd/system/imu.service, enabled but NOT started: start it once the rules are yours.
# Options:
#   --binary PATH    install this binary (default .build/release/imu; IMU_BINARY=PATH also works)
#   --calibration-from DIR   carry calibration over from DIR (default: the sudo user's ~/.config/imu)
#   --no-systemctl   lay the files out only: no user, no chown, no systemctl (CI, with DESTDIR=/tmp/x)
# Everything it creates is listed in /usr/local/share/imu/installed; Scripts/uninstall-service.sh
# removes exactly that. On a system not booted with systemd (a container, a chroot) it does all of
# the above, enables the unit for the next systemd boot (systemctl enable works offline), says so
# and exits 0. The Debian package (Scripts/package-deb.sh) is the other way in, into /usr.
set -euo pipefail
cd "$(dirname "$0")/.."
destdir="${DESTDIR:-}"
use_systemctl=1
binary="${IMU_BINARY:-}"
calibration_from=""
while [ $# -gt 0 ]; do
    case "$1" in
        --no-systemctl) use_systemctl=0 ;;
        --binary) [ $# -ge 2 ] || { echo "install-service: --binary needs a path" >&2; exit 2; }; binary="$2"; shift ;;
        --binary=*) binary="${1#--binary=}" ;;
        --calibration-from) [ $# -ge 2 ] || { echo "install-service: --calibration-from needs a folder" >&2; exit 2; }; calibration_from="$2"; shift ;;
        -h|--help) sed -n '2,19p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
        *) echo "install-service: unknown argument $1 (expected --binary PATH or --no-systemctl)" >&2; exit 2 ;;
    esac
    shift
done

if [ "$use_systemctl" = 1 ] && [ "$(id -u)" -ne 0 ]; then
    echo "install-service: run as root: sudo bash Scripts/install-service.sh (or --no-systemctl with DESTDIR)" >&2
    exit 1
fi

build_hint="swift build -c release --static-swift-stdlib --product imu"
if [ -z "$binary" ]; then
    binary=.build/release/imu
    if [ ! -x "$binary" ]; then
        # Not built here as root: root-owned build files would break your next build.
        echo "install-service: no $binary; build it first as yourself (not with sudo):" >&2
        echo "  $build_hint" >&2
        exit 1
    fi
fi
[ -f "$binary" ] && [ -x "$binary" ] || { echo "install-service: $binary is not an executable file" >&2; exit 1; }

# The service must not depend on the toolchain: every library the binary loads has to come from
# the system (/lib, /usr/lib), none missing, and no Swift runtime library (libswift*, Foundation,
# libdispatch) at all, wherever it lies: the toolchain's copy goes when the toolchain does.
libraries=$(ldd "$binary" 2>&1 || true)
foreign=$(printf '%s\n' "$libraries" | awk '
    /not found/ { print "  " $1 " (not found)"; next }
    /=>/ {
        name = $1; path = $3
        if (path !~ /^\/(usr\/)?lib(32|64|x32)?\// || path ~ /\/swift\// || name ~ /^lib(swift|Foundation|_Foundation|dispatch|BlocksRuntime)/) print "  " name " => " path
    }')
if [ -n "$foreign" ]; then
    echo "install-service: $binary needs libraries outside the system's folders:" >&2
    printf '%s\n' "$foreign" >&2
    echo "  it would break when the Swift toolchain moves or goes; rebuild it with the runtime inside:" >&2
    echo "  $build_hint" >&2
    exit 1
fi

share="$destdir/usr/local/share/imu"
manifest=()  # what this run created, for the uninstaller
created() { manifest+=("$1"); }

install -d "$destdir/usr/local/bin" "$share/boards" "$destdir/etc/systemd/system"
install -m 0755 "$binary" "$destdir/usr/local/bin/imu"
install -m 0644 Boards/*.toml "$share/boards/"
install -m 0644 README.md "$share/README.md"
install -m 0644 Scripts/rules.example.toml "$share/rules.example.toml"
install -m 0644 Scripts/imu.service "$destdir/etc/systemd/system/imu.service"
# The network [mqtt]/[http] need, opened by a systemd generator that reads the rules file.
generators="$destdir/usr/local/lib/systemd/system-generators"
for folder in usr/local/lib usr/local/lib/systemd usr/local/lib/systemd/system-generators; do
    if [ ! -d "$destdir/$folder" ]; then install -d -m 0755 "$destdir/$folder"; created "folder /$folder"; fi
done
install -m 0755 Scripts/imu-network-generator "$generators/imu-network-generator"
# /dev/i2c-N to the group i2c and /dev/gpiochipN to gpio (Debian leaves both to root; Pi OS's own
# rules do the same as this one).
for folder in etc/udev etc/udev/rules.d; do
    if [ ! -d "$destdir/$folder" ]; then install -d -m 0755 "$destdir/$folder"; created "folder /$folder"; fi
done
install -m 0644 Scripts/debian/60-imu.rules "$destdir/etc/udev/rules.d/60-imu.rules"
# Who may own net.hadess.SensorProxy (the service) and use it (everyone; the compass: GeoClue).
install -d -m 0755 "$destdir/etc/dbus-1/system.d"
install -m 0644 Scripts/net.hadess.SensorProxy.conf "$destdir/etc/dbus-1/system.d/imu-sensor-proxy.conf"

# Configuration: root's, read-only to the service (it cannot rewrite its own rules).
install -d -m 0755 "$destdir/etc/imu"
if [ ! -e "$destdir/etc/imu/rules.toml" ]; then
    install -m 0644 Scripts/rules.installed.toml "$destdir/etc/imu/rules.toml"
    echo "install-service: wrote $destdir/etc/imu/rules.toml: it logs orientation changes and touches no pin; edit it for your wiring"
else
    echo "install-service: kept your $destdir/etc/imu/rules.toml"
fi

# State: the calibration, shared by `imu calibrate` (as root: sudo imu calibrate …) and the service.
state="$destdir/var/lib/imu"
install -d -m 0755 "$state"
# Calibration made before the install (the README's order: calibrate, watch, then install) is
# carried over from the invoking user's ~/.config/imu (or --calibration-from DIR).
if [ -z "$calibration_from" ] && [ -n "${SUDO_USER:-}" ] && [ "$SUDO_USER" != root ]; then
    home=$(getent passwd "$SUDO_USER" | cut -d: -f6 || true)
    [ -n "$home" ] && calibration_from="$home/.config/imu"
fi
if [ -n "$calibration_from" ] && [ -d "$calibration_from" ]; then
    for file in "$calibration_from"/*.toml; do
        [ -f "$file" ] || continue
        name=$(basename "$file")
        if [ -e "$state/$name" ]; then
            echo "install-service: kept $state/$name (not replaced by $file)"
        else
            install -m 0644 "$file" "$state/$name"
            echo "install-service: calibration $name carried over from $calibration_from to $state"
        fi
    done
fi

if [ "$use_systemctl" = 1 ]; then
    # A system user without a login, in the groups that own /dev/i2c-N and /dev/gpiochipN.
    for group in i2c gpio; do
        if ! getent group "$group" >/dev/null; then groupadd --system "$group"; created "group $group"; fi
    done
    if ! id imu >/dev/null 2>&1; then
        useradd --system --no-create-home --home-dir /nonexistent --shell /usr/sbin/nologin --user-group --groups i2c,gpio imu
        created "user imu"
    fi
    chown -R root:root "$destdir/etc/imu"
    chown -R imu:imu "$state"
    if [ -d /run/udev ] && command -v udevadm >/dev/null; then
        udevadm trigger --action=change --subsystem-match=i2c-dev --subsystem-match=gpio >/dev/null 2>&1 || true
    fi
    # dbus-daemon read the policy when it appeared, before the user imu existed: read it again, or
    # the service cannot own net.hadess.SensorProxy.
    if [ -S /run/dbus/system_bus_socket ] && command -v dbus-send >/dev/null; then
        dbus-send --system --type=method_call --dest=org.freedesktop.DBus /org/freedesktop/DBus \
            org.freedesktop.DBus.ReloadConfig >/dev/null 2>&1 || true
    fi
fi
# Merged with an earlier install's list, so a reinstall does not forget the user it created then.
{
    echo "# created by Scripts/install-service.sh; read by Scripts/uninstall-service.sh"
    { [ -f "$share/installed" ] && grep -v '^#' "$share/installed" || true; printf '%s\n' "${manifest[@]}"; } | { grep -v '^$' || true; } | sort -u
} > "$share/installed.new"
mv "$share/installed.new" "$share/installed"

if [ "$use_systemctl" = 1 ] && [ ! -d /run/systemd/system ]; then
    # Not booted with systemd: daemon-reload and start cannot work, enable can (it only links).
    enabled="installed"
    if command -v systemctl >/dev/null && systemctl enable imu.service >/dev/null 2>&1; then enabled="installed and enabled"; fi
    cat <<TEXT
install-service: this system was not booted with systemd (PID 1 is $(cat /proc/1/comm 2>/dev/null || echo unknown)):
  files, rules, /var/lib/imu and the user imu are in place; imu.service is $enabled
  for the next boot under systemd, and nothing was started. Without systemd, run it yourself:
  sudo -u imu IMU_CALIBRATION_DIR=/var/lib/imu /usr/local/bin/imu run --config /etc/imu/rules.toml
  (sudo bash Scripts/uninstall-service.sh removes all of it again)
TEXT
elif [ "$use_systemctl" = 1 ]; then
    systemctl daemon-reload
    systemctl enable imu.service
    cat <<TEXT
install-service: imu.service is installed and enabled, not started. Next:
  sudoedit /etc/imu/rules.toml      # your rules (examples: /usr/local/share/imu/rules.example.toml)
  sudo imu calibrate gyro           # calibration now lives in /var/lib/imu, shared with the service
  sudo systemctl start imu          # then: journalctl -u imu -f
TEXT
else
    echo "install-service: files laid out under ${destdir:-/} (no user, no systemctl)"
fi
