#!/usr/bin/env bash
# The recipe of the VM that Scripts/vm-service-test.sh boots: a Debian 12 root file system made
# with debootstrap, as an ext4 image, with Debian's kernel, its initramfs and a gpio-mockup module
# built here from Debian's linux-source against the image's own kernel headers (Debian builds
# neither gpio-mockup nor gpio-sim). Its SHA-256 names the cache folder, so any change to this
# file builds a new image; vm-service-test.sh calls it when the folder is not complete.
#   bash Scripts/vm-service-image.sh DIR     # builds DIR/root.img, DIR/vmlinuz, DIR/initrd.img
# Runs as root (debootstrap, chroot). Takes minutes (downloads ~250 MB from deb.debian.org).
set -euo pipefail
out=${1:?usage: vm-service-image.sh DIR}
mirror=${IMU_VM_MIRROR:-http://deb.debian.org/debian}
[ "$(id -u)" -eq 0 ] || { echo "vm-service-image: run as root (debootstrap and chroot need it)" >&2; exit 1; }
for tool in debootstrap mkfs.ext4 apt-get; do
    command -v "$tool" >/dev/null || { echo "vm-service-image: $tool is missing (sudo apt install debootstrap e2fsprogs)" >&2; exit 1; }
done

# What the VM has before the test installs imu: systemd as PID 1, D-Bus, a broker, the desktop's
# sensor client (monitor-sensor), busybox for i2cset/i2cget, Python, and the kernel with its
# headers and compiler (for the gpio-mockup module). Not libi2c0, libgpiod2 or i2c-tools: the
# package's dependencies must come in through apt (from a local repository the test serves),
# and the group i2c must be the package's own to make and remove.
packages=(
    systemd systemd-sysv dbus udev kmod iproute2 procps
    linux-image-amd64 linux-headers-amd64 initramfs-tools make
    mosquitto iio-sensor-proxy busybox python3 curl ca-certificates
)

work="$out/build"
root="$work/root"
# A debootstrap that finished is kept while the steps after it are retried (the marker names the
# package list it was made with).
if [ "$(cat "$work/debootstrap-done" 2>/dev/null)" != "${packages[*]}" ]; then
    rm -rf "$work"
    mkdir -p "$work"
    echo "vm-service-image: debootstrap bookworm (${packages[*]})"
    debootstrap --variant=minbase --include="$(IFS=,; echo "${packages[*]}")" bookworm "$root" "$mirror" \
        >"$work/debootstrap.log" 2>&1 || { tail -n 30 "$work/debootstrap.log" >&2; echo "vm-service-image: debootstrap failed (log: $work/debootstrap.log)" >&2; exit 1; }
    echo "${packages[*]}" >"$work/debootstrap-done"
fi
kernel_version=$(ls "$root/lib/modules" | head -n 1)
[ -n "$kernel_version" ] && [ -f "$root/boot/vmlinuz-$kernel_version" ] || { echo "vm-service-image: no kernel in the image" >&2; exit 1; }

# --- gpio-mockup.ko from Debian's linux-source, built against the image's headers ----------
echo "vm-service-image: gpio-mockup for $kernel_version from linux-source-6.1"
download="$work/source"
mkdir -p "$download"
sandbox=()
[ "$(id -u)" -eq 0 ] && sandbox=(-o APT::Sandbox::User=root)
(cd "$download" && apt-get "${sandbox[@]}" download linux-source-6.1 >/dev/null) \
    || { apt-get update >/dev/null && (cd "$download" && apt-get "${sandbox[@]}" download linux-source-6.1 >/dev/null); }
deb=$(ls "$download"/linux-source-6.1_*.deb)
dpkg-deb --fsys-tarfile "$deb" | tar -x -C "$download" --wildcards './usr/src/linux-source-6.1.tar.xz'
module="$root/root/gpio-mockup"
mkdir -p "$module"
tar -xJf "$download/usr/src/linux-source-6.1.tar.xz" -C "$download" --wildcards \
    'linux-source-6.1/drivers/gpio/gpio-mockup.c' 'linux-source-6.1/drivers/gpio/*.h' 'linux-source-6.1/kernel/irq/irq_sim.c'
# gpio-mockup needs the simulated interrupt domain (CONFIG_IRQ_SIM), which Debian's kernel does not
# build either: compiled into the same module.
cp "$download"/linux-source-6.1/drivers/gpio/gpio-mockup.c "$module/gpio-mockup-main.c"
cp "$download"/linux-source-6.1/drivers/gpio/*.h "$download"/linux-source-6.1/kernel/irq/irq_sim.c "$module/"
# irq_to_desc() is not exported to modules; generic_handle_irq() (exported) runs the same handler.
sed -i 's/handle_simple_irq(irq_to_desc(irqnum))/generic_handle_irq(irqnum)/' "$module/irq_sim.c"
grep -q 'generic_handle_irq(irqnum)' "$module/irq_sim.c" || { echo "vm-service-image: irq_sim.c is not as expected (no irq_to_desc call to replace)" >&2; exit 1; }
printf 'obj-m := gpio-mockup.o\ngpio-mockup-y := gpio-mockup-main.o irq_sim.o\n' >"$module/Makefile"
chroot "$root" make -C "/usr/src/linux-headers-$kernel_version" M=/root/gpio-mockup modules >"$work/module.log" 2>&1 \
    || { tail -n 30 "$work/module.log" >&2; echo "vm-service-image: building gpio-mockup failed (log: $work/module.log)" >&2; exit 1; }
install -D -m 0644 "$module/gpio-mockup.ko" "$root/lib/modules/$kernel_version/updates/gpio-mockup.ko"
rm -rf "$module" "$download"
chroot "$root" depmod "$kernel_version"

# --- The system ---------------------------------------------------------------------------
echo imu-vm >"$root/etc/hostname"
printf '/dev/vda / ext4 defaults 0 1\n' >"$root/etc/fstab"
# The network QEMU's user mode gives (10.0.2.15 by DHCP), for the forwarded dashboard and broker.
mkdir -p "$root/etc/systemd/network"
printf '[Match]\nName=en* eth*\n\n[Network]\nDHCP=ipv4\n' >"$root/etc/systemd/network/10-qemu.network"
chroot "$root" systemctl enable systemd-networkd.service >/dev/null 2>&1
# The bus and the GPIO chip: i2c-stub with one MPU-6050 at 0x68, a 32-line gpio-mockup chip.
printf 'i2c-dev\ni2c-stub\ngpio-mockup\n9pnet_virtio\n' >"$root/etc/modules-load.d/imu-vm.conf"
printf 'options i2c-stub chip_addr=0x68\noptions gpio-mockup gpio_mockup_ranges=-1,32\n' >"$root/etc/modprobe.d/imu-vm.conf"
# The broker answers the host too (through QEMU's forwarded port), without accounts.
printf 'listener 1883 0.0.0.0\nallow_anonymous true\n' >"$root/etc/mosquitto/conf.d/imu-vm.conf"
# No login prompts on the console the test reports on.
chroot "$root" systemctl mask serial-getty@ttyS0.service getty@tty1.service >/dev/null 2>&1
# The test itself: /mnt/imu (a 9p share from the host) holds inside.sh, the .deb and the
# dependencies' repository; its output goes to the serial console the host reads.
cat >"$root/etc/systemd/system/imu-vm-test.service" <<'UNIT'
[Unit]
Description=imu VM service test (Scripts/vm-service-test.sh)
After=multi-user.target network-online.target mosquitto.service dbus.service
Wants=network-online.target

[Service]
Type=simple
ExecStart=/bin/sh -c 'mkdir -p /mnt/imu && mount -t 9p -o trans=virtio,version=9p2000.L,msize=262144 imu /mnt/imu && exec /bin/bash /mnt/imu/inside.sh'
StandardOutput=tty
StandardError=tty
TTYPath=/dev/ttyS0

[Install]
WantedBy=multi-user.target
UNIT
chroot "$root" systemctl enable imu-vm-test.service systemd-networkd-wait-online.service >/dev/null 2>&1
# apt inside reads only the test's local repository (offline VM).
rm -f "$root"/etc/apt/sources.list "$root"/etc/apt/sources.list.d/*
chroot "$root" apt-get clean
rm -rf "$root"/var/lib/apt/lists/*

# --- The image ----------------------------------------------------------------------------
cp "$root/boot/vmlinuz-$kernel_version" "$work/vmlinuz"
cp "$root/boot/initrd.img-$kernel_version" "$work/initrd.img"
cp "$root/boot/config-$kernel_version" "$work/config"
truncate -s 4G "$work/root.img"
mkfs.ext4 -q -F -L imu-vm -d "$root" "$work/root.img"
rm -rf "$root"
mv "$work/root.img" "$work/vmlinuz" "$work/initrd.img" "$work/config" "$out/"
echo "$kernel_version" >"$out/kernel-version"
rm -rf "$work"
echo "vm-service-image: ready in $out ($(du -sh --apparent-size "$out/root.img" | cut -f1) image, $(du -sh "$out/root.img" | cut -f1) used, kernel $kernel_version)"
