"""`adafruit_lsm9ds1` through the imu daemon: LSM9DS1_I2C with the same readings and units."""

from .. import IMUError
from ._feed import MICROTESLA_PER_GAUSS, SampleFeed, acceleration_m_s2, daemon_setting, gyro_rad_s

# The library's range constants, so scripts that name them still import.
ACCELRANGE_2G, ACCELRANGE_16G, ACCELRANGE_4G, ACCELRANGE_8G = 0b00 << 3, 0b01 << 3, 0b10 << 3, 0b11 << 3
MAGGAIN_4GAUSS, MAGGAIN_8GAUSS, MAGGAIN_12GAUSS, MAGGAIN_16GAUSS = 0b00 << 5, 0b01 << 5, 0b10 << 5, 0b11 << 5
GYROSCALE_245DPS, GYROSCALE_500DPS, GYROSCALE_2000DPS = 0b00 << 3, 0b01 << 3, 0b11 << 3


class LSM9DS1:
    def __init__(self, socket=None):
        self._feed = SampleFeed(socket=socket)

    @property
    def acceleration(self):
        """(x, y, z) in m/s²; lying flat, face up, z ≈ +9.8."""
        return acceleration_m_s2(self._feed.newest())

    @property
    def gyro(self):
        """(x, y, z) in rad/s."""
        return gyro_rad_s(self._feed.newest())

    @property
    def magnetic(self):
        """(x, y, z) in gauss, as Adafruit's LSM9DS1 library gives it."""
        sample = self._feed.newest()
        if sample.mag_x is None:
            raise IMUError("the imu daemon's chip (%s) has no magnetometer" % self._feed.chip)
        return tuple(value / MICROTESLA_PER_GAUSS for value in (sample.mag_x, sample.mag_y, sample.mag_z))

    @property
    def temperature(self):
        """°C."""
        return self._feed.newest().temp_c

    accel_range = daemon_setting("accel_range")
    mag_gain = daemon_setting("mag_gain")
    gyro_scale = daemon_setting("gyro_scale")

    def deinit(self):
        self._feed.close()


class LSM9DS1_I2C(LSM9DS1):  # noqa: N801 (the library's name)
    def __init__(self, i2c, mag_address=0x1E, xg_address=0x6B):
        super().__init__(socket=getattr(i2c, "socket", None))


class LSM9DS1_SPI(LSM9DS1):  # noqa: N801 (the library's name)
    def __init__(self, spi=None, xgcs=None, mcs=None):
        super().__init__(socket=getattr(spi, "socket", None))
