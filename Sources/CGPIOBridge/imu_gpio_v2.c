// The bridge on libgpiod 2.x (Debian 13 / Trixie and later). v2's gpiod.h lacks
// GPIOD_LINE_BULK_MAX_LINES; on 1.x this file compiles to nothing.
#include <gpiod.h>

#ifndef GPIOD_LINE_BULK_MAX_LINES

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "imu_gpio.h"

// v2 hands out chip facts through a separate info object; we copy them once at open.
struct imu_gpio_chip {
    struct gpiod_chip *chip;
    char name[64];
    char label[64];
    unsigned int lines;
};

struct imu_gpio_line {
    struct gpiod_line_request *request;
    struct gpiod_edge_event_buffer *events;
    unsigned int offset;
};

static int failure(void) { return errno ? -errno : -EIO; }

int imu_gpio_api_version(void) { return 2; }

int imu_gpio_chip_open(const char *path, imu_gpio_chip **chip) {
    *chip = NULL;
    errno = 0;
    struct gpiod_chip *opened = gpiod_chip_open(path);
    if (!opened) return failure();
    struct gpiod_chip_info *info = gpiod_chip_get_info(opened);
    if (!info) {
        int code = failure();
        gpiod_chip_close(opened);
        return code;
    }
    imu_gpio_chip *wrapper = calloc(1, sizeof *wrapper);
    if (!wrapper) {
        gpiod_chip_info_free(info);
        gpiod_chip_close(opened);
        return -ENOMEM;
    }
    wrapper->chip = opened;
    snprintf(wrapper->name, sizeof wrapper->name, "%s", gpiod_chip_info_get_name(info));
    snprintf(wrapper->label, sizeof wrapper->label, "%s", gpiod_chip_info_get_label(info));
    wrapper->lines = (unsigned int)gpiod_chip_info_get_num_lines(info);
    gpiod_chip_info_free(info);
    *chip = wrapper;
    return 0;
}

void imu_gpio_chip_close(imu_gpio_chip *chip) {
    if (!chip) return;
    gpiod_chip_close(chip->chip);
    free(chip);
}

const char *imu_gpio_chip_name(const imu_gpio_chip *chip) { return chip->name; }
const char *imu_gpio_chip_label(const imu_gpio_chip *chip) { return chip->label; }
unsigned int imu_gpio_chip_line_count(const imu_gpio_chip *chip) { return chip->lines; }

int imu_gpio_chip_find_line(imu_gpio_chip *chip, const char *name) {
    errno = 0;
    int offset = gpiod_chip_get_line_offset_from_name(chip->chip, name);
    if (offset < 0) return errno ? -errno : -ENOENT;
    return offset;
}

int imu_gpio_chip_line_consumer(imu_gpio_chip *chip, unsigned int offset, char *buffer, size_t size) {
    if (size) buffer[0] = '\0';
    errno = 0;
    struct gpiod_line_info *info = gpiod_chip_get_line_info(chip->chip, offset);
    if (!info) return failure();
    const char *consumer = gpiod_line_info_get_consumer(info);
    if (consumer && size) snprintf(buffer, size, "%s", consumer);
    else if (gpiod_line_info_is_used(info) && size) snprintf(buffer, size, "%s", "a kernel driver");
    gpiod_line_info_free(info);
    return 0;
}

// Builds settings → line config → request config and asks the chip for the one line.
static int request(imu_gpio_chip *chip, unsigned int offset, const char *consumer,
                   struct gpiod_line_settings *settings, int wants_events, imu_gpio_line **out) {
    *out = NULL;
    int code = 0;
    struct gpiod_line_config *line_config = gpiod_line_config_new();
    struct gpiod_request_config *request_config = gpiod_request_config_new();
    imu_gpio_line *line = calloc(1, sizeof *line);
    if (!line_config || !request_config || !line) {
        code = -ENOMEM;
        goto done;
    }
    errno = 0;
    if (gpiod_line_config_add_line_settings(line_config, &offset, 1, settings) < 0) {
        code = failure();
        goto done;
    }
    gpiod_request_config_set_consumer(request_config, consumer);
    errno = 0;
    line->request = gpiod_chip_request_lines(chip->chip, request_config, line_config);
    if (!line->request) {
        code = failure();
        goto done;
    }
    if (wants_events) {
        line->events = gpiod_edge_event_buffer_new(1);
        if (!line->events) {
            code = -ENOMEM;
            gpiod_line_request_release(line->request);
            goto done;
        }
    }
    line->offset = offset;
    *out = line;
    line = NULL;
done:
    free(line);
    gpiod_request_config_free(request_config);
    gpiod_line_config_free(line_config);
    return code;
}

