#!/usr/bin/env bash
# The first day under a real systemd: boots Debian 12 under QEMU with systemd as PID 1, installs
# the Debian package (Scripts/package-deb.sh) with apt and checks the service end to end.
#
# The VM (Scripts/vm-service-image.sh, the recipe): a debootstrap root file system, cached in
# $IMU_VM_CACHE (default /var/cache/imu-vm) under the SHA-256 of the recipe, so later runs reuse
# it and a changed recipe builds a new one. Its kernel is Debian's, with i2c-stub (one MPU-6050
# at 0x68, registers preloaded and then moved by the test) and gpio-mockup, built as a module
# from Debian's linux-source against the image's headers: its debugfs files read back the level
# the service drives on each line. An x86 VM has no device tree (Debian's amd64 kernel is built
# without CONFIG_OF), so a drop-in names the test's computer profile (i2c-stub's bus,
# gpio-mockup's chip) with IMU_COMPUTER, as a user of a board without a known model would.
#
# Checks (Scripts/vm-service-inside.sh in the VM, the host's own here):
#   apt installs the package from the host's file and pulls libi2c0/libgpiod2 from a local repository;
#   udev gives the buses and GPIO chips to the groups i2c and gpio (the package's rule; waited for);
#   the unit starts as user imu under its hardening (no capabilities, NoNewPrivileges, closed devices);
#   the generator opens the network for [mqtt] and [http], and only that (IPAddressAllow);
#   a rule fires on an orientation change (the chip's registers moved with i2cset) and its
#   gpio-mockup line is read back high, then low;
#   monitor-sensor on the VM's system bus sees the orientation change;
#   from the host: Home Assistant discovery on the VM's mosquitto (mosquitto_sub through a forwarded
#   port), the dashboard through QEMU's port forwarding (401 without the token, 200 with it);
#   systemctl reload with a broken rules file keeps the old rules (the journal names file and line,
#   at error priority) and they still fire;
#   systemctl stop leaves every line at rest;
#   systemd-analyze security imu.service ≤ 2.0 with [mqtt] and [http];
#   apt purge leaves no file, user or group.
# Prints `vm service test: PASS (N checks)` last. Runs as root (sudo otherwise): debootstrap,
# chroot, and the 9p share. KVM when /dev/kvm works (IMU_VM_ACCEL=tcg forces software).
#   --deb PATH   test this package instead of building one
#   --prepare    only build the image if the cache lacks it (Scripts/test.sh starts this at its
#                beginning, in the background, so a cold cache costs the run no time of its own)
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"
cache_root=${IMU_VM_CACHE:-/var/cache/imu-vm}
timeout_s=${IMU_VM_TIMEOUT:-1200}
deb=""
prepare=0
while [ $# -gt 0 ]; do
    case "$1" in
        --deb) [ $# -ge 2 ] || { echo "vm-service-test: --deb needs a path" >&2; exit 2; }; deb=$2; shift ;;
        --prepare) prepare=1 ;;
        *) echo "vm-service-test: unknown argument $1 (expected --deb PATH or --prepare)" >&2; exit 2 ;;
    esac
    shift
done
fail() {
    echo "FAIL: vm service test: $*" >&2
    exit 1
}
if [ "$(id -u)" -ne 0 ]; then
    exec sudo --preserve-env=IMU_VM_CACHE,IMU_VM_TIMEOUT,IMU_VM_ACCEL,PATH bash "$0" "$@"
fi
phase_name=""
phase_start=0
script_start=$(date +%s.%N)
phase() {
    local now
    now=$(date +%s.%N)
    [ -z "$phase_name" ] || awk -v n="$phase_name" -v a="$phase_start" -v b="$now" 'BEGIN { printf "vm service test: %-8s %6.1f s\n", n, b - a }'
    phase_name=$1
    phase_start=$now
}

phase tools
for tool in qemu-system-x86_64 qemu-img debootstrap dpkg-scanpackages mosquitto_sub curl; do
    command -v "$tool" >/dev/null || fail "$tool is missing (sudo apt install qemu-system-x86 qemu-utils debootstrap dpkg-dev mosquitto-clients curl)"
done

