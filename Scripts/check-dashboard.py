#!/usr/bin/python3
"""The dashboard in a real browser: Debian's Chromium, headless, driven through the DevTools
protocol (CDP) over a WebSocket (Debian's python3-websocket: websocket-client 1.2).

    /usr/bin/python3 Scripts/check-dashboard.py --imu .build/debug/imu [--out DIR] [--ten]

Starts `imu run --config RULES --sim tumble --http 127.0.0.1:PORT --duration S` (the interface
outside checks use), opens the page and checks, reading the page itself:
  1. frame rate: the page's own count of animation frames over >= 3 s (>= 30 fps);
  2. attitude: the board's CSS transform, decoded back into a rotation, against the motion lines
     the daemon sent (a second WebSocket client here) at the time the page says it drew;
     the largest difference over >= 60 frames must be <= 2 degrees;
  3. the graphs advance (their time and their pixels change);
  4. events: each event line the page logged, against when the twin produced it (its `t` on
     the engine's clock, mapped onto the wall clock through /api/status), <= 0.3 s;
  5. screenshots at 1280x800 and 390x844 (PNG, in --out);
  6. magnetometer calibration through the page (allow-control): the browser signed in as a user
     does (the link `imu token` prints; control needs the token on loopback too), the Magnetometer
     button, the twin tumbling, until the page says saved; the file exists and its accuracy is
     high; the daemon's output never shows the token;
  7. with --ten: ten pages at once at 50 Hz: the daemon's CPU and memory, and no samples lost.
Prints one JSON object of figures; exits non-zero when a check fails.
"""
import argparse
import base64
import json
import math
import os
import signal
import socket
import subprocess
import sys
import tempfile
import time
import urllib.request

import websocket  # websocket-client

failures = []


def check(condition, what):
    print(("ok   " if condition else "FAIL ") + what, flush=True)
    if not condition:
        failures.append(what)


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


# ---- the daemon -------------------------------------------------------------------------------

class Daemon:
    def __init__(self, imu, rules, port, duration, scenario, board, env):
        self.port = port
        self.log = tempfile.NamedTemporaryFile(prefix="imu-run-", suffix=".log", delete=False)
        args = [imu, "run", "--config", rules, "--sim", scenario, "--http", f"127.0.0.1:{port}", "--duration", str(duration)]
        if board:
            args += ["--board", board]
        self.process = subprocess.Popen(args, stdout=self.log, stderr=subprocess.STDOUT, env=env, start_new_session=True)
        self.base = f"http://127.0.0.1:{port}"
        # Ready when /api/status answers (the daemon binds before it reads the chip).
        deadline = time.monotonic() + 60
        while True:
            try:
                self.status()
                return
            except OSError:
                if self.process.poll() is not None or time.monotonic() > deadline:
                    raise SystemExit(f"imu run did not serve: {open(self.log.name).read()[-2000:]}")
                time.sleep(0.1)

    def get(self, path):
        with urllib.request.urlopen(self.base + path, timeout=10) as r:
            return json.loads(r.read())

    def status(self):
        return self.get("/api/status")

    def clock_offset(self):
        """wall clock - engine clock, from the /api/status round trip with the smallest delay."""
        best = None
        for _ in range(7):
            before = time.time()
            t = self.status()["t"]
            after = time.time()
            if best is None or after - before < best[0]:
                best = (after - before, (before + after) / 2 - t)
        return best[1], best[0]

    def cpu_seconds(self):
        with open(f"/proc/{self.process.pid}/stat") as f:
            fields = f.read().rsplit(")", 1)[1].split()
        return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")

    def rss_kb(self):
        with open(f"/proc/{self.process.pid}/status") as f:
            for line in f:
                if line.startswith("VmRSS:"):
                    return int(line.split()[1])

    def stop(self):
        if self.process.poll() is None:
            os.killpg(self.process.pid, signal.SIGTERM)
            try:
                self.process.wait(30)
            except subprocess.TimeoutExpired:
                os.killpg(self.process.pid, signal.SIGKILL)
                self.process.wait()


