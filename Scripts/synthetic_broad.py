"""Synthetic trials of the two motions the fusion's heading handles worst (issue 28), in BROAD's
trial format (so `imu bench broad --dataset DIR` and `broad_vqf.py vqf DIR` score them exactly as
they score BROAD) and, beside each, the same samples as a replay CSV (`imu replay`).

    synthetic_broad.py DIR [SEED [SENSITIVITY]]   writes DIR/{A,B}_*.csv (BROAD) and DIR/replay/*.csv

SENSITIVITY: the gyro sensitivities' range in % (default 0.3: within ±0.3 % of nominal; the
datasheets allow ±3 %, the real trials of issue 28's kinds behave like ±2 %). The random draws
are the same whatever the range, so only the sensitivities differ from the default trials.

(A) fast turns of several hundred °/s separated by rests; (B) a walk past a fixed magnetic
dipole: the field's norm and dip change near it, then return. The truth is the attitude the
gyro rates were integrated from, so it is exact. Sensor model "like BROAD's IMU" (the rest
phases of the shared trials, 285.714 Hz): white noise of 0.004 rad/s (gyro), 0.03 m/s²
(accelerometer) and 0.3 µT (magnetometer) per sample, a constant gyro offset of a few tenths
of °/s and sensitivities within 0.3 % of nominal (the datasheets allow ±3 %), an Earth field
of 43 µT at a dip of 68°. Each trial starts with 30 s at rest (movement = 0), as BROAD's do.
Deterministic: numpy's PCG64 with a fixed seed, and nothing else random.
"""

import math
import sys
from pathlib import Path

import numpy as np

RATE_HZ = 2000 / 7  # 285.714 Hz, BROAD's
DT = 1 / RATE_HZ
GRAVITY = 9.81
EARTH_FIELD = 43.0 * np.array([0.0, math.cos(math.radians(68)), -math.sin(math.radians(68))])  # ENU, µT
GYRO_NOISE, ACCEL_NOISE, MAG_NOISE = 0.004, 0.03, 0.3
INITIAL_REST = 30.0


def quat_mul(a, b):
    aw, ax, ay, az = a
    bw, bx, by, bz = b
    return np.array([
        aw * bw - ax * bx - ay * by - az * bz,
        aw * bx + ax * bw + ay * bz - az * by,
        aw * by - ax * bz + ay * bw + az * bx,
        aw * bz + ax * by - ay * bx + az * bw,
    ])


def rotation_matrix(q):
    w, x, y, z = q
    return np.array([
        [1 - 2 * (y * y + z * z), 2 * (x * y - w * z), 2 * (x * z + w * y)],
        [2 * (x * y + w * z), 1 - 2 * (x * x + z * z), 2 * (y * z - w * x)],
        [2 * (x * z - w * y), 2 * (y * z + w * x), 1 - 2 * (x * x + y * y)],
    ])


def step(q, omega):
    """q advanced by a constant body rate omega (rad/s) over DT, exactly."""
    angle = np.linalg.norm(omega) * DT
    if angle == 0:
        return q
    axis = omega / np.linalg.norm(omega)
    dq = np.concatenate([[math.cos(angle / 2)], math.sin(angle / 2) * axis])
    q = quat_mul(q, dq)
    return q / np.linalg.norm(q)


def random_axis(rng):
    v = rng.normal(size=3)
    return v / np.linalg.norm(v)


def dipole_field(position, dipole_position, moment):
    """µT of a point dipole (moment in A·m²) at `position` (m), ENU."""
    r = position - dipole_position
    d = np.linalg.norm(r)
    u = r / d
    return 1e-7 * (3 * np.dot(moment, u) * u - moment) / d ** 3 * 1e6


