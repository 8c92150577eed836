#!/bin/bash
# The VM's half of Scripts/vm-service-test.sh: runs as root in the Debian 12 VM (systemd as
# PID 1), from the host's 9p share at /mnt/imu (imu.deb, repo/, status/), started by the image's
# imu-vm-test.service with its output on the serial console. Prints `PASS name` / `FAIL name: …`
# per check and `N passed, M failed` last between the markers the host looks for, then powers
# the VM off. Refuses to run anywhere else.
if [ "$$" = 1 ] || [ ! -f /mnt/imu/imu.deb ] || [ "$(cat /etc/hostname 2>/dev/null)" != imu-vm ]; then
    echo "vm-service-inside.sh: refusing to run: this is the test script of the VM that Scripts/vm-service-test.sh boots" >&2
    exit 2
fi
set -u -o pipefail
share=/mnt/imu
export DEBIAN_FRONTEND=noninteractive
passed=0
failed=0
echo "=== imu vm test begin"
echo "kernel $(uname -r), systemd $(systemctl --version | head -n 1 | cut -d' ' -f2)"

check() { # NAME COMMAND...
    local name=$1
    shift
    if "$@" >/tmp/check.out 2>&1; then
        echo "PASS $name"; passed=$((passed + 1))
    else
        echo "FAIL $name: $(tr '\n' ' ' </tmp/check.out | cut -c1-500)"; failed=$((failed + 1))
    fi
}
finish() {
    echo "$passed passed, $failed failed"
    echo "=== imu vm test end"
    sync
    systemctl poweroff --no-block
    exit 0
}
# wait_for SECONDS COMMAND...: polls every 0.2 s until the command succeeds.
wait_for() {
    local until=$(( $(date +%s) + $1 ))
    shift
    while ! "$@" >/dev/null 2>&1; do
        [ "$(date +%s)" -lt "$until" ] || return 1
        sleep 0.2
    done
}
snapshot() {
    find /etc /usr /lib /var /opt -xdev \
        \( -path /var/lib/apt -o -path /var/lib/dpkg -o -path /var/cache -o -path /var/log -o -path /var/tmp \
           -o -path '/var/lib/systemd/deb-systemd-helper-*' -o -path /var/lib/systemd/timers -o -path /var/lib/mosquitto \
           -o -path /etc/ld.so.cache -o -path /var/lib/ucf -o -path /var/lib/systemd/random-seed -o -path /var/lib/dbus \
           -o -path /var/lib/private -o -path /var/lib/systemd/coredump -o -path /var/lib/polkit-1 \) -prune -o -print 2>/dev/null | sort
}

# debootstrap writes no /etc/hosts; every installed Debian has one (localhost for the broker's URL).
[ -f /etc/hosts ] || printf '127.0.0.1\tlocalhost\n::1\t\tlocalhost ip6-localhost ip6-loopback\n127.0.1.1\timu-vm\n' >/etc/hosts

# --- apt, with the dependencies' repository from the host -----------------------------------
echo "deb [trusted=yes] file:$share/repo ./" >/etc/apt/sources.list.d/imu-vm.list
apt-get update -qq >/tmp/apt-update.log 2>&1 || { cat /tmp/apt-update.log; }
snapshot >/tmp/before.files
getent passwd | cut -d: -f1 | sort >/tmp/before.users
getent group | cut -d: -f1 | sort >/tmp/before.groups
dpkg-query -W -f='${Package}\n' | sort >/tmp/before.packages

check "apt install ./imu.deb" apt-get install -y "$share/imu.deb"
pulled=$(dpkg-query -W -f='${Package}\n' | sort | comm -13 /tmp/before.packages - | grep -vx imu | tr '\n' ' ')
echo "  apt pulled in: $pulled"
check "apt pulled libi2c0 and libgpiod2 by the package's Depends" sh -c "echo '$pulled' | grep -qw libi2c0 && echo '$pulled' | grep -qw libgpiod2"
check "the package made the user imu (groups i2c, gpio)" sh -c 'id -nG imu | grep -qw i2c && id -nG imu | grep -qw gpio'
check "import imu in /usr/bin/python3" /usr/bin/python3 -c 'import imu'
check "imu.service enabled, not started" sh -c '[ "$(systemctl is-enabled imu)" = enabled ] && ! systemctl is-active -q imu'

