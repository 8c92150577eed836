// The bare-metal pieces under the Embedded Swift firmware on QEMU's `microbit` (nRF51822,
// Cortex-M0): vector table and reset handler, the C library functions the Swift code and its
// runtime call, semihosting I/O, SysTick as the cycle counter, RAM and flash accounting.
// ARMv6-M facts: ARMv6-M Architecture Reference Manual (DDI 0419): no LDREX/STREX, so the
// atomics mask interrupts (PRIMASK, B1.4.3); SysTick at 0xE000E010 (B3.3). Semihosting:
// Arm "Semihosting for AArch32 and AArch64" (BKPT 0xAB on M-profile; SYS_OPEN 0x01,
// SYS_CLOSE 0x02, SYS_WRITE0 0x04, SYS_READ 0x06, SYS_EXIT 0x18 with ADP_Stopped_ApplicationExit).
#include <stddef.h>
#include <stdint.h>
#include "firmware.h"

extern uint32_t _sidata, _sdata, _edata, _sbss, _ebss, _estack, _flash_end;
extern int main(void);

// ---- semihosting ----
static int32_t semihost(int32_t operation, const void *argument) {
    register int32_t r0 __asm__("r0") = operation;
    register const void *r1 __asm__("r1") = argument;
    __asm__ volatile("bkpt 0xAB" : "+r"(r0) : "r"(r1) : "memory");
    return r0;
}

void fw_print(const char *text) { semihost(0x04, text); }

_Noreturn void fw_exit(int32_t status) {
    // SYS_EXIT with ADP_Stopped_ApplicationExit (0x20026) ends QEMU with status 0; any other
    // reason (ADP_Stopped_RunTimeErrorUnknown, 0x20023) with status 1.
    semihost(0x18, (const void *)(uintptr_t)(status == 0 ? 0x20026 : 0x20023));
    for (;;) {}
}

int32_t fw_open_samples(void) {
    static const char name[] = "samples.bin";
    const uint32_t arguments[3] = {(uint32_t)(uintptr_t)name, 1 /* "rb" */, sizeof name - 1};
    return semihost(0x01, arguments);
}

int32_t fw_read(int32_t handle, void *buffer, int32_t length) {
    const uint32_t arguments[3] = {(uint32_t)handle, (uint32_t)(uintptr_t)buffer, (uint32_t)length};
    int32_t notRead = semihost(0x06, arguments);  // SYS_READ answers the bytes NOT read
    return notRead < 0 || notRead > length ? -1 : length - notRead;
}

void fw_close(int32_t handle) {
    const uint32_t arguments[1] = {(uint32_t)handle};
    semihost(0x02, arguments);
}

int32_t fw_is_target(void) { return 1; }

// ---- SysTick: the core clock, counting down from 2^24 - 1 ----
#define SYST_CSR (*(volatile uint32_t *)0xE000E010)
#define SYST_RVR (*(volatile uint32_t *)0xE000E014)
#define SYST_CVR (*(volatile uint32_t *)0xE000E018)

uint32_t fw_ticks(void) { return SYST_CVR; }

// SysTick counts the core clock; under QEMU's -icount the core clock is virtual time, which
// advances by a fixed amount per instruction. How many ticks an instruction is worth is
// measured here, not assumed: two runs of a loop of exactly 2 instructions per iteration
// (SUBS, BNE), the difference taking out the call and the reads.
static void __attribute__((noinline)) spin(uint32_t iterations) {
    __asm__ volatile("1: subs %0, #1\n bne 1b" : "+l"(iterations)::"cc");
}
uint32_t fw_calibration_ticks(void) {
    uint32_t a0 = SYST_CVR;
    spin(1000);
    uint32_t a1 = SYST_CVR;
    spin(1000 + FW_CALIBRATION_INSTRUCTIONS / 2);
    uint32_t b1 = SYST_CVR;
    return ((a1 - b1) & 0xFFFFFF) - ((a0 - a1) & 0xFFFFFF);
}

// ---- RAM: the stack is painted at reset; the heap is a bump allocator above .bss ----
#define STACK_PAINT 0xC0FFEE5Au
static uint8_t *heapTop;

uint32_t fw_static_ram_bytes(void) { return (uint32_t)((uint8_t *)&_ebss - (uint8_t *)&_sdata); }
uint32_t fw_heap_bytes(void) { return (uint32_t)(heapTop - (uint8_t *)&_ebss); }  // high-water mark
uint32_t fw_stack_bytes(void) {
    const uint32_t *word = (const uint32_t *)(((uintptr_t)heapTop + 3) & ~(uintptr_t)3);
    while (word < &_estack && *word == STACK_PAINT) { word++; }
    return (uint32_t)((const uint8_t *)&_estack - (const uint8_t *)word);
}
uint32_t fw_flash_bytes(void) {
    // Everything before _flash_end (vectors, .text, .rodata) plus .data's initial values.
    return (uint32_t)(uintptr_t)&_flash_end + fw_static_ram_bytes() - (uint32_t)((uint8_t *)&_ebss - (uint8_t *)&_edata);
}

