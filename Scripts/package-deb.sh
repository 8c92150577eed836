#!/usr/bin/env bash
# Builds the Debian package imu_VERSION_ARCH.deb with dpkg-deb and prints its path last.
#   bash Scripts/package-deb.sh                  # builds the release binary, then the package
#   bash Scripts/package-deb.sh --binary PATH    # packages this binary (built with --static-swift-stdlib)
#   bash Scripts/package-deb.sh --output DIR     # where the .deb goes (default .build-deb/)
# Install it with `sudo apt install ./imu_*.deb` (apt pulls the runtime libraries), remove it with
# `sudo apt remove imu` (keeps rules and calibration) or `sudo apt purge imu` (nothing left).
#
# What it holds (Debian's paths):
#   /usr/bin/imu                                   the release build, Swift runtime linked in, stripped
#   /lib/systemd/system/imu.service                Scripts/imu.service with the package's paths
#   /lib/systemd/system-generators/imu-network-generator   the network [mqtt]/[http] need (Scripts/)
#   /usr/share/dbus-1/system.d/imu-sensor-proxy.conf       who may own net.hadess.SensorProxy
#   /lib/udev/rules.d/60-imu.rules                 /dev/i2c-N to the group i2c, /dev/gpiochipN to gpio
#   /etc/imu/rules.toml                            a conffile: Scripts/rules.installed.toml (touches no pin)
#   /usr/share/imu/boards/*.toml                   Boards/
#   /usr/share/doc/imu/                            README.md, Docs/service.md, examples/rules.example.toml
#   /usr/share/man/man1/imu.1.gz                   from `imu --experimental-dump-help` (Scripts/man-page.py)
#   bash, zsh and fish completions                 from `imu --generate-completion-script SHELL`
#   /usr/lib/python3/dist-packages/imu/            the Python client (python/imu), for /usr/bin/python3
# Depends: what dpkg-shlibdeps finds the binary linked against (libi2c0, libgpiod2, libmosquitto1,
# libsystemd0, libc6, libstdc++6, libgcc-s1 on Debian 12), and passwd for the maintainer scripts
# (Scripts/debian/), which make the user imu and the groups i2c and gpio and remove them on purge.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"
binary=""
output="$root/.build-deb"
while [ $# -gt 0 ]; do
    case "$1" in
        --binary) [ $# -ge 2 ] || { echo "package-deb: --binary needs a path" >&2; exit 2; }; binary=$2; shift ;;
        --binary=*) binary=${1#--binary=} ;;
        --output) [ $# -ge 2 ] || { echo "package-deb: --output needs a folder" >&2; exit 2; }; output=$2; shift ;;
        --output=*) output=${1#--output=} ;;
        -h | --help) sed -n '2,22p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
        *) echo "package-deb: unknown argument $1 (expected --binary PATH or --output DIR)" >&2; exit 2 ;;
    esac
    shift
done
fail() {
    echo "package-deb: $*" >&2
    exit 1
}
for tool in dpkg-deb dpkg-shlibdeps dpkg-architecture strip readelf gzip python3 md5sum; do
    command -v "$tool" >/dev/null || fail "$tool is missing (Debian: sudo apt install dpkg-dev binutils python3)"
done

if [ -z "$binary" ]; then
    echo "package-deb: swift build -c release --static-swift-stdlib --product imu" >&2
    swift build -c release --static-swift-stdlib --product imu >&2 || fail "the release build failed"
    binary="$root/.build/release/imu"
fi
[ -f "$binary" ] && [ -x "$binary" ] || fail "$binary is not an executable file"
if ldd "$binary" | grep -Eq 'libswift|libFoundation|lib_Foundation|libdispatch|not found'; then
    ldd "$binary" >&2
    fail "$binary loads the Swift runtime from the toolchain (or misses a library): build it with --static-swift-stdlib"
fi

version=$("$binary" --version | awk '{ print $NF }')  # "imu 0.3.0"
[[ "$version" =~ ^[0-9]+(\.[0-9]+)*([~+][0-9A-Za-z.~+]*)?$ ]] || fail "\`$binary --version\` printed '$version', not a Debian version"
arch=$(dpkg-architecture -qDEB_HOST_ARCH)
date_rfc=$(date -u -R -d "@${SOURCE_DATE_EPOCH:-$(git log -1 --format=%ct 2>/dev/null || date +%s)}")
date_day=$(date -u -d "$date_rfc" +%Y-%m-%d)
maintainer="imu maintainers <maintainers@users.noreply.a-seed-1d67f542.example>"

