"""Ports for the servers a test starts (tests, the browser tests and the benchmarks share it: it imports
nothing of the project, so any of them can put this folder on ``sys.path`` and use it)."""

from __future__ import annotations

import random
import socket
from pathlib import Path


def listen_ports() -> tuple[int, int]:
    """The range a test's server ports come from: below the system's ephemeral range, where an outgoing
    connection of another test cannot take a port between its choice and the server's bind (CI caught
    that once, with a port the kernel handed out)."""
    try:
        low = int(Path("/proc/sys/net/ipv4/ip_local_port_range").read_text().split()[0])
    except (OSError, ValueError, IndexError):
        low = 32768
    return 10000, max(10100, low - 100)


LISTEN_PORTS = listen_ports()


def free_port() -> int:
    """A free TCP port of the loopback address, from :data:`LISTEN_PORTS` (for a real server a test
    starts)."""
    for _ in range(200):
        port = random.randrange(*LISTEN_PORTS)
        with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as s:
            try:
                s.bind(("127.0.0.1", port))
            except OSError:
                continue
            return port
    raise AssertionError("no free port below the ephemeral range")