# --- The image ----------------------------------------------------------------------------
phase image
recipe_hash=$(sha256sum Scripts/vm-service-image.sh | cut -c1-16)
cache="$cache_root/$recipe_hash"
# One builder at a time: a test that starts while a --prepare still builds waits for its image.
mkdir -p "$cache_root"
exec 9>"$cache_root/.lock"
flock 9
if [ ! -f "$cache/kernel-version" ]; then
    echo "vm service test: building the VM image (recipe $recipe_hash) in $cache"
    mkdir -p "$cache"
    bash Scripts/vm-service-image.sh "$cache" || fail "the VM image could not be built"
    # Images of older recipes are dead weight.
    find "$cache_root" -mindepth 1 -maxdepth 1 ! -path "$cache" ! -name .lock ! -name repo -exec rm -rf {} +
fi
flock -u 9
echo "vm service test: image $cache (kernel $(cat "$cache/kernel-version"))"
[ "$prepare" = 0 ] || exit 0

# --- The package and the repository of its dependencies -------------------------------------
phase package
if [ -z "$deb" ]; then
    deb=$(bash Scripts/package-deb.sh | tail -n 1) || fail "Scripts/package-deb.sh failed"
fi
[ -f "$deb" ] || fail "no package $deb"
run=$(mktemp -d /tmp/imu-vm-test.XXXXXX)
trap 'rm -rf "$run"' EXIT
share="$run/share"
mkdir -p "$share/repo" "$share/status"
cp "$deb" "$share/imu.deb"
cp Scripts/vm-service-inside.sh "$share/inside.sh"
# What the package depends on and the image lacks, from this machine's apt (same release), served
# to the VM's apt as a file repository: apt must resolve them from the package's Depends.
repo_cache="$cache_root/repo"
mkdir -p "$repo_cache"
for package in libi2c0 libgpiod2 libmosquitto1; do
    if ! ls "$repo_cache/${package}_"*.deb >/dev/null 2>&1; then
        (cd "$repo_cache" && apt-get -o APT::Sandbox::User=root download "$package" >/dev/null) \
            || fail "apt-get download $package failed"
    fi
