// The bridge on libgpiod 1.x (1.6 on Debian 12 / Raspberry Pi OS Bookworm). Only v1's gpiod.h
// defines GPIOD_LINE_BULK_MAX_LINES; on 2.x this file compiles to nothing.
#include <gpiod.h>

#ifdef GPIOD_LINE_BULK_MAX_LINES

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "imu_gpio.h"

struct imu_gpio_chip {
    struct gpiod_chip *chip;
};

// In v1 the line object belongs to the chip; this wrapper only marks that we requested it.
struct imu_gpio_line {
    struct gpiod_line *line;
};

static int failure(void) { return errno ? -errno : -EIO; }

int imu_gpio_api_version(void) { return 1; }

int imu_gpio_chip_open(const char *path, imu_gpio_chip **chip) {
    *chip = NULL;
    errno = 0;
    struct gpiod_chip *opened = gpiod_chip_open(path);
    if (!opened) return failure();
    imu_gpio_chip *wrapper = calloc(1, sizeof *wrapper);
    if (!wrapper) {
        gpiod_chip_close(opened);
        return -ENOMEM;
    }
    wrapper->chip = opened;
    *chip = wrapper;
    return 0;
}

void imu_gpio_chip_close(imu_gpio_chip *chip) {
    if (!chip) return;
    gpiod_chip_close(chip->chip);
    free(chip);
}

const char *imu_gpio_chip_name(const imu_gpio_chip *chip) { return gpiod_chip_name(chip->chip); }
const char *imu_gpio_chip_label(const imu_gpio_chip *chip) { return gpiod_chip_label(chip->chip); }
unsigned int imu_gpio_chip_line_count(const imu_gpio_chip *chip) { return gpiod_chip_num_lines(chip->chip); }

int imu_gpio_chip_find_line(imu_gpio_chip *chip, const char *name) {
    errno = 0;
    struct gpiod_line *line = gpiod_chip_find_line(chip->chip, name);
    if (!line) return errno ? -errno : -ENOENT;
    return (int)gpiod_line_offset(line);
}

int imu_gpio_chip_line_consumer(imu_gpio_chip *chip, unsigned int offset, char *buffer, size_t size) {
    if (size) buffer[0] = '\0';
    errno = 0;
    struct gpiod_line *line = gpiod_chip_get_line(chip->chip, offset);
    if (!line) return failure();
    // gpiod_chip_get_line refreshes the line's info only the first time; ask the kernel again.
    if (gpiod_line_update(line) < 0) return failure();
    const char *consumer = gpiod_line_consumer(line);
    if (consumer && size) snprintf(buffer, size, "%s", consumer);
    else if (gpiod_line_is_used(line) && size) snprintf(buffer, size, "%s", "a kernel driver");
    return 0;
}

static int request(imu_gpio_chip *chip, unsigned int offset, const struct gpiod_line_request_config *config,
                   int value, imu_gpio_line **out) {
    *out = NULL;
    errno = 0;
    struct gpiod_line *line = gpiod_chip_get_line(chip->chip, offset);
    if (!line) return failure();
    imu_gpio_line *wrapper = calloc(1, sizeof *wrapper);
    if (!wrapper) return -ENOMEM;
    if (gpiod_line_request(line, config, value) < 0) {
        int code = failure();
        free(wrapper);
        return code;
    }
    wrapper->line = line;
    *out = wrapper;
    return 0;
}

int imu_gpio_request_output(imu_gpio_chip *chip, unsigned int offset, const char *consumer,
                            int value, imu_gpio_line **line) {
    struct gpiod_line_request_config config = {
        .consumer = consumer,
        .request_type = GPIOD_LINE_REQUEST_DIRECTION_OUTPUT,
        .flags = 0,
    };
    return request(chip, offset, &config, value ? 1 : 0, line);
}

int imu_gpio_request_input(imu_gpio_chip *chip, unsigned int offset, const char *consumer,
                           imu_gpio_edge edge, imu_gpio_bias bias, imu_gpio_line **line) {
    struct gpiod_line_request_config config = { .consumer = consumer, .flags = 0 };
    switch (edge) {
    case IMU_GPIO_EDGE_RISING: config.request_type = GPIOD_LINE_REQUEST_EVENT_RISING_EDGE; break;
    case IMU_GPIO_EDGE_FALLING: config.request_type = GPIOD_LINE_REQUEST_EVENT_FALLING_EDGE; break;
    case IMU_GPIO_EDGE_BOTH: config.request_type = GPIOD_LINE_REQUEST_EVENT_BOTH_EDGES; break;
    default: return -EINVAL;
    }
    switch (bias) {
    case IMU_GPIO_BIAS_AS_IS: break;
    case IMU_GPIO_BIAS_DISABLED: config.flags |= GPIOD_LINE_REQUEST_FLAG_BIAS_DISABLE; break;
    case IMU_GPIO_BIAS_PULL_UP: config.flags |= GPIOD_LINE_REQUEST_FLAG_BIAS_PULL_UP; break;
    case IMU_GPIO_BIAS_PULL_DOWN: config.flags |= GPIOD_LINE_REQUEST_FLAG_BIAS_PULL_DOWN; break;
    default: return -EINVAL;
    }
    return request(chip, offset, &config, 0, line);
}

int imu_gpio_line_set_value(imu_gpio_line *line, int value) {
    errno = 0;
    return gpiod_line_set_value(line->line, value ? 1 : 0) < 0 ? failure() : 0;
}

int imu_gpio_line_get_value(imu_gpio_line *line) {
    errno = 0;
    int value = gpiod_line_get_value(line->line);
    return value < 0 ? failure() : value;
}

int imu_gpio_line_wait_edge(imu_gpio_line *line, int64_t timeout_ns) {
    struct timespec timeout = { .tv_sec = timeout_ns / 1000000000, .tv_nsec = timeout_ns % 1000000000 };
    errno = 0;
    // A NULL timeout makes libgpiod's ppoll() wait forever.
    int result = gpiod_line_event_wait(line->line, timeout_ns < 0 ? NULL : &timeout);
    return result < 0 ? failure() : result;
}

int imu_gpio_line_read_edge(imu_gpio_line *line, imu_gpio_edge_event *event) {
    struct gpiod_line_event raw;
    errno = 0;
    if (gpiod_line_event_read(line->line, &raw) < 0) return failure();
    event->kind = raw.event_type == GPIOD_LINE_EVENT_RISING_EDGE ? IMU_GPIO_EDGE_RISING : IMU_GPIO_EDGE_FALLING;
    event->offset = gpiod_line_offset(line->line);
    // uAPI v1 stamps events with CLOCK_MONOTONIC since Linux 5.7 (CLOCK_REALTIME before).
    event->timestamp_ns = (uint64_t)raw.ts.tv_sec * 1000000000u + (uint64_t)raw.ts.tv_nsec;
    return 0;
}

void imu_gpio_line_release(imu_gpio_line *line) {
    if (!line) return;
    gpiod_line_release(line->line);
    free(line);
}

#endif
