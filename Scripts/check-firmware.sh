#!/usr/bin/env bash
# The fusion core as firmware (issue 17): Sources/IMUFusion built with Embedded Swift for a
# Cortex-M0 (QEMU's `microbit`, nRF51822), run over an excerpt of a BROAD trial, checked
# bit-exact against the Linux build of the same sources, and measured beside x-io Fusion's C.
#
#   1. samples.bin: the excerpt (Firmware/make_samples.py; BROAD trial 30 from
#      ../shared/datasets/broad or $IMU_BROAD_DATASET, or a deterministic synthetic log when the dataset is absent),
#      written into OUTDIR, never into the repository.
#   2. The firmware: IMUFusion, IMUGeometry, IMUBus and IMUDrivers as Embedded Swift modules
#      plus Firmware/Sources (the 9D and 6D passes, the driver check), Firmware/Support
#      (startup, runtime pieces, semihosting), linked with gcc-arm-none-eabi.
#   3. The host program: the same Swift sources built for Linux with swiftc, on the same samples.
#   4. QEMU with -icount (every instruction advances virtual time by 64 ns, SysTick counts
#      the 16 MHz core clock): ticks per update, converted to instructions with the
#      calibration the firmware measures on a loop of known length.
#      The firmware has its own __aeabi_lmul (Firmware/Support/lmul.S, 21 instructions against
#      libgcc's 45; the Int64 products are most of the update's work on a core with only a
#      32-bit MULS): the figures with libgcc's are printed too.
#   5. x-io Fusion 1.3.3 (PyPI sdist, downloaded into OUTDIR) built for the same core with
#      soft float (newlib), on the same samples under the same measurement (Firmware/XIO).
#
# Prints one line
#   checksum=… linux_checksum=… instructions_per_update_9d=… instructions_per_update_6d=…
#   xio_instructions_per_update_9d=… flash_bytes=… ram_bytes=…
# (ram_bytes: .data + .bss + heap + the stack's high-water mark, the stack painted at reset),
# after the details. Exits non-zero when a build or run fails or the checksums (or the
# driver samples) differ.
#
# Usage: Scripts/check-firmware.sh OUTDIR      (FIRMWARE_PROFILE=1: also the per-function
#        breakdown of the 9D update's instructions, Firmware/profile.py; slower;
#        FIRMWARE_EXCERPT="START_S DURATION_S [TRIAL.csv]": another excerpt of BROAD, e.g.
#        "20 60" for a rest after an earth turn, "0 120 32_disturbed_attached_magnet_1cm.csv"
#        for a field that follows the device; the figures printed are then that excerpt's)
set -euo pipefail
cd "$(dirname "$0")/.."
root=$(pwd)

outdir=${1:?usage: Scripts/check-firmware.sh OUTDIR}
mkdir -p "$outdir"
outdir=$(cd "$outdir" && pwd)
fail() { echo "check-firmware: FAIL: $*" >&2; exit 1; }

for tool in qemu-system-arm arm-none-eabi-gcc; do
    command -v "$tool" >/dev/null || bash Scripts/setup.sh --tests
done
[ -f /usr/lib/arm-none-eabi/newlib/thumb/v6-m/nofp/libm.a ] || bash Scripts/setup.sh --tests
for tool in qemu-system-arm arm-none-eabi-gcc swiftc clang python3; do
    command -v "$tool" >/dev/null || fail "$tool not found"
done

# ---- 1. the samples
# shellcheck disable=SC2086  # FIRMWARE_EXCERPT is words on purpose
python3 Firmware/make_samples.py "${IMU_BROAD_DATASET:-../shared/datasets/broad}" "$outdir/samples.bin" ${FIRMWARE_EXCERPT:-} \
    | tee "$outdir/samples.txt"

# ---- 2. the firmware
# Swift → LLVM IR (-O, Embedded) → object with clang's -ffunction-sections, so that the linker
# keeps only what the firmware reaches (swiftc's own objects put a module in one section).
embedded=(-target armv6m-none-none-eabi -enable-experimental-feature Embedded -enable-experimental-feature Extern
    -wmo -parse-as-library -O)
