"""A request refused, as the answers without a web framework say it (:mod:`cuarenta.server.answers`,
:mod:`cuarenta.server.answers.history`): an HTTP status, one sentence and a code. The FastAPI routes and the
device host turn it into their error answer, ``{"detail", "code"}`` (docs/protocol.md).

>>> Refused(404, "there is no room 'x'").body()
{'detail': "there is no room 'x'", 'code': 'not_found'}
"""

from __future__ import annotations

from cuarenta.server.edge.statuses import default_code


class Refused(Exception):
    """A request refused: the HTTP ``status`` and ``detail``, one sentence saying what is wrong, and its
    ``code`` (by default the status' own: :func:`~cuarenta.server.edge.statuses.default_code`)."""

    def __init__(self, status: int, detail: str, code: str | None = None) -> None:
        super().__init__(f"{status}: {detail}")
        self.status = status
        self.detail = detail
        self.code = code or default_code(status)

    def body(self) -> dict[str, str]:
        """The answer's body, ``{"detail", "code"}``."""
        return {"detail": self.detail, "code": self.code}


__all__ = ["Refused"]
