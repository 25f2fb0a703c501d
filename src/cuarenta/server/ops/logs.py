"""The log lines of the server's processes: text, or one JSON object a line (docs/operations.md "Logs").

``cuarenta serve --log-format json`` makes every line of the app's ``cuarenta.*`` loggers and of
uvicorn's one JSON object: ``ts`` (ISO 8601, UTC, milliseconds), ``level``, ``logger``, ``msg``, then any
field the call passed in ``extra`` (``room``, ``seat``, ``node`` …), the constant ``fields`` of the
process, and ``exc`` with the traceback of an exception. uvicorn's access lines also carry ``client``,
``method``, ``path``, ``http`` and ``status``. Tokens are hidden as in text lines: every handler has
:class:`RedactTokens`, and the JSON formatter hides ``token=`` values in whatever it writes
(:func:`redact`). :class:`ThrottledLog` keeps a flood of refused clients from becoming a flood of lines.

This module imports only the standard library (and uvicorn's logging configuration when it is there), so
that every process of the server, the computer players' workers included, logs the same way.

>>> import json, logging
>>> record = logging.LogRecord(
...     "cuarenta.server", logging.WARNING, __file__, 1, "saving room %s failed: %s",
...     ("AbC", "GET /api/x?token=SECRET"), None,
... )
>>> record.created, record.msecs, record.room = 1796000000.0, 250.0, "AbC"
>>> line = JsonFormatter(fields={"node": "web-1"}).format(record)
>>> fields = json.loads(line)  # one line, one object
>>> fields["ts"], fields["level"], fields["logger"]
('2026-11-30T00:53:20.250Z', 'warning', 'cuarenta.server')
>>> fields["msg"]
'saving room AbC failed: GET /api/x?token=[redacted]'
>>> fields["node"], fields["room"], "SECRET" in line, "\\n" in line
('web-1', 'AbC', False, False)
"""

from __future__ import annotations

import copy
import datetime
import json
import logging
import logging.config
import re
import time
from collections.abc import Callable, Mapping
from typing import Any, Final, Literal

#: The formats of ``--log-format``.
LogFormat = Literal["text", "json"]
LOG_FORMATS: Final[tuple[LogFormat, ...]] = ("text", "json")
#: The loggers of the app itself (``cuarenta.server``, ``cuarenta.cluster`` …).
APP_LOGGER: Final = "cuarenta"
#: The logger of the offline pack's making (:mod:`cuarenta.offline.keeper`): at ``info`` even when the
#: server logs only warnings, so a first ``cuarenta serve`` shows the pack's progress.
PACK_LOGGER: Final = "cuarenta.pack"
#: The text format of the app's own lines (uvicorn's lines keep uvicorn's).
TEXT_FORMAT: Final = "%(asctime)s %(levelname)s %(name)s: %(message)s"
#: The filter every handler has (the name ``cuarenta serve``'s uvicorn configuration always used).
REDACT_FILTER: Final = "no_tokens"
#: The attributes every :class:`logging.LogRecord` has: anything else on a record came in ``extra``.
_STANDARD: Final = frozenset(vars(logging.LogRecord("x", logging.INFO, "x", 0, "x", None, None))) | {
    "message",
    "asctime",
    "taskName",
    "color_message",
}  # uvicorn's colored copy of the message
_ACCESS_FIELDS: Final = ("client", "method", "path", "http", "status")
#: Query parameters that may never carry a token (a seat's token, or a profile's key).
TOKEN_PARAMETERS: Final = frozenset({"token", "tokens", "key"})