// The heap: first-fit over an address-ordered free list with coalescing, 16-byte blocks (a
// 16-byte header before each), from the end of .bss up to FW_STACK_RESERVE below the top of
// RAM. The update path allocates nothing (Scripts/check-embedded.sh); the driver's set-up
// does (its register tables are arrays), and frees.
#define FW_STACK_RESERVE 6144
typedef struct Block {
    uint32_t size;  // bytes including this header, a multiple of 16
    struct Block *next;  // the next free block, by address (free blocks only)
    uint32_t pad[2];
} Block;
static Block *freeList;
static uint32_t allocationCount;
uint32_t fw_allocation_count(void) { return allocationCount; }

int posix_memalign(void **result, size_t alignment, size_t size) {
    allocationCount++;
    if (alignment > 16) { return 22; /* EINVAL */ }
    uint32_t need = (uint32_t)((size + 15) & ~(size_t)15) + sizeof(Block);
    Block **link = &freeList;
    for (Block *b = freeList; b; link = &b->next, b = b->next) {
        if (b->size >= need) {
            if (b->size - need >= 2 * sizeof(Block)) {  // split: the tail stays free
                Block *rest = (Block *)((uint8_t *)b + need);
                rest->size = b->size - need;
                rest->next = b->next;
                *link = rest;
                b->size = need;
            } else {
                *link = b->next;
            }
            *result = b + 1;
            return 0;
        }
    }
    uint8_t *start = (uint8_t *)(((uintptr_t)heapTop + 15) & ~(uintptr_t)15);
    if (start + need > (uint8_t *)&_estack - FW_STACK_RESERVE) { return 12; /* ENOMEM */ }
    Block *b = (Block *)start;
    b->size = need;
    heapTop = start + need;
    *result = b + 1;
    return 0;
}

void free(void *pointer) {
    if (!pointer) { return; }
    Block *b = (Block *)pointer - 1;
    Block *previous = 0, *next = freeList;
    while (next && next < b) { previous = next, next = next->next; }
    b->next = next;
    if (next && (uint8_t *)b + b->size == (uint8_t *)next) {  // merge with the next free block
        b->size += next->size;
        b->next = next->next;
    }
    if (previous && (uint8_t *)previous + previous->size == (uint8_t *)b) {  // and the previous
        previous->size += b->size;
        previous->next = b->next;
    } else if (previous) {
        previous->next = b;
    } else {
        freeList = b;
    }
}

// ---- the C library functions compiled code calls ----
void *memset(void *destination, int value, size_t count) {
    uint8_t *d = destination;
    while (count--) { *d++ = (uint8_t)value; }
    return destination;
}

// Word by word when both ends are 4-byte aligned: the Swift code copies its structs (the filter
// state) with memcpy, so its speed is part of the update's cost, as newlib's would be.
void *memcpy(void *destination, const void *source, size_t count) {
    uint8_t *d = destination;
    const uint8_t *s = source;
    if ((((uintptr_t)d | (uintptr_t)s) & 3) == 0) {
        for (; count >= 4; count -= 4, d += 4, s += 4) { *(uint32_t *)d = *(const uint32_t *)s; }
    }
    while (count--) { *d++ = *s++; }
    return destination;
}

void *memmove(void *destination, const void *source, size_t count) {
    uint8_t *d = destination;
    const uint8_t *s = source;
    if (d < s) {
        while (count--) { *d++ = *s++; }
    } else {
        while (count--) { d[count] = s[count]; }
    }
    return destination;
}

// The ARM run-time ABI's names (RTABI 4.3.4), which LLVM calls for struct copies and zeroing;
// note memclr/memset's different argument order.
void __aeabi_memcpy(void *d, const void *s, size_t n) { memcpy(d, s, n); }
void __aeabi_memcpy4(void *d, const void *s, size_t n) { memcpy(d, s, n); }
void __aeabi_memcpy8(void *d, const void *s, size_t n) { memcpy(d, s, n); }
void __aeabi_memmove(void *d, const void *s, size_t n) { memmove(d, s, n); }
void __aeabi_memmove4(void *d, const void *s, size_t n) { memmove(d, s, n); }
void __aeabi_memmove8(void *d, const void *s, size_t n) { memmove(d, s, n); }
void __aeabi_memset(void *d, size_t n, int value) { memset(d, value, n); }
void __aeabi_memset4(void *d, size_t n, int value) { memset(d, value, n); }
void __aeabi_memset8(void *d, size_t n, int value) { memset(d, value, n); }
void __aeabi_memclr(void *d, size_t n) {
    uint8_t *b = d;
    if (((uintptr_t)b & 3) == 0) {
        for (; n >= 4; n -= 4, b += 4) { *(uint32_t *)b = 0; }
    }
    while (n--) { *b++ = 0; }
}
void __aeabi_memclr4(void *d, size_t n) { __aeabi_memclr(d, n); }
void __aeabi_memclr8(void *d, size_t n) { __aeabi_memclr(d, n); }