class MotionRecorder:
    """A WebSocket client of our own: every motion line the daemon sends, with its quaternion."""

    def __init__(self, base):
        self.ws = websocket.create_connection(base.replace("http", "ws") + "/ws", timeout=10)
        self.ws.send(json.dumps({"subscribe": ["motion"], "rate_hz": 50}))
        self.lines = []

    def drain(self, through_t, seconds=10):
        """Reads lines until one at or past engine time `through_t` (the lines keep coming at
        50 Hz, so "until quiet" never ends), or until `seconds` pass."""
        deadline = time.monotonic() + seconds
        self.ws.settimeout(0.5)
        while time.monotonic() < deadline and not (self.lines and self.lines[-1][0] >= through_t):
            try:
                line = json.loads(self.ws.recv())
            except (websocket.WebSocketTimeoutException, TimeoutError):
                continue
            if "quat_w" in line:
                self.lines.append((line["t"], [line["quat_w"], line["quat_x"], line["quat_y"], line["quat_z"]]))

    def attitude_at(self, t):
        """The line quaternion interpolated (slerp) at engine time t; None outside the record."""
        ls = self.lines
        for i in range(1, len(ls)):
            if ls[i - 1][0] <= t <= ls[i][0]:
                (ta, qa), (tb, qb) = ls[i - 1], ls[i]
                f = 0 if tb == ta else (t - ta) / (tb - ta)
                return slerp(qa, qb, f)
        if ls and abs(ls[-1][0] - t) < 1e-9:
            return ls[-1][1]
        return None


# ---- rotations --------------------------------------------------------------------------------

def slerp(a, b, f):
    dot = sum(x * y for x, y in zip(a, b))
    if dot < 0:
        b, dot = [-x for x in b], -dot
    if dot > 0.9995:
        q = [x + f * (y - x) for x, y in zip(a, b)]
    else:
        th = math.acos(dot)
        q = [(math.sin((1 - f) * th) * x + math.sin(f * th) * y) / math.sin(th) for x, y in zip(a, b)]
    n = math.sqrt(sum(x * x for x in q))
    return [x / n for x in q]


def rotation_of(q):
    w, x, y, z = q
    return [[1 - 2 * (y * y + z * z), 2 * (x * y - w * z), 2 * (x * z + w * y)],
            [2 * (x * y + w * z), 1 - 2 * (x * x + z * z), 2 * (y * z - w * x)],
            [2 * (x * z - w * y), 2 * (y * z + w * x), 1 - 2 * (x * x + y * y)]]


def rotation_from_css(transform):
    """The board's attitude from its computed CSS transform (matrix3d, column-major): the page
    draws T = M.R.D (M: world to CSS axes, D: the board's layout), so R = M.T.D (M, D involutions)."""
    values = [float(v) for v in transform[transform.index("(") + 1:-1].split(",")]
    T = [[values[c * 4 + r] for c in range(3)] for r in range(3)]
    M = [[1, 0, 0], [0, 0, -1], [0, -1, 0]]
    D = [[1, 0, 0], [0, -1, 0], [0, 0, 1]]
    mul = lambda A, B: [[sum(A[i][k] * B[k][j] for k in range(3)) for j in range(3)] for i in range(3)]
    return mul(mul(M, T), D)


def angle_between(Ra, Rb):
    """Degrees of the rotation taking Ra to Rb."""
    trace = sum(Ra[k][i] * Rb[k][i] for i in range(3) for k in range(3))  # trace(Ra^T Rb)
    return math.degrees(math.acos(max(-1.0, min(1.0, (trace - 1) / 2))))


# ---- the browser ------------------------------------------------------------------------------

class Chromium:
    def __init__(self, profile):
        self.process = subprocess.Popen(
            ["chromium", "--headless=new", "--no-sandbox", "--disable-gpu", "--hide-scrollbars", "--no-first-run",
             "--disable-background-timer-throttling", "--disable-renderer-backgrounding",
             "--disable-backgrounding-occluded-windows", f"--user-data-dir={profile}",
             "--remote-debugging-port=0", "--window-size=1280,800", "about:blank"],
            stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True, start_new_session=True)
        # Chromium prints the browser's DevTools address on standard error when it is ready.
        for line in self.process.stderr:
            if line.startswith("DevTools listening on "):
                self.browser_url = line.split(" ", 3)[3].strip()
                break
        else:
            raise SystemExit("chromium did not start its DevTools endpoint")
        self.http = "http://" + self.browser_url.split("/")[2]
        self.pages = []

    def open_page(self, url, width=1280, height=800, mobile=False):
        req = urllib.request.Request(self.http + "/json/new?about:blank", method="PUT")
        with urllib.request.urlopen(req, timeout=10) as r:
            target = json.loads(r.read())
        page = Page(target["webSocketDebuggerUrl"])
        page.size(width, height, mobile)
        page.navigate(url)
        self.pages.append(page)
        return page

    def close(self):
        for page in self.pages:
            page.close()
        if self.process.poll() is None:
            os.killpg(self.process.pid, signal.SIGTERM)
            try:
                self.process.wait(15)
            except subprocess.TimeoutExpired:
                os.killpg(self.process.pid, signal.SIGKILL)
                self.process.wait()


