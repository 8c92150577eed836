"""The Python client against a real `imu run` on the twin (seed-sequence: upright, then turned
clockwise at 4 s, ...). IMU names the executable (default: .build/debug/imu of this checkout)."""
import os
import sys
import unittest

sys.path.insert(0, os.path.join(os.path.dirname(__file__), ".."))
import imu  # noqa: E402
from daemon_fixture import TwinDaemon  # noqa: E402


class DaemonTests(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.daemon = TwinDaemon("--sim", "seed-sequence")
        cls.socket = cls.daemon.socket

    @classmethod
    def tearDownClass(cls):
        cls.daemon.stop()

    def test_hello_names_the_twin_and_the_protocol(self):
        with imu.Client(socket=self.socket, timeout=10) as client:
            self.assertEqual(client.hello.protocol, imu.PROTOCOL_VERSION)
            self.assertEqual(client.hello.chip, "LSM9DS1")
            self.assertTrue(client.hello.magnetometer)
            self.assertEqual(client.hello.streams, ["samples", "motion", "events", "health"])

    def test_motion_at_ten_hertz_is_every_tenth_update(self):
        with imu.Client(socket=self.socket, timeout=10) as client:
            reply = client.subscribe("motion", rate_hz=10)
            self.assertEqual((reply["divisor"], reply["rate_hz"]), (10, 10))
            items = [next(iter(client)) for _ in range(5)]
        for item in items:
            self.assertIsInstance(item, imu.Motion)
            self.assertAlmostEqual(item.gravity_x ** 2 + item.gravity_y ** 2 + item.gravity_z ** 2, 1.0, delta=0.05)
        # (The live twin stamps samples with the real clock: the steps are about 0.1 s.)
        self.assertTrue(all(b.t > a.t for a, b in zip(items, items[1:])))

    def test_the_twin_turning_is_an_orientation_event(self):
        for event in imu.events(types=["orientation"], socket=self.socket, timeout=20):
            self.assertIsInstance(event, imu.Event)
            self.assertEqual(event.type, "orientation")
            self.assertIn(event.orientation, ["portrait", "landscapeRight", "portraitUpsideDown", "landscapeLeft", "faceUp", "faceDown"])
            break

    def test_two_clients_receive_the_same_samples(self):
        with imu.Client(socket=self.socket, timeout=10) as a, imu.Client(socket=self.socket, timeout=10) as b:
            a.subscribe("samples")
            b.subscribe("samples")
            ta = [next(iter(a)).t for _ in range(60)]
            tb = [next(iter(b)).t for _ in range(60)]
        common = sorted(set(ta) & set(tb))
        # Subscribed a moment apart, both see the same samples from then on (equal timestamps).
        self.assertGreaterEqual(len(common), 40)
        self.assertEqual(ta[ta.index(common[0]):][:len(common)], tb[tb.index(common[0]):][:len(common)])

    def test_a_bad_request_is_refused_with_the_daemons_words(self):
        with imu.Client(socket=self.socket, timeout=10) as client:
            with self.assertRaises(imu.RequestRefused) as refused:
                client.subscribe("motion", rate_hz=0)
            self.assertIn('"rate_hz" must be from 0.001 to 10000', str(refused.exception))
            client.ping()

    def test_no_daemon_is_a_clear_error(self):
        missing = os.path.join(self.daemon.directory.name, "nobody.sock")
        with self.assertRaises(imu.DaemonNotRunning) as error:
            imu.Client(socket=missing)
        self.assertIn(missing, str(error.exception))


if __name__ == "__main__":
    unittest.main()
