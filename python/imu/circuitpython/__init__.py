"""Adafruit CircuitPython scripts for the LSM9DS1 or the MPU-6050, run through the imu daemon.

A script written for Adafruit's libraries on a Pi (Blinka) reads the chip itself; while the
`imu` service owns the chip, the same script reads it through the daemon by changing its import
lines only:

    import board                               # before
    import adafruit_lsm9ds1

    from imu.circuitpython import board, adafruit_lsm9ds1   # after

The rest of the script is unchanged: `sensor = adafruit_lsm9ds1.LSM9DS1_I2C(board.I2C())`,
then `sensor.acceleration`, `sensor.gyro`, `sensor.magnetic`, `sensor.temperature` in the units
those libraries give (m/s² with +1 g up when lying flat, rad/s, gauss for the LSM9DS1's
magnetometer, °C). The values are the daemon's calibrated samples in device axes. Settings that
change the chip (ranges, data rates) belong to the daemon's board profile: reading them works,
setting them raises `NotImplementedError` with that advice.
"""

from . import adafruit_lsm9ds1, adafruit_mpu6050, board, busio  # noqa: F401

__all__ = ["adafruit_lsm9ds1", "adafruit_mpu6050", "board", "busio"]
