#!/usr/bin/env bash
# The real Linux kernel under test: boots Debian's own kernel under QEMU and runs the `imu`
# binary inside it against a real /dev/i2c-N, the kernel's i2c-stub with preloaded virtual
# chips. The unit tests and the twin exercise our code against our idea of the kernel; this
# checks the ioctls, the SMBus fallback and the errno mapping against the kernel itself.
#
# Pieces, all from Debian: qemu-system-x86 and busybox-static (Scripts/setup.sh installs them),
# and the current linux-image-6.1.0-N-amd64 package, downloaded with `apt-get download` (N
# resolved at run time from the linux-image-amd64 metapackage, so an old ABI vanishing from the
# archive does not break us). The checks themselves are in Scripts/qemu-kernel-test-init.sh,
# which becomes the initramfs's /init.
#
# Caches in .build-qemu/ (gitignored): the kernel and its two modules, and the static release
# build (its own scratch path, so the debug build is left alone). Prints per-phase timings and
# the VM's PASS/FAIL lines; exits non-zero on any FAIL, a boot failure or a timeout.
set -euo pipefail

root=$(cd "$(dirname "$0")/.." && pwd)
cache="$root/.build-qemu"
boot_timeout=${IMU_QEMU_TIMEOUT:-240}
cd "$root"
mkdir -p "$cache"

fail() {
    echo "FAIL: qemu kernel test: $*" >&2
    exit 1
}

# Timings: `phase NAME` ends the previous phase and starts NAME.
phase_name=""
phase_start=0
script_start=$(date +%s.%N)
phase() {
    local now
    now=$(date +%s.%N)
    if [ -n "$phase_name" ]; then
        awk -v name="$phase_name" -v a="$phase_start" -v b="$now" \
            'BEGIN { printf "qemu kernel test: %-10s %6.1f s\n", name, b - a }'
    fi
    phase_name=$1
    phase_start=$now
}

if [ "$(id -u)" -eq 0 ]; then as_root=(); else as_root=(sudo); fi

# --- 1. Packages ----------------------------------------------------------------------------
phase packages
bash Scripts/setup.sh --tests >/dev/null
for tool in qemu-system-x86_64 busybox dpkg-deb apt-get gzip strip; do
    command -v "$tool" >/dev/null || fail "$tool is not installed (Scripts/setup.sh installs it)"
done

# --- 2. The kernel --------------------------------------------------------------------------
phase kernel
# The ABI package the metapackage points at now, e.g. linux-image-6.1.0-56-amd64.
resolve_kernel() {
    apt-cache depends linux-image-amd64 2>/dev/null \
        | awk '/Depends: linux-image-[0-9].*-amd64$/ { print $2; exit }'
}
kernel_package=$(resolve_kernel)
if [ -z "$kernel_package" ]; then
    # Empty package lists (a fresh container): refresh once.
    "${as_root[@]}" apt-get update >/dev/null
    kernel_package=$(resolve_kernel)
fi
[ -n "$kernel_package" ] || fail "apt-cache cannot resolve linux-image-amd64 to a kernel package"
kernel_version=$(apt-cache policy "$kernel_package" | awk '/Candidate:/ { print $2 }')
kernel_dir="$cache/kernel/${kernel_package}_${kernel_version}"

