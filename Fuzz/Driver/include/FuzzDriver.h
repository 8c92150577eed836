#ifndef IMU_FUZZ_DRIVER_H
#define IMU_FUZZ_DRIVER_H

#include <stddef.h>
#include <stdint.h>

/// Hands the command line to libFuzzer with `test_one_input` as the target and exits with its
/// status. A fuzz target's main.swift calls this: SwiftPM gives every executable its own `main`,
/// so libFuzzer's is not the one that runs.
_Noreturn void imu_fuzz_main(int argc, char **argv, int (*test_one_input)(const uint8_t *data, size_t size));

#endif
