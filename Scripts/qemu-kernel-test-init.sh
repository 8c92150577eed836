#!/bin/sh
# /init of the initramfs that Scripts/qemu-kernel-test.sh boots: runs `imu` against a real
# /dev/i2c-N of Debian's kernel and checks what it decodes. Busybox sh; everything it needs is
# in the initramfs (busybox, /bin/imu and its libraries, /lib/modules/*.ko, /Boards).
#
# The bus is the kernel's i2c-stub: five virtual chips (0x68 MPU-6050, 0x6a LSM9DS1
# accel/gyro, 0x1c LSM9DS1 magnetometer, 0x69 MPU-9250, 0x0c its AK8963; later 0x6a and 0x1c play
# an LSM6DSOX and its LIS3MDL), each 256 byte-registers that keep whatever is
# written and return it on reads. We preload the identity and output registers, `imu` writes
# its configuration on top (i2c-stub just stores it), and the readings must come out exactly
# as the preloaded counts decode. i2c-stub is SMBus-only (no I2C_FUNC_I2C), so every read
# goes through LinuxI2CBus's SMBus fallback: byte-data reads and I²C block reads (≤ 32 bytes).
#
# Last, i2c-stub is loaded again with an ICM-20948 at 0x68 (register banks, i2c-stub's
# bank_reg) and its AK09916 at 0x0c.
# Prints `PASS name` / `FAIL name: got … expected …` per check and `N passed, M failed` last,
# between the markers the host script looks for, then powers the VM off.
#
# First of all, before any `set` (a host's sh may lack pipefail): this is only ever the VM's
# /init. Run on a host by mistake it would mount over /dev, /proc and /sys and power the
# machine off. Refuse unless this is PID 1 and the initramfs's own marker (which
# qemu-kernel-test.sh puts at its root, and no host has) is there; nothing is touched before.
if [ "$$" != 1 ] || [ ! -e /imu-kernel-test-initramfs ]; then
    echo "qemu-kernel-test-init.sh: refusing to run: this is the /init of the kernel test's VM" \
        "(PID 1 with /imu-kernel-test-initramfs at the root), not a script for this machine" \
        "(PID $$); run Scripts/qemu-kernel-test.sh instead" >&2
    exit 2
fi

# No `set -e`: a failed check must be counted and the run must still reach the summary and
# `poweroff` (if /init exits, the kernel panics and the host only sees a missing summary).
# pipefail so a failing `imu` is not hidden by a pipe.
set -u -o pipefail

export PATH=/bin
export IMU_BOARDS_DIR=/Boards

mount -t devtmpfs devtmpfs /dev
mount -t proc proc /proc
mount -t sysfs sysfs /sys
mkdir -p /tmp
# The initramfs has no /dev/console node of its own (building it needs no root), so the kernel
# started us without stdin/stdout; take the console now that devtmpfs is mounted.
exec </dev/console >/dev/console 2>&1

passed=0
failed=0

# check NAME GOT EXPECTED: string equality; multi-line values are shown joined with " | ".
check() {
    if [ "$2" = "$3" ]; then
        echo "PASS $1"
        passed=$((passed + 1))
    else
        echo "FAIL $1: got '$(printf '%s' "$2" | tr '\n' '|')' expected '$(printf '%s' "$3" | tr '\n' '|')'"
        failed=$((failed + 1))
    fi
}

# contains NAME FILE FIXED-STRING: the file has a line with that text.
contains() {
    if grep -qF -- "$3" "$2"; then
        echo "PASS $1"
        passed=$((passed + 1))
    else
        echo "FAIL $1: got '$(tr '\n' '|' <"$2")' expected a line with '$3'"
        failed=$((failed + 1))
    fi
}

# show FILE: the command's output in the log, indented, for whoever reads a failure.
show() {
    sed 's/^/    | /' "$1"
}

# run NAME ARGS...: runs imu, stdout to /tmp/NAME.out, stderr to /tmp/NAME.err, status in $status.
run() {
    name=$1
    shift
    echo "  \$ imu $*"
    imu "$@" >"/tmp/$name.out" 2>"/tmp/$name.err"
    status=$?
    show "/tmp/$name.out"
    show "/tmp/$name.err"
}

finish() {
    echo "$passed passed, $failed failed"
    echo "=== imu kernel test end"
    sync
    poweroff -f
}

echo "=== imu kernel test begin"
echo "kernel $(uname -r)"

# --- The bus ------------------------------------------------------------------------------
# i2c-core is built into Debian's kernel; i2c-dev gives /dev/i2c-N, i2c-stub the virtual chips.
if ! insmod /lib/modules/i2c-dev.ko || ! insmod /lib/modules/i2c-stub.ko chip_addr=0x68,0x6a,0x1c,0x69,0x0c; then
    check "load i2c-dev and i2c-stub" "insmod failed" "modules loaded"
    finish
