#!/usr/bin/env python3
"""Hostile clients against a running daemon's socket, while a well-behaved client reads device
motion: garbage, a 100 MB line, 1000 connects and disconnects, half-closed sockets, a subscribed
client that never reads. Prints the daemon's resident memory before and after each, and whether
the good client kept receiving (a check, not a test: run against `imu run … --socket PATH`).
    python3 Scripts/hostile-clients.py SOCKET DAEMON_PID"""
import os
import socket
import sys
import threading
import time

path, pid = sys.argv[1], int(sys.argv[2])


def rss_kb():
    with open(f"/proc/{pid}/status") as f:
        return int(next(line for line in f if line.startswith("VmRSS:")).split()[1])


def connect():
    s = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    s.connect(path)
    return s


received = [0]
good = connect()
good.sendall(b'{"op":"subscribe","stream":"motion"}\n')


def read_good():
    f = good.makefile("rb")
    for line in f:
        if line.startswith(b'{"t":'):
            received[0] += 1


threading.Thread(target=read_good, daemon=True).start()
time.sleep(2)


def step(name, action):
    before, lines = rss_kb(), received[0]
    started = time.monotonic()
    action()
    time.sleep(1)
    print(f"{name:38s} RSS {before:6d} -> {rss_kb():6d} kB; good client got {received[0] - lines} lines in {time.monotonic() - started:.1f} s")


def garbage():
    s = connect()
    for _ in range(1000):
        s.sendall(b"\x00\xff{not json}]]]\n")
    s.close()


def huge_line():
    s = connect()
    chunk = b"x" * (1 << 20)
    for _ in range(100):
        s.sendall(chunk)
    s.sendall(b"\n")
    s.close()


def churn():
    for _ in range(1000):
        s = connect()
        s.sendall(b'{"op":"subscribe","stream":"samples"}\n')
        s.close()


def half_closed():
    kept = []
    for _ in range(20):
        s = connect()
        s.sendall(b'{"op":"subscribe","stream":"events"}\n')
        s.shutdown(socket.SHUT_WR)
        kept.append(s)
    time.sleep(2)
    for s in kept:
        s.close()


never_reading = []


def never_reads():
    s = connect()
    s.sendall(b'{"op":"subscribe","stream":"samples"}\n{"op":"subscribe","stream":"motion"}\n')
    never_reading.append(s)
    time.sleep(10)


def numbers_out_of_range():
    # issue 25: each of these once killed the daemon (a divisor too large for an Int).
    s = connect()
    s.sendall(b'{"op":"subscribe","stream":"motion","rate_hz":1e-20}\n{"subscribe":["motion"],"rate_hz":1e-20}\n'
              b'{"op":"subscribe","stream":"motion","interval_ms":1e30}\n{"op":"ping"}\n')
    time.sleep(0.5)
    s.close()


def hold_every_slot():
    # One user opening 40 connections gets max-clients-per-user of them (16), not all 32.
    held = []
    for _ in range(40):
        s = connect()
        s.settimeout(5)
        first = s.recv(4096)
        if b'"hello"' in first:
            held.append(s)
        else:
            s.close()
    print(f"  one user asked for 40 connections and holds {len(held)}")
    for s in held:
        s.close()


step("numbers out of range (issue 25)", numbers_out_of_range)
step("one user takes every slot it can", hold_every_slot)
step("garbage (1000 bad lines)", garbage)
step("a 100 MB line", huge_line)
step("1000 connects and disconnects", churn)
step("20 half-closed subscribers for 2 s", half_closed)
step("a subscriber that never reads, 10 s", never_reads)
step("(idle)", lambda: time.sleep(5))

try:
    os.kill(pid, 0)
    print("daemon alive after all of it: yes")
except ProcessLookupError:
    print("daemon alive after all of it: NO")
    sys.exit(1)
