#!/usr/bin/env python3
"""N simulated daemons (`imu run --sim shake --mqtt`) against one local mosquitto, N = 1, 10, 50:
event latency from the daemon's dispatch to an independent subscriber (p50, p99, max), messages
per second through the broker, broker CPU, and each daemon's CPU and resident memory.

Run by Scripts/bench-mqtt.sh (a benchmark, not a test). Latency is measured on this machine's
monotonic clock: the daemon logs `rule fired event={...}` (unbuffered, one write per line) when
it dispatches an event, right after handing it to its MQTT front end; this script reads that line
and the subscriber's copy of the same event (matched by device and the event's `t`) as they come.
Both reads go through pipes, so the figure includes a pipe hop on each side (microseconds on an
idle machine, more when N daemons keep both cores busy: the load average is printed).
"""
import json
import os
import selectors
import signal
import socket
import subprocess
import sys
import tempfile
import time

CLOCK_TICKS = os.sysconf("SC_CLK_TCK")


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def accepts(port):
    try:
        with socket.create_connection(("127.0.0.1", port), timeout=0.2):
            return True
    except OSError:
        return False


def cpu_seconds(pid):
    """utime + stime of a process, seconds (None once it has gone)."""
    try:
        with open(f"/proc/{pid}/stat") as f:
            fields = f.read().rsplit(")", 1)[1].split()
        return (int(fields[11]) + int(fields[12])) / CLOCK_TICKS
    except (OSError, IndexError):
        return None


def rss_kib(pid):
    try:
        with open(f"/proc/{pid}/status") as f:
            for line in f:
                if line.startswith("VmRSS:"):
                    return int(line.split()[1])
    except OSError:
        pass
    return None


def percentile(values, p):
    if not values:
        return float("nan")
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(round(p / 100 * (len(ordered) - 1))))]


RULES = """[[rule]]
name = "relay on shake began"
on = "shake"
phase = "began"
  [[rule.action]]
  gpio-pin = 11
  set = "high"

[[rule]]
name = "relay off when it ended"
on = "shake"
phase = "ended"
  [[rule.action]]
  gpio-pin = 11
  set = "low"

[mqtt]
url = "mqtt://127.0.0.1:{port}"
device-id = "bench-{index}"
motion-interval-ms = 1000
"""


