"""The log lines of the server's processes: text, or one JSON object a line (docs/operations.md "Logs").

``cuarenta serve --log-format json`` makes every line of the app's ``cuarenta.*`` loggers and of
uvicorn's one JSON object: ``ts`` (ISO 8601, UTC, milliseconds), ``level``, ``logger``, ``msg``, then any
field the call passed in ``extra`` (``room``, ``seat``, ``node`` …), the constant ``fields`` of the
process, and ``exc`` with the traceback of an exception. uvicorn's access lines also carry ``client``,
``method``, ``path``, ``http`` and ``status``. Tokens are hidden as in text lines: every handler has
:class:`~cuarenta.server.security.RedactTokens`, and the JSON formatter hides ``token=`` values in
whatever it writes.

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
from collections.abc import Mapping
from typing import Any, Final, Literal

from cuarenta.server.security import redact

#: The formats of ``--log-format``.
LogFormat = Literal["text", "json"]
LOG_FORMATS: Final[tuple[LogFormat, ...]] = ("text", "json")
#: The loggers of the app itself (``cuarenta.server``, ``cuarenta.cluster`` …).
APP_LOGGER: Final = "cuarenta"
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
    fmt: LogFormat = "text", level: str = "warning", *, fields: Mapping[str, Any] | None = None
) -> dict[str, Any]:
    """The :func:`logging.config.dictConfig` of a server process: uvicorn's loggers (uvicorn's own
    configuration when uvicorn is installed) and the app's ``cuarenta`` loggers at ``level``, every
    handler with the :class:`~cuarenta.server.security.RedactTokens` filter; in ``json``, every
    formatter is :class:`JsonFormatter` (with the constant ``fields``).

    >>> config = logging_config("json", "info", fields={"node": "web-1"})
    >>> config["formatters"]["cuarenta"]["fields"], config["loggers"]["cuarenta"]["level"]
    ({'node': 'web-1'}, 'INFO')
    """
    if fmt not in LOG_FORMATS:
        raise ValueError(f"unknown log format {fmt!r}: choose one of {', '.join(LOG_FORMATS)}")
    try:
        from uvicorn.config import LOGGING_CONFIG
    except ImportError:  # pragma: no cover - a process without uvicorn (a worker)
        LOGGING_CONFIG = {"version": 1, "disable_existing_loggers": False}
    config: dict[str, Any] = copy.deepcopy(LOGGING_CONFIG)
    config.setdefault("formatters", {})
    config.setdefault("handlers", {})
    config.setdefault("loggers", {})
    config["filters"] = {REDACT_FILTER: {"()": "cuarenta.server.security.RedactTokens"}}
    config["formatters"][APP_LOGGER] = {"format": TEXT_FORMAT}
    config["handlers"][APP_LOGGER] = {
        "class": "logging.StreamHandler",
        "formatter": APP_LOGGER,
        "stream": "ext://sys.stderr",
    }
    config["loggers"][APP_LOGGER] = {"handlers": [APP_LOGGER], "level": level.upper(), "propagate": False}
    if fmt == "json":
        json_formatter = {"()": "cuarenta.server.logs.JsonFormatter", "fields": dict(fields or {})}
        for name in config["formatters"]:
            config["formatters"][name] = dict(json_formatter)
    for handler in config["handlers"].values():
        handler["filters"] = [REDACT_FILTER]
    return config


def configure_logging(
    fmt: LogFormat = "text", level: str = "warning", *, fields: Mapping[str, Any] | None = None
) -> None:
    """Set up the process' logging as :func:`logging_config` says (``cuarenta worker``; ``cuarenta serve``
    hands the same configuration to uvicorn, which applies it)."""
    logging.config.dictConfig(logging_config(fmt, level, fields=fields))


def json_line(logger: str, msg: str, level: int = logging.INFO, **fields: Any) -> str:
    """One JSON line made by :class:`JsonFormatter` outside logging (``cuarenta serve``'s first lines,
    which are printed whatever the level)."""
    record = logging.LogRecord(logger, level, "", 0, msg, None, None)
    record.__dict__.update(fields)
    return JsonFormatter().format(record)


__all__ = [
    "LOG_FORMATS",
    "JsonFormatter",
    "LogFormat",
    "configure_logging",
    "json_line",
    "logging_config",
]