class JsonFormatter(logging.Formatter):
    """One JSON object per record: ``ts``, ``level``, ``logger``, ``msg``, then the process' constant
    ``fields`` and the record's ``extra`` fields (which win), and ``exc``/``stack`` when there are any."""

    def __init__(self, fields: Mapping[str, Any] | None = None) -> None:
        super().__init__()
        self.fields = dict(fields or {})

    def format(self, record: logging.LogRecord) -> str:
        when = datetime.datetime.fromtimestamp(record.created, datetime.UTC)
        out: dict[str, Any] = {
            "ts": when.strftime("%Y-%m-%dT%H:%M:%S.") + f"{int(record.msecs):03d}Z",
            "level": record.levelname.lower(),
            "logger": record.name,
            "msg": redact(record.getMessage()),
        }
        if record.name == "uvicorn.access" and isinstance(record.args, tuple) and len(record.args) == 5:
            out.update(zip(_ACCESS_FIELDS, record.args, strict=True))
        out.update(self.fields)
        for key, value in vars(record).items():
            if key not in _STANDARD and not key.startswith("_"):
                out[key] = value
        if record.exc_info:
            out["exc"] = redact(self.formatException(record.exc_info))
        elif record.exc_text:
            out["exc"] = redact(record.exc_text)
        if record.stack_info:
            out["stack"] = redact(self.formatStack(record.stack_info))
        return json.dumps(out, ensure_ascii=False, default=_text)


def _text(value: object) -> str:
    """A value JSON cannot hold, as text (tokens hidden)."""
    return redact(str(value))


def logging_config(
    fmt: LogFormat = "text",
    level: str = "warning",
    *,
    fields: Mapping[str, Any] | None = None,
    base: Mapping[str, Any] | None = None,
) -> dict[str, Any]:
    """The :func:`logging.config.dictConfig` of a server process: the loggers of ``base`` (``cuarenta
    serve`` passes uvicorn's own configuration, ``uvicorn.config.LOGGING_CONFIG``; default: none) and the
    app's ``cuarenta`` loggers at ``level``, every handler with the :class:`RedactTokens` filter; in
    ``json``, every formatter is :class:`JsonFormatter` (with the constant ``fields``). This module never
    imports uvicorn: only the edge does (docs/architecture.md).

    >>> config = logging_config("json", "info", fields={"node": "web-1"})
    >>> config["formatters"]["cuarenta"]["fields"], config["loggers"]["cuarenta"]["level"]
    ({'node': 'web-1'}, 'INFO')
    >>> base = {"version": 1, "formatters": {"access": {}}, "handlers": {"access": {}}}
    >>> sorted(logging_config("json", base=base)["formatters"])
    ['access', 'cuarenta']
    """
    if fmt not in LOG_FORMATS:
        raise ValueError(f"unknown log format {fmt!r}: choose one of {', '.join(LOG_FORMATS)}")
    config: dict[str, Any] = copy.deepcopy(dict(base or {"version": 1, "disable_existing_loggers": False}))
    config.setdefault("formatters", {})
    config.setdefault("handlers", {})
    config.setdefault("loggers", {})
    config["filters"] = {REDACT_FILTER: {"()": f"{__name__}.RedactTokens"}}
    config["formatters"][APP_LOGGER] = {"format": TEXT_FORMAT}
    config["handlers"][APP_LOGGER] = {
        "class": "logging.StreamHandler",
        "formatter": APP_LOGGER,
        "stream": "ext://sys.stderr",
    }
    config["loggers"][APP_LOGGER] = {"handlers": [APP_LOGGER], "level": level.upper(), "propagate": False}
    # the offline pack's making is told at the default level too: a line per step (docs/operations.md)
    pack_level = min(logging.INFO, logging.getLevelName(level.upper()))
    config["loggers"][PACK_LOGGER] = {"level": logging.getLevelName(pack_level), "propagate": True}
    if fmt == "json":
        json_formatter = {"()": f"{__name__}.JsonFormatter", "fields": dict(fields or {})}
        for name in config["formatters"]:
            config["formatters"][name] = dict(json_formatter)
    for handler in config["handlers"].values():
        handler["filters"] = [REDACT_FILTER]
    return config


def configure_logging(
    fmt: LogFormat = "text", level: str = "warning", *, fields: Mapping[str, Any] | None = None
) -> None:
    """Set up the process' logging as :func:`logging_config` says (``cuarenta worker``; ``cuarenta serve``
    hands the same configuration, over uvicorn's, to uvicorn, which applies it)."""
    logging.config.dictConfig(logging_config(fmt, level, fields=fields))


