"""`adafruit_mpu6050` through the imu daemon: MPU6050 with the same readings and units."""

from ._feed import SampleFeed, acceleration_m_s2, daemon_setting, gyro_rad_s, refuse_setting


class Range:
    """Accelerometer ranges, as the library names them."""
    RANGE_2_G, RANGE_4_G, RANGE_8_G, RANGE_16_G = 0, 1, 2, 3


class GyroRange:
    RANGE_250_DPS, RANGE_500_DPS, RANGE_1000_DPS, RANGE_2000_DPS = 0, 1, 2, 3


class Bandwidth:
    BAND_260_HZ, BAND_184_HZ, BAND_94_HZ, BAND_44_HZ, BAND_21_HZ, BAND_10_HZ, BAND_5_HZ = range(7)


class Rate:
    CYCLE_1_25_HZ, CYCLE_5_HZ, CYCLE_20_HZ, CYCLE_40_HZ = range(4)


class MPU6050:
    def __init__(self, i2c_bus=None, address=0x68):
        self._feed = SampleFeed(socket=getattr(i2c_bus, "socket", None))

    @property
    def acceleration(self):
        """(x, y, z) in m/s²; lying flat, face up, z ≈ +9.8."""
        return acceleration_m_s2(self._feed.newest())

    @property
    def gyro(self):
        """(x, y, z) in rad/s."""
        return gyro_rad_s(self._feed.newest())

    @property
    def temperature(self):
        """°C."""
        return self._feed.newest().temp_c

    accelerometer_range = daemon_setting("accelerometer_range")
    gyro_range = daemon_setting("gyro_range")
    filter_bandwidth = daemon_setting("filter_bandwidth")
    cycle_rate = daemon_setting("cycle_rate")
    sample_rate_divisor = daemon_setting("sample_rate_divisor")
    cycle = daemon_setting("cycle")
    sleep = daemon_setting("sleep")

    def reset(self):
        refuse_setting("reset")

    def deinit(self):
        self._feed.close()
