"""Moved to :mod:`cuarenta.server.ops.logs`.

This module re-exports its names for old imports (to be removed).
"""

from cuarenta.server.ops.logs import (
    APP_LOGGER,
    LOG_FORMATS,
    REDACT_FILTER,
    REDACTED_PARAMETERS,
    TEXT_FORMAT,
    TOKEN_PARAMETERS,
    JsonFormatter,
    LogFormat,
    RedactTokens,
    ThrottledLog,
    configure_logging,
    json_line,
    logging_config,
    redact,
)

__all__ = [
    "APP_LOGGER",
    "LOG_FORMATS",
    "REDACTED_PARAMETERS",
    "REDACT_FILTER",
    "TEXT_FORMAT",
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