# --- The hardware: i2c-stub's MPU-6050 and gpio-mockup's lines -------------------------------
bus=""
for name in /sys/class/i2c-dev/*/name; do
    grep -q "SMBus stub driver" "$name" 2>/dev/null && bus=$(basename "$(dirname "$name")") && bus=${bus#i2c-}
done
mockup=$(ls -d /sys/kernel/debug/gpio-mockup/gpiochip* 2>/dev/null | head -n 1)
check "i2c-stub bus and gpio-mockup chip present" test -n "$bus" -a -n "$mockup"
[ -n "$bus" ] && [ -n "$mockup" ] || finish
echo "  i2c-stub is /dev/i2c-$bus, gpio-mockup is $mockup"
poke() { # ADDRESS REGISTER BYTES…
    local chip=$1 register=$(($2))
    shift 2
    for value in "$@"; do
        busybox i2cset -y "$bus" "$chip" "$(printf '0x%02x' "$register")" "$value" b
        register=$((register + 1))
    done
}
# Gravity as the chip feels it (specific force, counts of its full scale), gyro still.
counts_per_g=8192
hex16() { printf '0x%02x 0x%02x' $(( ($1 >> 8) & 0xff )) $(( $1 & 0xff )); }
tilt() { # X Y Z in g (−1, 0, 1)
    # shellcheck disable=SC2046
    poke 0x68 0x3b $(hex16 $(( $1 * counts_per_g ))) $(hex16 $(( $2 * counts_per_g ))) $(hex16 $(( $3 * counts_per_g ))) \
        0x00 0x00 0x00 0x00 0x00 0x00 0x00 0x00
}
poke 0x68 0x75 0x68          # WHO_AM_I: MPU-6050
tilt 0 1 0                   # upright (portrait): the chip feels +1 g along y
line() { tr -d '[:space:]' <"$mockup/$1"; }

# The test's computer (no device tree here: IMU_COMPUTER names it).
mkdir -p /etc/imu-vm-boards
cat >/etc/imu-vm-boards/qemu-service-test.toml <<TOML
title = "QEMU imu service test"
kind = "computer"
i2c-bus = $bus
gpio-chip = "gpio-mockup-A"
[header-pins]
3 = 2
5 = 3
7 = 4
11 = 17
13 = 27
TOML
mkdir -p /etc/systemd/system/imu.service.d
printf '[Service]\nEnvironment=IMU_BOARDS_DIR=/etc/imu-vm-boards IMU_COMPUTER=qemu-service-test\n' >/etc/systemd/system/imu.service.d/90-vm-test.conf
cat >/etc/imu/rules.toml <<'TOML'
[[rule]]
name = "upright: line low"
on = "orientation"
orientation = "portrait"
  [[rule.action]]
  gpio-pin = 11
  set = "low"

[[rule]]
name = "turned right: line high"
on = "orientation"
orientation = "landscapeRight"
  [[rule.action]]
  gpio-pin = 11
  set = "high"

[[rule]]
name = "turned left: line high"
on = "orientation"
orientation = "landscapeLeft"
  [[rule.action]]
  gpio-pin = 11
  set = "high"

[mqtt]
url = "mqtt://127.0.0.1:1883"   # the image's broker listens on IPv4 only (localhost may resolve to ::1 first)

[http]
listen = "0.0.0.0:8080"
TOML
systemctl daemon-reload
check "the generator opened the network for [mqtt] and [http]" sh -c \
    'systemctl show imu -p DropInPaths | grep -q 50-imu-network.conf && [ "$(systemctl show imu -p PrivateNetwork --value)" = no ]'
check "only towards localhost and the local networks" sh -c \
    'allow=$(systemctl show imu -p IPAddressAllow --value); echo "$allow"; echo "$allow" | grep -q 127.0.0.0/8 && echo "$allow" | grep -q 10.0.0.0/8 && ! echo "$allow" | grep -q "0.0.0.0/0"'
exposure=$(systemd-analyze security imu.service 2>/dev/null | sed -n 's/.*Overall exposure level for imu.service: \([0-9.]*\).*/\1/p')
echo "  systemd-analyze security imu.service: $exposure"
check "systemd-analyze security imu.service ≤ 2.0 with MQTT and the dashboard ($exposure)" \
    awk -v e="$exposure" 'BEGIN { exit !(e != "" && e + 0 <= 2.0) }'

# --- The service under its hardening --------------------------------------------------------
started=$(date '+%Y-%m-%d %H:%M:%S')
# The package's udev rule gives /dev/i2c-* and /dev/gpiochip* to their groups; its postinst waits
# for udev, but under software emulation udev can still be working when the postinst's wait ends
# (one run saw EACCES on the buses at start). The test waits for the outcome itself, the groups on
# the nodes, before it starts the service.
check "udev gave /dev/i2c-$bus to group i2c and the GPIO chips to group gpio" wait_for 180 sh -c \
    '[ "$(stat -c %G /dev/i2c-'"$bus"')" = i2c ] && for c in /dev/gpiochip*; do [ "$(stat -c %G "$c")" = gpio ] || exit 1; done'
ls -l /dev/i2c-* /dev/gpiochip* | sed 's/^/    | /'
check "systemctl start imu" systemctl start imu
wait_for 30 sh -c 'journalctl -u imu --since "'"$started"'" -o cat | grep -q started'
journalctl -u imu --since "$started" -o cat | grep -v "thread priority" | head -n 14 | sed 's/^/    | /'
check "the service owns net.hadess.SensorProxy on the system bus" wait_for 15 sh -c \
    'busctl --system status net.hadess.SensorProxy >/dev/null 2>&1 || journalctl -u imu -o cat | grep -q "serving net.hadess.SensorProxy on the system"'
