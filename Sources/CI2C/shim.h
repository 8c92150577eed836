// The i2c-dev ioctls take variadic arguments, which Swift cannot call: these wrappers are the
// whole shim. libi2c's own functions (<i2c/smbus.h>) are used from Swift as they are.
#ifndef IMU_CI2C_SHIM_H
#define IMU_CI2C_SHIM_H

#include <sys/ioctl.h>
#include <linux/i2c.h>
#include <linux/i2c-dev.h>
#include <i2c/smbus.h>

/// I2C_SLAVE: address later read()/write()/SMBus calls on this descriptor to `address`.
static inline int imu_i2c_set_target(int fd, unsigned short address) {
    return ioctl(fd, I2C_SLAVE, (unsigned long)address);
}

/// I2C_FUNCS: what the adapter can do (I2C_FUNC_* bits).
static inline int imu_i2c_functions(int fd, unsigned long *functions) {
    return ioctl(fd, I2C_FUNCS, functions);
}

/// I2C_RDWR: several messages in one combined transaction (repeated starts, one stop).
static inline int imu_i2c_transfer(int fd, struct i2c_msg *messages, unsigned int count) {
    struct i2c_rdwr_ioctl_data data = { messages, count };
    return ioctl(fd, I2C_RDWR, &data);
}

#endif