class Page:
    def __init__(self, url):
        self.ws = websocket.create_connection(url, timeout=30, suppress_origin=True)
        self.next_id = 0

    def call(self, method, **params):
        self.next_id += 1
        self.ws.send(json.dumps({"id": self.next_id, "method": method, "params": params}))
        while True:
            message = json.loads(self.ws.recv())
            if message.get("id") == self.next_id:
                if "error" in message:
                    raise RuntimeError(f"{method}: {message['error']}")
                return message["result"]

    def evaluate(self, expression):
        result = self.call("Runtime.evaluate", expression=expression, returnByValue=True, awaitPromise=True)
        if "exceptionDetails" in result:
            raise RuntimeError(f"{expression}: {result['exceptionDetails']}")
        return result["result"].get("value")

    def size(self, width, height, mobile):
        self.call("Emulation.setDeviceMetricsOverride", width=width, height=height,
                  deviceScaleFactor=2 if mobile else 1, mobile=mobile)

    def navigate(self, url):
        self.call("Page.enable")
        self.call("Page.navigate", url=url)
        self.wait_for("document.readyState === 'complete' && window.imuDashboard !== undefined", 30)

    def wait_for(self, condition, seconds):
        """Polls a page condition (the page's state, not a sleep: it returns as soon as it holds)."""
        deadline = time.monotonic() + seconds
        while time.monotonic() < deadline:
            if self.evaluate(f"!!({condition})"):
                return True
            time.sleep(0.05)
        return False

    def screenshot(self, path):
        data = self.call("Page.captureScreenshot", format="png", captureBeyondViewport=False)["data"]
        with open(path, "wb") as f:
            f.write(base64.b64decode(data))

    def close(self):
        try:
            self.ws.close()
        except Exception:
            pass


# ---- the checks -------------------------------------------------------------------------------

def follow_attitude(daemon, page, figures):
    recorder = MotionRecorder(daemon.base)
    page.wait_for("window.imuDashboard.shown && window.imuDashboard.motionLines > 100", 30)
    frames0 = page.evaluate("window.imuDashboard.frames")
    start = time.monotonic()
    worst, samples = 0.0, 0
    graph0 = page.evaluate("[window.imuDashboard.graphEnd, document.getElementById('graph-attitude').toDataURL().length]")
    pixels0 = page.evaluate("document.getElementById('graph-acceleration').toDataURL()")
    readings = []
    while time.monotonic() - start < 4 or samples < 60:
        shown = page.evaluate(
            "(() => { const s = window.imuDashboard.shown; "
            "return {t: s.t, transform: getComputedStyle(document.getElementById('board')).transform}; })()")
        readings.append(shown)
        samples += 1
        recorder.drain(through_t=shown["t"], seconds=0.5)  # keeps up, so the daemon drops none of its lines
        if time.monotonic() - start > 30:
            break
    frames = page.evaluate("window.imuDashboard.frames") - frames0
    elapsed = time.monotonic() - start
    recorder.drain(through_t=max(shown["t"] for shown in readings))
    for shown in readings:
        truth = recorder.attitude_at(shown["t"])
        if truth is None:
            continue
        worst = max(worst, angle_between(rotation_of(truth), rotation_from_css(shown["transform"])))
    compared = sum(1 for s in readings if recorder.attitude_at(s["t"]) is not None)
    graph1 = page.evaluate("[window.imuDashboard.graphEnd, document.getElementById('graph-attitude').toDataURL().length]")
    pixels1 = page.evaluate("document.getElementById('graph-acceleration').toDataURL()")
    fps = page.evaluate("window.imuDashboard.fps")
    figures["page_fps_reported"] = round(fps, 1)
    figures["page_frames_per_s_measured"] = round(frames / elapsed, 1)
    figures["attitude_frames_compared"] = compared
    figures["attitude_worst_error_deg"] = round(worst, 3)
    check(frames / elapsed >= 30, f"the page draws >= 30 frames a second ({frames / elapsed:.1f})")
    check(compared >= 60, f"the board's transform was compared in >= 60 frames ({compared})")
    check(worst <= 2.0, f"the board follows the twin's attitude within 2 deg (worst {worst:.3f} deg)")
    check(graph1[0] > graph0[0] and pixels1 != pixels0, "the graphs advance")
    recorder.ws.close()