class Sensor:
    """BROAD-like IMU: offsets, sensitivities and noise fixed by the seed."""

    def __init__(self, rng, sensitivity_range=0.003):
        self.rng = rng
        self.gyro_offset = np.radians(rng.uniform(-0.4, 0.4, size=3))
        # The same draw whatever the range, so a wider range changes only the sensitivities.
        self.gyro_scale = 1 + rng.uniform(-sensitivity_range, sensitivity_range, size=3)

    def row(self, q, omega, linear_accel_enu, field_enu):
        r_t = rotation_matrix(q).T  # ENU -> sensor
        gyr = self.gyro_scale * omega + self.gyro_offset + self.rng.normal(scale=GYRO_NOISE, size=3)
        acc = r_t @ (np.array([0, 0, GRAVITY]) + linear_accel_enu) + self.rng.normal(scale=ACCEL_NOISE, size=3)
        mag = r_t @ field_enu + self.rng.normal(scale=MAG_NOISE, size=3)
        return gyr, acc, mag


def fast_turns_with_rests(rng, sensitivity_range, bursts=10):
    """(A) Bursts of 3–5 s of half-sine turns (peaks 300–800 °/s, random axes), rests of 4–8 s."""
    sensor = Sensor(rng, sensitivity_range)
    q = quat_mul(np.array([math.cos(0.6), 0, 0, math.sin(0.6)]), np.array([math.cos(0.15), math.sin(0.15), 0, 0]))
    lever = np.array([0.02, 0.01, 0.0])  # sensor 2 cm from the centre of the hand's turns
    rows = []
    t = 0.0

    def emit(omega, alpha, movement):
        nonlocal q, t
        # centripetal and tangential acceleration of a sensor `lever` from the turn's centre
        body_accel = np.cross(alpha, lever) + np.cross(omega, np.cross(omega, lever))
        gyr, acc, mag = sensor.row(q, omega, rotation_matrix(q) @ body_accel, EARTH_FIELD)
        rows.append((t, gyr, acc, mag, movement, q.copy()))
        q = step(q, omega)
        t += DT

    for _ in range(int(INITIAL_REST * RATE_HZ)):
        emit(np.zeros(3), np.zeros(3), 0)
    for _ in range(bursts):
        burst_end = t + rng.uniform(3, 5)
        while t < burst_end:
            axis = random_axis(rng)
            peak = math.radians(rng.uniform(300, 800))
            duration = rng.uniform(0.25, 0.7)
            n = int(duration * RATE_HZ)
            for i in range(n):
                phase = math.pi * i / n
                emit(peak * math.sin(phase) * axis, peak * math.pi / duration * math.cos(phase) * axis, 1)
        for _ in range(int(rng.uniform(4, 8) * RATE_HZ)):
            emit(np.zeros(3), np.zeros(3), 1)
    return rows


