"""The Host check (docs/web.md "Security"): a request must name this server.

A page of another site can make a visitor's browser talk to a server on the visitor's network by *DNS
rebinding*: its name first resolves to the attacker's machine, then to the LAN address of this server.
The browser then counts that page and this server as one origin, so the Origin check of ``/ws`` passes
and the page may create rooms and read the answers. Such a request still carries the attacker's name in
its ``Host`` header: :class:`HostCheck` refuses any request (HTTP 400) or socket handshake (400) whose
``Host`` is not one of :class:`ServerNames` — an IP address, ``localhost`` (and ``*.localhost``), this
machine's name (and ``NAME.local``), the names given with ``cuarenta serve --server-name`` and the hosts of
``--allow-origin``.

>>> names = ServerNames(["cuarenta.example.org"], hostname="mesa")
>>> [names.allows(h) for h in ("192.168.1.20:8000", "[::1]:8000", "localhost", "mesa.local:8000")]
[True, True, True, True]
>>> names.allows("Cuarenta.Example.org."), names.allows("rebind.attacker.example:8000")
(True, False)
"""

from __future__ import annotations

import contextlib
import ipaddress
import logging
import re
import socket
from collections.abc import Iterable
from typing import Final
from urllib.parse import urlsplit

from starlette.types import ASGIApp, Receive, Scope, Send

from cuarenta.server.edge.security import refuse
from cuarenta.server.ops.logs import ThrottledLog

log = logging.getLogger("cuarenta.server")

#: A host name as ``--server-name`` takes it: labels of letters, digits and hyphens, dot-separated.
_LABEL: Final = r"[a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?"
_NAME: Final = re.compile(rf"^(?=.{{1,253}}$){_LABEL}(\.{_LABEL})*$")
#: The option that adds a name (the refusal names it).
SERVER_NAME_OPTION: Final = "--server-name"


class BadServerName(ValueError):
    """A ``--server-name`` that is not a host name."""


def normal_name(name: str) -> str:
    """``name`` as the check compares it: lower case, without a trailing dot; :class:`BadServerName` if it
    is not a host name.

    >>> normal_name("Cuarenta.Example.ORG.")
    'cuarenta.example.org'
    >>> normal_name("https://x.org")  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    cuarenta.server.edge.hosts.BadServerName: 'https://x.org' is not a host name: give the name alone, ...
    """
    normal = name.strip().lower().rstrip(".")
    if not _NAME.match(normal):
        raise BadServerName(f"{name!r} is not a host name: give the name alone, e.g. cuarenta.example.org")
    return normal


def host_of(header: str) -> str | None:
    """The host of a ``Host`` header (without its port, lower case, no trailing dot; an IPv6 address
    without its brackets), or ``None`` if the header is not a host and port.

    >>> host_of("Example.org.:8000"), host_of("[::1]:8000"), host_of("a b"), host_of("x@evil:80")
    ('example.org', '::1', None, None)
    """
    try:
        parts = urlsplit(f"http://{header.strip()}")
        parts.port  # noqa: B018 - raises ValueError on a port that is not one
    except ValueError:
        return None
    if parts.username is not None or parts.password is not None or parts.path or parts.query:
        return None
    host = (parts.hostname or "").rstrip(".")
    if not host or not all(c.isalnum() or c in ".-:_" for c in host):
        return None
    return host


def _is_ip(host: str) -> bool:
    try:
        ipaddress.ip_address(host)
    except ValueError:
        return False
    return True


class ServerNames:
    """The names a request's ``Host`` may carry (module docstring). ``hostname`` is this machine's name
    (default: :func:`socket.gethostname`)."""

    def __init__(self, names: Iterable[str] = (), *, hostname: str | None = None) -> None:
        machine = socket.gethostname() if hostname is None else hostname
        allowed = {"localhost"}
        for name in (machine, f"{machine}.local") if machine else ():
            with contextlib.suppress(BadServerName):  # a machine name that is no host name: in no Host either
                allowed.add(normal_name(name))
        allowed.update(normal_name(name) for name in names)
        self.names: frozenset[str] = frozenset(allowed)

    @classmethod
    def with_origins(cls, names: Iterable[str], origins: Iterable[str], **options: str | None) -> ServerNames:
        """The names and the hosts of the ``--allow-origin`` origins (``https://host[:port]``)."""
        hosts = [urlsplit(origin).hostname or "" for origin in origins]
        return cls([*names, *(h for h in hosts if h and not _is_ip(h))], **options)

    def allows(self, header: str | None) -> bool:
        """Whether a request with that ``Host`` header names this server (no header: yes, an HTTP/1.0
        client; browsers always send one)."""
        if header is None:
            return True
        host = host_of(header)
        if host is None:
            return False
        return _is_ip(host) or host in self.names or host.endswith(".localhost")

    def refusal(self, header: str) -> str:
        """The sentence a refused request is answered with."""
        shown = header if len(header) <= 100 else header[:100] + "…"
        return (
            f"the Host {shown!r} is not a name of this server (it answers to its IP addresses, localhost, "
            f"the machine's name and the names it is given): to serve it under that name, start it with "
            f"`cuarenta serve {SERVER_NAME_OPTION} NAME`"
        )


class HostCheck:
    """Refuses (400) an HTTP request or a socket handshake whose ``Host`` is not one of ``names``."""

    def __init__(self, app: ASGIApp, names: ServerNames) -> None:
        self.app = app
        self.names = names
        self._refused = ThrottledLog(log)

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] in ("http", "websocket"):
            header = None
            for key, value in scope.get("headers", ()):
                if key == b"host":
                    header = value.decode("latin-1")
                    break
            if not self.names.allows(header):
                assert header is not None
                self._refused("request for host %r refused (not a name of this server)", header[:100])
                await refuse(scope, send, 400, self.names.refusal(header), code="unknown_host")
                return
        await self.app(scope, receive, send)


__all__ = ["SERVER_NAME_OPTION", "BadServerName", "HostCheck", "ServerNames", "host_of", "normal_name"]
