"""Prints the pitch and roll of the shared IMU ten times a second (Ctrl-C stops)."""
import imu

try:
    for m in imu.motion(rate_hz=10):
        print(f"t {m.t:10.3f}  pitch {m.pitch_deg:6.1f}°  roll {m.roll_deg:6.1f}°  lost {m.lost_before}")
except imu.DaemonNotRunning as error:
    raise SystemExit(error)
except KeyboardInterrupt:
    pass
