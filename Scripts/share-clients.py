#!/usr/bin/python3
"""Three clients of one daemon at once, and one stopped: issue #14's acceptance, measured.

    python3 Scripts/share-clients.py [--imu .build/debug/imu] [--stop-seconds 10]

Starts `imu run --sim seed-sequence --rate 200 --socket S` (the twin turning through its poses) and reads it
with `imu stream --socket S --format jsonl`, `imu events --socket S --format jsonl` and the Python
client (python/) at once, plus a fourth client (the Python client in its own process, raw samples and motion) that is
stopped with SIGSTOP for --stop-seconds and then continued. Checks and prints:
  - the stream and the Python client got the same motion lines (equal timestamps, in order) over
    the time both were reading, and every event's timestamp is one of those motion updates;
  - the Python client's delay per line (arrival minus the line's engine time, less the smallest
    such difference) while the fourth client was stopped, against before it was stopped;
  - the stopped client is told how many lines it lost, and what it got plus what it was told it
    lost covers its time span.
Exits non-zero when a check fails.
"""
import argparse
import json
import os
import signal
import subprocess
import sys
import tempfile
import threading
import time

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), ".."))
sys.path.insert(0, os.path.join(ROOT, "python"))
import imu  # noqa: E402

failures = []


def check(condition, what):
    print(("ok   " if condition else "FAIL ") + what, flush=True)
    if not condition:
        failures.append(what)


def read_lines(process, into):
    """Each JSON line a client process prints, with its arrival time."""
    for raw in process.stdout:
        try:
            into.append((time.monotonic(), json.loads(raw)))
        except ValueError:
            pass


STOPPED_CLIENT = r"""
import json, sys, time
sys.path.insert(0, sys.argv[2])
import imu
with imu.Client(socket=sys.argv[1], timeout=30) as client:
    client.subscribe("samples")
    client.subscribe("motion")
    print("subscribed", flush=True)
    for m in client:
        print(json.dumps({"t": m.t, "lost_before": m.lost_before}), flush=True)
"""