journalctl -u imu -o cat | grep -i -E "hadess|d-bus|mqtt" | head -n 4 | sed 's/^/    | /'
journalctl -u dbus -o cat | grep -v "^Started\|^Starting" | tail -n 6 | sed 's/^/    | dbus: /'
pid=$(systemctl show imu -p MainPID --value)
check "active, as user imu" sh -c '[ "$(systemctl is-active imu)" = active ] && [ "$(ps -o user= -p '"$pid"')" = imu ]'
check "no capabilities, no new privileges, seccomp" sh -c \
    'grep -q "^CapEff:[[:space:]]*0000000000000000" /proc/'"$pid"'/status && grep -q "^NoNewPrivs:[[:space:]]*1" /proc/'"$pid"'/status && grep -q "^Seccomp:[[:space:]]*2" /proc/'"$pid"'/status'
# The full scale the driver chose (ACCEL_CONFIG, which i2c-stub keeps): 16384 counts per g >> AFS_SEL.
afs=$(( ($(busybox i2cget -y "$bus" 0x68 0x1c b) >> 3) & 3 ))
counts_per_g=$(( 16384 >> afs ))
echo "  ACCEL_CONFIG AFS_SEL $afs: $counts_per_g counts per g"
tilt 0 1 0
check "line 17 (header pin 11) at rest" test "$(line 17)" = 0
stdbuf -oL timeout 120 monitor-sensor >/tmp/monitor.log 2>&1 &
monitor=$!
sleep 3

# --- A rule fires: turned to the right, the line goes high; upright again, low ----------------
tilt -1 0 0
check "turned right: the rule drives header pin 11 (gpio-mockup line 17) high" wait_for 20 sh -c "[ \"\$(tr -d '[:space:]' <$mockup/17)\" = 1 ]"
check "monitor-sensor on the system bus sees the orientation" wait_for 10 grep -q 'Accelerometer orientation changed' /tmp/monitor.log
sed 's/^/    | /' /tmp/monitor.log | head -n 6
tilt 0 1 0
check "upright again: the line goes low" wait_for 20 sh -c "[ \"\$(tr -d '[:space:]' <$mockup/17)\" = 0 ]"
kill "$monitor" 2>/dev/null

# --- The host's checks: dashboard through the forwarded port, Home Assistant discovery -----------
cp /var/lib/imu/http-token "$share/status/http-token" 2>/dev/null || echo none >"$share/status/http-token"
: >"$share/status/host-checks"
check "the host ran its checks (dashboard, discovery)" wait_for 90 test -f "$share/status/host-done"

# --- Reload with a broken rules file keeps the old rules ----------------------------------------
cp /etc/imu/rules.toml /tmp/rules.good
printf '[[rule]]\nname = "broken"\non = "wobble"\n' >/etc/imu/rules.toml
reloaded=$(date '+%Y-%m-%d %H:%M:%S')
sleep 1
systemctl reload imu
check "after a broken reload the service runs on" sh -c 'sleep 3; [ "$(systemctl is-active imu)" = active ] && [ "$(systemctl show imu -p MainPID --value)" = '"$pid"' ]'
check "the journal says why, naming the file and line, at warning or above" wait_for 10 sh -c \
    'journalctl -u imu --since "'"$reloaded"'" -p warning -o cat | grep -q "/etc/imu/rules.toml:[0-9]"'
journalctl -u imu --since "$reloaded" -p warning -o 'with-unit' --no-hostname | tail -n 3 | sed 's/^/    | /'
tilt 1 0 0
check "the old rules still fire after the broken reload" wait_for 20 sh -c "[ \"\$(tr -d '[:space:]' <$mockup/17)\" = 1 ]"
cp /tmp/rules.good /etc/imu/rules.toml

# --- Stop: every line at rest --------------------------------------------------------------
check "systemctl stop imu" systemctl stop imu
check "every gpio-mockup line at rest after the stop" sh -c \
    'for f in '"$mockup"'/*; do [ "$(tr -d "[:space:]" <"$f")" = 0 ] || { echo "line $(basename "$f") is $(cat "$f")"; exit 1; }; done'

# --- Purge: nothing left ----------------------------------------------------------------------
rm -rf /etc/systemd/system/imu.service.d /etc/imu-vm-boards
systemctl daemon-reload
check "apt purge imu" apt-get purge -y imu
# shellcheck disable=SC2086
[ -z "$pulled" ] || apt-get purge -y $pulled >/dev/null 2>&1
snapshot >/tmp/after.files
left=$(comm -13 /tmp/before.files /tmp/after.files)
gone=$(comm -23 /tmp/before.files /tmp/after.files)
check "purge leaves no file" test -z "$left"
[ -z "$left" ] && [ -z "$gone" ] || { echo "    left: $left" | head -n 20; echo "    gone: $gone" | head -n 20; }
check "purge removes no file that was there" test -z "$gone"
check "purge leaves no user" sh -c 'getent passwd | cut -d: -f1 | sort | cmp -s - /tmp/before.users'
check "purge leaves no group (imu, i2c, gpio)" sh -c 'getent group | cut -d: -f1 | sort | cmp -s - /tmp/before.groups'
check "no unit left" sh -c '! systemctl cat imu.service >/dev/null 2>&1'
finish