arm=(-mcpu=cortex-m0 -mthumb -masm-syntax-unified -fno-short-enums -ffunction-sections -fdata-sections)
fw=$outdir/embedded
mkdir -p "$fw"
module() {  # module NAME SOURCES… — one Embedded Swift module, as IR then object
    local name=$1
    shift
    swiftc "${embedded[@]}" -module-name "$name" -I "$fw" -emit-module -emit-module-path "$fw/$name.swiftmodule" \
        -emit-ir "$@" -o "$fw/$name.ll" || fail "Embedded Swift build of $name"
    clang --target=armv6m-none-none-eabi -mcpu=cortex-m0 -mthumb -O2 -ffunction-sections -fdata-sections \
        -c "$fw/$name.ll" -o "$fw/$name.o" || fail "code generation of $name"
}
echo "check-firmware: building the firmware (Embedded Swift, armv6m)"
module IMUFusion Sources/IMUFusion/*.swift Sources/IMUFusion/*/*.swift
module IMUGeometry Sources/IMUGeometry/*.swift
module IMUBus Sources/IMUBus/*.swift
module IMUDrivers Sources/IMUDrivers/*.swift
swiftc "${embedded[@]}" -module-name Firmware -I "$fw" -import-objc-header Firmware/Support/firmware.h \
    -emit-ir Firmware/Sources/*.swift -o "$fw/Firmware.ll" || fail "Embedded Swift build of Firmware/Sources"
clang --target=armv6m-none-none-eabi -mcpu=cortex-m0 -mthumb -O2 -ffunction-sections -fdata-sections \
    -c "$fw/Firmware.ll" -o "$fw/Firmware.o" || fail "code generation of Firmware"
# The runtime's own memset/memcpy must not become calls to themselves.
arm-none-eabi-gcc "${arm[@]}" -Os -ffreestanding -fno-builtin -fno-tree-loop-distribute-patterns \
    -IFirmware/Support -c Firmware/Support/startup.c -o "$fw/startup.o"
arm-none-eabi-gcc "${arm[@]}" -c Firmware/Support/lmul.S -o "$fw/lmul.o"
# newlib's libm for the soft-float sqrt/sin/… the Double driver code (IMUGeometry) calls.
# firmware.elf has our __aeabi_lmul (Firmware/Support/lmul.S); firmware-libgcc.elf, for
# comparison, libgcc's.
link() {  # link OUTPUT [EXTRA OBJECTS…]
    local output=$1
    shift
    arm-none-eabi-gcc "${arm[@]}" -nostartfiles -nostdlib -T Firmware/Support/microbit.ld "$fw/startup.o" "$@" \
        "$fw"/Firmware.o "$fw"/IMUFusion.o "$fw"/IMUDrivers.o "$fw"/IMUBus.o "$fw"/IMUGeometry.o \
        -Wl,--gc-sections -Wl,--no-enum-size-warning -Wl,--no-warn-rwx-segments -lm -lgcc -o "$output" \
        2> >(grep -v 'GNU-stack\|deprecated' >&2) || fail "link of $output"
}
link "$fw/firmware.elf" "$fw/lmul.o"
link "$fw/firmware-libgcc.elf"
arm-none-eabi-size "$fw/firmware.elf"

# ---- 3. the Linux program from the same sources
echo "check-firmware: building the Linux program (the same Swift sources, host target)"
host=$outdir/host
mkdir -p "$host"
hostModule() {
    local name=$1
    shift
    swiftc -O -wmo -parse-as-library -module-name "$name" -I "$host" -emit-module -emit-module-path "$host/$name.swiftmodule" \
        -c "$@" -o "$host/$name.o" || fail "Linux build of $name"
}
hostModule IMUFusion Sources/IMUFusion/*.swift Sources/IMUFusion/*/*.swift
hostModule IMUGeometry Sources/IMUGeometry/*.swift
hostModule IMUBus Sources/IMUBus/*.swift
hostModule IMUDrivers Sources/IMUDrivers/*.swift
clang -O2 -IFirmware/Support -c Firmware/Host/host.c -o "$host/host.o"
swiftc -O -wmo -parse-as-library -module-name Firmware -I "$host" -import-objc-header Firmware/Support/firmware.h \
    Firmware/Sources/*.swift "$host"/IMUFusion.o "$host"/IMUGeometry.o "$host"/IMUBus.o "$host"/IMUDrivers.o \
    "$host/host.o" -o "$host/firmware-host" || fail "Linux build of Firmware/Sources"

# ---- 4. run both
(cd "$outdir" && "$host/firmware-host") >"$outdir/host.txt" || { cat "$outdir/host.txt"; fail "the Linux program failed"; }
runTarget() {  # runTarget ELF OUTPUT.txt — QEMU's microbit, -icount: 64 ns of virtual time per instruction
    local status=0
    (cd "$outdir" && timeout 300 qemu-system-arm -M microbit -nographic -monitor none -serial null \
        -semihosting-config enable=on,target=native -icount shift=6 -kernel "$1") >"$2" 2>&1 || status=$?
    cat "$2"
    [ "$status" -eq 0 ] || fail "$1 under QEMU failed (exit $status)"
}
runTarget "$fw/firmware.elf" "$outdir/target.txt"
runTarget "$fw/firmware-libgcc.elf" "$outdir/target-libgcc.txt" >/dev/null

# ---- 5. x-io Fusion
xio=$outdir/xio
mkdir -p "$xio"
sdist=$xio/imufusion-1.3.3.tar.gz
if [ ! -f "$sdist" ]; then
    echo "check-firmware: downloading x-io Fusion (PyPI sdist imufusion 1.3.3)"
    python3 -m pip download --quiet --no-deps --no-binary imufusion "imufusion==1.3.3" -d "$xio" \
        || fail "pip download imufusion==1.3.3"
fi
rm -rf "$xio/src" && mkdir -p "$xio/src" && tar xzf "$sdist" -C "$xio/src" --strip-components=1
fusion=$xio/src/Fusion
arm-none-eabi-gcc "${arm[@]}" -O2 -nostartfiles -T Firmware/Support/microbit.ld -IFirmware/Support -I"$fusion" \
    "$fw/startup.o" Firmware/XIO/xio_main.c "$fusion"/FusionAhrs.c "$fusion"/FusionBias.c "$fusion"/FusionCompass.c \
    "$fusion"/FusionConvention.c -Wl,--gc-sections -Wl,--no-enum-size-warning -Wl,--no-warn-rwx-segments \
    -lm -lc -lgcc -o "$xio/xio.elf" 2> >(grep -v 'GNU-stack\|deprecated' >&2) || fail "build of x-io Fusion"
runTarget "$xio/xio.elf" "$outdir/xio.txt"

# ---- the line
python3 - "$outdir" <<'EOF'
import re, sys
outdir = sys.argv[1]
def fields(name):
    text = open(f"{outdir}/{name}").read()
    values = {}
    for key, value in re.findall(r"(\w+)=(\S+)", text):
        values.setdefault(key, value)  # the first: the multiply line has a checksum= of its own
    return values, text
target, target_text = fields("target.txt")
host, host_text = fields("host.txt")
xio, _ = fields("xio.txt")
libgcc, libgcc_text = fields("target-libgcc.txt")
def need(d, key, where):
    if key not in d:
        sys.exit(f"check-firmware: FAIL: no {key}= in {where}")
    return d[key]
for key in ("checksum", "calibration_ticks", "ticks_9d", "ticks_6d", "updates", "flash_bytes"):
    need(target, key, "the firmware's output")
need(host, "checksum", "the Linux program's output")
for key in ("xio_ticks_9d", "xio_ticks_6d", "xio_bias_ticks", "calibration_ticks", "xio_updates"):
    need(xio, key, "x-io's output")
def per_update(ticks, calibration, updates):
    # ticks → instructions with the measured ratio (calibration ticks per 10⁶ instructions)
    return int(ticks) * int(need(target, "calibration_instructions", "the firmware's output")) / int(calibration) / int(updates)
i9 = per_update(target["ticks_9d"], target["calibration_ticks"], target["updates"])
i6 = per_update(target["ticks_6d"], target["calibration_ticks"], target["updates"])
x9 = per_update(xio["xio_ticks_9d"], xio["calibration_ticks"], xio["xio_updates"])
x6 = per_update(xio["xio_ticks_6d"], xio["calibration_ticks"], xio["xio_updates"])
xb = per_update(xio["xio_bias_ticks"], xio["calibration_ticks"], xio["xio_updates"])
l9 = per_update(libgcc["ticks_9d"], libgcc["calibration_ticks"], libgcc["updates"])
l6 = per_update(libgcc["ticks_6d"], libgcc["calibration_ticks"], libgcc["updates"])
print(f"check-firmware: with libgcc's __aeabi_lmul instead of Firmware/Support/lmul.S: 9D {l9:.0f}, 6D {l6:.0f} "
      f"instructions (ratio 9D {l9 / x9:.3f}); checksum {libgcc.get('checksum')}")
ram = sum(int(target[k]) for k in ("static_ram_bytes", "heap_bytes", "stack_bytes"))
xram = int(xio["static_ram_bytes"]) + int(xio["stack_bytes"])
print(f"check-firmware: per update on the Cortex-M0: ours 9D {i9:.0f}, 6D {i6:.0f} instructions; "
      f"x-io Fusion 9D {x9:.0f}, 6D {x6:.0f} (+ {xb:.0f} for its gyroscope bias); ratio 9D {i9 / x9:.3f}, 6D {i6 / x6:.3f}")
print(f"check-firmware: x-io Fusion's image: flash {xio.get('flash_bytes')} bytes, RAM {xram} bytes")
# The lines both builds print: the driver's decoded samples and the Int64 products.
checks_target = re.findall(r"^(?:driver|multiply) .*$", target_text, re.M)
checks_host = re.findall(r"^(?:driver|multiply) .*$", host_text, re.M)
ok = target["checksum"] == host["checksum"] == libgcc.get("checksum") and checks_target == checks_host and len(checks_target) == 5
if checks_target != checks_host or len(checks_target) != 5:
    print("check-firmware: FAIL: the driver samples or the Int64 products differ between the firmware and Linux "
          "(or are missing)", file=sys.stderr)
# The firmware's allocator counts: neither the fusion passes nor the driver's reads may allocate.
allocations = dict(re.findall(r"^allocations (\w+)=(\d+)$", target_text, re.M))
if sorted(allocations) != ["fusion_passes", "lsm9ds1_reads", "mpu6050_reads"] or any(v != "0" for v in allocations.values()):
    print(f"check-firmware: FAIL: allocations on the target: {allocations or 'not reported'} (expected none)", file=sys.stderr)
    ok = False
if target["checksum"] != host["checksum"]:
    print("check-firmware: FAIL: the fusion checksums differ", file=sys.stderr)
print(f"checksum={target['checksum']} linux_checksum={host['checksum']} "
      f"instructions_per_update_9d={i9:.0f} instructions_per_update_6d={i6:.0f} "
      f"xio_instructions_per_update_9d={x9:.0f} flash_bytes={target['flash_bytes']} ram_bytes={ram}")
sys.exit(0 if ok else 1)
EOF

if [ "${FIRMWARE_PROFILE:-0}" = 1 ]; then
    echo "check-firmware: where the instructions go, ours then x-io Fusion's"
    python3 Firmware/profile.py "$fw/firmware.elf" "$outdir"
    python3 Firmware/profile.py "$xio/xio.elf" "$outdir" '^FusionAhrsUpdate$' '^FusionAhrsUpdateNoMagnetometer$'
fi
