"""VQF 2.1.2's own state on a BROAD-format trial, every 0.25 s: the counterpart of the Swift
`headingTrace` (Tests/IMUFusionTests/SyntheticWeakSpotsTests.swift) for issue 28's measurements.

    vqf_trace.py TRIAL.csv > vqf-trace.csv

Columns: t, movement, signed heading error against the truth (deg), VQF's rest flag, its
disturbance flag, its rejection time spent (s), reference and candidate norm (µT) and dip (deg),
candidate time (s), the last heading correction angle (deg), its heading gain state (kMagInit),
its bias estimate (deg/s, x y z) and, last, the gyro's mean over the trial's first 25 s (the
still start: the offset to compare the bias with).
"""

import math
import sys

import numpy as np
from vqf import VQF

from broad_vqf import columns, load_trial, quat_multiply, sample_period


def main(argv):
    if len(argv) != 2:
        sys.exit(f"usage: {argv[0]} TRIAL.csv")
    trial = load_trial(argv[1])
    gyr = columns(trial, "gyr_x", "gyr_y", "gyr_z")
    acc = columns(trial, "acc_x", "acc_y", "acc_z")
    mag = columns(trial, "mag_x", "mag_y", "mag_z")
    truth = columns(trial, "q_w", "q_x", "q_y", "q_z")
    t = trial["t"]
    offset = np.degrees(gyr[t - t[0] < 25].mean(axis=0))
    vqf = VQF(sample_period(trial))
    print("t,move,heading_err_deg,rest,disturbed,reject_s,ref_norm,ref_dip_deg,cand_norm,cand_dip_deg,cand_s,"
          "last_err_deg,k_mag_init,bias_x,bias_y,bias_z,offset_x,offset_y,offset_z")
    following = t[0]
    for i in range(len(t)):
        vqf.update(gyr[i], acc[i], mag[i])
        if t[i] < following or np.isnan(truth[i]).any():
            continue
        following += 0.25
        estimate = vqf.getQuat9D().reshape(1, 4)
        e = quat_multiply(estimate, (truth[i] * np.array([1, -1, -1, -1])).reshape(1, 4))[0]
        heading = math.degrees(2 * math.atan2(abs(e[3]), abs(e[0]))) * (-1 if e[3] * e[0] < 0 else 1)
        s = vqf.state
        bias = np.degrees(vqf.getBiasEstimate()[0])
        print(",".join(f"{v:.4g}" if isinstance(v, float) else str(v) for v in (
            float(t[i]), int(trial["movement"][i]), heading, int(s["restDetected"]), int(s["magDistDetected"]),
            float(s["magRejectT"]), float(s["magRefNorm"]), math.degrees(float(s["magRefDip"])),
            float(s["magCandidateNorm"]), math.degrees(float(s["magCandidateDip"])), float(s["magCandidateT"]),
            math.degrees(float(s["lastMagDisAngle"])), float(s["kMagInit"]),
            *map(float, bias), *map(float, offset))))


if __name__ == "__main__":
    main(sys.argv)
