"""The newest sample of the daemon's `samples` stream, kept by a background reader, and the
conversions from imu's units and signs to Adafruit's."""

import threading
from typing import Optional

from .. import Client, IMUError, Sample

STANDARD_GRAVITY = 9.80665  # m/s² per g
MICROTESLA_PER_GAUSS = 100.0


class SampleFeed:
    """Subscribes to raw samples and keeps the newest; readers block until the first arrives."""

    def __init__(self, socket: Optional[str] = None, timeout: float = 5.0):
        self._timeout = timeout
        self._client = Client(socket=socket, timeout=timeout)
        self.chip = self._client.hello.chip
        self.has_magnetometer = self._client.hello.magnetometer
        self._client.subscribe("samples")
        self._client._sock.settimeout(None)  # the reader thread waits as long as the daemon runs
        self._newest: Optional[Sample] = None
        self._failure: Optional[BaseException] = None
        self._arrived = threading.Condition()
        self._thread = threading.Thread(target=self._read, name="imu-samples", daemon=True)
        self._thread.start()

    def _read(self):
        try:
            for item in self._client:
                if isinstance(item, Sample):
                    with self._arrived:
                        self._newest = item
                        self._arrived.notify_all()
        except (IMUError, OSError, ValueError) as error:
            with self._arrived:
                self._failure = error
                self._arrived.notify_all()

    def newest(self) -> Sample:
        with self._arrived:
            if not self._arrived.wait_for(lambda: self._newest is not None or self._failure is not None,
                                          timeout=self._timeout):
                raise IMUError("no sample from the imu daemon within %.1f s" % self._timeout)
            if self._failure is not None and (self._newest is None or not self._thread.is_alive()):
                raise IMUError("the imu daemon's samples stopped: %s" % self._failure)
            return self._newest

    def close(self):
        self._client.close()


def acceleration_m_s2(sample: Sample):
    """imu's acceleration is in g with gravity pointing down (face up: z = -1); Adafruit's is
    the accelerometer's own reading in m/s² (face up: z = +9.8)."""
    return tuple(-value * STANDARD_GRAVITY for value in (sample.acc_x, sample.acc_y, sample.acc_z))


def gyro_rad_s(sample: Sample):
    return (sample.gyr_x, sample.gyr_y, sample.gyr_z)


def refuse_setting(name: str):
    raise NotImplementedError(
        "%s is set by the imu daemon's board profile (it owns the chip); "
        "change it there (Boards/*.toml, `imu run --board`), not from this script" % name)


def daemon_setting(name: str) -> property:
    """A chip setting a script may read or set: both refused with the advice where it lives."""
    return property(lambda self: refuse_setting(name), lambda self, value: refuse_setting(name))
