"""Adafruit CircuitPython scripts through the daemon (imu.circuitpython): the readings a still
twin gives, in the libraries' units and signs, and an unchanged script with only its imports
changed."""
import math
import os
import subprocess
import sys
import textwrap
import unittest

sys.path.insert(0, os.path.join(os.path.dirname(__file__), ".."))
from daemon_fixture import TwinDaemon  # noqa: E402
from imu.circuitpython import adafruit_lsm9ds1, adafruit_mpu6050, board  # noqa: E402

PYTHON_DIR = os.path.abspath(os.path.join(os.path.dirname(__file__), ".."))
STANDARD_GRAVITY = 9.80665


def norm(v):
    return math.sqrt(sum(x * x for x in v))


class LSM9DS1ThroughTheDaemon(unittest.TestCase):
    """The twin's default board: an LSM9DS1 lying still, face up (calibrated: noise only)."""

    @classmethod
    def setUpClass(cls):
        cls.daemon = TwinDaemon("--sim", "still", "--errors", "calibrated")
        cls.sensor = adafruit_lsm9ds1.LSM9DS1_I2C(board.I2C(socket=cls.daemon.socket))

    @classmethod
    def tearDownClass(cls):
        cls.sensor.deinit()
        cls.daemon.stop()

    def test_acceleration_is_the_accelerometers_reading_in_m_s2(self):
        x, y, z = self.sensor.acceleration
        # Adafruit's sign: lying face up the accelerometer reads +1 g on z (imu's own is -1 g).
        self.assertAlmostEqual(z, STANDARD_GRAVITY, delta=0.3)
        self.assertLess(math.hypot(x, y), 0.3)

    def test_gyro_is_near_zero_in_rad_s(self):
        self.assertLess(norm(self.sensor.gyro), math.radians(2))

    def test_magnetic_is_in_gauss(self):
        # The Earth's field is 0.25 to 0.65 gauss (25 to 65 µT) everywhere.
        self.assertTrue(0.2 < norm(self.sensor.magnetic) < 0.7, self.sensor.magnetic)

    def test_temperature_is_in_celsius(self):
        self.assertTrue(-40 < self.sensor.temperature < 85)

    def test_chip_settings_are_refused_with_advice(self):
        with self.assertRaises(NotImplementedError) as refused:
            self.sensor.accel_range = adafruit_lsm9ds1.ACCELRANGE_8G
        self.assertIn("board profile", str(refused.exception))

    def test_an_adafruit_script_runs_with_only_its_import_lines_changed(self):
        script = textwrap.dedent("""\
            import time
            from imu.circuitpython import board, adafruit_lsm9ds1

            i2c = board.I2C(socket=%r)  # the daemon's private socket in this test
            sensor = adafruit_lsm9ds1.LSM9DS1_I2C(i2c)
            for _ in range(3):
                accel_x, accel_y, accel_z = sensor.acceleration
                mag_x, mag_y, mag_z = sensor.magnetic
                gyro_x, gyro_y, gyro_z = sensor.gyro
                temp = sensor.temperature
                print("Acceleration (m/s^2): ({0:0.3f},{1:0.3f},{2:0.3f})".format(accel_x, accel_y, accel_z))
                time.sleep(0.05)
            """) % self.daemon.socket
        result = subprocess.run([sys.executable, "-c", script], cwd=PYTHON_DIR, capture_output=True, text=True, timeout=60)
        self.assertEqual(result.returncode, 0, result.stderr)
        lines = result.stdout.splitlines()
        self.assertEqual(len(lines), 3)
        self.assertTrue(all(line.startswith("Acceleration (m/s^2): (") for line in lines), lines)


class MPU6050ThroughTheDaemon(unittest.TestCase):
    """A GY-521 breakout (MPU-6050) on the twin, lying still."""

    @classmethod
    def setUpClass(cls):
        cls.daemon = TwinDaemon("--sim", "still", "--errors", "calibrated", "--board", "gy-521")
        cls.sensor = adafruit_mpu6050.MPU6050(board.I2C(socket=cls.daemon.socket))

    @classmethod
    def tearDownClass(cls):
        cls.sensor.deinit()
        cls.daemon.stop()

    def test_acceleration_gyro_and_temperature(self):
        self.assertAlmostEqual(self.sensor.acceleration[2], STANDARD_GRAVITY, delta=0.3)
        self.assertLess(norm(self.sensor.gyro), math.radians(2))
        self.assertTrue(-40 < self.sensor.temperature < 85)

    def test_ranges_are_refused_with_advice(self):
        with self.assertRaises(NotImplementedError):
            self.sensor.accelerometer_range = adafruit_mpu6050.Range.RANGE_4_G


if __name__ == "__main__":
    unittest.main()
