#!/usr/bin/env bash
# Builds the fusion core (every .swift file of Sources/IMUFusion and its subfolders) with Embedded Swift for a
# Cortex-M0+ (armv6m-none-none-eabi, no FPU), leaves the object file in OUTDIR, and fails if
# it does not compile, if the object calls a soft-float routine — which is what any
# Float/Double arithmetic becomes on that target, so this is how "no floating point in the
# core" is enforced. 64-bit integer helpers (__aeabi_lmul, __aeabi_llsl, __aeabi_uldivmod, …)
# are integer code and allowed. It also fails if any function of the module calls the
# allocator (the update path must not allocate).
#
# Usage: Scripts/check-embedded.sh OUTDIR
set -euo pipefail
cd "$(dirname "$0")/.."

outdir=${1:?usage: Scripts/check-embedded.sh OUTDIR}
mkdir -p "$outdir"
object="$outdir/IMUFusion.o"
rm -f "$object"

sources=(Sources/IMUFusion/*.swift Sources/IMUFusion/*/*.swift)
echo "check-embedded: compiling ${#sources[@]} files of Sources/IMUFusion for armv6m-none-none-eabi"
if ! swiftc -target armv6m-none-none-eabi -enable-experimental-feature Embedded -wmo \
    -parse-as-library -Osize -module-name IMUFusion -c "${sources[@]}" -o "$object"; then
    echo "check-embedded: FAIL: Sources/IMUFusion does not compile with Embedded Swift for armv6m" >&2
    exit 1
fi

nm=$(command -v llvm-nm || true)
[ -n "$nm" ] || { echo "check-embedded: FAIL: llvm-nm not found" >&2; exit 1; }

# The ARM EABI and libgcc/compiler-rt names of single- and double-precision routines:
# __aeabi_f*/__aeabi_d* (fadd, dmul, f2iz, d2f, fcmplt, …), integer → float conversions
# __aeabi_[ilu]2[fd] and __aeabi_ul2[fd], and the generic __*sf*/__*df* helpers (__addsf3,
# __muldf3, __floatsisf, __fixsfsi, __extendsfdf2, __truncdfsf2, __eqdf2, __powidf2, …).
soft_float='^(__aeabi_[fd][a-z0-9]*|__aeabi_u?[ilu]2[fd]|__(add|sub|mul|div|neg|pow[i]?|cmp|eq|ne|lt|le|gt|ge|unord)[sdtx]f[0-9]*|__(float|floatun)[sdt]i[sdtx]f|__fix(uns)?[sdtx]f[sdt]i|__extend[sdh]f[sdt]f2|__trunc[sdt]f[sdh]f2)$'
undefined=$("$nm" -u "$object" | awk '{ print $NF }')
offending=$(printf '%s\n' "$undefined" | grep -E "$soft_float" | sort -u || true)
if [ -n "$offending" ]; then
    echo "check-embedded: FAIL: $object references soft-float routines:" >&2
    printf '  %s\n' $offending >&2
    echo "  (floating point crept into Sources/IMUFusion; host-only code belongs under #if !hasFeature(Embedded))" >&2
    exit 1
fi
# Allocation-free: no function of the module may reach the allocator, directly or through
# the standard-library code compiled into the object (an Array's buffer, a class instance, a
# heap box). The call graph comes from the object's call relocations; the module's own
# functions are the ones mangled as IMUFusion's ($e9IMUFusion…).
objdump=$(command -v llvm-objdump || true)
if [ -n "$objdump" ]; then
    allocating=$("$objdump" -dr --no-show-raw-insn "$object" | python3 -c '
import re, sys
allocators = {"swift_allocObject", "swift_allocEmptyBox", "swift_slowAlloc", "posix_memalign", "malloc", "calloc", "realloc"}
calls, current = {}, None
for line in sys.stdin:
    header = re.match(r"^[0-9a-f]+ <(.+)>:$", line)
    if header:
        current = header.group(1)
        calls.setdefault(current, set())
    elif current and re.search(r"R_ARM_THM_(CALL|JUMP\w*)\s", line):
        calls[current].add(line.split()[-1])
def path_to_allocator(name, seen):
    if name in allocators:
        return [name]
    for callee in calls.get(name, ()):
        if callee not in seen:
            seen.add(callee)
            rest = path_to_allocator(callee, seen)
            if rest:
                return [name] + rest
    return None
for name in sorted(calls):
    if name.startswith("$e9IMUFusion"):
        path = path_to_allocator(name, {name})
        if path:
            print(" -> ".join(path))
')
    if [ -n "$allocating" ]; then
        echo "check-embedded: FAIL: $object allocates (call chains, demangle with swift demangle):" >&2
        printf '%s\n' "$allocating" | sed 's/^/  /' >&2
        exit 1
    fi
fi

echo "check-embedded: PASS: $object ($(wc -c < "$object") bytes), no soft-float references;" \
    "no allocation; undefined symbols: $(printf '%s ' $undefined)"
