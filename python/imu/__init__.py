"""A client of the `imu` daemon's local socket (protocol version 1, Docs/protocol.md).

Standard library only. The daemon owns the IMU; this reads what it shares:

    import imu
    for m in imu.motion(rate_hz=50):
        print(m.pitch_deg)
"""

import json
import os
import socket as _socket
from dataclasses import dataclass, field, fields
from typing import Dict, Iterator, List, Optional, Union

__all__ = [
    "Client", "Hello", "Sample", "Motion", "Event", "Health",
    "IMUError", "DaemonNotRunning", "RequestRefused", "ProtocolError", "ConnectionEnded",
    "motion", "events", "samples", "health", "default_socket_paths", "PROTOCOL_VERSION",
]

PROTOCOL_VERSION = 1
SERVICE_SOCKET = "/run/imu/imu.sock"


class IMUError(Exception):
    """Anything this client reports."""


class DaemonNotRunning(IMUError):
    """No daemon answers on any socket tried."""


class RequestRefused(IMUError):
    """The daemon answered a request with {"error": ...}."""


class ProtocolError(IMUError):
    """The daemon sent something this client cannot read."""


class ConnectionEnded(IMUError):
    """The daemon closed the connection (its reason, from the bye line, when it gave one)."""


def default_socket_paths(environ: Optional[Dict[str, str]] = None) -> List[str]:
    """Where a daemon's socket is looked for: the user's, then the service's."""
    environ = os.environ if environ is None else environ
    paths = []
    runtime = environ.get("XDG_RUNTIME_DIR")
    if runtime:
        paths.append(os.path.join(runtime, "imu", "imu.sock"))
    if SERVICE_SOCKET not in paths:
        paths.append(SERVICE_SOCKET)
    return paths


def _typed(cls, obj: dict, lost_before: int):
    names = {f.name for f in fields(cls)}
    values = {k: v for k, v in obj.items() if k in names}
    return cls(**values, lost_before=lost_before)


@dataclass
class Hello:
    protocol: int
    server: str
    chip: str
    board: str
    bus: str
    rate_hz: float
    magnetometer: bool
    streams: List[str]
    event_types: List[str] = field(default_factory=list)
    max_request_bytes: int = 65536


@dataclass
class Sample:
    """A raw sample in device axes: acceleration in g (gravity points down), rotation rate in
    rad/s, magnetic field in µT (None without a magnetometer), temperature in °C."""
    t: float
    acc_x: float
    acc_y: float
    acc_z: float
    gyr_x: float
    gyr_y: float
    gyr_z: float
    mag_x: Optional[float] = None
    mag_y: Optional[float] = None
    mag_z: Optional[float] = None
    temp_c: Optional[float] = None
    lost_before: int = 0


@dataclass
class Motion:
    """Device motion with Core Motion's meanings (Docs/core-motion.md)."""
    t: float
    quat_w: float
    quat_x: float
    quat_y: float
    quat_z: float
    roll_deg: float
    pitch_deg: float
    yaw_deg: float
    gravity_x: float
    gravity_y: float
    gravity_z: float
    user_acc_x: float
    user_acc_y: float
    user_acc_z: float
    rot_x: float
    rot_y: float
    rot_z: float
    heading_deg: Optional[float] = None
    mag_accuracy: Optional[str] = None
    lost_before: int = 0


@dataclass
class Event:
    """A recognised event: type is shake (phase), orientation (orientation), slap (direction)
    or heading (heading_deg)."""
    t: float
    type: str
    phase: Optional[str] = None
    orientation: Optional[str] = None
    direction: Optional[str] = None
    heading_deg: Optional[float] = None
    lost_before: int = 0


@dataclass
class Health:
    t: float
    state: str
    rate_hz: float
    samples: int
    lost_samples: int
    unwatched_s: float
    outages: int
    problem: Optional[str] = None
    calibration: Optional[str] = None
    mag_accuracy: Optional[str] = None
    lost_before: int = 0


Item = Union[Sample, Motion, Event, Health]
# The event kinds, as the daemon's hello lists them (`event_types`, from the one list in IMUWire);
# these are what a daemon of protocol 1 sends when its hello predates the list.
_EVENT_TYPES = {"shake", "orientation", "slap", "heading"}