fi
bus_number=""
for name in /sys/class/i2c-dev/*/name; do
    if grep -q "SMBus stub driver" "$name" 2>/dev/null; then
        bus_number=$(basename "$(dirname "$name")")
        bus_number=${bus_number#i2c-}
    fi
done
if [ -z "$bus_number" ] || [ ! -c "/dev/i2c-$bus_number" ]; then
    check "find the i2c-stub bus" "no /dev/i2c-N named 'SMBus stub driver'" "one"
    finish
fi
bus=/dev/i2c-$bus_number
echo "i2c-stub is $bus"

# What makes this the SMBus fallback's test: no plain I²C messages (I2C_RDWR), but I²C block
# reads and writes (i2c-stub's default functionality), which LinuxI2CBus uses for bursts.
i2cdetect -F "$bus_number" >/tmp/functions.txt
show /tmp/functions.txt
# function_is NAME: yes or no, as i2cdetect -F prints it for NAME.
function_is() {
    awk -v name="$1" 'substr($0, 1, length(name) + 2) == name "  " { print $NF; exit }' /tmp/functions.txt
}
check "adapter: no plain I2C (the SMBus fallback is under test)" "$(function_is "I2C")" no
check "adapter: I2C block read" "$(function_is "I2C block read")" yes
check "adapter: I2C block write" "$(function_is "I2C block write")" yes

# poke CHIP REGISTER VALUE...: consecutive registers from REGISTER, one SMBus write-byte each.
# Registers are passed as 0x-hex: busybox's i2cset reads a bare number as hex ("59" is 0x59).
poke() {
    chip=$1
    register=$(($2))
    shift 2
    for value in "$@"; do
        i2cset -y "$bus_number" "$chip" "$(printf '0x%02x' "$register")" "$value" b \
            || echo "i2cset $chip $(printf '0x%02x' "$register") $value failed"
        register=$((register + 1))
    done
}

# --- MPU-6050 at 0x68 ---------------------------------------------------------------------
# `imu read` (IMUSettings: ±4 g, ±500 °/s, --rate 10) configures by writing PWR_MGMT_1 (0x6b),
# CONFIG (0x1a), SMPLRT_DIV (0x19), GYRO_CONFIG (0x1b) and ACCEL_CONFIG (0x1c): none of them in
# the output block, so the preloaded outputs survive. It then reads 14 bytes from 0x3b
# (big-endian accel x y z, temperature, gyro x y z) in one I²C block read.
poke 0x68 0x75 0x68                       # WHO_AM_I
# accel x = 0x1000 = 4096 counts = +0.5 g specific force → Core Motion (gravity down) -0.5
# accel y = 0xf000 = -4096 → +0.5; accel z = 0x2000 = 8192 = +1 g → -1.00000 (lying face up)
# temperature = 0xf2b8 = -3400 → -3400/340 + 36.53 = 26.53 °C
# gyro x = 0x028f = 655 = 10 °/s → 0.17453 rad/s; y = 0xfae2 = -1310 = -20 °/s → -0.34907;
# z = 0x0041 = 65 = 0.99237 °/s → 0.01732 rad/s (65.5 counts per °/s)
poke 0x68 0x3b 0x10 0x00 0xf0 0x00 0x20 0x00 0xf2 0xb8 0x02 0x8f 0xfa 0xe2 0x00 0x41
mpu_expected="-0.50000,0.50000,-1.00000,0.17453,-0.34907,0.01732,,,,26.53"

# --- LSM9DS1 accel/gyro at 0x6a -----------------------------------------------------------
poke 0x6a 0x0f 0x68                       # WHO_AM_I
# The driver reads 15 bytes from OUT_TEMP_L (0x15): temperature (2), STATUS (1), gyro (6),
# accel (6), little-endian. On the real chip the address pointer jumps from OUT_Z_H_G (0x1d)
# to OUT_X_L_XL (0x28), so the accel bytes come from 0x28–0x2d; i2c-stub just increments, so
# the bytes the driver decodes as acceleration are stub registers 0x1e–0x23. Those overlap
# CTRL_REG6_XL (0x20) and CTRL_REG8 (0x22), which `configure` writes after we preload:
#   0x20 (accel y low byte) ← CTRL_REG6_XL = ODR 14.9 Hz (1 << 5) | FS ±4 g (2 << 3) = 0x30
#   0x22 (accel z low byte) ← CTRL_REG8 = BDU | IF_ADD_INC = 0x44
# so only the high bytes are ours, and the expected values include the driver's writes — a
# check that they reached the chip.
# temperature = 0x00a0 = 160 → 25 + 160/16 = 35.00 °C
# gyro x = 0x03e8 = 1000 → 17.5 °/s; y = 0xf830 = -2000 → -35 °/s; z = 0x0190 = 400 → 7 °/s
#   (0.0175 °/s per count at ±500 °/s)
# accel x = 0x1000 = 4096 → 0.49971 g; y = 0xf0|0x30 = -4048 → -0.49386 g;
#   z = 0x20|0x44 = 8260 → 1.00772 g (0.000122 g per count at ±4 g)
poke 0x6a 0x15 0xa0 0x00 0x00 0xe8 0x03 0x30 0xf8 0x90 0x01 0x00 0x10 0x00 0xf0 0x00 0x20
# Decoys where the real chip keeps the accel outputs: a driver or bus that read here on
# i2c-stub would be reading the wrong registers.
poke 0x6a 0x28 0x7f 0x7f 0x7f 0x7f 0x7f 0x7f

# --- LSM9DS1 magnetometer at 0x1c ---------------------------------------------------------
poke 0x1c 0x0f 0x3d                       # WHO_AM_I_M
# The driver reads OUT_X_L_M (0x28) with the sub-address MSB set (0x28 | 0x80 = 0xa8), which
# the real magnetometer needs to auto-increment. i2c-stub has 256 plain registers and takes
# 0xa8 literally, so the field goes at 0xa8–0xad; 0x28–0x2d hold decoys (a driver that forgot
# the flag reads them).
# x = 0x03e8 = 1000, y = 0xf830 = -2000, z = 0x0bb8 = 3000 counts, 0.014 µT each at ±4 gauss
poke 0x1c 0xa8 0xe8 0x03 0x30 0xf8 0xb8 0x0b
poke 0x1c 0x28 0x11 0x11 0x11 0x11 0x11 0x11
# Core Motion axes: the driver negates the magnetometer's x (its axes differ from the
# accel/gyro part's), chip frame: accel (-0.49971, 0.49386, -1.00772) g, rotation (0.30543,
# -0.61087, 0.12217) rad/s, field (-14, -28, 42) µT. The Sense HAT profile mounts the chip
# ["-x", "-y", "+z"]: device x and y are the chip's negated.
sense_hat_expected="0.49971,-0.49386,-1.00772,-0.30543,0.61087,0.12217,14.000,28.000,42.000,35.00"

# --- MPU-9250 at 0x69 (AD0 high) and its AK8963 at 0x0c -----------------------------------
# The same registers as the MPU-6050 where the maps agree; `configure` also writes ACCEL_CONFIG 2
# (0x1d) and reads it back (i2c-stub keeps it: the clone check passes), and INT_PIN_CFG (0x37)
# BYPASS_EN. On the real part the AK8963 answers only through that bypass; i2c-stub always
# answers, so the scan lists 0x0c too.
poke 0x69 0x75 0x71                       # WHO_AM_I: MPU-9250
# accel, gyro as the MPU-6050's above; temperature -3400 → -3400/333.87 + 21 = 10.82 °C (the
# 6500 map's formula, not the 6050's 26.53)
poke 0x69 0x3b 0x10 0x00 0xf0 0x00 0x20 0x00 0xf2 0xb8 0x02 0x8f 0xfa 0xe2 0x00 0x41
poke 0x0c 0x00 0x48                       # WIA
# Fuse ROM ASAX–ASAZ: 0xc0, 0x80, 0x40 → adjustments 1.25, 1.00, 0.75 (i2c-stub returns them in
# any mode; the real part only in fuse ROM access mode, which the driver enters).
poke 0x0c 0x10 0xc0 0x80 0x40
# ST1 (DRDY), HX = 1000, HY = -2000, HZ = 3000 (little-endian), ST2 = BITM (16-bit, no overflow):
# the driver reads these 8 bytes from 0x02 in one block read, ending with ST2.
poke 0x0c 0x02 0x01 0xe8 0x03 0x30 0xf8 0xb8 0x0b 0x10
# Its own axes: 1000 × 0.15 × 1.25 = 187.5, -2000 × 0.15 = -300, 3000 × 0.15 × 0.75 = 337.5 µT;
# in the accel/gyro axes (x = its y, y = its x, z = -its z): (-300, 187.5, -337.5) µT.
mpu9250_expected="-0.50000,0.50000,-1.00000,0.17453,-0.34907,0.01732,-300.000,187.500,-337.500,10.82"
# A GY-9250 with AD0 tied high: no shipped profile has that address, so the test writes one.
cat >/tmp/gy-9250-ad0-high.toml <<'TOML'
title = "GY-9250 (MPU-9250, AD0 high)"
kind = "hat"

[[imu]]
chip = "MPU-9250"
address = 0x69
TOML

# --- imu probe ----------------------------------------------------------------------------
run probe probe --bus "$bus"
check "probe: exit status" "$status" 0
check "probe: bus line" "$(head -n 1 /tmp/probe.out)" "$bus (SMBus stub driver): 0x0c 0x1c 0x68 0x69 0x6a"
contains "probe: MPU-6050 at 0x68" /tmp/probe.out \
    "  MPU-6050  at 0x68: accelerometer, gyroscope, thermometer, fifo, motion-interrupt, data-ready-interrupt"
contains "probe: LSM9DS1 at 0x6a with magnetometer 0x1c" /tmp/probe.out \
    "  LSM9DS1   at 0x6a + magnetometer 0x1c: accelerometer, gyroscope, magnetometer, thermometer, fifo, motion-interrupt, data-ready-interrupt"
contains "probe: MPU-9250 at 0x69 with its AK8963 at 0x0c" /tmp/probe.out \
    "  MPU-9250  at 0x69 + magnetometer 0x0c: accelerometer, gyroscope, magnetometer, thermometer, fifo, motion-interrupt, data-ready-interrupt"

# The scan must agree with busybox's i2cdetect on the same bus.
i2cdetect_addresses=$(i2cdetect -y "$bus_number" | awk 'NR > 1 { for (i = 2; i <= NF; i++) if ($i != "--") printf "0x%s ", $i }')
check "probe: addresses as i2cdetect" "$(head -n 1 /tmp/probe.out | sed 's/^.*: //') " "$i2cdetect_addresses"

run probe_json probe --bus "$bus" --json
check "probe --json: exit status" "$status" 0
# JSONSerialization pretty-prints with sorted keys; compare the compacted text.
tr -d ' \n' </tmp/probe_json.out >/tmp/probe_json.compact
contains "probe --json: addresses" /tmp/probe_json.compact '"addresses":["0x0c","0x1c","0x68","0x69","0x6a"]'
contains "probe --json: adapter" /tmp/probe_json.compact '"adapter":"SMBusstubdriver"'
contains "probe --json: MPU-6050 at 0x68" /tmp/probe_json.compact \
    '{"address":"0x68","capabilities":["accelerometer","gyroscope","thermometer","fifo","motion-interrupt","data-ready-interrupt"],"name":"MPU-6050"}'
contains "probe --json: LSM9DS1 at 0x6a with magnetometer 0x1c" /tmp/probe_json.compact \
    '{"address":"0x6a","capabilities":["accelerometer","gyroscope","magnetometer","thermometer","fifo","motion-interrupt","data-ready-interrupt"],"magnetometerAddress":"0x1c","name":"LSM9DS1"}'

# --- imu read: MPU-6050 (GY-521) ----------------------------------------------------------
# rows FILE: the CSV's sample rows without the timestamp column.
rows() {
    grep -v '^#' "$1" | tail -n +2 | cut -d, -f2-
}
# increasing FILE: "yes" when the timestamps strictly increase.
increasing() {
    grep -v '^#' "$1" | tail -n +2 | awk -F, 'NR > 1 && $1 <= last { bad = 1 } { last = $1 } END { print (bad || NR == 0) ? "no" : "yes" }'
}
# three LINE: LINE three times (three identical samples).
three() {
    printf '%s\n%s\n%s' "$1" "$1" "$1"
}

run gy521 read --bus "$bus" --board gy-521 --count 3 --format csv
check "read gy-521: exit status" "$status" 0
contains "read gy-521: chip line" /tmp/gy521.out "# chip: MPU-6050"
contains "read gy-521: bus line" /tmp/gy521.out "# bus: $bus"
check "read gy-521: 3 samples decoded" "$(rows /tmp/gy521.out)" "$(three "$mpu_expected")"
check "read gy-521: timestamps increase" "$(increasing /tmp/gy521.out)" yes
# What configure wrote, through SMBus write-byte-data (i2c-stub kept it): SMPLRT_DIV 99
# (1 kHz / 100 = 10 Hz), CONFIG DLPF 6 (5 Hz ≤ half the rate), GYRO_CONFIG FS 1 (±500 °/s),
# ACCEL_CONFIG AFS 1 (±4 g), PWR_MGMT_1 = PLL on gyro x (0x01) | SLEEP (0x40), set on exit.
check "read gy-521: configuration registers" \
    "$(for r in 0x19 0x1a 0x1b 0x1c 0x6b; do i2cget -y "$bus_number" 0x68 "$r" b; done)" \
    "$(printf '0x63\n0x06\n0x08\n0x08\n0x41')"

# --- imu read: MPU-6050 FIFO path (--rate 200) --------------------------------------------
# At ≥ 200 Hz `imu read` drains the FIFO: FIFO_COUNT (0x72, big-endian), then that many bytes
# from FIFO_R_W (0x74), a port whose address does not advance. Over SMBus that is I²C block
# reads of ≤ 32 bytes that must each start at 0x74 again. i2c-stub is not a FIFO: a block
# read from 0x74 returns registers 0x74, 0x75, … So with FIFO_COUNT = 36 (three 12-byte
# frames) the driver gets registers 0x74–0x93 (32 bytes) then 0x74–0x77 (4 bytes):
#   frame 1 = 0x74–0x7f, frame 2 = 0x80–0x8b, frame 3 = 0x8c–0x93 + 0x74–0x77.
# Frame layout: accel x y z, gyro x y z, big-endian. 0x75 is WHO_AM_I (0x68), so frame 1's
# accel x is 0x0068 = 104 counts → -0.01270 g. 0x94–0x97 hold decoys that a bus advancing the
# register between chunks would return as frame 3's gyro y and z.
poke 0x68 0x72 0x00 0x24                  # FIFO_COUNT = 36
poke 0x68 0x74 0x00                       # frame 1: accel x high (low = WHO_AM_I 0x68)
poke 0x68 0x76 0x10 0x00 0x20 0x00 0x02 0x8f 0x00 0x00 0x00 0x00
poke 0x68 0x80 0x00 0x00 0x00 0x00 0xe0 0x00 0x00 0x00 0x02 0x8f 0x00 0x00
poke 0x68 0x8c 0x20 0x00 0x00 0x00 0x00 0x00 0x00 0x00
poke 0x68 0x94 0x7f 0xff 0x7f 0xff
# frame 1: accel (104, 4096, 8192), gyro (655, 0, 0)     → -0.01270, -0.50000, -1.00000, 0.17453, 0, 0
# frame 2: accel (0, 0, -8192), gyro (0, 655, 0)         → 0, 0, 1.00000, 0, 0.17453, 0
# frame 3: accel (8192, 0, 0), gyro (0, 0x0068, 0x1000)  → -1.00000, 0, 0, 0, 0.02771, 1.09143
#   (104 and 4096 counts / 65.5 = 1.5878 and 62.5344 °/s)
fifo_expected="-0.01270,-0.50000,-1.00000,0.17453,0.00000,0.00000,,,,
0.00000,0.00000,1.00000,0.00000,0.17453,0.00000,,,,
-1.00000,0.00000,0.00000,0.00000,0.02771,1.09143,,,,"
run fifo read --bus "$bus" --board gy-521 --rate 200 --count 3 --format csv
check "read gy-521 FIFO: exit status" "$status" 0
check "read gy-521 FIFO: 3 frames over chunked SMBus block reads" "$(rows /tmp/fifo.out)" "$fifo_expected"
# FIFO_EN = accel + gyro (0x78); USER_CTRL = FIFO_EN (0x40), after FIFO_RESET.
check "read gy-521 FIFO: FIFO registers" \
    "$(for r in 0x23 0x6a; do i2cget -y "$bus_number" 0x68 "$r" b; done)" "$(printf '0x78\n0x40')"

# --- imu read: LSM9DS1 (Sense HAT) --------------------------------------------------------
run sensehat read --bus "$bus" --board sense-hat --count 3 --format csv
check "read sense-hat: exit status" "$status" 0
contains "read sense-hat: chip line" /tmp/sensehat.out "# chip: LSM9DS1"
check "read sense-hat: 3 samples decoded and mounted" "$(rows /tmp/sensehat.out)" "$(three "$sense_hat_expected")"
check "read sense-hat: timestamps increase" "$(increasing /tmp/sensehat.out)" yes
# CTRL_REG8 = 0x44 (BDU, IF_ADD_INC); CTRL_REG1_M = UHP x/y (0x60) | 40 Hz (6 << 2) = 0x78;
# CTRL_REG2_M = ±4 gauss (0); CTRL_REG4_M = UHP z (0x0c); CTRL_REG3_M = power-down (0x03) and
# CTRL_REG1_G / CTRL_REG6_XL = 0, both from sleep() on exit.
check "read sense-hat: configuration registers" \
    "$(i2cget -y "$bus_number" 0x6a 0x22 b; i2cget -y "$bus_number" 0x6a 0x10 b; i2cget -y "$bus_number" 0x6a 0x20 b
       for r in 0x20 0x21 0x23 0x22; do i2cget -y "$bus_number" 0x1c "$r" b; done)" \
    "$(printf '0x44\n0x00\n0x00\n0x78\n0x00\n0x0c\n0x03')"

# --- imu read: MPU-9250 with its AK8963 ---------------------------------------------------
run gy9250 read --bus "$bus" --board /tmp/gy-9250-ad0-high.toml --count 3 --format csv
check "read gy-9250: exit status" "$status" 0
contains "read gy-9250: chip line" /tmp/gy9250.out "# chip: MPU-9250"
check "read gy-9250: 3 samples, nine axes, ASA and axes applied" "$(rows /tmp/gy9250.out)" "$(three "$mpu9250_expected")"
# CONFIG DLPF 6 and ACCEL_CONFIG 2 A_DLPF 6 (5 Hz ≤ half of 10 Hz), INT_PIN_CFG BYPASS_EN;
# the AK8963's CNTL1 power-down (0x00) after sleep() on exit.
check "read gy-9250: configuration registers" \
    "$(for r in 0x1a 0x1d 0x37; do i2cget -y "$bus_number" 0x69 "$r" b; done; i2cget -y "$bus_number" 0x0c 0x0a b)" \
    "$(printf '0x06\n0x06\n0x02\n0x00')"

# --- The kernel's own driver: an MPU-6050 read through IIO (issue 27) ---------------------
# Debian's inv_mpu6050 binds the MPU-6050 at 0x68 on i2c-stub (`new_device`; no IRQ, so no
# trigger or buffer: its sysfs channels only). The address is then the kernel's (i2cdetect's
# UU, EBUSY for I2C_SLAVE): `imu probe` must name the driver and its IIO device, and `imu read`
# must read the chip through IIO. The driver's probe resets the chip and writes its own
# configuration; the output registers 0x3b–0x48 keep the counts preloaded above.
iio_loaded=yes
for module in $(cat /lib/modules/iio-order); do
    insmod "/lib/modules/$module.ko" || { echo "insmod $module failed"; iio_loaded=no; }
done
check "iio: load the IIO core, inv-mpu6050 and st_lsm6dsx" "$iio_loaded" yes
echo mpu6050 0x68 >"/sys/bus/i2c/devices/i2c-$bus_number/new_device"
client=/sys/bus/i2c/devices/$bus_number-0068
check "iio: inv-mpu6050-i2c bound to 0x68" "$(basename "$(readlink "$client/driver" 2>/dev/null)")" inv-mpu6050-i2c
iio_node=$(cd "$client" 2>/dev/null && ls -d iio:device* 2>/dev/null | head -n 1)
check "iio: the driver made an IIO device" "$(cat "$client/$iio_node/name" 2>/dev/null)" mpu6050
iio=$client/$iio_node
echo "iio device: $iio_node ($(ls "$iio" | tr '\n' ' '))"
# The kernel's own reading of the preloaded counts (accel 4096, -4096, 8192; gyro 655, -1310, 65).
check "iio: the kernel reads the preloaded counts" \
    "$(for c in accel_x accel_y accel_z anglvel_x anglvel_y anglvel_z; do cat "$iio/in_${c}_raw"; done | tr '\n' ' ')" \
    "4096 -4096 8192 655 -1310 65 "

run iio_probe probe --bus "$bus"
check "iio probe: exit status" "$status" 0
contains "iio probe: 0x68 named with its driver and IIO device" /tmp/iio_probe.out \
    "UU        at 0x68: the address 0x68 is claimed by the kernel driver inv-mpu6050-i2c: unbind it (echo $bus_number-0068 | sudo tee /sys/bus/i2c/drivers/inv-mpu6050-i2c/unbind), or read it through its IIO device $iio_node (mpu6050)"

# What imu must print, computed here from the kernel's own attributes (awk, not imu's code):
# acceleration -(raw × scale) / 9.80665 g (IIO gives specific force in m/s²; Core Motion's sign
# is gravity down), rotation raw × scale rad/s, temperature (raw + offset) × scale / 1000 °C.
a_scale=$(cat "$iio/in_accel_scale")
g_scale=$(cat "$iio/in_anglvel_scale")
t_offset=$(cat "$iio/in_temp_offset")
t_scale=$(cat "$iio/in_temp_scale")
iio_expected=$(awk -v as="$a_scale" -v gs="$g_scale" -v to="$t_offset" -v ts="$t_scale" \
    -v ax="$(cat "$iio/in_accel_x_raw")" -v ay="$(cat "$iio/in_accel_y_raw")" -v az="$(cat "$iio/in_accel_z_raw")" \
    -v gx="$(cat "$iio/in_anglvel_x_raw")" -v gy="$(cat "$iio/in_anglvel_y_raw")" -v gz="$(cat "$iio/in_anglvel_z_raw")" \
    -v t="$(cat "$iio/in_temp_raw")" 'BEGIN {
        printf "%.5f,%.5f,%.5f,%.5f,%.5f,%.5f,,,,%.2f", -ax * as / 9.80665, -ay * as / 9.80665, -az * as / 9.80665,
            gx * gs, gy * gs, gz * gs, (t + to) * ts / 1000 }' | sed 's/-0\.00000/0.00000/g')
echo "iio expected: $iio_expected (accel scale $a_scale, anglvel scale $g_scale, temp offset $t_offset scale $t_scale)"

run iio_read read --bus "$bus" --board gy-521 --count 3 --format csv
check "iio read gy-521: exit status" "$status" 0
contains "iio read gy-521: chip line" /tmp/iio_read.out "# chip: MPU-6050"
contains "iio read gy-521: bus line names the kernel driver" /tmp/iio_read.out "# bus: $bus, kernel driver inv-mpu6050-i2c"
check "iio read gy-521: 3 samples through IIO" "$(rows /tmp/iio_read.out)" "$(three "$iio_expected")"
check "iio read gy-521: timestamps increase" "$(increasing /tmp/iio_read.out)" yes

# Events run on the IIO device like on any other: the first orientation is reported from the
# IIO samples; a device lying still gives no shake and no slap.
run iio_events events --bus "$bus" --board gy-521 --duration 2 --format jsonl
check "iio events gy-521: exit status" "$status" 0
check "iio events gy-521: no error" "$(cat /tmp/iio_events.err)" ""
contains "iio events gy-521: an orientation event from the IIO samples" /tmp/iio_events.out '"type":"orientation"'
check "iio events gy-521: no shake or slap lying still" "$(grep -cE '"type":"(shake|slap)' /tmp/iio_events.out)" 0

# --- The kernel's own st_lsm6dsx: an LSM9DS1 through two IIO devices (accel, gyro) -----------
# st_lsm6dsx binds the LSM9DS1 accel/gyro at 0x6a as `lsm9ds1-imu` and makes one IIO device for
# each sensor. It reads the chip's real output registers: gyro from 0x18 (the counts preloaded
# above: 1000, -2000, 400) and accel from 0x28 (the decoys: 0x7f7f = 32639 on each axis). The
# magnetometer at 0x1c stays unbound (st_magn_i2c did not bind it on i2c-stub), so no field.
echo lsm9ds1-imu 0x6a >"/sys/bus/i2c/devices/i2c-$bus_number/new_device"
lsm=/sys/bus/i2c/devices/$bus_number-006a
check "iio: st_lsm6dsx_i2c bound to 0x6a" "$(basename "$(readlink "$lsm/driver" 2>/dev/null)")" st_lsm6dsx_i2c
# iio_named NAME: the IIO device directory under the LSM9DS1's client with that name.
iio_named() {
    for d in "$lsm"/iio:device*; do [ "$(cat "$d/name" 2>/dev/null)" = "$1" ] && echo "$d"; done
}
lsm_accel=$(iio_named lsm9ds1-imu_accel)
lsm_gyro=$(iio_named lsm9ds1-imu_gyro)
check "iio: st_lsm6dsx made an accel and a gyro IIO device" "$([ -n "$lsm_accel" ] && [ -n "$lsm_gyro" ] && echo both)" both
check "iio: the kernel reads the LSM9DS1's counts" \
    "$(for c in accel_x accel_y accel_z; do cat "$lsm_accel/in_${c}_raw"; done; for c in anglvel_x anglvel_y anglvel_z; do cat "$lsm_gyro/in_${c}_raw"; done)" \
    "$(printf '32639\n32639\n32639\n1000\n-2000\n400')"
# The Sense HAT mounts the chip ["-x", "-y", "+z"]: device x and y are the chip's negated.
lsm_expected=$(awk -v as="$(cat "$lsm_accel/in_accel_scale")" -v gs="$(cat "$lsm_gyro/in_anglvel_scale")" \
    -v ax="$(cat "$lsm_accel/in_accel_x_raw")" -v ay="$(cat "$lsm_accel/in_accel_y_raw")" -v az="$(cat "$lsm_accel/in_accel_z_raw")" \
    -v gx="$(cat "$lsm_gyro/in_anglvel_x_raw")" -v gy="$(cat "$lsm_gyro/in_anglvel_y_raw")" -v gz="$(cat "$lsm_gyro/in_anglvel_z_raw")" \
    'BEGIN { printf "%.5f,%.5f,%.5f,%.5f,%.5f,%.5f,,,,", ax * as / 9.80665, ay * as / 9.80665, -az * as / 9.80665,
        -gx * gs, -gy * gs, gz * gs }' | sed 's/-0\.00000/0.00000/g')
echo "iio expected (sense-hat): $lsm_expected"
run iio_sensehat read --bus "$bus" --board sense-hat --count 3 --format csv
check "iio read sense-hat: exit status" "$status" 0
contains "iio read sense-hat: chip line" /tmp/iio_sensehat.out "# chip: LSM9DS1"
contains "iio read sense-hat: bus line names the kernel driver" /tmp/iio_sensehat.out "# bus: $bus, kernel driver st_lsm6dsx_i2c"
check "iio read sense-hat: 3 samples from two IIO devices, mounted" "$(rows /tmp/iio_sensehat.out)" "$(three "$lsm_expected")"

# The drivers let go of 0x68 and 0x6a again: the checks below write and read them directly.
echo 0x68 >"/sys/bus/i2c/devices/i2c-$bus_number/delete_device"
echo 0x6a >"/sys/bus/i2c/devices/i2c-$bus_number/delete_device"
check "iio: the kernel's clients removed" "$([ -e "$client" ] || [ -e "$lsm" ] && echo bound || echo gone)" gone

# --- imu read: LSM6DSOX + LIS3MDL (Adafruit) at 0x6a / 0x1c --------------------------------
# The LSM9DS1 checks are done: the same two stub addresses now play an LSM6DSOX and its LIS3MDL
# (i2c-stub just stores bytes; the LIS3MDL answers WHO_AM_I 0x3d as the LSM9DS1's
# magnetometer does, and is read the same way, with the sub-address MSB set).
poke 0x6a 0x0f 0x6c                       # WHO_AM_I: LSM6DSOX
# The driver reads 14 bytes from OUT_TEMP_L (0x20): temperature, gyro x y z (0x22), accel x y z
# (0x28), little-endian, consecutive on the real chip as on i2c-stub. `configure` writes CTRL3_C
# (0x12), CTRL1_XL (0x10) and CTRL2_G (0x11), outside the outputs.
# temperature = 0x0a00 = 2560 → 25 + 2560/256 = 35.00 °C
# gyro x = 1000, y = -2000, z = 400 counts × 0.0175 °/s (±500 °/s) → 0.30543, -0.61087, 0.12217 rad/s
# accel x = 4096, y = -4096, z = 8192 counts × 0.000122 g (±4 g) → -0.49971, 0.49971, -0.99942
#   (Core Motion's sign: gravity down)
poke 0x6a 0x20 0x00 0x0a 0xe8 0x03 0x30 0xf8 0x90 0x01 0x00 0x10 0x00 0xf0 0x00 0x20
# LIS3MDL x = 6842, y = -6842, z = 3421 counts at 6842 LSB/gauss (±4 gauss) → 100, -100, 50 µT,
# its axes the LSM6DSOX's; 0x28–0x2d still hold the decoys poked above.
poke 0x1c 0xa8 0xba 0x1a 0x46 0xe5 0x5d 0x0d
lsm6dsox_expected="-0.49971,0.49971,-0.99942,0.30543,-0.61087,0.12217,100.000,-100.000,50.000,35.00"
run lsm6dsox read --bus "$bus" --board lsm6dsox-lis3mdl --count 3 --format csv
check "read lsm6dsox-lis3mdl: exit status" "$status" 0
contains "read lsm6dsox-lis3mdl: chip line" /tmp/lsm6dsox.out "# chip: LSM6DSOX"
check "read lsm6dsox-lis3mdl: 3 samples, nine axes" "$(rows /tmp/lsm6dsox.out)" "$(three "$lsm6dsox_expected")"
# CTRL3_C = BDU | IF_INC (0x44); CTRL1_XL / CTRL2_G = 0 from sleep() on exit; LIS3MDL
# CTRL_REG1 = UHP x/y (0x60) | 40 Hz (6 << 2) = 0x78, CTRL_REG2 = ±4 gauss (0), CTRL_REG4 = UHP z
# (0x0c), CTRL_REG5 = BDU (0x40), CTRL_REG3 = power-down (0x03) from sleep().
check "read lsm6dsox-lis3mdl: configuration registers" \
    "$(for r in 0x12 0x10 0x11; do i2cget -y "$bus_number" 0x6a "$r" b; done
       for r in 0x20 0x21 0x23 0x24 0x22; do i2cget -y "$bus_number" 0x1c "$r" b; done)" \
    "$(printf '0x44\n0x00\n0x00\n0x78\n0x00\n0x0c\n0x40\n0x03')"

# --- Errors from the kernel ---------------------------------------------------------------
# Nothing at 0x6b: i2c-stub answers ENODEV (a real adapter: ENXIO or EREMOTEIO), which must
# read as "no device answered".
run absent read --bus "$bus" --board adafruit-lsm9ds1 --count 1 --format csv
check "read at an empty address: fails" "$([ "$status" -ne 0 ] && echo failed || echo "status $status")" failed
contains "read at an empty address: says so" /tmp/absent.err "no device answered at 0x6b on $bus"

run nobus read --bus /dev/i2c-9 --board gy-521 --count 1
check "read on a missing bus: fails" "$([ "$status" -ne 0 ] && echo failed || echo "status $status")" failed
contains "read on a missing bus: says so" /tmp/nobus.err "there is no I²C bus /dev/i2c-9"

# --- ICM-20948 and its AK09916, on i2c-stub reloaded with register banks -----------------
# 0x68 and 0x0c are the MPU-6050's and the AK8963's above, so i2c-stub is loaded again with
# two chips: the ICM-20948 at 0x68, banked as the real part (i2c-stub's bank_reg/bank_mask:
# a write to REG_BANK_SEL 0x7f selects bits 5:4's bank for registers 0x00–0x7e; bank 0 is the
# plain registers), and its AK09916 at 0x0c (on the real part behind INT_PIN_CFG BYPASS_EN).
rmmod i2c-stub
if ! insmod /lib/modules/i2c-stub.ko chip_addr=0x68,0x0c bank_reg=0x7f bank_mask=0x30 bank_start=0x00 bank_end=0x7e; then
    check "reload i2c-stub with banks for the ICM-20948" "insmod failed" "module loaded"
    finish
fi
for name in /sys/class/i2c-dev/*/name; do
    if grep -q "SMBus stub driver" "$name" 2>/dev/null; then
        bus_number=$(basename "$(dirname "$name")")
        bus_number=${bus_number#i2c-}
    fi
done
bus=/dev/i2c-$bus_number
poke 0x68 0x00 0xea                       # WHO_AM_I (bank 0)
# From ACCEL_XOUT_H (0x2d): accel (4096, -4096, 8192), gyro (655, -1310, 65), temperature
# -3400 → ±4 g, ±500 °/s: (-0.5, 0.5, -1) g, (10, -20, 0.99) °/s, -3400/333.87 + 21 = 10.82 °C.
poke 0x68 0x2d 0x10 0x00 0xf0 0x00 0x20 0x00 0x02 0x8f 0xfa 0xe2 0x00 0x41 0xf2 0xb8
poke 0x0c 0x01 0x09                       # WIA2
# ST1 (DRDY), HX = 1000, HY = -2000, HZ = 3000 (little-endian), TMPS, ST2: one block read from
# 0x10 to 0x18. 0.15 µT/LSB: (150, -300, 450) µT in its axes, (150, 300, -450) in the accel's.
poke 0x0c 0x10 0x01 0xe8 0x03 0x30 0xf8 0xb8 0x0b 0x00 0x00
icm_expected="-0.50000,0.50000,-1.00000,0.17453,-0.34907,0.01732,150.000,300.000,-450.000,10.82"

run icmprobe probe --bus "$bus"
contains "probe: ICM-20948 at 0x68 with its AK09916 at 0x0c" /tmp/icmprobe.out \
    "  ICM-20948  at 0x68 + magnetometer 0x0c: accelerometer, gyroscope, magnetometer, thermometer, fifo, motion-interrupt, data-ready-interrupt"
run icm read --bus "$bus" --board icm20948 --count 3 --format csv
check "read icm20948: exit status" "$status" 0
check "read icm20948: 3 samples, nine axes, the AK09916's axes turned" "$(rows /tmp/icm.out)" "$(three "$icm_expected")"
# Bank 0 after the run: WHO_AM_I still 0xea (bank 2's GYRO_SMPLRT_DIV, also at 0x00, went to its
# bank), PWR_MGMT_1 SLEEP | CLKSEL 1 from sleep() on exit, INT_PIN_CFG BYPASS_EN, bank 0 left
# selected; the AK09916's CNTL2 power-down.
check "read icm20948: bank 0 registers" \
    "$(for r in 0x00 0x06 0x0f 0x7f; do i2cget -y "$bus_number" 0x68 "$r" b; done; i2cget -y "$bus_number" 0x0c 0x31 b)" \
    "$(printf '0xea\n0x41\n0x02\n0x00\n0x00')"
# Bank 2 (10 Hz): GYRO_SMPLRT_DIV 109 (1.1 kHz / 110), GYRO_CONFIG_1 DLPF 6 | ±500 °/s | FCHOICE,
# ACCEL_SMPLRT_DIV 112 (1.125 kHz / 113), ACCEL_CONFIG DLPF 6 | ±4 g | FCHOICE.
i2cset -y "$bus_number" 0x68 0x7f 0x20 b
check "read icm20948: bank 2 registers" \
    "$(for r in 0x00 0x01 0x10 0x11 0x14; do i2cget -y "$bus_number" 0x68 "$r" b; done)" \
    "$(printf '0x6d\n0x33\n0x00\n0x70\n0x33')"
i2cset -y "$bus_number" 0x68 0x7f 0x00 b

finish
