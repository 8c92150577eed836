// What the firmware's Swift code calls on its platform: the samples file, text output, the
// cycle counter, the end of the run. Implemented twice: Support/startup.c on the Cortex-M0
// (semihosting, SysTick), Host/host.c on Linux (stdio), so that the same Swift main runs on both.
#ifndef FIRMWARE_H
#define FIRMWARE_H
#include <stdint.h>

/// Opens the samples file (samples.bin in the working directory of QEMU or of the host program);
/// returns a handle >= 0, or -1.
int32_t fw_open_samples(void);
/// Reads up to `length` bytes; returns the number read (0 at the end), or -1.
int32_t fw_read(int32_t handle, void *buffer, int32_t length);
void fw_close(int32_t handle);
/// Writes a NUL-terminated line (the newline included by the caller).
void fw_print(const char *text);
/// SysTick's current value: a 24-bit down counter at the core clock (0 on the host).
uint32_t fw_ticks(void);
/// SysTick ticks that FW_CALIBRATION_INSTRUCTIONS instructions take (0 on the host).
#define FW_CALIBRATION_INSTRUCTIONS 1000000
uint32_t fw_calibration_ticks(void);
/// Bytes of RAM: static (.data + .bss), heap used, stack high-water mark (0 on the host).
uint32_t fw_static_ram_bytes(void);
uint32_t fw_heap_bytes(void);
uint32_t fw_stack_bytes(void);
/// How many allocations (posix_memalign) the program has made so far (0 on the host).
uint32_t fw_allocation_count(void);
/// Flash used by the image: .text + .rodata + .data's initial values (0 on the host).
uint32_t fw_flash_bytes(void);
/// 1 on the target, 0 on the host.
int32_t fw_is_target(void);
_Noreturn void fw_exit(int32_t status);

#endif
