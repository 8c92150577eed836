#!/usr/bin/env bash
# Installs the Debian package on this machine with apt, checks what it gave, purges it, and
# checks that nothing it made is left: no file, no user, no group, no enablement link.
#   sudo bash Scripts/check-deb-install.sh .build-deb/imu_0.3.0_amd64.deb
# The packages apt pulled in for it are purged again afterwards (only those). Refuses to run
# when imu is already installed (it would remove your installation). Prints
# `deb install check: PASS (N checks)` last; exits 1 on any failure.
set -uo pipefail
deb=${1:?usage: check-deb-install.sh PATH/TO/imu_VERSION_ARCH.deb}
[ "$(id -u)" -eq 0 ] || { echo "check-deb-install: run as root (apt install)" >&2; exit 1; }
[ -f "$deb" ] || { echo "check-deb-install: no file $deb" >&2; exit 1; }
deb=$(cd "$(dirname "$deb")" && pwd)/$(basename "$deb")
if dpkg-query -W -f='${Status}' imu 2>/dev/null | grep -q installed; then
    echo "check-deb-install: imu is installed here already; not touching it (sudo apt purge imu first)" >&2
    exit 1
fi
export DEBIAN_FRONTEND=noninteractive
passed=0
failed=0
check() { # check NAME COMMAND...: passes when the command succeeds
    local name=$1
    shift
    if "$@" >/tmp/check-deb.out 2>&1; then
        echo "PASS $name"; passed=$((passed + 1))
    else
        echo "FAIL $name: $(tr '\n' ' ' </tmp/check-deb.out | cut -c1-400)"; failed=$((failed + 1))
    fi
}
# The file system as the package could touch it (apt's and dpkg's own bookkeeping and logs aside).
snapshot() {
    find /etc /usr /lib /var/lib /opt -xdev \
        \( -path /var/lib/apt -o -path /var/lib/dpkg -o -path /var/lib/systemd/deb-systemd-helper-enabled \
           -o -path /var/lib/systemd/deb-systemd-helper-masked -o -path /etc/ld.so.cache -o -path /var/lib/ucf \
           -o -path /var/lib/man-db -o -path /var/cache \) -prune -o -print 2>/dev/null | sort
}
installed_packages() { dpkg-query -W -f='${db:Status-Abbrev} ${Package}\n' | awk '$1 ~ /^ii/ { print $2 }' | sort; }

before_files=$(mktemp)
snapshot >"$before_files"
before_users=$(getent passwd | cut -d: -f1 | sort)
before_groups=$(getent group | cut -d: -f1 | sort)
before_packages=$(installed_packages)

check "apt install ./$(basename "$deb")" apt-get install -y "$deb"
pulled=$(comm -13 <(printf '%s\n' "$before_packages") <(installed_packages) | grep -vx imu || true)
echo "  apt pulled in: ${pulled:-nothing (all dependencies were installed already)}"
for library in libi2c0 libgpiod2 libmosquitto1 libsystemd0; do
    check "Depends names $library" sh -c "dpkg-query -W -f='\${Depends}' imu | grep -q '$library'"
done
check "imu --version runs from /usr/bin" /usr/bin/imu --version
check "the binary loads no toolchain library" sh -c '! ldd /usr/bin/imu | grep -Eq "libswift|not found"'
check "/usr/bin/python3 imports imu from dist-packages" \
    /usr/bin/python3 -c 'import imu, sys; sys.exit(0 if imu.__file__.startswith("/usr/lib/python3/dist-packages/imu/") else 1)'
check "man page" sh -c 'zcat /usr/share/man/man1/imu.1.gz | grep -q "^\.SH SYNOPSIS"'
check "bash completion" test -s /usr/share/bash-completion/completions/imu
check "user imu in i2c and gpio" sh -c 'id -nG imu | tr " " "\n" | grep -qx i2c && id -nG imu | tr " " "\n" | grep -qx gpio'
check "rules conffile" sh -c 'dpkg-query -W -f="\${Conffiles}" imu | grep -q /etc/imu/rules.toml'
check "the unit enabled" test -L /etc/systemd/system/multi-user.target.wants/imu.service
check "/var/lib/imu owned by imu" sh -c '[ "$(stat -c %U /var/lib/imu)" = imu ]'
# State the service and the user would leave: calibration and a token in /var/lib/imu.
echo 'x = 1' >/var/lib/imu/gyro.toml

check "apt purge imu" apt-get purge -y imu
if [ -n "$pulled" ]; then
    # shellcheck disable=SC2086
    apt-get purge -y $pulled >/dev/null 2>&1 || echo "  (could not purge what apt pulled in: $pulled)"
fi
after_files=$(mktemp)
snapshot >"$after_files"
left=$(comm -13 "$before_files" "$after_files")
gone=$(comm -23 "$before_files" "$after_files")
check "no file left behind" test -z "$left"
[ -z "$left" ] || printf '  left: %s\n' $left | head -n 20
check "no file of the system removed" test -z "$gone"
[ -z "$gone" ] || printf '  gone: %s\n' $gone | head -n 20
check "no user left behind" test "$(getent passwd | cut -d: -f1 | sort)" = "$before_users"
check "no group left behind" test "$(getent group | cut -d: -f1 | sort)" = "$before_groups"
check "dpkg forgot imu" sh -c '! dpkg-query -W imu 2>/dev/null | grep -q .'
rm -f "$before_files" "$after_files" /tmp/check-deb.out

if [ "$failed" -ne 0 ]; then
    echo "deb install check: FAIL ($failed of $((passed + failed)) checks)"
    exit 1
fi
echo "deb install check: PASS ($passed checks)"