def run(imu, n, seconds, scratch):
    port = free_port()
    conf = os.path.join(scratch, f"mosquitto-{n}.conf")
    with open(conf, "w") as f:
        f.write(f"listener {port} 127.0.0.1\nallow_anonymous true\npersistence false\nlog_dest none\n"
                # 50 clients and more: the default per-listener limit is unlimited; keep it so.
                "max_connections -1\n")
    broker = subprocess.Popen(["/usr/sbin/mosquitto", "-c", conf], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    deadline = time.monotonic() + 10
    while not accepts(port):
        if time.monotonic() > deadline:
            raise SystemExit("mosquitto did not listen")
        time.sleep(0.02)
    subscriber = subprocess.Popen(
        ["/usr/bin/mosquitto_sub", "-h", "127.0.0.1", "-p", str(port), "-t", "#", "-q", "1", "-F", "%t\t%p"],
        stdout=subprocess.PIPE, stderr=subprocess.DEVNULL)
    os.set_blocking(subscriber.stdout.fileno(), False)
    selector = selectors.DefaultSelector()
    selector.register(subscriber.stdout, selectors.EVENT_READ, ("sub", None))
    buffers = {}
    received = {}   # (device index, t) -> monotonic time
    fired = {}      # (device index, t) -> monotonic time
    messages = []   # monotonic times of every message the subscriber got

    def handle(kind, index, line, now):
        if kind == "sub":
            topic, _, payload = line.partition("\t")
            messages.append(now)
            if topic.startswith("imu/bench-") and topic.endswith("/event"):
                event = json.loads(payload)
                if event.get("type") == "shake":
                    received.setdefault((int(topic.split("/")[1][len("bench-"):]), event["t"]), now)
            elif topic == "probe":
                buffers["probe-seen"] = True
        else:
            marker = "rule fired event="
            at = line.find(marker)
            if at >= 0:
                text = line[at + len(marker):]
                event = json.loads(text[: text.index("}") + 1])
                fired[(index, event["t"])] = now

    def pump(timeout):
        for key, _ in selector.select(timeout):
            kind, index = key.data
            now = time.monotonic()
            try:
                chunk = os.read(key.fileobj.fileno(), 65536)
            except BlockingIOError:
                continue
            if not chunk:
                selector.unregister(key.fileobj)
                continue
            data = buffers.get((kind, index), b"") + chunk
            *lines, rest = data.split(b"\n")
            buffers[(kind, index)] = rest
            for line in lines:
                handle(kind, index, line.decode(errors="replace"), now)

    # The subscriber is surely subscribed once it has seen a probe.
    deadline = time.monotonic() + 20
    while not buffers.get("probe-seen"):
        if time.monotonic() > deadline:
            raise SystemExit("the subscriber never saw its probe")
        subprocess.run(["/usr/bin/mosquitto_pub", "-h", "127.0.0.1", "-p", str(port), "-t", "probe", "-m", "x"], check=True)
        pump(0.2)

    daemons = []
    for index in range(n):
        rules = os.path.join(scratch, f"rules-{n}-{index}.toml")
        with open(rules, "w") as f:
            f.write(RULES.format(port=port, index=index))
        daemon = subprocess.Popen(
            [imu, "run", "--config", rules, "--sim", "shake", "--rate", "100", "--duration", str(seconds)],
            stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
        os.set_blocking(daemon.stderr.fileno(), False)
        selector.register(daemon.stderr, selectors.EVENT_READ, ("daemon", index))
        daemons.append(daemon)

    # CPU over the steady part: from 3 s after the start to 1 s before the end.
    started = time.monotonic()
    window = (started + 3, started + seconds - 1)
    first = last = None
    rss = []
    while any(d.poll() is None for d in daemons):
        pump(0.05)
        now = time.monotonic()
        if first is None and now >= window[0]:
            first = (now, cpu_seconds(broker.pid), [cpu_seconds(d.pid) for d in daemons])
        if last is None and now >= window[1]:
            last = (now, cpu_seconds(broker.pid), [cpu_seconds(d.pid) for d in daemons])
            rss = [rss_kib(d.pid) for d in daemons]
            load = open("/proc/loadavg").read().split()[0]
    # Stragglers: what was queued when the daemons stopped.
    end = time.monotonic() + 3
    while time.monotonic() < end:
        pump(0.05)
    subscriber.send_signal(signal.SIGKILL)  # mosquitto_sub does not always act on SIGTERM
    subscriber.wait()
    broker.terminate()
    broker.wait()

    latencies = [(received[key] - t) * 1000 for key, t in fired.items() if key in received]
    lost = sum(1 for key in fired if key not in received)
    span = last[0] - first[0]
    in_window = sum(1 for t in messages if first[0] <= t <= last[0])
    daemon_cpu = [(b - a) / span * 100 for a, b in zip(first[2], last[2]) if a is not None and b is not None]
    rss = [r for r in rss if r is not None]
    return {
        "n": n, "events": len(latencies), "lost": lost,
        "p50": percentile(latencies, 50), "p99": percentile(latencies, 99), "max": max(latencies, default=float("nan")),
        "messages_per_s": in_window / span,
        "broker_cpu": (last[1] - first[1]) / span * 100,
        "daemon_cpu": sum(daemon_cpu) / len(daemon_cpu) if daemon_cpu else float("nan"),
        "daemon_rss_mib": sum(rss) / len(rss) / 1024 if rss else float("nan"),
        "daemon_rss_max_mib": max(rss) / 1024 if rss else float("nan"),
        "load": load,
    }


def main():
    imu, counts, seconds = sys.argv[1], [int(c) for c in sys.argv[2].split(",")], float(sys.argv[3])
    cores = os.cpu_count()
    print(f"### MQTT scale: N daemons on the twin (shake, 100 Hz, {seconds:.0f} s) against one mosquitto, {cores} cores\n")
    print("| N | events matched | lost | latency p50 (ms) | p99 (ms) | max (ms) | messages/s at the broker | broker CPU (% of a core) | CPU per daemon (% of a core) | RSS per daemon (MiB, mean / max) | load average |")
    print("|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|")
    with tempfile.TemporaryDirectory(prefix="imu-bench-mqtt-") as scratch:
        for n in counts:
            r = run(imu, n, seconds, scratch)
            print(f"| {r['n']} | {r['events']} | {r['lost']} | {r['p50']:.2f} | {r['p99']:.2f} | {r['max']:.2f} | "
                  f"{r['messages_per_s']:.0f} | {r['broker_cpu']:.1f} | {r['daemon_cpu']:.1f} | "
                  f"{r['daemon_rss_mib']:.1f} / {r['daemon_rss_max_mib']:.1f} | {r['load']} |", flush=True)


if __name__ == "__main__":
    main()