def events_shown(daemon, page, figures):
    offset, rtt = daemon.clock_offset()
    page.wait_for("window.imuDashboard.events.length >= 3", 40)
    events = page.evaluate("window.imuDashboard.events")
    shown = page.evaluate("document.getElementById('events').children.length")
    latencies = [e["shownAtMs"] / 1000 - (e["t"] + offset) for e in events]
    figures["events_seen"] = len(events)
    figures["event_latency_max_s"] = round(max(latencies), 4) if latencies else None
    figures["clock_mapping_rtt_s"] = round(rtt, 4)
    check(len(events) >= 1 and shown >= len(events[-200:]), f"events show in the log ({len(events)})")
    check(bool(latencies) and max(latencies) <= 0.3, f"each event shows within 0.3 s of the twin producing it (max {max(latencies or [9]):.3f} s)")


def screenshots(daemon, browser, out, figures):
    for name, (w, h, mobile) in {"dashboard-1280x800.png": (1280, 800, False), "dashboard-390x844.png": (390, 844, True)}.items():
        page = browser.open_page(daemon.base + "/", w, h, mobile)
        page.wait_for("window.imuDashboard.motionLines > 200 && window.imuDashboard.events.length > 0", 30)
        page.screenshot(os.path.join(out, name))
        # Nothing overlapping: no two panels' boxes intersect, and nothing is wider than the screen.
        overlap = page.evaluate("""(() => {
            const boxes = [...document.querySelectorAll('.panel')].map(p => p.getBoundingClientRect());
            for (let i = 0; i < boxes.length; i++) for (let j = i + 1; j < boxes.length; j++) {
              const a = boxes[i], b = boxes[j];
              if (a.left < b.right - 1 && b.left < a.right - 1 && a.top < b.bottom - 1 && b.top < a.bottom - 1) return true; }
            return document.documentElement.scrollWidth > window.innerWidth; })()""")
        check(not overlap, f"{name}: no panels overlap, nothing wider than the screen")
        figures.setdefault("screenshots", []).append(os.path.join(out, name))
        page.close()
        browser.pages.remove(page)


def sign_in_link(imu, rules, port, env):
    """The one-time sign-in link, as a user gets it: `imu token` (the daemon never logs it)."""
    out = subprocess.run([imu, "token", "--config", rules, "--http", f"127.0.0.1:{port}"], env=env,
                         capture_output=True, text=True, timeout=30)
    links = [line.split(": ", 1)[1] for line in out.stdout.splitlines() if line.startswith("sign in")]
    token = [line.split(": ", 1)[1] for line in out.stdout.splitlines() if line.startswith("token: ")]
    if out.returncode != 0 or not links or not token:
        raise SystemExit(f"imu token gave no sign-in link: {out.stdout}{out.stderr}")
    return links[0], token[0]


def calibrate_magnetometer(daemon, page, calibration_dir, figures):
    page.wait_for("!document.getElementById('start-mag').disabled", 10)
    start = time.monotonic()
    page.evaluate("document.getElementById('start-mag').click()")
    done = page.wait_for("window.imuDashboard.calibration && ['saved','refused'].includes(window.imuDashboard.calibration.state)", 200)
    c = page.evaluate("window.imuDashboard.calibration")
    figures["mag_calibration_s"] = round(time.monotonic() - start, 1)
    figures["mag_calibration_last"] = c
    check(done and c["state"] == "saved", f"the magnetometer calibration completes through the page ({c and c.get('prompt')})")
    files = [f for f in os.listdir(calibration_dir) if f.endswith(".toml")] if os.path.isdir(calibration_dir) else []
    check(len(files) == 1, f"the calibration file exists ({files})")
    check(c is not None and c.get("accuracy") == "high", f"its accuracy is high ({c and c.get('accuracy')})")
    status = daemon.get("/api/calibration")
    figures["calibration_status_after"] = status["calibration"]