work="$output/work"
stage="$work/imu"
rm -rf "$work"
mkdir -p "$stage/DEBIAN" "$output"
dir() { install -d -m 0755 "$stage/$1"; }

# --- The program --------------------------------------------------------------------------
dir usr/bin
strip --strip-unneeded --remove-section=.comment --remove-section=.note -o "$stage/usr/bin/imu" "$binary"
chmod 0755 "$stage/usr/bin/imu"

# --- The service --------------------------------------------------------------------------
dir lib/systemd/system
sed -e 's|/usr/local/bin/imu|/usr/bin/imu|g' \
    -e 's|/usr/local/share/imu/boards|/usr/share/imu/boards|g' \
    -e 's|^Documentation=.*|Documentation=man:imu(1) file:///usr/share/doc/imu/README.md.gz|' \
    Scripts/imu.service >"$stage/lib/systemd/system/imu.service"
if grep -v '^#' "$stage/lib/systemd/system/imu.service" | grep -q '/usr/local'; then
    fail "Scripts/imu.service names a /usr/local path the package does not rewrite: $(grep -v '^#' "$stage/lib/systemd/system/imu.service" | grep /usr/local)"
fi
chmod 0644 "$stage/lib/systemd/system/imu.service"
dir lib/systemd/system-generators
install -m 0755 Scripts/imu-network-generator "$stage/lib/systemd/system-generators/imu-network-generator"
dir lib/udev/rules.d
install -m 0644 Scripts/debian/60-imu.rules "$stage/lib/udev/rules.d/60-imu.rules"
# dbus-daemon skips a policy file that is not well-formed XML (a `--` inside a comment is enough),
# and the service then cannot own its name: checked here, not found on a Pi.
python3 -c 'import sys, xml.dom.minidom; xml.dom.minidom.parse(sys.argv[1])' Scripts/net.hadess.SensorProxy.conf 2>"$work/xml.log" \
    || fail "Scripts/net.hadess.SensorProxy.conf is not well-formed XML: $(tail -n 1 "$work/xml.log")"
dir usr/share/dbus-1/system.d
install -m 0644 Scripts/net.hadess.SensorProxy.conf "$stage/usr/share/dbus-1/system.d/imu-sensor-proxy.conf"
dir etc/imu
sed -e 's|/usr/local/share/imu/rules.example.toml|/usr/share/doc/imu/examples/rules.example.toml|g' \
    -e 's|Scripts/install-service.sh installs it|the package installs it|' \
    Scripts/rules.installed.toml >"$stage/etc/imu/rules.toml"
chmod 0644 "$stage/etc/imu/rules.toml"