int memcmp(const void *a, const void *b, size_t count) {
    const uint8_t *x = a, *y = b;
    for (; count; count--, x++, y++) {
        if (*x != *y) { return *x < *y ? -1 : 1; }
    }
    return 0;
}

size_t strlen(const char *text) {
    size_t n = 0;
    while (text[n]) { n++; }
    return n;
}

// The 32-bit atomics the Swift runtime's reference counting uses. ARMv6-M has no exclusive
// load/store: a critical section with interrupts masked (and the previous mask restored).
static inline uint32_t interruptsOff(void) {
    uint32_t primask;
    __asm__ volatile("mrs %0, primask\n cpsid i" : "=r"(primask)::"memory");
    return primask;
}
static inline void interruptsRestore(uint32_t primask) { __asm__ volatile("msr primask, %0" ::"r"(primask) : "memory"); }

uint32_t __atomic_load_4(const volatile void *p, int order) {
    (void)order;
    return *(const volatile uint32_t *)p;
}
void __atomic_store_4(volatile void *p, uint32_t value, int order) {
    (void)order;
    *(volatile uint32_t *)p = value;
}
uint32_t __atomic_exchange_4(volatile void *p, uint32_t value, int order) {
    (void)order;
    uint32_t mask = interruptsOff(), old = *(volatile uint32_t *)p;
    *(volatile uint32_t *)p = value;
    interruptsRestore(mask);
    return old;
}
_Bool __atomic_compare_exchange_4(volatile void *p, void *expected, uint32_t desired, _Bool weak, int success, int failure) {
    (void)weak, (void)success, (void)failure;
    uint32_t mask = interruptsOff(), current = *(volatile uint32_t *)p;
    _Bool equal = current == *(uint32_t *)expected;
    if (equal) {
        *(volatile uint32_t *)p = desired;
    } else {
        *(uint32_t *)expected = current;
    }
    interruptsRestore(mask);
    return equal;
}
#define FETCH_OP(name, op)                                                          \
    uint32_t __atomic_fetch_##name##_4(volatile void *p, uint32_t value, int order) { \
        (void)order;                                                                \
        uint32_t mask = interruptsOff(), old = *(volatile uint32_t *)p;             \
        *(volatile uint32_t *)p = old op value;                                     \
        interruptsRestore(mask);                                                    \
        return old;                                                                 \
    }
FETCH_OP(add, +)
FETCH_OP(sub, -)
FETCH_OP(and, &)
FETCH_OP(or, |)
FETCH_OP(xor, ^)

// The seed of the standard library's hashing (Dictionary, Set: the LSM9DS1 driver's table of
// gyro bandwidths is one). A seed only changes a table's layout, never what it holds; a
// firmware without an attacker to flood its tables needs no entropy, so it is fixed.
void arc4random_buf(void *buffer, size_t count) {
    uint32_t state = 0x2545F491u;
    uint8_t *b = buffer;
    while (count--) {
        state ^= state << 13, state ^= state >> 17, state ^= state << 5;
        *b++ = (uint8_t)state;
    }
}

// -fstack-protector's canary and its failure.
uintptr_t __stack_chk_guard = 0x595e9fbdu;
_Noreturn void __stack_chk_fail(void) {
    fw_print("firmware: stack smashing detected\n");
    fw_exit(1);
}

// ---- reset ----
// Prints the faulting instruction's address (the PC the exception stacked, ARMv6-M B1.5.6),
// to look up with arm-none-eabi-addr2line or nm.
_Noreturn void faultReport(const uint32_t *frame) {
    char text[] = "firmware: hard fault at pc 0x00000000\n";
    uint32_t pc = frame[6];
    for (int i = 0; i < 8; i++) {
        uint32_t digit = (pc >> (28 - 4 * i)) & 0xF;
        text[29 + i] = (char)(digit < 10 ? '0' + digit : 'a' + digit - 10);
    }
    fw_print(text);
    fw_exit(1);
}

__attribute__((naked)) static void faultHandler(void) {
    __asm__ volatile("mrs r0, msp\n b faultReport");
}

_Noreturn void Reset_Handler(void) {
    uint32_t *source = &_sidata;
    for (uint32_t *d = &_sdata; d < &_edata;) { *d++ = *source++; }
    for (uint32_t *d = &_sbss; d < &_ebss;) { *d++ = 0; }
    heapTop = (uint8_t *)&_ebss;
    // Paint the free RAM below this frame, for the stack's high-water mark.
    uint32_t sp;
    __asm__ volatile("mov %0, sp" : "=r"(sp));
    for (uint32_t *d = &_ebss; d < (uint32_t *)(sp - 64);) { *d++ = STACK_PAINT; }
    SYST_RVR = 0xFFFFFF;
    SYST_CVR = 0;
    SYST_CSR = 5;  // CLKSOURCE = core clock, ENABLE, no interrupt
    fw_exit(main());
}

__attribute__((section(".vectors"), used)) static void (*const vectors[16])(void) = {
    (void (*)(void))(uintptr_t)&_estack, (void (*)(void))Reset_Handler, faultHandler, faultHandler,
};