# The IIO route (issue 27): inv_mpu6050 binds an MPU-6050 and st_lsm6dsx an LSM9DS1 on i2c-stub
# (no IRQ: no trigger or buffer, sysfs reads only). Dependencies first; module names as `depends=` spells them.
iio_modules="industrialio kfifo_buf industrialio-triggered-buffer inv_sensors_timestamp i2c-mux inv-mpu6050 inv-mpu6050-i2c st_lsm6dsx st_lsm6dsx_i2c"
loaded=""
if [ ! -f "$kernel_dir/ready" ] || [ ! -f "$kernel_dir/st_lsm6dsx_i2c.ko" ]; then
    echo "qemu kernel test: downloading $kernel_package $kernel_version"
    download=$(mktemp -d)
    trap 'rm -rf "$download"' EXIT
    # As root apt drops to the _apt user, which cannot write into our tree; run as root instead.
    sandbox=()
    [ "$(id -u)" -eq 0 ] && sandbox=(-o APT::Sandbox::User=root)
    # Stale package lists can name a .deb the mirror no longer has: refresh once and retry.
    if ! (cd "$download" && apt-get "${sandbox[@]}" download "$kernel_package" >/dev/null); then
        "${as_root[@]}" apt-get update >/dev/null
        kernel_package=$(resolve_kernel)
        kernel_version=$(apt-cache policy "$kernel_package" | awk '/Candidate:/ { print $2 }')
        kernel_dir="$cache/kernel/${kernel_package}_${kernel_version}"
        (cd "$download" && apt-get "${sandbox[@]}" download "$kernel_package" >/dev/null) \
            || fail "apt-get download $kernel_package failed"
    fi
    deb=$(ls "$download"/*.deb)
    # A few files matter out of ~5000 (dpkg-deb -x of everything is 400 MB of modules).
    mkdir -p "$download/root"
    dpkg-deb --fsys-tarfile "$deb" | tar -x -C "$download/root" --wildcards \
        './boot/vmlinuz-*' \
        './lib/modules/*/kernel/drivers/i2c/i2c-dev.ko*' \
        './lib/modules/*/kernel/drivers/i2c/i2c-stub.ko*' \
        './lib/modules/*/kernel/drivers/i2c/i2c-mux.ko*' \
        './lib/modules/*/kernel/drivers/iio/*' \
        './lib/modules/*/modules.builtin'
    rm -rf "$kernel_dir"
    mkdir -p "$kernel_dir"
    cp "$download"/root/boot/vmlinuz-* "$kernel_dir/vmlinuz"
    cp "$download"/root/lib/modules/*/modules.builtin "$kernel_dir/"
    # i2c-dev and i2c-stub for the bus; the rest is the kernel's own MPU-6050 driver and the IIO
    # core under it (loaded in this order by the VM's /init, each after what it depends on).
    for module in i2c-dev i2c-stub $iio_modules; do
        file=$(find "$download/root/lib/modules" -name "$module.ko*" | head -n 1)
        [ -n "$file" ] || fail "$kernel_package has no $module module"
        # busybox insmod reads plain .ko only: decompress on the host.
        case "$file" in
            *.ko.xz) xz -dc "$file" >"$kernel_dir/$module.ko" ;;
            *.ko.zst) zstd -dqc "$file" >"$kernel_dir/$module.ko" ;;
            *.ko.gz) gzip -dc "$file" >"$kernel_dir/$module.ko" ;;
            *) cp "$file" "$kernel_dir/$module.ko" ;;
        esac
        # The modules' own dependencies must be built in (i2c-core is, in Debian's kernel):
        # we load exactly these two. `depends=` lists loadable modules only.
        if command -v modinfo >/dev/null; then
            depends=$(modinfo -F depends "$kernel_dir/$module.ko")
        else
            depends=$(tr '\0' '\n' <"$kernel_dir/$module.ko" | sed -n 's/^depends=//p' | head -n 1)
        fi
        for needed in $(echo "$depends" | tr ',' ' '); do
            case " $loaded " in
                *" $needed "*) ;;
                *) fail "$module needs module $needed, which this script does not load before it" ;;
            esac
        done
        loaded="$loaded $module"
    done
    grep -q 'kernel/drivers/i2c/i2c-core.ko' "$kernel_dir/modules.builtin" \
        || fail "$kernel_package does not have i2c-core built in"
    touch "$kernel_dir/ready"
    rm -rf "$download"
    trap - EXIT
    # Older kernels' caches are dead weight now.
    find "$cache/kernel" -mindepth 1 -maxdepth 1 ! -path "$kernel_dir" -exec rm -rf {} +
fi
echo "qemu kernel test: kernel $kernel_package $kernel_version"

# --- 3. The static build --------------------------------------------------------------------
phase build
# The Swift runtime is linked in; what ldd still lists (libc, libi2c, libgpiod, libstdc++, …)
# goes into the initramfs. The same build as the service's binary (Scripts/test.sh makes it
# first), so it is seconds when nothing changed.
if ! swift build -c release --product imu --static-swift-stdlib >"$cache/build.log" 2>&1; then
    tail -n 40 "$cache/build.log" >&2
    fail "swift build of the static imu failed (log: $cache/build.log)"
fi
tail -n 1 "$cache/build.log"
imu_binary="$root/.build/release/imu"
[ -x "$imu_binary" ] || fail "no $imu_binary after the build"

# --- 4. The initramfs -----------------------------------------------------------------------
phase initramfs
stage="$cache/initramfs"
rm -rf "$stage"
mkdir -p "$stage"/{bin,dev,proc,sys,tmp,lib/modules}
cp "$(command -v busybox)" "$stage/bin/busybox"
# Applet links made here, so /init's #!/bin/sh works before anything is mounted.
for applet in $(busybox --list); do
    [ -e "$stage/bin/$applet" ] || ln -s busybox "$stage/bin/$applet"
done
# Stripped: the debug info is half the binary and only slows packing and unpacking.
strip -o "$stage/bin/imu" "$imu_binary"
# Shared libraries at the paths ldd names (the loader at its absolute path), dereferenced.
ldd "$imu_binary" | awk '/=> \// { print $3 } /^[ \t]*\/.*ld-linux/ { print $1 }' | while read -r library; do
    mkdir -p "$stage$(dirname "$library")"
    cp -L "$library" "$stage$library"
done
cp "$kernel_dir/i2c-dev.ko" "$kernel_dir/i2c-stub.ko" "$stage/lib/modules/"
for module in $iio_modules; do cp "$kernel_dir/$module.ko" "$stage/lib/modules/"; done
echo "$iio_modules" >"$stage/lib/modules/iio-order"
cp -r Boards "$stage/Boards"
cp Scripts/qemu-kernel-test-init.sh "$stage/init"
# The marker /init checks before it mounts anything: it runs only inside this initramfs.
: >"$stage/imu-kernel-test-initramfs"
chmod +x "$stage/init"
(cd "$stage" && find . -mindepth 1 | busybox cpio -o -H newc 2>/dev/null) | gzip -1 >"$cache/initrd.gz"
echo "qemu kernel test: initramfs $(du -h "$cache/initrd.gz" | cut -f1)"

# --- 5. Boot and check ----------------------------------------------------------------------
phase boot
# Software emulation (TCG) by default: the whole run takes ~10 s of it, and a /dev/kvm that
# opens is not one that works. Under nested virtualisation QEMU can abort setting up the vCPU
# (MSR 0x10a, -cpu host/max) or hang in the BIOS (-cpu qemu64), as it does on our CI machine.
# IMU_QEMU_ACCEL=kvm asks for KVM where it is known to work.
accel=(-accel tcg -cpu max)
if [ "${IMU_QEMU_ACCEL:-tcg}" = kvm ]; then
    [ -r /dev/kvm ] && [ -w /dev/kvm ] || fail "IMU_QEMU_ACCEL=kvm but /dev/kvm is not usable by $(id -un)"
    accel=(-accel kvm -cpu host)
fi
log="$cache/serial.log"
set +e
timeout "$boot_timeout" qemu-system-x86_64 "${accel[@]}" -m 512 -smp 1 \
    -nographic -no-reboot -monitor none -serial stdio -nic none \
    -kernel "$kernel_dir/vmlinuz" -initrd "$cache/initrd.gz" \
    -append "console=ttyS0 panic=-1 quiet" </dev/null >"$log" 2>&1
qemu_status=$?
set -e
phase ""

# The serial console ends lines with \r\n.
tr -d '\r' <"$log" >"$log.txt"
sed -n '/=== imu kernel test begin/,/=== imu kernel test end/p' "$log.txt" | sed 's/^.*=== imu/=== imu/'
if [ "$qemu_status" -eq 124 ]; then
    tail -n 30 "$log.txt" >&2
    fail "the VM did not finish within ${boot_timeout}s (log: $log.txt)"
fi
summary=$(grep -E '^[0-9]+ passed, [0-9]+ failed$' "$log.txt" | tail -n 1 || true)
if [ -z "$summary" ]; then
    tail -n 30 "$log.txt" >&2
    fail "no result from the VM (qemu exit status $qemu_status; log: $log.txt)"
fi
passes=$(grep -c '^PASS ' "$log.txt" || true)
failures=$(grep -c '^FAIL ' "$log.txt" || true)
# The summary must agree with the lines we saw (a garbled console must not pass).
[ "$summary" = "$passes passed, $failures failed" ] \
    || fail "summary '$summary' does not match the $passes PASS and $failures FAIL lines"
[ "$failures" -eq 0 ] || fail "$failures of $((passes + failures)) checks failed in the VM"
[ "$passes" -gt 0 ] || fail "no checks ran in the VM"
awk -v n="$passes" -v a="$script_start" -v b="$(date +%s.%N)" \
    'BEGIN { printf "qemu kernel test: PASS (%d checks, %.0f s in all)\n", n, b - a }'
