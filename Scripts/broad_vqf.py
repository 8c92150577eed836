"""The Python half of Scripts/bench-broad.sh: VQF's scores on the BROAD trials, a trial as the
project's replay CSV, and the table that puts the project's scores beside VQF's.

    broad_vqf.py vqf DATASET OUT.json          VQF 2.1.2 (PyPI) 9D and 6D, BROAD metric per trial
                                               (VQF_PARAMS='{"tauAcc": 4}': VQF's keyword
                                               parameters other than its defaults, as JSON)
    broad_vqf.py replay-csv TRIAL.csv OUT.csv  one trial in the replay CSV format (Docs/commands.md)
    broad_vqf.py table DATASET VQF.json [OURS.json]

The metric is the BROAD paper's, the same as IMULog's BROADMetric (see the dataset README):
q_err = q_est * q_true^-1, total 2*acos(|w|), heading 2*atan(|z/w|), inclination
2*acos(sqrt(w^2+z^2)); RMSE in degrees over rows with movement == 1 and known truth. Written
with atan2 (equal for unit quaternions, and exact near zero error) as in the Swift code.
"""

import json
import math
import os
import sys
from pathlib import Path

import numpy as np

GRAVITY = 9.81  # the dataset README's m/s^2 -> g constant


def load_trial(path):
    """Columns by name -> float arrays ('nan' in the truth columns reads as NaN)."""
    with open(path) as f:
        names = f.readline().strip().split(",")
    data = np.loadtxt(path, delimiter=",", skiprows=1, ndmin=2)
    return {name: data[:, i] for i, name in enumerate(names)}


def columns(trial, *names):
    return np.ascontiguousarray(np.column_stack([trial[n] for n in names]), dtype=np.float64)


def sample_period(trial):
    t = trial["t"]
    return (t[-1] - t[0]) / (len(t) - 1)


def quat_multiply(a, b):
    aw, ax, ay, az = a.T
    bw, bx, by, bz = b.T
    return np.column_stack([
        aw * bw - ax * bx - ay * by - az * bz,
        aw * bx + ax * bw + ay * bz - az * by,
        aw * by - ax * bz + ay * bw + az * bx,
        aw * bz + ax * by - ay * bx + az * bw,
    ])


def broad_scores(q_est, trial):
    """RMSE in degrees of the total, heading and inclination errors (the BROAD metric)."""
    q_true = columns(trial, "q_w", "q_x", "q_y", "q_z")
    counted = (trial["movement"] == 1) & ~np.isnan(q_true).any(axis=1)
    est = q_est[counted] / np.linalg.norm(q_est[counted], axis=1, keepdims=True)
    true = q_true[counted] / np.linalg.norm(q_true[counted], axis=1, keepdims=True)
    e = quat_multiply(est, true * np.array([1, -1, -1, -1]))
    w, x, y, z = np.abs(e).T
    horizontal = np.hypot(x, y)
    errors = {
        "total": 2 * np.arctan2(np.hypot(horizontal, z), w),
        "heading": 2 * np.arctan2(z, w),
        "inclination": 2 * np.arctan2(horizontal, np.hypot(w, z)),
    }
    return {k: math.degrees(math.sqrt(np.mean(v ** 2))) for k, v in errors.items()}


def vqf_parameters():
    """VQF's keyword parameters from $VQF_PARAMS (a JSON object; empty: its defaults)."""
    text = os.environ.get("VQF_PARAMS", "").strip()
    if not text:
        return {}
    try:
        parameters = json.loads(text)
    except json.JSONDecodeError as error:
        sys.exit(f"VQF_PARAMS: expected a JSON object such as {{\"tauAcc\": 4}}, got {text!r} ({error})")
    if not isinstance(parameters, dict):
        sys.exit(f"VQF_PARAMS: expected a JSON object such as {{\"tauAcc\": 4}}, got {text!r}")
    return parameters


def run_vqf(dataset, out):
    """VQF with default parameters (or $VQF_PARAMS) from the first sample of each file; 9D and,
    separately, 6D."""
    from vqf import VQF

    parameters = vqf_parameters()
    trials = []
    for path in sorted(Path(dataset).glob("*.csv")):
        trial = load_trial(path)
        gyr = columns(trial, "gyr_x", "gyr_y", "gyr_z")
        acc = columns(trial, "acc_x", "acc_y", "acc_z")  # VQF wants m/s^2, specific force: as recorded
        mag = columns(trial, "mag_x", "mag_y", "mag_z")
        ts = sample_period(trial)
        try:
            nine = broad_scores(VQF(ts, **parameters).updateBatch(gyr, acc, mag)["quat9D"], trial)
        except TypeError as error:  # an unknown parameter name
            sys.exit(f"VQF_PARAMS: {error}")
        six = broad_scores(VQF(ts, **parameters).updateBatch(gyr, acc)["quat6D"], trial)
        trials.append({
            "name": path.stem, "samples": len(gyr),
            "total_deg": nine["total"], "heading_deg": nine["heading"],
            "inclination_deg": nine["inclination"], "inclination_6d_deg": six["inclination"],
        })
    Path(out).write_text(json.dumps({"trials": trials}, indent=1) + "\n")


