// Times x-io Fusion's 9D AHRS update per sample on one BROAD trial, for Scripts/bench-broad.sh:
// the leanest peer `imu bench fusion` is compared with, built and run on the same machine in the
// same script run (issue 19, goal 4).
//
// It only calls Fusion's public C API (FusionAhrsInitialise, FusionAhrsSetSettings,
// FusionAhrsUpdate, FusionAhrsGetQuaternion); Fusion's sources come from the PyPI sdist
// imufusion 1.3.3 and are compiled next to this file with gcc -O2. Settings as the issue fixes
// them: ENU, gain 0.5, gyroscope range 2000°/s, acceleration and magnetic rejection 10°,
// rejection timeout 5 s, at the trial's sample rate.
//
//     xio-fusion-timing TRIAL.csv    prints {"ns_per_update": …, "updates": …, "total_seconds": …, "passes": 5}
//
// Fusion takes °/s and g: the trial's rad/s and m/s² are converted once while reading (outside
// the timed loop). Best of 5 passes, each from a fresh filter at the first sample, as the VQF
// harness does.
#include "Fusion.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

typedef struct {
    FusionVector gyr, acc, mag;
} Sample;

static const char *wanted[] = {"t", "gyr_x", "gyr_y", "gyr_z", "acc_x", "acc_y", "acc_z", "mag_x", "mag_y", "mag_z"};

static double now(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double) ts.tv_sec + 1e-9 * (double) ts.tv_nsec;
}

// Splits `line` at commas in place; returns the number of fields (at most `max`).
static int split(char *line, char **fields, int max) {
    int n = 0;
    char *p = line;
    while (n < max) {
        fields[n++] = p;
        char *comma = strchr(p, ',');
        if (!comma) break;
        *comma = '\0';
        p = comma + 1;
    }
    char *end = fields[n - 1] + strcspn(fields[n - 1], "\r\n");
    *end = '\0';
    return n;
}

int main(int argc, char **argv) {
    if (argc != 2) {
        fprintf(stderr, "usage: xio-fusion-timing TRIAL.csv\n");
        return 2;
    }
    FILE *file = fopen(argv[1], "r");
    if (!file) {
        fprintf(stderr, "xio-fusion-timing: cannot open %s\n", argv[1]);
        return 1;
    }
    static char line[65536];
    char *fields[256];
    if (!fgets(line, sizeof line, file)) {
        fprintf(stderr, "xio-fusion-timing: %s: empty\n", argv[1]);
        return 1;
    }
    int columns = split(line, fields, 256);
    int column[10];
    for (int k = 0; k < 10; k++) {
        column[k] = -1;
        for (int i = 0; i < columns; i++) {
            if (strcmp(fields[i], wanted[k]) == 0) column[k] = i;
        }
        if (column[k] < 0) {
            fprintf(stderr, "xio-fusion-timing: %s:1: no column %s\n", argv[1], wanted[k]);
            return 1;
        }
    }
    size_t capacity = 1 << 16, count = 0;
    Sample *samples = malloc(capacity * sizeof *samples);
    double first = 0, last = 0;
    const double degrees = 180.0 / M_PI, g = 9.81;
    while (fgets(line, sizeof line, file)) {
        if (line[0] == '\n' || line[0] == '\0') continue;
        if (split(line, fields, 256) != columns) {
            fprintf(stderr, "xio-fusion-timing: %s:%zu: expected %d fields\n", argv[1], count + 2, columns);
            return 1;
        }
        double v[10];
        for (int k = 0; k < 10; k++) v[k] = strtod(fields[column[k]], NULL);
        if (count == capacity) {
            capacity *= 2;
            samples = realloc(samples, capacity * sizeof *samples);
        }
        if (count == 0) first = v[0];
        last = v[0];
        Sample s = {
            .gyr = {.axis = {(float) (v[1] * degrees), (float) (v[2] * degrees), (float) (v[3] * degrees)}},
            .acc = {.axis = {(float) (v[4] / g), (float) (v[5] / g), (float) (v[6] / g)}},
            .mag = {.axis = {(float) v[7], (float) v[8], (float) v[9]}},
        };
        samples[count++] = s;
    }
    fclose(file);
    if (count < 2) {
        fprintf(stderr, "xio-fusion-timing: %s: fewer than two rows\n", argv[1]);
        return 1;
    }
    const double ts = (last - first) / (double) (count - 1);

    const FusionAhrsSettings settings = {
        .sampleRate = (float) (1.0 / ts),
        .convention = FusionConventionEnu,
        .gain = 0.5f,
        .gyroscopeRange = 2000.0f,
        .accelerationRejection = 10.0f,
        .magneticRejection = 10.0f,
        .rejectionTimeout = 5.0f,
    };
    const int passes = 5;
    double best = 1e300, check = 0;  // the output is read, so the updates cannot be optimised away
    for (int pass = 0; pass < passes; pass++) {
        FusionAhrs ahrs;
        FusionAhrsInitialise(&ahrs);
        FusionAhrsSetSettings(&ahrs, &settings);
        const double start = now();
        for (size_t i = 0; i < count; i++) FusionAhrsUpdate(&ahrs, samples[i].gyr, samples[i].acc, samples[i].mag);
        const double end = now();
        check += FusionAhrsGetQuaternion(&ahrs).element.w;
        if (end - start < best) best = end - start;
    }
    printf("{\"ns_per_update\": %.2f, \"updates\": %zu, \"total_seconds\": %.6f, \"passes\": %d, \"final_w\": %.6f}\n",
           best * 1e9 / (double) count, count, best, passes, check / passes);
    free(samples);
    return 0;
}