def percentiles(values):
    if not values:
        return "none"
    v = sorted(values)
    return "p50 %.1f ms, p99 %.1f ms, max %.1f ms (%d lines)" % (
        1000 * v[len(v) // 2], 1000 * v[min(len(v) - 1, int(len(v) * 0.99))], 1000 * v[-1], len(v))


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--imu", default=os.path.join(ROOT, ".build", "debug", "imu"))
    parser.add_argument("--stop-seconds", type=float, default=10)
    args = parser.parse_args()

    work = tempfile.mkdtemp(prefix="imu-share-clients-")
    sock = os.path.join(work, "imu.sock")
    rules = os.path.join(work, "rules.toml")
    with open(rules, "w") as f:
        f.write('[[rule]]\nname = "quiet"\non = "slap"\n  [[rule.action]]\n  command = ["/bin/true"]\n')
    env = dict(os.environ, XDG_RUNTIME_DIR=work, IMU_CALIBRATION_DIR=os.path.join(work, "calibration"))
    span = args.stop_seconds + 12
    daemon = subprocess.Popen([args.imu, "run", "--config", rules, "--sim", "seed-sequence", "--rate", "200", "--socket", sock,
                               "--duration", str(span + 30)], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                              env=env, start_new_session=True)
    deadline = time.monotonic() + 60
    while not os.path.exists(sock):
        if daemon.poll() is not None or time.monotonic() > deadline:
            raise SystemExit("imu run did not serve its socket")
        time.sleep(0.05)

    stream_lines, event_lines, stopped_lines = [], [], []
    clients = [
        subprocess.Popen([args.imu, cmd, "--socket", sock, "--format", "jsonl", "--duration", str(span)] + (["--rate", "200"] if cmd == "stream" else []),
                         stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True, env=env)
        for cmd in ("stream", "events")]
    stopped = subprocess.Popen([sys.executable, "-c", STOPPED_CLIENT, sock, os.path.join(ROOT, "python")],
                               stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True, env=env)
    readers = [threading.Thread(target=read_lines, args=(p, into), daemon=True)
               for p, into in ((clients[0], stream_lines), (clients[1], event_lines))]
    for r in readers:
        r.start()
    assert stopped.stdout.readline().strip() == "subscribed"
    threading.Thread(target=read_lines, args=(stopped, stopped_lines), daemon=True).start()

    python_lines = []
    stop_window = []

    def stopper():
        time.sleep(3)
        os.kill(stopped.pid, signal.SIGSTOP)
        stop_window.append(time.monotonic())
        time.sleep(args.stop_seconds)
        os.kill(stopped.pid, signal.SIGCONT)
        stop_window.append(time.monotonic())

    threading.Thread(target=stopper, daemon=True).start()
    with imu.Client(socket=sock, timeout=30) as client:
        client.subscribe("motion")
        end = time.monotonic() + span - 2
        for m in client:
            python_lines.append((time.monotonic(), m.t, m.lost_before))
            if time.monotonic() > end:
                break
    for p in clients:
        p.wait(timeout=60)
    time.sleep(0.5)  # the continued client's backlog
    stopped.kill()
    os.killpg(daemon.pid, signal.SIGTERM)
    daemon.wait(timeout=30)

    # Equal timestamps: the stream's motion lines and the Python client's, where both were reading.
    ts_stream = [round(line["t"], 6) for _, line in stream_lines if "t" in line]
    ts_python = [round(t, 6) for _, t, _ in python_lines]
    common = sorted(set(ts_stream) & set(ts_python))
    lo, hi = (common[0], common[-1]) if common else (0, -1)
    window_stream = [t for t in ts_stream if lo <= t <= hi]
    window_python = [t for t in ts_python if lo <= t <= hi]
    check(len(common) > 100 and window_stream == window_python,
          f"imu stream and the Python client got the same motion lines ({len(common)} equal timestamps, "
          f"{len(window_stream)} vs {len(window_python)} lines over {hi - lo:.1f} s)")
    motion_times = set(ts_stream)
    events = [line for _, line in event_lines if "type" in line]
    check(len(events) >= 1 and all(round(e["t"], 6) in motion_times for e in events if lo <= e["t"] <= hi),
          f"imu events' {len(events)} events are at motion updates the others got")
    check(all(lost == 0 for _, _, lost in python_lines), "the reading Python client lost nothing")

    # Delays of the reading client, before and during the stop.
    base = min(arrival - t for arrival, t, _ in python_lines)
    stop_start, stop_end = stop_window
    before = [arrival - t - base for arrival, t, _ in python_lines if arrival < stop_start]
    during = [arrival - t - base for arrival, t, _ in python_lines if stop_start <= arrival <= stop_end]
    print("delay before the stop: " + percentiles(before))
    print("delay while a client is stopped: " + percentiles(during))
    if before and during:
        check(sorted(during)[int(len(during) * 0.99)] <= max(0.05, 3 * sorted(before)[int(len(before) * 0.99)]),
              "a stopped client does not delay the reading one (p99 during within 3× of before, or under 50 ms)")

    # The stopped client: told its losses, and nothing unaccounted for.
    got = [line for _, line in stopped_lines]
    told = sum(line.get("lost_before", 0) for line in got)
    resumed = [line for arrival, line in stopped_lines if arrival > stop_end]
    check(told > 0 and any(line.get("lost_before", 0) > 0 for line in resumed),
          f"the stopped client is told it lost {told} lines when it resumes")
    if got:
        # Two lines (a sample and its motion) per update the engine made in its span (the updates
        # the reading clients got: the engine may itself lose samples on a loaded machine).
        first = max(round(got[0]["t"], 6), lo)
        mine = [line for line in got if first <= round(line["t"], 6) <= hi]
        mine_lost = sum(line.get("lost_before", 0) for line in mine[1:])
        updates = {t for t in set(ts_stream) | set(ts_python) if first <= t <= hi}
        expected = 2 * len(updates)
        check(abs(len(mine) + mine_lost - expected) <= 4,
              f"received {len(mine)} + told lost {mine_lost} = {len(mine) + mine_lost} of the {expected} lines "
              f"the others' updates mean, over the time all read")
    print(json.dumps({"equal_timestamps": len(common), "events": len(events),
                      "delay_before_p99_ms": round(1000 * sorted(before)[int(len(before) * 0.99)], 1) if before else None,
                      "delay_during_stop_p99_ms": round(1000 * sorted(during)[int(len(during) * 0.99)], 1) if during else None,
                      "stopped_client_told_lost": told, "stopped_client_received": len(got),
                      "failures": failures}, indent=1))
    sys.exit(1 if failures else 0)


if __name__ == "__main__":
    main()
