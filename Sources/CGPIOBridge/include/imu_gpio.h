// A small, stable C API over libgpiod, the same whether the system has libgpiod 1.6 (Debian 12,
// Raspberry Pi OS Bookworm) or 2.x (Trixie and later). Swift sees only this header; which
// implementation is compiled is chosen in imu_gpio_v1.c / imu_gpio_v2.c from <gpiod.h>.
//
// Conventions: functions that can fail return 0 (or a non-negative result) on success and a
// negative errno on failure; they never leave a half-made object behind.
#ifndef IMU_GPIO_BRIDGE_H
#define IMU_GPIO_BRIDGE_H

#include <stddef.h>
#include <stdint.h>

/// An open GPIO chip (/dev/gpiochipN).
typedef struct imu_gpio_chip imu_gpio_chip;
/// One line requested from a chip, as an output or as an input with edge detection.
typedef struct imu_gpio_line imu_gpio_line;

typedef enum {
    IMU_GPIO_EDGE_RISING = 1,
    IMU_GPIO_EDGE_FALLING = 2,
    IMU_GPIO_EDGE_BOTH = 3,
} imu_gpio_edge;

typedef enum {
    IMU_GPIO_BIAS_AS_IS = 0,
    IMU_GPIO_BIAS_DISABLED = 1,
    IMU_GPIO_BIAS_PULL_UP = 2,
    IMU_GPIO_BIAS_PULL_DOWN = 3,
} imu_gpio_bias;

typedef struct {
    /// IMU_GPIO_EDGE_RISING or IMU_GPIO_EDGE_FALLING.
    int kind;
    unsigned int offset;
    /// When the kernel saw the edge, in nanoseconds on CLOCK_MONOTONIC.
    uint64_t timestamp_ns;
} imu_gpio_edge_event;

/// 1 when built against libgpiod 1.x, 2 when built against 2.x.
int imu_gpio_api_version(void);

/// Opens a chip by its device path (/dev/gpiochip0).
int imu_gpio_chip_open(const char *path, imu_gpio_chip **chip);

/// Opens the first chip in `directory` (normally "/dev") named gpiochip* whose label is `label`.
/// Returns -ENOENT when none matches; `seen` (if not NULL) then lists the chips that exist as
/// "gpiochip0 [label], gpiochip1 [label]" (truncated to `seen_size`).
int imu_gpio_chip_open_by_label(const char *directory, const char *label, imu_gpio_chip **chip,
                                char *seen, size_t seen_size);

void imu_gpio_chip_close(imu_gpio_chip *chip);

/// The kernel's name (gpiochip0), label (pinctrl-bcm2711) and number of lines of the chip.
const char *imu_gpio_chip_name(const imu_gpio_chip *chip);
const char *imu_gpio_chip_label(const imu_gpio_chip *chip);
unsigned int imu_gpio_chip_line_count(const imu_gpio_chip *chip);

/// The offset of the line called `name` (GPIO17), or -ENOENT.
int imu_gpio_chip_find_line(imu_gpio_chip *chip, const char *name);

/// Copies the consumer of line `offset` (the program or driver that requested it) into `buffer`;
/// an empty string when the line is free. Returns 0 or a negative errno.
int imu_gpio_chip_line_consumer(imu_gpio_chip *chip, unsigned int offset, char *buffer, size_t size);

/// Requests line `offset` as an output driven to `value` (0 or 1).
int imu_gpio_request_output(imu_gpio_chip *chip, unsigned int offset, const char *consumer,
                            int value, imu_gpio_line **line);

/// Requests line `offset` as an input reporting `edge` changes, with `bias`.
int imu_gpio_request_input(imu_gpio_chip *chip, unsigned int offset, const char *consumer,
                           imu_gpio_edge edge, imu_gpio_bias bias, imu_gpio_line **line);

/// Drives an output line to `value` (0 or 1).
int imu_gpio_line_set_value(imu_gpio_line *line, int value);

/// The line's level: 0 or 1, or a negative errno.
int imu_gpio_line_get_value(imu_gpio_line *line);

/// Waits up to `timeout_ns` nanoseconds (negative: forever) for an edge: 1 when one is
/// pending, 0 on timeout, or a negative errno.
int imu_gpio_line_wait_edge(imu_gpio_line *line, int64_t timeout_ns);

/// Reads the next pending edge (blocks if none is pending).
int imu_gpio_line_read_edge(imu_gpio_line *line, imu_gpio_edge_event *event);

/// Gives the line back to the kernel. The chip must still be open.
void imu_gpio_line_release(imu_gpio_line *line);

#endif
