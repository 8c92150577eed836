#include <gpiod.h>
#include "imu_gpio.h"
#ifdef GPIOD_LINE_BULK_MAX_LINES
int imu_gpio_api_version(void) { return 1; }
#else
int imu_gpio_api_version(void) { return 2; }
#endif
