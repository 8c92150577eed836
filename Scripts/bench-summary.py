"""Reads the markdown report of `swift package benchmark` (Benchmarks/DecodeBenchmark) on stdin
and prints, per benchmark, samples/s (median and fastest run), ns per sample and allocations per
sample, then each driver+twin / twin-only pair's ratio. The fastest run (p0 time) is given too
because on a shared machine the median can land in a slowed-down mode for one benchmark of a
pair and not the other; the best of thousands of runs is the steadier comparison."""

import re
import sys

UNITS = {"": 1, "K": 1e3, "M": 1e6, "G": 1e9}
results = {}
# benchmark name -> {"throughput": p50 samples/s, "ns": p50 ns/sample, "best_ns": p0 ns/sample,
#                    "mallocs": most allocations per sample in any run}
name = None
for line in sys.stdin:
    heading = re.match(r"^### (.+)$", line)
    if heading:
        name = heading.group(1).strip()
        results[name] = {}
        continue
    cells = [c.strip() for c in line.strip().strip("|").split("|")]
    if name is None or len(cells) < 9:
        continue
    metric, p0, p25, p50, p75, p90, p99, p100 = cells[:8]
    throughput = re.match(r"^Throughput \(# / s\)(?: \((\w)\))?$", metric)
    if throughput:
        results[name]["throughput"] = float(p50) * UNITS[throughput.group(1) or ""]
    elif metric.startswith("Time (wall clock) (ns)"):
        results[name]["ns"] = float(p50)
        results[name]["best_ns"] = float(p0)
    elif metric.startswith("Malloc (total)"):
        results[name]["mallocs"] = int(p100)

if not results:
    sys.exit("bench-summary: no benchmark results in the input")

def per_second(ns):
    return 1e9 / ns if ns else 0


print()
print(f"{'benchmark':<32} {'samples/s p50':>14} {'ns p50':>7} {'samples/s best':>15} {'ns best':>8} {'mallocs/sample':>15}")
for bench, r in sorted(results.items()):
    print(
        f"{bench:<32} {r.get('throughput', 0):>14,.0f} {r.get('ns', 0):>7.0f} "
        f"{per_second(r.get('best_ns')):>15,.0f} {r.get('best_ns', 0):>8.0f} {r.get('mallocs', -1):>15}"
    )

print()
print("driver+twin / twin only, samples/s (below 1: the share the driver's decoding costs):")
for bench, r in sorted(results.items()):
    if not bench.endswith(": driver+twin"):
        continue
    case = bench[: -len(": driver+twin")]
    peer = results.get(case + ": twin only")
    if not peer or not r.get("throughput") or not peer.get("throughput"):
        continue
    median = r["throughput"] / peer["throughput"]
    best = peer["best_ns"] / r["best_ns"]
    extra = r["best_ns"] - peer["best_ns"]
    print(f"  {case:<22} p50 {median:4.2f}x   best {best:4.2f}x   (driver: {extra:+.0f} ns per sample, best runs)")
