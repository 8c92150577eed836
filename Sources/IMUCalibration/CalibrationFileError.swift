import IMUConfigFile

/// Why a calibration file was refused (or could not be written), and where, printed the way
/// compilers print: `~/.config/imu/lsm9ds1-sim-0x6a.toml:14:1: `scale` in [accelerometer] must be …`.
public typealias CalibrationFileError = ConfigFileError