def walk_past_a_dipole(rng, sensitivity_range, passes=8):
    """(B) Carried back and forth along 4 m at 0.5 m/s past a magnet 0.25 m beside the path
    (the field's norm and dip change by tens of µT and degrees, then return), the device facing
    along the walk with a hand's wobble, turning round at each end, resting 2–4 s there."""
    sensor = Sensor(rng, sensitivity_range)
    dipole = np.array([0.0, 0.25, -0.1])
    moment = 3.0 * random_axis(rng)  # A·m²: up to ~30 µT at 0.27 m
    wobble = [(math.radians(rng.uniform(4, 10)), rng.uniform(0.5, 1.5), rng.uniform(0, 2 * math.pi), random_axis(rng))
              for _ in range(3)]
    rows = []
    t = 0.0
    yaw = 0.0  # heading of the walk direction: device y axis along the walk, face up
    q = np.array([math.cos(-math.pi / 4), 0, 0, math.sin(-math.pi / 4)])  # top pointing east
    position = np.array([-2.0, 0.0, 0.0])

    def emit(omega, linear_accel, movement):
        nonlocal q, t
        field = EARTH_FIELD + dipole_field(position, dipole, moment)
        gyr, acc, mag = sensor.row(q, omega, linear_accel, field)
        rows.append((t, gyr, acc, mag, movement, q.copy()))
        q = step(q, omega)
        t += DT

    def wobble_rate(time):
        return sum(a * w * 2 * math.pi * math.cos(2 * math.pi * w * time + p) * axis for a, w, p, axis in wobble)

    for _ in range(int(INITIAL_REST * RATE_HZ)):
        emit(np.zeros(3), np.zeros(3), 0)
    direction = 1.0
    speed = 0.5
    for _ in range(passes):
        walk = 4.0 / speed
        n = int(walk * RATE_HZ)
        start = t
        for i in range(n):
            # the speed ramps up and down (sin² profile), so the walk's acceleration is smooth
            s = i / n
            v = speed * 2 * math.sin(math.pi * s) ** 2
            a = speed * 2 * math.pi / walk * math.sin(2 * math.pi * s)
            position[0] += direction * v * DT
            emit(wobble_rate(t - start) * (1 - math.cos(2 * math.pi * s)) / 2, np.array([direction * a, 0, 0]), 1)
        for _ in range(int(rng.uniform(2, 4) * RATE_HZ)):
            emit(np.zeros(3), np.zeros(3), 1)
        # turn round about the vertical (ENU z), 180° in 2 s, half-sine rate
        n = int(2 * RATE_HZ)
        for i in range(n):
            rate_enu = np.array([0, 0, math.pi / 2 * math.pi / 2 * math.sin(math.pi * i / n)])
            emit(rotation_matrix(q).T @ rate_enu, np.zeros(3), 1)
        direction = -direction
    return rows


def write_broad(rows, path):
    with open(path, "w") as f:
        f.write("t,gyr_x,gyr_y,gyr_z,acc_x,acc_y,acc_z,mag_x,mag_y,mag_z,movement,q_w,q_x,q_y,q_z\n")
        for t, gyr, acc, mag, movement, q in rows:
            values = [t, *gyr, *acc, *mag]
            f.write(",".join(f"{v:.9g}" for v in values) + f",{movement}," + ",".join(f"{v:.9g}" for v in q) + "\n")


def write_replay(rows, path, name):
    with open(path, "w") as f:
        f.write(f"# synthetic trial {name} (Scripts/synthetic_broad.py)\n")
        f.write(f"# rate_hz: {RATE_HZ:.3f}\n")
        f.write("t,acc_x,acc_y,acc_z,gyr_x,gyr_y,gyr_z,mag_x,mag_y,mag_z\n")
        for t, gyr, acc, mag, _, _ in rows:
            values = [t, *(-acc / GRAVITY), *gyr, *mag]
            f.write(",".join(f"{v:.9g}" for v in values) + "\n")


def main(argv):
    if len(argv) not in (2, 3, 4):
        sys.exit(f"usage: {argv[0]} DIR [SEED [SENSITIVITY_PERCENT]]")
    out = Path(argv[1])
    try:
        seed = int(argv[2]) if len(argv) >= 3 else 28
    except ValueError:
        sys.exit(f"{argv[0]}: SEED: expected an integer, got {argv[2]!r}")
    try:
        sensitivity_percent = float(argv[3]) if len(argv) == 4 else 0.3
    except ValueError:
        sensitivity_percent = math.nan
    if not 0 <= sensitivity_percent <= 10:
        sys.exit(f"{argv[0]}: SENSITIVITY_PERCENT: expected a number from 0 to 10, got {argv[3]!r}")
    sensitivity_range = 0.003 if len(argv) < 4 else sensitivity_percent / 100
    (out / "replay").mkdir(parents=True, exist_ok=True)
    rng = np.random.default_rng(seed)
    for name, make in (("A_fast_turns_with_rests", fast_turns_with_rests), ("B_walk_past_a_dipole", walk_past_a_dipole)):
        rows = make(rng, sensitivity_range)
        write_broad(rows, out / f"{name}.csv")
        write_replay(rows, out / "replay" / f"{name}.csv", name)


if __name__ == "__main__":
    main(sys.argv)
