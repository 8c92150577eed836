#ifndef IMU_CGPIOD_SHIM_H
#define IMU_CGPIOD_SHIM_H
#include <gpiod.h>
#endif
