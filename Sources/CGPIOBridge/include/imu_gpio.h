// Placeholder: the libgpiod 1.6 / 2.x bridge is filled in by the Linux backend work.
#ifndef IMU_GPIO_BRIDGE_H
#define IMU_GPIO_BRIDGE_H
int imu_gpio_api_version(void);
#endif
