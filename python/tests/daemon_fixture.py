"""A real `imu run` on the twin for the Python tests: started with a private socket, stopped with
SIGTERM. IMU names the executable (default: .build/debug/imu of this checkout)."""
import os
import signal
import subprocess
import tempfile
import time

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))
EXECUTABLE = os.environ.get("IMU", os.path.join(ROOT, ".build", "debug", "imu"))
QUIET_RULES = '[[rule]]\nname = "quiet"\non = "slap"\n  [[rule.action]]\n  command = ["/bin/true"]\n'


class TwinDaemon:
    def __init__(self, *arguments, rules=QUIET_RULES, duration=60):
        self.directory = tempfile.TemporaryDirectory(prefix="imu-python-")
        self.socket = os.path.join(self.directory.name, "imu.sock")
        config = os.path.join(self.directory.name, "rules.toml")
        with open(config, "w") as f:
            f.write(rules)
        self.process = subprocess.Popen(
            [EXECUTABLE, "run", "--config", config, "--socket", self.socket, "--duration", str(duration), *arguments],
            stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
        deadline = time.monotonic() + 30
        while not os.path.exists(self.socket):
            if self.process.poll() is not None or time.monotonic() > deadline:
                self.stop()
                raise RuntimeError("imu run did not serve %s" % self.socket)
            time.sleep(0.05)

    def stop(self):
        if self.process.poll() is None:
            self.process.send_signal(signal.SIGTERM)
        try:
            self.process.wait(timeout=30)
        finally:
            if self.process.poll() is None:
                self.process.kill()
                self.process.wait()
            self.process.stderr.close()
            self.directory.cleanup()