# --- Data and documentation ---------------------------------------------------------------
dir usr/share/imu/boards
install -m 0644 Boards/*.toml "$stage/usr/share/imu/boards/"
doc="usr/share/doc/imu"
dir "$doc/examples"
install -m 0644 Scripts/rules.example.toml "$stage/$doc/examples/rules.example.toml"
install -m 0644 README.md "$stage/$doc/README.md"
install -m 0644 Docs/service.md "$stage/$doc/service.md"
gzip -9n "$stage/$doc/README.md" "$stage/$doc/service.md"
install -m 0644 Scripts/debian/copyright "$stage/$doc/copyright"
printf 'imu (%s) unstable; urgency=medium\n\n  * Packaged by Scripts/package-deb.sh from the project'"'"'s tree.\n\n -- %s  %s\n' \
    "$version" "$maintainer" "$date_rfc" | gzip -9n >"$stage/$doc/changelog.gz"

# --- Man page and completions, from the binary itself ---------------------------------------
dir usr/share/man/man1
"$binary" --experimental-dump-help | python3 Scripts/man-page.py --date "$date_day" --version "$version" \
    | gzip -9n >"$stage/usr/share/man/man1/imu.1.gz"
dir usr/share/bash-completion/completions
# Sourced, not run: no #! line (Debian's policy for completions).
"$binary" --generate-completion-script bash | sed '1{/^#!/d}' >"$stage/usr/share/bash-completion/completions/imu"
dir usr/share/zsh/vendor-completions
"$binary" --generate-completion-script zsh >"$stage/usr/share/zsh/vendor-completions/_imu"
dir usr/share/fish/vendor_completions.d
"$binary" --generate-completion-script fish >"$stage/usr/share/fish/vendor_completions.d/imu.fish"
for completion in usr/share/bash-completion/completions/imu usr/share/zsh/vendor-completions/_imu usr/share/fish/vendor_completions.d/imu.fish; do
    [ -s "$stage/$completion" ] || fail "the binary wrote no $completion"
    chmod 0644 "$stage/$completion"
done

# --- The Python client --------------------------------------------------------------------
dir usr/lib/python3/dist-packages/imu
for file in python/imu/*.py; do
    install -m 0644 "$file" "$stage/usr/lib/python3/dist-packages/imu/"
done

# --- Control ------------------------------------------------------------------------------
# dpkg-shlibdeps wants a debian/control beside the files it reads; a scratch one in the work dir.
mkdir -p "$work/debian"
printf 'Source: imu\n\nPackage: imu\nArchitecture: any\n' >"$work/debian/control"
shlibs=$(cd "$work" && dpkg-shlibdeps -O -e"imu/usr/bin/imu" 2>"$work/shlibdeps.log") \
    || { cat "$work/shlibdeps.log" >&2; fail "dpkg-shlibdeps failed"; }
depends=${shlibs#shlibs:Depends=}
[ -n "$depends" ] || fail "dpkg-shlibdeps found no dependencies for the binary"
# Packed relative relocations (DT_RELR, Package.swift's release link) need glibc 2.36's loader:
# a version the binary requires without any symbol, which dpkg-shlibdeps (symbols only) misses.
if [[ "$(readelf -V "$stage/usr/bin/imu")" == *GLIBC_ABI_DT_RELR* ]]; then
    libc=$(sed -nE 's/.*libc6 \(>= ([^)]+)\).*/\1/p' <<<"$depends")
    if [ -z "$libc" ]; then
        depends="$depends, libc6 (>= 2.36)"
    elif dpkg --compare-versions "$libc" lt 2.36; then
        depends=${depends/"libc6 (>= $libc)"/"libc6 (>= 2.36)"}
    fi
fi
installed_size=$(du -sk --exclude=DEBIAN "$stage" | cut -f1)
cat >"$stage/DEBIAN/control" <<CONTROL
Package: imu
Version: $version
Architecture: $arch
Maintainer: $maintainer
Installed-Size: $installed_size
Depends: $depends, passwd
Recommends: python3
Suggests: mosquitto, iio-sensor-proxy
Section: misc
Priority: optional
Description: motion events from an IMU to GPIO, MQTT, D-Bus and the web
 imu reads MPU-6050, LSM9DS1 and related motion chips over I2C on Raspberry
 Pi class boards, calibrates them and fuses them into an attitude with Core
 Motion's meanings. Shakes, orientation changes and slaps fire the rules of
 /etc/imu/rules.toml (GPIO lines and commands); the service also shares the
 motion on a local socket, on the system bus as net.hadess.SensorProxy, over
 MQTT with Home Assistant discovery and on a web dashboard.
 .
 This package holds the imu command, its systemd service (enabled, started
 once the rules are written), board profiles, example rules, shell
 completions and the Python client module imu.
CONTROL
echo /etc/imu/rules.toml >"$stage/DEBIAN/conffiles"
for script in preinst postinst prerm postrm; do
    install -m 0755 "Scripts/debian/$script" "$stage/DEBIAN/$script"
done
(cd "$stage" && find . -path ./DEBIAN -prune -o -type f -printf '%P\0' | sort -z | xargs -0 md5sum) >"$stage/DEBIAN/md5sums"
chmod 0644 "$stage/DEBIAN/control" "$stage/DEBIAN/conffiles" "$stage/DEBIAN/md5sums"

deb="$output/imu_${version}_${arch}.deb"
rm -f "$deb"
# xz level 1: a third larger than the default level 6 and several times faster on a small machine.
dpkg-deb --root-owner-group -Zxz -z1 --build "$stage" "$deb" >&2
rm -rf "$work"
echo "$deb"