int imu_gpio_request_output(imu_gpio_chip *chip, unsigned int offset, const char *consumer,
                            int value, imu_gpio_line **line) {
    *line = NULL;
    struct gpiod_line_settings *settings = gpiod_line_settings_new();
    if (!settings) return -ENOMEM;
    gpiod_line_settings_set_direction(settings, GPIOD_LINE_DIRECTION_OUTPUT);
    gpiod_line_settings_set_output_value(settings, value ? GPIOD_LINE_VALUE_ACTIVE : GPIOD_LINE_VALUE_INACTIVE);
    int code = request(chip, offset, consumer, settings, 0, line);
    gpiod_line_settings_free(settings);
    return code;
}

int imu_gpio_request_input(imu_gpio_chip *chip, unsigned int offset, const char *consumer,
                           imu_gpio_edge edge, imu_gpio_bias bias, imu_gpio_line **line) {
    *line = NULL;
    enum gpiod_line_edge detection;
    enum gpiod_line_bias pull;
    switch (edge) {
    case IMU_GPIO_EDGE_RISING: detection = GPIOD_LINE_EDGE_RISING; break;
    case IMU_GPIO_EDGE_FALLING: detection = GPIOD_LINE_EDGE_FALLING; break;
    case IMU_GPIO_EDGE_BOTH: detection = GPIOD_LINE_EDGE_BOTH; break;
    default: return -EINVAL;
    }
    switch (bias) {
    case IMU_GPIO_BIAS_AS_IS: pull = GPIOD_LINE_BIAS_AS_IS; break;
    case IMU_GPIO_BIAS_DISABLED: pull = GPIOD_LINE_BIAS_DISABLED; break;
    case IMU_GPIO_BIAS_PULL_UP: pull = GPIOD_LINE_BIAS_PULL_UP; break;
    case IMU_GPIO_BIAS_PULL_DOWN: pull = GPIOD_LINE_BIAS_PULL_DOWN; break;
    default: return -EINVAL;
    }
    struct gpiod_line_settings *settings = gpiod_line_settings_new();
    if (!settings) return -ENOMEM;
    gpiod_line_settings_set_direction(settings, GPIOD_LINE_DIRECTION_INPUT);
    gpiod_line_settings_set_edge_detection(settings, detection);
    gpiod_line_settings_set_bias(settings, pull);
    // Monotonic is v2's default already; said explicitly because timestamps must match the IMU's.
    gpiod_line_settings_set_event_clock(settings, GPIOD_LINE_CLOCK_MONOTONIC);
    int code = request(chip, offset, consumer, settings, 1, line);
    gpiod_line_settings_free(settings);
    return code;
}

int imu_gpio_line_set_value(imu_gpio_line *line, int value) {
    errno = 0;
    int result = gpiod_line_request_set_value(line->request, line->offset,
                                              value ? GPIOD_LINE_VALUE_ACTIVE : GPIOD_LINE_VALUE_INACTIVE);
    return result < 0 ? failure() : 0;
}

int imu_gpio_line_get_value(imu_gpio_line *line) {
    errno = 0;
    enum gpiod_line_value value = gpiod_line_request_get_value(line->request, line->offset);
    if (value == GPIOD_LINE_VALUE_ERROR) return failure();
    return value == GPIOD_LINE_VALUE_ACTIVE ? 1 : 0;
}

int imu_gpio_line_wait_edge(imu_gpio_line *line, int64_t timeout_ns) {
    errno = 0;
    int result = gpiod_line_request_wait_edge_events(line->request, timeout_ns);
    return result < 0 ? failure() : result;
}

int imu_gpio_line_read_edge(imu_gpio_line *line, imu_gpio_edge_event *event) {
    if (!line->events) return -EINVAL;
    errno = 0;
    int count = gpiod_line_request_read_edge_events(line->request, line->events, 1);
    if (count < 0) return failure();
    if (count == 0) return -EAGAIN;
    struct gpiod_edge_event *raw = gpiod_edge_event_buffer_get_event(line->events, 0);
    event->kind = gpiod_edge_event_get_event_type(raw) == GPIOD_EDGE_EVENT_RISING_EDGE
        ? IMU_GPIO_EDGE_RISING : IMU_GPIO_EDGE_FALLING;
    event->offset = gpiod_edge_event_get_line_offset(raw);
    event->timestamp_ns = gpiod_edge_event_get_timestamp_ns(raw);
    return 0;
}

void imu_gpio_line_release(imu_gpio_line *line) {
    if (!line) return;
    gpiod_edge_event_buffer_free(line->events);
    gpiod_line_request_release(line->request);
    free(line);
}

#endif
