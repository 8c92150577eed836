// The firmware's platform functions (Support/firmware.h) on Linux, so that the same Swift main
// computes the reference checksum with the host build of Sources/IMUFusion: samples.bin from
// the working directory, text to stdout. No cycle counter or memory figures on the host.
#include <stdio.h>
#include <stdlib.h>
#include "firmware.h"

static FILE *files[4];

int32_t fw_open_samples(void) {
    for (int32_t i = 0; i < 4; i++) {
        if (!files[i]) {
            files[i] = fopen("samples.bin", "rb");
            return files[i] ? i : -1;
        }
    }
    return -1;
}

int32_t fw_read(int32_t handle, void *buffer, int32_t length) {
    if (handle < 0 || handle >= 4 || !files[handle]) { return -1; }
    size_t got = fread(buffer, 1, (size_t)length, files[handle]);
    return ferror(files[handle]) ? -1 : (int32_t)got;
}

void fw_close(int32_t handle) {
    if (handle >= 0 && handle < 4 && files[handle]) {
        fclose(files[handle]);
        files[handle] = NULL;
    }
}

void fw_print(const char *text) {
    fputs(text, stdout);
    fflush(stdout);
}

uint32_t fw_ticks(void) { return 0; }
uint32_t fw_calibration_ticks(void) { return 0; }
uint32_t fw_static_ram_bytes(void) { return 0; }
uint32_t fw_heap_bytes(void) { return 0; }
uint32_t fw_stack_bytes(void) { return 0; }
uint32_t fw_flash_bytes(void) { return 0; }
uint32_t fw_allocation_count(void) { return 0; }
int32_t fw_is_target(void) { return 0; }

_Noreturn void fw_exit(int32_t status) {
    fflush(stdout);
    exit(status);
}