def ten_browsers(daemon, browser, page, figures):
    rss0, cpu0, t0 = daemon.rss_kb(), daemon.cpu_seconds(), time.monotonic()
    time.sleep(3)  # the baseline: one page
    cpu_one = (daemon.cpu_seconds() - cpu0) / (time.monotonic() - t0)
    lost0 = (daemon.status().get("health") or {}).get("lost_samples", 0)
    pages = [browser.open_page(daemon.base + "/") for _ in range(9)]
    for p in pages:
        p.wait_for("window.imuDashboard.motionLines > 50", 30)
    every = [page] + pages
    lines0 = [p.evaluate("window.imuDashboard.motionLines") for p in every]
    cpu1, t1 = daemon.cpu_seconds(), time.monotonic()
    time.sleep(5)
    cpu_ten = (daemon.cpu_seconds() - cpu1) / (time.monotonic() - t1)
    # Each page's motion lines per second (headless Chromium draws frames for the front page only,
    # so the hidden pages' frame rates say nothing; what they receive does).
    rates = [(p.evaluate("window.imuDashboard.motionLines") - n) / (time.monotonic() - t1) for p, n in zip(every, lines0)]
    lost1 = (daemon.status().get("health") or {}).get("lost_samples", 0)
    figures["one_page_cpu_percent"] = round(cpu_one * 100, 1)
    figures["ten_pages_cpu_percent"] = round(cpu_ten * 100, 1)
    figures["rss_kb_one_page"] = rss0
    figures["rss_kb_ten_pages"] = daemon.rss_kb()
    figures["ten_pages_min_motion_lines_per_s"] = round(min(rates), 1)
    figures["samples_lost_during_ten"] = lost1 - lost0
    check(min(rates) >= 40, f"each of the ten pages receives the 50 Hz motion stream (slowest {min(rates):.1f} lines/s)")
    check(lost1 == lost0, f"acquisition unaffected by ten pages (samples lost {lost1 - lost0})")
    for p in pages:
        p.close()
        browser.pages.remove(p)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--imu", default=".build/debug/imu")
    parser.add_argument("--out", default=".build/dashboard-check")
    parser.add_argument("--board", default="sense-hat", help="the twin's board (one with a magnetometer)")
    parser.add_argument("--ten", action="store_true", help="also ten pages at once")
    args = parser.parse_args()
    os.makedirs(args.out, exist_ok=True)
    work = tempfile.mkdtemp(prefix="imu-dashboard-")
    rules = os.path.join(work, "rules.toml")
    with open(rules, "w") as f:
        # --http replaces listen; allow-control comes from here. The rule shows firings and a GPIO line.
        f.write('[http]\nlisten = "127.0.0.1:1"\nallow-control = true\n\n'
                '[[rule]]\nname = "relay on turn"\non = "orientation"\n  [[rule.action]]\n  gpio-pin = 11\n  set = "toggle"\n')
    calibration_dir = os.path.join(work, "calibration")
    runtime = os.path.join(work, "run")  # the daemon's socket: its own, not /run/imu's
    os.makedirs(runtime, mode=0o700)
    env = dict(os.environ, IMU_CALIBRATION_DIR=calibration_dir, XDG_STATE_HOME=os.path.join(work, "state"),
               XDG_RUNTIME_DIR=runtime)
    figures = {}
    daemon = Daemon(args.imu, rules, free_port(), 600, "tumble", args.board, env)
    browser = Chromium(os.path.join(work, "chromium"))
    try:
        link, token = sign_in_link(args.imu, rules, daemon.port, env)
        page = browser.open_page(link)  # sets the token cookie, then the page
        check(token not in open(daemon.log.name).read(), "the daemon's output never shows the token")
        follow_attitude(daemon, page, figures)
        events_shown(daemon, page, figures)
        screenshots(daemon, browser, args.out, figures)
        if args.ten:
            ten_browsers(daemon, browser, page, figures)
        calibrate_magnetometer(daemon, page, calibration_dir, figures)
    finally:
        browser.close()
        daemon.stop()
    figures["failures"] = failures
    print(json.dumps(figures, indent=1))
    sys.exit(1 if failures else 0)


if __name__ == "__main__":
    main()