class Client:
    """One connection to the daemon. Subscribe, then iterate for typed items."""

    def __init__(self, socket: Optional[str] = None, timeout: Optional[float] = None):
        tried = [socket] if socket else default_socket_paths()
        self._sock = None
        # Lines that came before a reply (data of streams already subscribed), read later.
        self._backlog: list = []
        reasons = []
        for path in tried:
            s = _socket.socket(_socket.AF_UNIX, _socket.SOCK_STREAM)
            s.settimeout(timeout)
            try:
                s.connect(path)
            except OSError as error:
                s.close()
                reasons.append(f"{path}: {error.strerror or error}")
                continue
            self._sock = s
            self.path = path
            break
        if self._sock is None:
            raise DaemonNotRunning(
                "no imu daemon answers (" + "; ".join(reasons) + "); start one with `imu run` "
                "or `sudo systemctl start imu`, or give socket=PATH")
        self._file = self._sock.makefile("rb")
        self.lost = 0
        self._pending_lost = 0
        self._next_id = 0
        first = self._read_object()
        if first.get("type") != "hello":
            raise ProtocolError(f"expected a hello line first, got {first!r}")
        self.hello = _typed_hello(first)

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()

    def close(self) -> None:
        if self._sock is not None:
            self._file.close()
            self._sock.close()
            self._sock = None

    def _send(self, request: dict) -> dict:
        self._next_id += 1
        request = dict(request, id=self._next_id)
        self._sock.sendall((json.dumps(request, separators=(",", ":")) + "\n").encode())
        # Data may come before the reply (from streams already subscribed): keep it for later.
        while True:
            obj = self._read_object()
            if obj.get("id") == self._next_id:
                if "error" in obj:
                    raise RequestRefused(obj["error"])
                return obj
            self._backlog.append(obj)

    def subscribe(self, stream: str, *, rate_hz: Optional[float] = None, divisor: Optional[int] = None,
                  interval_ms: Optional[float] = None, types: Optional[List[str]] = None) -> dict:
        """Subscribes to samples, motion, events or health; returns the daemon's reply."""
        request = {"op": "subscribe", "stream": stream}
        for key, value in (("rate_hz", rate_hz), ("divisor", divisor), ("interval_ms", interval_ms), ("types", types)):
            if value is not None:
                request[key] = value
        return self._send(request)

    def unsubscribe(self, stream: Optional[str] = None) -> dict:
        request = {"op": "unsubscribe"}
        if stream:
            request["stream"] = stream
        return self._send(request)

    def ping(self) -> None:
        self._send({"op": "ping"})

    def _read_object(self) -> dict:
        line = self._file.readline()
        if not line:
            raise ConnectionEnded("the daemon closed the connection")
        try:
            obj = json.loads(line)
        except ValueError as error:
            raise ProtocolError(f"not JSON from the daemon: {line[:200]!r} ({error})")
        if not isinstance(obj, dict):
            raise ProtocolError(f"not a JSON object from the daemon: {line[:200]!r}")
        return obj

    def _item(self, obj: dict) -> Optional[Item]:
        kind = obj.get("type")
        if kind == "lost":
            self.lost += int(obj.get("count", 0))
            self._pending_lost += int(obj.get("count", 0))
            return None
        if kind == "bye":
            raise ConnectionEnded(obj.get("reason", "the daemon closed the connection"))
        if "error" in obj:
            raise RequestRefused(obj["error"])
        lost, self._pending_lost = self._pending_lost, 0
        if kind in (set(self.hello.event_types) or _EVENT_TYPES):
            return _typed(Event, obj, lost)
        if kind == "health":
            return _typed(Health, obj, lost)
        if "quat_w" in obj:
            return _typed(Motion, obj, lost)
        if "acc_x" in obj:
            return _typed(Sample, obj, lost)
        self._pending_lost += lost
        return None  # a reply or a line of a newer protocol: not data

    def __iter__(self) -> Iterator[Item]:
        while True:
            obj = self._backlog.pop(0) if self._backlog else self._read_object()
            item = self._item(obj)
            if item is not None:
                yield item


def _typed_hello(obj: dict) -> Hello:
    names = {f.name for f in fields(Hello)}
    return Hello(**{k: v for k, v in obj.items() if k in names})


def _stream(stream: str, socket: Optional[str], timeout: Optional[float], **options) -> Iterator[Item]:
    with Client(socket=socket, timeout=timeout) as client:
        client.subscribe(stream, **options)
        yield from client


def motion(rate_hz: Optional[float] = None, *, divisor: Optional[int] = None, interval_ms: Optional[float] = None,
           socket: Optional[str] = None, timeout: Optional[float] = None) -> Iterator[Motion]:
    """Device motion, at the daemon's rate or slower."""
    return _stream("motion", socket, timeout, rate_hz=rate_hz, divisor=divisor, interval_ms=interval_ms)


def events(types: Optional[List[str]] = None, *, socket: Optional[str] = None,
           timeout: Optional[float] = None) -> Iterator[Event]:
    """Recognised events (all types, or these: shake, orientation, slap, heading)."""
    return _stream("events", socket, timeout, types=types)


def samples(*, socket: Optional[str] = None, timeout: Optional[float] = None) -> Iterator[Sample]:
    """Raw samples in device axes, at the daemon's rate."""
    return _stream("samples", socket, timeout)


def health(*, socket: Optional[str] = None, timeout: Optional[float] = None) -> Iterator[Health]:
    """The engine's health, when it changes and once a second."""
    return _stream("health", socket, timeout)