def json_line(logger: str, msg: str, level: int = logging.INFO, **fields: Any) -> str:
    """One JSON line made by :class:`JsonFormatter` outside logging (``cuarenta serve``'s first lines,
    which are printed whatever the level)."""
    record = logging.LogRecord(logger, level, "", 0, msg, None, None)
    record.__dict__.update(fields)
    return JsonFormatter().format(record)


# -- refusals and secrets in log lines ------------------------------------------------------------------
class ThrottledLog:
    """Warnings about refused clients, at most one every ``every`` seconds (a flood of refusals must not
    become a flood of log lines); the next line says how many were left out.

    >>> import logging
    >>> now = [0.0]
    >>> warn = ThrottledLog(logging.getLogger("doctest"), every=10, clock=lambda: now[0])
    >>> [warn("refused %s", n) for n in range(3)]
    [True, False, False]
    >>> now[0] = 11.0
    >>> warn("refused %s", 3), warn.left_out
    (True, 0)
    """

    def __init__(
        self, logger: logging.Logger, every: float = 10.0, clock: Callable[[], float] = time.monotonic
    ) -> None:
        self.logger = logger
        self.every = every
        self.left_out = 0
        self._clock = clock
        self._last: float | None = None

    def __call__(self, message: str, *args: object) -> bool:
        now = self._clock()
        if self._last is not None and now - self._last < self.every:
            self.left_out += 1
            return False
        if self.left_out:
            message += f" ({self.left_out} more like it not logged)"
        self.logger.warning(message, *args)
        self._last, self.left_out = now, 0
        return True


#: Query parameters whose values never reach a log line: the tokens, and a table's invite code.
REDACTED_PARAMETERS: Final = (*sorted(TOKEN_PARAMETERS), "invite")
_TOKEN_VALUE = re.compile(rf"(?i)([?&;](?:{'|'.join(REDACTED_PARAMETERS)})=)[^&;\s\"]*")


def redact(text: str) -> str:
    """``text`` with every ``token=`` (``tokens=``, ``key=``) and ``invite=`` value of an address replaced.

    >>> redact('GET /api/history?token=abc&x=1 HTTP/1.1')
    'GET /api/history?token=[redacted]&x=1 HTTP/1.1'
    >>> redact('GET /api/tables/AbC?invite=s3cr3t HTTP/1.1')
    'GET /api/tables/AbC?invite=[redacted] HTTP/1.1'
    """
    return _TOKEN_VALUE.sub(r"\1[redacted]", text)


class RedactTokens(logging.Filter):
    """A logging filter that keeps tokens out of the server's log.

    The server refuses tokens in addresses, but a client may still put one there (or a table's invite
    code), and the access log prints addresses: the value is hidden. At ``--log-level debug`` the
    WebSocket library logs every frame and every handshake header: a data frame (a ``join`` carries a
    token) is logged as its kind and size only, and the ``Authorization`` and ``Cookie`` headers as
    ``[redacted]``.
    """

    def filter(self, record: logging.LogRecord) -> bool:
        if isinstance(record.args, tuple):
            args = tuple(_redact_arg(a) for a in record.args)
            if len(args) == 2 and isinstance(args[0], str) and args[0].lower() in _SECRET_HEADERS:
                args = (args[0], "[redacted]")
            record.args = args
        if isinstance(record.msg, str):
            record.msg = redact(record.msg)
        return True


_SECRET_HEADERS: Final = frozenset({"authorization", "cookie", "proxy-authorization"})
_DATA_OPCODES: Final = frozenset({"TEXT", "BINARY", "CONT"})


def _redact_arg(arg: object) -> object:
    if isinstance(arg, str):
        return redact(arg)
    opcode = getattr(getattr(arg, "opcode", None), "name", None)
    data = getattr(arg, "data", None)
    if opcode in _DATA_OPCODES and isinstance(data, bytes | bytearray | memoryview):
        return f"{opcode} [{len(data)} bytes]"  # a WebSocket data frame: never its content
    return arg


__all__ = [
    "LOG_FORMATS",
    "REDACTED_PARAMETERS",
    "TOKEN_PARAMETERS",
    "JsonFormatter",
    "LogFormat",
    "RedactTokens",
    "ThrottledLog",
    "configure_logging",
    "json_line",
    "logging_config",
    "redact",
]
