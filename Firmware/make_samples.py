#!/usr/bin/env python3
"""Writes samples.bin, the excerpt both firmware builds run on: ten little-endian int32 per
sample — gyro (rad/s), acceleration (g, Core Motion sign: -specific force / 9.81), magnetic
field (uT) as Q16.16, then dt (s) as Q2.30 (0 for the first sample: the filter skips it).

From a BROAD trial when the dataset is there (trial 30, stationary magnet: rest, then motion
past a magnet — rest detection, magnetic disturbance and heading corrections); otherwise from a
deterministic synthetic log with the same phases. Prints one line saying which.

Usage: make_samples.py DATASET_DIR OUT.bin [START_S DURATION_S [TRIAL.csv]]
"""
import csv
import math
import os
import struct
import sys

TRIAL = "30_disturbed_stationary_magnet_C.csv"
STANDARD_GRAVITY = 9.81  # the dataset README's constant


def q16(v):
    return max(-(1 << 31), min((1 << 31) - 1, round(v * 65536)))


def q30(v):
    return max(0, min((1 << 31) - 1, round(v * (1 << 30))))


def broad_rows(path, start, duration):
    rows = []
    with open(path, newline="") as f:
        for row in csv.DictReader(f):
            t = float(row["t"])
            if t < start:
                continue
            if t >= start + duration:
                break
            gyro = [float(row[k]) for k in ("gyr_x", "gyr_y", "gyr_z")]
            accel = [-float(row[k]) / STANDARD_GRAVITY for k in ("acc_x", "acc_y", "acc_z")]
            mag = [float(row[k]) for k in ("mag_x", "mag_y", "mag_z")]
            rows.append((t, gyro, accel, mag))
    return rows


def qmul(a, b):
    aw, ax, ay, az = a
    bw, bx, by, bz = b
    return (aw * bw - ax * bx - ay * by - az * bz, aw * bx + ax * bw + ay * bz - az * by,
            aw * by - ax * bz + ay * bw + az * bx, aw * bz + ax * by - ay * bx + az * bw)


def rotate_inverse(q, v):
    """v (earth) in device axes for the attitude q (device -> earth)."""
    w, x, y, z = q
    qc = (w, -x, -y, -z)
    r = qmul(qmul(qc, (0.0, v[0], v[1], v[2])), q)
    return r[1:]


def synthetic_rows(duration, rate=285.714):
    """Rest 8 s, turns about changing axes, a magnet-like field offset from 18 s to 22 s, then (from
    22 s) 2 s still, a 180° turn about the vertical in 2 s, and rest: the field test judges that turn
    the earth's, and the rest after it catches the heading up (issue 28's eleventh pass)."""
    rows = []
    q = (1.0, 0.0, 0.0, 0.0)
    field = (0.0, 18.0, -44.0)  # ENU, uT (roughly Berlin)
    dt = 1 / rate
    n = int(duration * rate)
    for i in range(n):
        t = i * dt
        moving = 8 <= t < min(22, duration - 5)
        s = t - 8
        omega = (0.8 * math.sin(0.9 * s), 0.6 * math.sin(0.5 * s + 1), 1.2 * math.cos(0.3 * s)) if moving else (0.0, 0.0, 0.0)
        if 24 <= t < 26 and t < duration - 5:
            # 180° about the earth's vertical (π/2 · sin-shaped rate over 2 s), in device axes.
            omega = tuple(rotate_inverse(q, (0.0, 0.0, math.pi / 2 * math.pi / 2 * math.sin(math.pi * (t - 24) / 2))))
        gyro = [o + b for o, b in zip(omega, (0.004, -0.003, 0.002))]  # a constant bias
        down = rotate_inverse(q, (0.0, 0.0, -1.0))
        accel = [d + 0.002 * math.sin(37 * t + k) for k, d in enumerate(down)]
        mag = list(rotate_inverse(q, field))
        if 18 <= t < 22:
            mag = [m + d for m, d in zip(mag, (25.0, -10.0, 15.0))]
        rows.append((t, gyro, accel, mag))
        # integrate the true rate (device frame) for the next sample
        angle = math.sqrt(sum(o * o for o in omega)) * dt
        if angle > 0:
            axis = [o * dt / angle for o in omega]
            h = angle / 2
            step = (math.cos(h), axis[0] * math.sin(h), axis[1] * math.sin(h), axis[2] * math.sin(h))
            q = qmul(q, step)
            norm = math.sqrt(sum(c * c for c in q))
            q = tuple(c / norm for c in q)
    return rows


def main():
    if len(sys.argv) not in (3, 5, 6):
        sys.exit(__doc__)
    dataset, out = sys.argv[1], sys.argv[2]
    start, duration = (float(sys.argv[3]), float(sys.argv[4])) if len(sys.argv) >= 5 else (20.0, 32.0)
    trial = sys.argv[5] if len(sys.argv) == 6 else TRIAL
    path = os.path.join(dataset, trial)
    if len(sys.argv) == 6 and not os.path.isfile(path):
        sys.exit(f"make_samples.py: {path}: no such trial")
    if os.path.isfile(path):
        rows = broad_rows(path, start, duration)
        source = f"BROAD {trial[:-4]}, t = {start:g} s to {start + duration:g} s"
    else:
        rows = synthetic_rows(duration)
        source = f"synthetic log ({path} absent): {duration:g} s with rest, turns and a field disturbance"
    with open(out, "wb") as f:
        previous = None
        for t, gyro, accel, mag in rows:
            dt = 0.0 if previous is None else t - previous
            previous = t
            f.write(struct.pack("<10i", *map(q16, gyro), *map(q16, accel), *map(q16, mag), q30(dt)))
    print(f"samples: {len(rows)} from {source}")


if __name__ == "__main__":
    main()
