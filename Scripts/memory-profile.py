#!/usr/bin/env python3
"""Where a running process's resident memory is: per mapped file (and, for ELF files, per
section), anonymous memory and thread stacks, from /proc/PID/smaps and /proc/PID/pagemap.

    python3 Scripts/memory-profile.py PID
    python3 Scripts/memory-profile.py --run SECONDS -- imu run --sim walk ...

--run starts the command, waits SECONDS, profiles it and then waits for it to end (so the
command's own --duration decides when it stops). A profiling aid for Docs/performance.md
("The daemon with no client"), not a test. Residency per page comes from pagemap's present bit
(readable by the process's owner); the ELF sections from the file's section headers.
"""
import os
import struct
import subprocess
import sys
import time

PAGE = os.sysconf("SC_PAGE_SIZE")
MIB = 1024 * 1024


def mappings(pid):
    """Each mapping of smaps: start, end, perms, offset, path, and its fields in kB."""
    result = []
    with open(f"/proc/{pid}/smaps") as smaps:
        current = None
        for line in smaps:
            parts = line.split()
            if "-" in parts[0] and not parts[0].endswith(":"):
                start, end = (int(x, 16) for x in parts[0].split("-"))
                path = parts[5] if len(parts) > 5 else ""
                current = {"start": start, "end": end, "perms": parts[1], "offset": int(parts[2], 16),
                           "path": path, "fields": {}}
                result.append(current)
            elif parts[0].endswith(":") and len(parts) >= 2 and parts[1].isdigit():
                current["fields"][parts[0][:-1]] = int(parts[1])
    return result


def present_pages(pid, start, end):
    """The addresses of the pages of [start, end) that are resident (pagemap bit 63)."""
    with open(f"/proc/{pid}/pagemap", "rb") as pagemap:
        pagemap.seek(start // PAGE * 8)
        data = pagemap.read((end - start) // PAGE * 8)
    pages = []
    for index in range(len(data) // 8):
        (entry,) = struct.unpack_from("<Q", data, index * 8)
        if entry >> 63 & 1:
            pages.append(start + index * PAGE)
    return pages


def elf_sections(path):
    """(name, file offset, size, flags) of every allocated section of a 64-bit ELF file."""
    try:
        with open(path, "rb") as elf:
            header = elf.read(64)
            if header[:4] != b"\x7fELF" or header[4] != 2:
                return []
            shoff, = struct.unpack_from("<Q", header, 0x28)
            shentsize, shnum, shstrndx = struct.unpack_from("<HHH", header, 0x3A)
            elf.seek(shoff)
            table = elf.read(shentsize * shnum)
            entries = [struct.unpack_from("<IIQQQQIIQQ", table, i * shentsize) for i in range(shnum)]
            names_offset = entries[shstrndx][4]
            elf.seek(names_offset)
            names = elf.read(entries[shstrndx][5])
    except OSError:
        return []
    sections = []
    for name, kind, flags, _addr, offset, size, *_ in entries:
        if flags & 2 and kind != 8:  # SHF_ALLOC, not NOBITS (.bss is anonymous memory)
            label = names[name:names.index(b"\0", name)].decode()
            sections.append((label, offset, size))
    return sections


def profile(pid):
    rows = {}
    sections_of = {}
    section_rows = {}
    stacks = 0
    with open(f"/proc/{pid}/status") as status:
        threads = next(int(line.split()[1]) for line in status if line.startswith("Threads:"))
    for mapping in mappings(pid):
        rss = mapping["fields"].get("Rss", 0)
        anonymous = mapping["fields"].get("Anonymous", 0)
        path = mapping["path"]
        if not path or path.startswith("["):
            label = path or "anonymous (heap arenas, thread stacks, .bss)"
            rows.setdefault(label, [0, 0])
            rows[label][0] += rss
            rows[label][1] += anonymous
            continue
        rows.setdefault(path, [0, 0])
        rows[path][0] += rss
        rows[path][1] += anonymous
        if rss == 0:
            continue
        if path not in sections_of:
            sections_of[path] = elf_sections(path)
        for page in present_pages(pid, mapping["start"], mapping["end"]):
            file_offset = mapping["offset"] + (page - mapping["start"])
            name = "(headers, between sections)"
            for label, offset, size in sections_of[path]:
                if offset <= file_offset < offset + size or (size and offset // PAGE * PAGE <= file_offset < offset):
                    name = label
                    break
            key = (path, name, "w" in mapping["perms"])
            section_rows[key] = section_rows.get(key, 0) + PAGE
    total = sum(row[0] for row in rows.values())
    print(f"pid {pid}: {threads} threads, resident {total / 1024:.1f} MiB, "
          f"anonymous {sum(row[1] for row in rows.values()) / 1024:.1f} MiB")
    print(f"{'MiB':>6} {'anon':>6}  mapping")
    for label, (rss, anonymous) in sorted(rows.items(), key=lambda item: -item[1][0]):
        if rss >= 64:
            print(f"{rss / 1024:6.2f} {anonymous / 1024:6.2f}  {label}")
    print(f"\n{'MiB':>6}  section of a mapped file (w: a writable mapping, its pages copied when written)")
    for (path, name, writable), size in sorted(section_rows.items(), key=lambda item: -item[1]):
        if size >= 64 * 1024:
            print(f"{size / MIB:6.2f}  {os.path.basename(path)} {name}{' (w)' if writable else ''}")


def main():
    if sys.argv[1] == "--run":
        seconds = float(sys.argv[2])
        command = sys.argv[sys.argv.index("--") + 1:]
        child = subprocess.Popen(command, stderr=subprocess.DEVNULL)
        time.sleep(seconds)
        if child.poll() is not None:
            sys.exit(f"the command ended before {seconds} s (exit {child.returncode})")
        profile(child.pid)
        child.wait()
    else:
        profile(int(sys.argv[1]))


if __name__ == "__main__":
    main()