done
cp "$repo_cache"/*.deb "$share/repo/"
(cd "$share/repo" && dpkg-scanpackages --multiversion . /dev/null 2>/dev/null | gzip -9 >Packages.gz)

# --- Boot ---------------------------------------------------------------------------------
phase boot
qemu-img create -q -f qcow2 -b "$cache/root.img" -F raw "$run/overlay.qcow2"
free_port() { python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'; }
web_port=$(free_port)
mqtt_port=$(free_port)
log="$run/serial.log"
boot() { # ACCEL CPU
    qemu-system-x86_64 -accel "$1" -cpu "$2" -m 1536 -smp 2 -nographic -no-reboot -monitor none -serial "file:$log" \
        -kernel "$cache/vmlinuz" -initrd "$cache/initrd.img" \
        -append "root=/dev/vda rw console=ttyS0 panic=-1 quiet systemd.show_status=0 no_timer_check" \
        -drive "file=$run/overlay.qcow2,if=virtio,format=qcow2" \
        -virtfs "local,path=$share,mount_tag=imu,security_model=none,id=imu" \
        -nic "user,model=virtio-net-pci,hostfwd=tcp:127.0.0.1:$web_port-:8080,hostfwd=tcp:127.0.0.1:$mqtt_port-:1883" \
        </dev/null >"$run/qemu.log" 2>&1 &
    qemu_pid=$!
}
# no_timer_check: under emulation on a loaded host the kernel's IO-APIC timer check can fail and panic.
# KVM when /dev/kvm works; a /dev/kvm that opens is not always one that works (nested, QEMU
# aborts setting MSR 0x10a): then software emulation, said so.
accel=tcg
if [ "${IMU_VM_ACCEL:-kvm}" = kvm ] && [ -r /dev/kvm ] && [ -w /dev/kvm ]; then
    boot kvm host
    sleep 3
    if kill -0 "$qemu_pid" 2>/dev/null; then
        accel=kvm
    else
        echo "vm service test: KVM does not work here ($(grep -m1 -i error "$run/qemu.log" || echo "QEMU exited")); software emulation (TCG)"
        qemu-img create -q -f qcow2 -b "$cache/root.img" -F raw "$run/overlay.qcow2"
    fi
fi
[ "$accel" = kvm ] || boot tcg max
echo "vm service test: booting with $accel"
trap 'kill "$qemu_pid" 2>/dev/null || true; rm -rf "$run"' EXIT   # qemu has usually powered off by now

# --- The host's checks, when the VM asks for them ---------------------------------------------
host_passed=0
host_failed=0
host_check() { # NAME CONDITION-RESULT(0/1) DETAIL
    if [ "$2" = 0 ]; then echo "PASS (host) $1"; host_passed=$((host_passed + 1))
    else echo "FAIL (host) $1: $3"; host_failed=$((host_failed + 1)); fi
}
deadline=$(( $(date +%s) + timeout_s ))
host_done=0
while kill -0 "$qemu_pid" 2>/dev/null; do
    if [ "$(date +%s)" -ge "$deadline" ]; then
        kill "$qemu_pid" 2>/dev/null || true
        tr -d '\r' <"$log" | tee "$cache_root/last-serial.log" | tail -n 40 >&2
        fail "the VM did not finish within ${timeout_s}s (IMU_VM_TIMEOUT)"
    fi
    if [ "$host_done" = 0 ] && [ -f "$share/status/host-checks" ]; then
        phase host
        token=$(tr -d '[:space:]' <"$share/status/http-token")
        code=$(curl -s -o /dev/null -w '%{http_code}' --max-time 10 "http://127.0.0.1:$web_port/" || true)
        host_check "dashboard without the token: 401" "$([ "$code" = 401 ] && echo 0 || echo 1)" "HTTP $code"
        code=$(curl -s -o "$run/page.html" -w '%{http_code}' --max-time 10 -H "Authorization: Bearer $token" "http://127.0.0.1:$web_port/" || true)
        host_check "dashboard with the token through the forwarded port: 200 and the page" \
            "$([ "$code" = 200 ] && grep -qi '<html' "$run/page.html" && echo 0 || echo 1)" "HTTP $code"
        # The retained configs, once the service has connected (it retries with a backoff).
        configs=0
        for _ in 1 2 3 4 5 6; do
            mosquitto_sub -h 127.0.0.1 -p "$mqtt_port" -t 'homeassistant/#' -v -W 5 >"$run/discovery.txt" 2>/dev/null || true
            configs=$(grep -c '^homeassistant/[^ ]*/config {' "$run/discovery.txt" || true)
            [ "$configs" -eq 0 ] || break
        done
        host_check "Home Assistant discovery on the VM's broker (retained configs: $configs)" \
            "$([ "$configs" -gt 0 ] && grep -q '"device"' "$run/discovery.txt" && echo 0 || echo 1)" "$(head -c 300 "$run/discovery.txt")"
        host_check "discovery names the event entity" "$(grep -q '^homeassistant/event/' "$run/discovery.txt" && echo 0 || echo 1)" \
            "$(cut -d' ' -f1 "$run/discovery.txt" | tr '\n' ' ')"
        : >"$share/status/host-done"
        host_done=1
        phase vm
    fi
    sleep 1
done
phase ""

tr -d '\r' <"$log" >"$run/serial.txt"
cp "$run/serial.txt" "$cache_root/last-serial.log"   # for whoever reads a failure
sed -n '/=== imu vm test begin/,/=== imu vm test end/p' "$run/serial.txt"
summary=$(grep -E '^[0-9]+ passed, [0-9]+ failed$' "$run/serial.txt" | tail -n 1 || true)
if [ -z "$summary" ]; then
    tail -n 60 "$run/serial.txt" >&2
    fail "no result from the VM (log above)"
fi
passes=$(grep -c '^PASS ' "$run/serial.txt" || true)
failures=$(grep -c '^FAIL ' "$run/serial.txt" || true)
[ "$summary" = "$passes passed, $failures failed" ] || fail "summary '$summary' does not match the $passes PASS and $failures FAIL lines"
[ "$host_done" = 1 ] || fail "the VM never asked for the host's checks"
total_failed=$((failures + host_failed))
total=$((passes + host_passed + total_failed))
[ "$total_failed" -eq 0 ] || fail "$total_failed of $total checks failed"
awk -v n="$total" -v a="$script_start" -v b="$(date +%s.%N)" 'BEGIN { printf "vm service test: %.0f s in all\n", b - a }'
echo "vm service test: PASS ($total checks)"
