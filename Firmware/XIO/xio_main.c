// x-io Technologies' Fusion (PyPI sdist imufusion 1.3.3, downloaded and built at run time by
// Scripts/check-firmware.sh, never committed) on the same Cortex-M0, the same samples.bin and
// the same SysTick measurement as the Swift firmware: FusionAhrsUpdate (9D) and
// FusionAhrsUpdateNoMagnetometer (6D), settings as the BROAD comparison (gain 0.5, ENU, 10°
// acceleration and magnetic rejection, 5 s rejection timeout, 2000 °/s gyroscope range), and
// FusionBiasUpdate (its gyroscope offset) timed on its own. Soft float (newlib libm/libgcc).
#include <stdint.h>
#include "Fusion.h"
#include "firmware.h"

#define SAMPLE_RATE 285.714f /* BROAD: 3.5 ms */

static void printLine(const char *key, uint32_t value, int last) {
    char text[48];
    int n = 0;
    while (*key) { text[n++] = *key++; }
    char digits[12];
    int d = 0;
    do { digits[d++] = (char)('0' + value % 10); value /= 10; } while (value);
    while (d) { text[n++] = digits[--d]; }
    text[n++] = last ? '\n' : ' ';
    text[n] = 0;
    fw_print(text);
}

static int32_t words[16 * 10];

typedef struct {
    uint32_t updates;
    uint64_t ticks;
    uint64_t biasTicks;
    FusionQuaternion last;
} Pass;

static int runPass(int magnetometer, uint32_t overhead, Pass *pass) {
    int32_t handle = fw_open_samples();
    if (handle < 0) { return 0; }
    FusionAhrs ahrs;
    FusionAhrsInitialise(&ahrs);
    const FusionAhrsSettings settings = {
        .sampleRate = SAMPLE_RATE,
        .convention = FusionConventionEnu,
        .gain = 0.5f,
        .gyroscopeRange = 2000.0f,
        .accelerationRejection = 10.0f,
        .magneticRejection = 10.0f,
        .rejectionTimeout = 5.0f,
    };
    FusionAhrsSetSettings(&ahrs, &settings);
    FusionBias bias;
    FusionBiasInitialise(&bias);
    FusionBiasSettings biasSettings = fusionBiasDefaultSettings;
    biasSettings.sampleRate = SAMPLE_RATE;
    FusionBiasSetSettings(&bias, &biasSettings);
    *pass = (Pass){0};
    for (;;) {
        int32_t got = fw_read(handle, words, sizeof words);
        if (got < 0 || got % 40) { fw_close(handle); return 0; }
        if (got == 0) { break; }
        for (int k = 0; k < got / 40; k++) {
            const int32_t *w = &words[k * 10];
            // The same integers as the Swift firmware reads, in x-io's units: °/s, g with +1
            // up at rest (specific force: our acceleration negated), µT.
            const float scale = 1.0f / 65536.0f;
            FusionVector gyro = {.axis = {w[0] * scale * 57.29578f, w[1] * scale * 57.29578f, w[2] * scale * 57.29578f}};
            FusionVector accel = {.axis = {-w[3] * scale, -w[4] * scale, -w[5] * scale}};
            FusionVector mag = {.axis = {w[6] * scale, w[7] * scale, w[8] * scale}};
            uint32_t t0 = fw_ticks();
            gyro = FusionBiasUpdate(&bias, gyro);
            uint32_t t1 = fw_ticks();
            if (magnetometer) {
                FusionAhrsUpdate(&ahrs, gyro, accel, mag);
            } else {
                FusionAhrsUpdateNoMagnetometer(&ahrs, gyro, accel);
            }
            uint32_t t2 = fw_ticks();
            pass->biasTicks += ((t0 - t1) & 0xFFFFFF) - overhead;
            pass->ticks += ((t1 - t2) & 0xFFFFFF) - overhead;
            pass->updates++;
        }
    }
    fw_close(handle);
    pass->last = FusionAhrsGetQuaternion(&ahrs);
    return 1;
}

int main(void) {
    uint32_t overhead = 0xFFFFFFFF;
    for (int i = 0; i < 8; i++) {
        uint32_t a = fw_ticks(), b = fw_ticks();
        if (((a - b) & 0xFFFFFF) < overhead) { overhead = (a - b) & 0xFFFFFF; }
    }
    Pass nine, six;
    if (!runPass(1, overhead, &nine) || !runPass(0, overhead, &six) || nine.updates == 0) {
        fw_print("xio: cannot read samples.bin\n");
        return 1;
    }
    printLine("xio_updates=", nine.updates, 0);
    printLine("xio_ticks_9d=", (uint32_t)nine.ticks, 0);
    printLine("xio_ticks_6d=", (uint32_t)six.ticks, 0);
    printLine("xio_bias_ticks=", (uint32_t)nine.biasTicks, 0);
    printLine("tick_overhead=", overhead, 0);
    printLine("calibration_ticks=", fw_calibration_ticks(), 0);
    printLine("flash_bytes=", fw_flash_bytes(), 0);
    printLine("static_ram_bytes=", fw_static_ram_bytes(), 0);
    printLine("stack_bytes=", fw_stack_bytes(), 0);
    // The final attitude ×10⁶ (offset by 10⁶ to stay unsigned), a sanity check that it ran.
    printLine("quaternion_w_plus1_e6=", (uint32_t)((nine.last.element.w + 1.0f) * 1e6f), 1);
    return 0;
}
