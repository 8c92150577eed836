"""`python3 -m venv v && v/bin/pip install ./python` with no index at all: the build backend is in
the tree, so nothing is downloaded (Debian 12 / Pi OS Bookworm refuse a system-wide pip install)."""
import os
import subprocess
import sys
import tempfile
import unittest

PYTHON_DIR = os.path.abspath(os.path.join(os.path.dirname(__file__), ".."))


class OfflineInstall(unittest.TestCase):
    def test_pip_installs_into_a_venv_without_any_index(self):
        with tempfile.TemporaryDirectory(prefix="imu-venv-") as directory:
            venv = os.path.join(directory, "v")
            subprocess.run([sys.executable, "-m", "venv", venv], check=True, timeout=120)
            environment = dict(os.environ, PIP_NO_INDEX="1", PIP_DISABLE_PIP_VERSION_CHECK="1")
            # A copy, so the build leaves nothing in the checkout.
            source = os.path.join(directory, "python")
            subprocess.run(["cp", "-r", PYTHON_DIR, source], check=True)
            install = subprocess.run([os.path.join(venv, "bin", "pip"), "install", source],
                                     capture_output=True, text=True, env=environment, timeout=300)
            self.assertEqual(install.returncode, 0, install.stdout + install.stderr)
            check = subprocess.run(
                [os.path.join(venv, "bin", "python"), "-c",
                 "import imu, imu.circuitpython.adafruit_lsm9ds1 as m; print(imu.PROTOCOL_VERSION, m.LSM9DS1_I2C.__name__)"],
                capture_output=True, text=True, cwd=directory, timeout=60)
            self.assertEqual(check.stdout.strip(), "1 LSM9DS1_I2C", check.stderr)


if __name__ == "__main__":
    unittest.main()
