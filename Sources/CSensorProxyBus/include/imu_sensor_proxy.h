// The thinnest shim over libsystemd's sd-bus for iio-sensor-proxy's interface: sd-bus describes
// objects with C macros (vtables) and emits property changes through a variadic function, and
// Swift can use neither. Everything else (claims, what the values are) is decided in Swift.
#ifndef IMU_SENSOR_PROXY_H
#define IMU_SENSOR_PROXY_H

#include <stdint.h>

typedef struct imu_sensor_proxy imu_sensor_proxy;

enum {
    IMU_SP_ACCELEROMETER = 0,
    IMU_SP_LIGHT = 1,
    IMU_SP_PROXIMITY = 2,
    IMU_SP_COMPASS = 3,
    /// A bus name left the bus: every claim it held ends.
    IMU_SP_ALL = -1,
};

/// Orientation codes, in the order of iio-sensor-proxy's names:
/// undefined, normal, bottom-up, left-up, right-up.
enum { IMU_SP_UNDEFINED = 0, IMU_SP_NORMAL = 1, IMU_SP_BOTTOM_UP = 2, IMU_SP_LEFT_UP = 3, IMU_SP_RIGHT_UP = 4 };

/// Called on the bus thread for Claim… (claim = 1) and Release… (claim = 0) from `sender`.
typedef void (*imu_sp_claim_fn)(void *context, int sensor, int claim, const char *sender);

/// Connects to the system (system = 1, honouring DBUS_SYSTEM_BUS_ADDRESS) or session bus,
/// publishes /net/hadess/SensorProxy and /net/hadess/SensorProxy/Compass, watches for clients
/// leaving, and takes the name net.hadess.SensorProxy. 0 or a negative errno (-EEXIST: the name
/// has an owner already); `*step` names the step that failed.
int imu_sp_open(imu_sensor_proxy **out, int system, int has_accelerometer, int has_compass,
                void *context, imu_sp_claim_fn on_claim, const char **step);

/// Handles everything the bus has for us. Negative errno when the connection failed.
int imu_sp_process(imu_sensor_proxy *sp);

/// What to poll for: the bus descriptor, its events, and the milliseconds until sd-bus needs
/// to run again (-1: no deadline).
int imu_sp_poll_fd(imu_sensor_proxy *sp, short *events, int *timeout_ms);

/// Set a property; PropertiesChanged is sent when the value changed. 0 or a negative errno.
int imu_sp_set_orientation(imu_sensor_proxy *sp, int orientation);
int imu_sp_set_heading(imu_sensor_proxy *sp, double degrees);

/// Releases the name and closes the connection.
void imu_sp_close(imu_sensor_proxy *sp);

#endif
