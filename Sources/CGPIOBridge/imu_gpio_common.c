// What both libgpiod versions share: finding a chip by label among /dev/gpiochip*.
#define _GNU_SOURCE  // strverscmp: gpiochip2 before gpiochip10
#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "imu_gpio.h"

static int by_name(const struct dirent **a, const struct dirent **b) {
    return strverscmp((*a)->d_name, (*b)->d_name);
}

static int is_gpiochip(const struct dirent *entry) {
    return strncmp(entry->d_name, "gpiochip", 8) == 0;
}

static void append(char *seen, size_t size, const char *text) {
    if (!seen || size == 0) return;
    size_t used = strlen(seen);
    if (used + 1 >= size) return;
    snprintf(seen + used, size - used, "%s", text);
}

int imu_gpio_chip_open_by_label(const char *directory, const char *label, imu_gpio_chip **chip,
                                char *seen, size_t seen_size) {
    *chip = NULL;
    if (seen && seen_size) seen[0] = '\0';
    struct dirent **entries = NULL;
    int count = scandir(directory, &entries, is_gpiochip, by_name);
    if (count < 0) return errno == ENOENT ? -ENOENT : -errno;

    int result = -ENOENT;
    int listed = 0;
    for (int i = 0; i < count; i++) {
        if (result == -ENOENT) {
            char path[512];
            snprintf(path, sizeof path, "%s/%s", directory, entries[i]->d_name);
            imu_gpio_chip *candidate = NULL;
            // Chips we cannot open are skipped: another chip may still carry the label.
            if (imu_gpio_chip_open(path, &candidate) == 0) {
                if (strcmp(imu_gpio_chip_label(candidate), label) == 0) {
                    *chip = candidate;
                    result = 0;
                } else {
                    char line[320];
                    snprintf(line, sizeof line, "%s%s [%s]", listed++ ? ", " : "",
                             entries[i]->d_name, imu_gpio_chip_label(candidate));
                    append(seen, seen_size, line);
                    imu_gpio_chip_close(candidate);
                }
            }
        }
        free(entries[i]);
    }
    free(entries);
    return result;
}