def replay_csv(trial_path, out):
    """The trial as `imu read --format csv` would have printed it: g with gravity down, rad/s, uT."""
    trial = load_trial(trial_path)
    acc = -columns(trial, "acc_x", "acc_y", "acc_z") / GRAVITY
    rows = np.column_stack([trial["t"], acc, columns(trial, "gyr_x", "gyr_y", "gyr_z"),
                            columns(trial, "mag_x", "mag_y", "mag_z")])
    with open(out, "w") as f:
        f.write(f"# converted from BROAD trial {Path(trial_path).stem} (Laidig et al., Data 2021, CC BY 4.0)\n")
        f.write(f"# rate_hz: {1 / sample_period(trial):.3f}\n")
        f.write("t,acc_x,acc_y,acc_z,gyr_x,gyr_y,gyr_z,mag_x,mag_y,mag_z\n")
        np.savetxt(f, rows, fmt="%.9g", delimiter=",")


def published_vqf(dataset):
    """The dataset README's VQF columns (total, heading, inclination) by trial, plus 'mean'."""
    figures = {}
    readme = Path(dataset) / "README.md"
    if not readme.exists():
        return figures
    for line in readme.read_text().splitlines():
        cells = [c.strip().strip("*") for c in line.strip().strip("|").split("|")]
        if len(cells) >= 4 and (cells[0][:2].isdigit() or cells[0] == "mean"):
            try:
                figures[cells[0]] = [float(c) for c in cells[1:4]]
            except ValueError:
                pass
    return figures


def table(dataset, vqf_json, ours_json=None):
    keys = ["total_deg", "heading_deg", "inclination_deg", "inclination_6d_deg"]
    vqf = {t["name"]: t for t in json.loads(Path(vqf_json).read_text())["trials"]}
    ours = {}
    if ours_json:
        ours = {t["name"]: t for t in json.loads(Path(ours_json).read_text())["trials"]}
        for name, trial in ours.items():
            wrong = [k for k in keys if not isinstance(trial.get(k), (int, float))]
            if wrong:
                sys.exit(f"bench-broad: imu bench broad's trial {name} has no number for {', '.join(wrong)}")
        absent = sorted(set(vqf) - set(ours))
        if absent:
            sys.exit(f"bench-broad: imu bench broad gave no score for {', '.join(absent)}")
    width = max(len(n) for n in vqf) + 2

    def cell(value, width=7):
        return f"{value:{width}.2f}" if value is not None else f"{'–':>{width}}"

    def row(name, o, v):
        get = lambda d, k: d[k] if d else None
        delta = o["total_deg"] - v["total_deg"] if o else None
        return (f"{name:<{width}}" + cell(get(o, keys[0])) + cell(v[keys[0]]) + cell(delta)
                + "".join(cell(get(o, k)) + cell(v[k]) for k in keys[1:]))

    print(f"{'trial':<{width}}{'ours':>7}{'VQF':>7}{'Δ':>7}{'ours':>7}{'VQF':>7}{'ours':>7}{'VQF':>7}{'ours':>7}{'VQF':>7}")
    print(f"{'':<{width}}{'total':>7}{'total':>7}{'':>7}{'head.':>7}{'head.':>7}{'incl.':>7}{'incl.':>7}{'6D in.':>7}{'6D in.':>7}")
    for name in sorted(vqf):
        print(row(name, ours.get(name), vqf[name]))
    # Means over the trials, computed here from the per-trial figures for both sides alike.
    mean = lambda side: {k: float(np.mean([t[k] for t in side.values()])) for k in keys} if side else None
    print(row("mean", mean(ours), mean(vqf)))
    print("RMSE in degrees over movement phases (BROAD metric); Δ = ours − VQF total.")

    published = published_vqf(dataset)
    if published:
        print("\nVQF, this run vs the dataset README's published figures (total / heading / inclination):")
        for name in sorted(vqf) + ["mean"]:
            run = mean(vqf) if name == "mean" else vqf[name]
            pub = published.get(name)
            if pub:
                print(f"{name:<{width}}{run['total_deg']:7.2f}{run['heading_deg']:7.2f}{run['inclination_deg']:7.2f}"
                      f"   published {pub[0]:5.2f}{pub[1]:6.2f}{pub[2]:6.2f}")

    if ours:
        # The fusion issue's goal, checked against VQF's figures from this same run.
        o, v = mean(ours), mean(vqf)
        worst = max(vqf, key=lambda n: ours[n]["total_deg"] - vqf[n]["total_deg"])
        margin = ours[worst]["total_deg"] - vqf[worst]["total_deg"]
        checks = [
            (f"mean total {o['total_deg']:.2f}° ≤ VQF's {v['total_deg']:.2f}°", o["total_deg"] <= v["total_deg"]),
            (f"worst trial {worst}: {margin:+.2f}° vs VQF (limit +1.50°)", margin <= 1.5),
            (f"6D mean inclination {o['inclination_6d_deg']:.2f}° ≤ VQF 6D's {v['inclination_6d_deg']:.2f}°",
             o["inclination_6d_deg"] <= v["inclination_6d_deg"]),
        ]
        print()
        for text, ok in checks:
            print(f"goal: {'met' if ok else 'NOT met'}: {text}")


if __name__ == "__main__":
    commands = {"vqf": run_vqf, "replay-csv": replay_csv, "table": table}
    if len(sys.argv) < 2 or sys.argv[1] not in commands:
        sys.exit(__doc__)
    commands[sys.argv[1]](*sys.argv[2:])
