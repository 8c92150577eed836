#!/usr/bin/env python3
"""Where the instructions of the firmware's 9D and 6D updates go, per function, on the target.

Runs the firmware under QEMU with `-d in_asm,exec,nochain`: every translated block is listed
once with its instructions (in_asm), every execution of a block is logged (exec, nochain so
that chained blocks are logged too). Counting, per block start address, executions times the
block's instruction count gives exact instruction counts. Only the blocks executed inside
`update9D` / `update6D` (the measured calls, Firmware/Sources/FusionRun.swift) and the
functions they call are counted, each against the function that contains it (self counts).

Usage: profile.py FIRMWARE.elf OUTDIR [REGEX_9D REGEX_6D]
  OUTDIR holds samples.bin; the log goes through a FIFO. The regexes name the two measured
  functions (default: the Swift firmware's update9D / update6D; for x-io Fusion's image:
  '^FusionAhrsUpdate$' '^FusionAhrsUpdateNoMagnetometer$').
"""
import bisect
import os
import re
import subprocess
import sys
import tempfile


def symbols(elf):
    out = subprocess.run(["arm-none-eabi-nm", "-n", elf], capture_output=True, text=True, check=True).stdout
    rows = []
    for line in out.splitlines():
        parts = line.split()
        if len(parts) == 3 and parts[1].lower() in "tw":
            rows.append((int(parts[0], 16) & ~1, parts[2]))
    names = subprocess.run(["swift", "demangle", "--simplified"], input="\n".join(n for _, n in rows),
                           capture_output=True, text=True).stdout.splitlines()
    if len(names) != len(rows):
        names = [n for _, n in rows]
    starts, labels, seen = [], [], set()
    for (address, _), name in zip(rows, names):
        if address in seen:
            continue  # identical-code-folded aliases: keep the first name
        seen.add(address)
        starts.append(address)
        labels.append(name)
    return starts, labels


def main():
    elf, outdir = sys.argv[1], sys.argv[2]
    starts, labels = symbols(elf)

    def function(pc):
        i = bisect.bisect_right(starts, pc) - 1
        return labels[i] if i >= 0 else "?"

    patterns = {"9D": sys.argv[3], "6D": sys.argv[4]} if len(sys.argv) == 5 else {
        "9D": r"^update9D\(", "6D": r"^update6D\("}
    entry = {}
    for kind, pattern in patterns.items():
        found = [starts[i] for i, label in enumerate(labels) if re.search(pattern, label)]
        if len(found) != 1:
            sys.exit(f"profile: expected one function matching {pattern!r} in {elf}, found {len(found)}")
        entry[found[0]] = kind

    fifo = os.path.join(tempfile.mkdtemp(), "qemu.log")
    os.mkfifo(fifo)
    qemu = subprocess.Popen(
        ["qemu-system-arm", "-M", "microbit", "-nographic", "-monitor", "none", "-serial", "null",
         "-semihosting-config", "enable=on,target=native", "-kernel", os.path.abspath(elf),
         "-d", "in_asm,exec,nochain", "-D", fifo],
        cwd=outdir, stdout=subprocess.DEVNULL)
    block_size = {}
    counts = {"9D": {}, "6D": {}}
    updates = {"9D": 0, "6D": 0}
    inside, caller, current_block = None, None, None
    exec_line = re.compile(r"^Trace \d+: \S+ \[[0-9a-f]+/([0-9a-f]+)/")
    insn_line = re.compile(r"^0x([0-9a-f]{8}):")
    previous_function = None
    with open(fifo) as log:
        for line in log:
            m = exec_line.match(line)
            if m:
                pc = int(m.group(1), 16)
                name = function(pc)
                if inside is None and pc in entry:
                    inside = entry[pc]
                    caller = previous_function
                    updates[inside] += 1
                elif inside is not None and name == caller:
                    inside = None
                if inside is not None:
                    table = counts[inside]
                    table[name] = table.get(name, 0) + block_size.get(pc, 0)
                previous_function = name
                continue
            if line.startswith("IN:"):
                current_block = None
                continue
            m = insn_line.match(line)
            if m:
                address = int(m.group(1), 16)
                if current_block is None:
                    current_block = address
                    block_size[address] = 0
                block_size[current_block] += 1
            elif not line.strip():
                current_block = None
    qemu.wait()
    for kind in ("9D", "6D"):
        table, n = counts[kind], max(updates[kind], 1)
        total = sum(table.values())
        print(f"profile: {kind} update, {updates[kind]} calls, {total / n:.0f} instructions per update (self, per function):")
        for name, count in sorted(table.items(), key=lambda kv: -kv[1])[:18]:
            print(f"  {count / n:8.0f}  {100 * count / total:5.1f} %  {name[:110]}")


if __name__ == "__main__":
    main()
