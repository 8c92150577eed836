"""Issue 28's measurement: the fusion's reference filter beside VQF 2.1.2 on one trial, from their
state traces (every 0.25 s), summarised as the figures Docs/fusion-accuracy.md quotes.

    SYNTHETIC_TRACE=TRIAL.csv swift test --skip-build --filter headingTrace | grep '^[-0-9]' > ours.csv
    python Scripts/vqf_trace.py TRIAL.csv > vqf.csv
    python Scripts/compare_traces.py ours.csv vqf.csv

Prints, after the first 30 s (the still start): how often and from when each filter says "at
rest" (onsets in s), the heading error's RMS while VQF says rest and while it does not, each
filter's largest and RMS bias error per axis (against the gyro's mean over the still start), and
the share of samples each filter judges the field disturbed. Standard library only.
"""

import csv
import math
import sys

START = 30.0  # BROAD's and the synthetic trials' still start


def rms(values):
    return math.sqrt(sum(v * v for v in values) / len(values)) if values else float("nan")


def onsets(rows, flag):
    found, previous = [], 0
    for t, f in ((r["t"], r[flag]) for r in rows):
        if f and not previous and t > START:
            found.append(t)
        previous = f
    return found


def main(argv):
    if len(argv) != 3:
        sys.exit(f"usage: {argv[0]} OURS.csv VQF.csv")
    # headingTrace has no header line when grepped; its columns are fixed (SyntheticWeakSpotsTests.swift).
    ours = []
    with open(argv[1]) as f:
        for line in csv.reader(f):
            if not line or not line[0][:1] in "-0123456789":
                continue
            ours.append({"t": float(line[3]), "heading": float(line[5]), "rest": int(line[6]), "disturbed": int(line[7]),
                         "bias": [float(v) for v in line[0:3]]})
    with open(argv[2]) as f:
        vqf = [{"t": float(r["t"]), "heading": float(r["heading_err_deg"]), "rest": int(r["rest"]),
                "disturbed": int(r["disturbed"]), "bias": [float(r[f"bias_{a}"]) for a in "xyz"],
                "offset": [float(r[f"offset_{a}"]) for a in "xyz"]} for r in csv.DictReader(f)]
    offset = vqf[0]["offset"]
    by_time = {round(r["t"] * 4): r for r in vqf}
    pairs = [(o, by_time[round(o["t"] * 4)]) for o in ours if o["t"] > START and round(o["t"] * 4) in by_time]

    for name, rows in (("ours", [o for o, _ in pairs]), ("VQF", [v for _, v in pairs])):
        starts = onsets(rows, "rest")
        share = sum(r["rest"] for r in rows) / len(rows)
        print(f"{name:4} rest {share:.1%} of the time, {len(starts)} onsets: {' '.join(f'{t:.1f}' for t in starts)}")
    for label, still in (("VQF at rest", 1), ("VQF in motion", 0)):
        chosen = [(o, v) for o, v in pairs if v["rest"] == still]
        print(f"heading RMS while {label} ({len(chosen)} points): ours {rms([o['heading'] for o, _ in chosen]):.2f}°, "
              f"VQF {rms([v['heading'] for _, v in chosen]):.2f}°")
    for name, index in (("ours", 0), ("VQF", 1)):
        errors = [[p[index]["bias"][a] - offset[a] for p in pairs] for a in range(3)]
        print(f"{name:4} bias error °/s (x y z) max |.| {' '.join(f'{max(map(abs, e)):.3f}' for e in errors)}, "
              f"RMS {' '.join(f'{rms(e):.3f}' for e in errors)}")
        print(f"{name:4} field judged disturbed {sum(p[index]['disturbed'] for p in pairs) / len(pairs):.1%} of the time")


if __name__ == "__main__":
    main(sys.argv)
