@ __aeabi_lmul: the low 64 bits of a 64 x 64-bit product (signed and unsigned alike), the
@ run-time ABI's helper (Arm RTABI, 4.2) that LLVM calls for every Int64 multiply on ARMv6-M,
@ which has only MULS (32 x 32 -> low 32). libgcc's takes 45 instructions; this one 21 on the
@ usual path: the cross terms need only their low halves, and the low product is built from
@ four 16 x 16-bit products. The fusion core's checksum against the Linux build (millions of
@ products) checks it; Scripts/check-firmware.sh also reports libgcc's figure.
@   in: r1:r0 = a (hi:lo), r3:r2 = b;  out: r1:r0
    .syntax unified
    .cpu cortex-m0
    .thumb
    .text
    .global __aeabi_lmul
    .type __aeabi_lmul, %function
    .thumb_func
__aeabi_lmul:
    push    {r4, r5, lr}
    muls    r1, r2              @ a_hi * b_lo (low 32 bits)
    muls    r3, r0              @ b_hi * a_lo
    adds    r1, r1, r3          @ the cross terms, to add to the high word
    lsrs    r3, r0, #16         @ a1 (a_lo = a1:a0)
    uxth    r0, r0              @ a0
    lsrs    r4, r2, #16         @ b1
    uxth    r2, r2              @ b0
    movs    r5, r0
    muls    r0, r2              @ a0 * b0
    muls    r2, r3              @ a1 * b0
    muls    r5, r4              @ a0 * b1
    muls    r3, r4              @ a1 * b1
    adds    r5, r5, r2          @ mid = a0 b1 + a1 b0, which can carry out of 32 bits
    bcc     1f
    movs    r4, #1
    lsls    r4, r4, #16
    adds    r3, r3, r4          @ the carry is worth 2^48: 2^16 in the high word
1:  lsls    r2, r5, #16
    lsrs    r5, r5, #16
    adds    r0, r0, r2          @ low = a0 b0 + (mid << 16)
    adcs    r3, r5              @ high = a1 b1 + (mid >> 16) + carry
    adds    r1, r1, r3
    pop     {r4, r5, pc}
    .size __aeabi_lmul, . - __aeabi_lmul
