"""``POST /api/qr``: the QR code of a text (a table's invite link) as SVG, drawn by segno.

>>> svg = qr_svg("https://cuarenta.example.org/#mesa=AbC")
>>> svg.startswith(b"<?xml") and b"<svg" in svg
True
"""

from __future__ import annotations

import io
from typing import Annotated, Final

import segno
from fastapi import APIRouter
from fastapi.responses import Response
from pydantic import BaseModel, ConfigDict, Field, StrictStr

from cuarenta.server.edge.deps import errors

#: The longest text ``POST /api/qr`` draws (an invite link is well under it).
QR_MAX_CHARS: Final = 1000
router = APIRouter()


class QrText(BaseModel):
    """The body of ``POST /api/qr``."""

    model_config = ConfigDict(extra="forbid")

    text: Annotated[StrictStr, Field(min_length=1, max_length=QR_MAX_CHARS)]


def qr_svg(text: str) -> bytes:
    """The QR code of ``text`` as an SVG document (error correction M, black on white)."""
    out = io.BytesIO()
    segno.make(text, error="m").save(out, kind="svg", scale=4, border=2, dark="#000", light="#fff")
    return out.getvalue()


@router.post(
    "/api/qr",
    response_class=Response,
    responses={200: {"content": {"image/svg+xml": {}}}, **errors(400, 413)},
)
def qr(body: QrText) -> Response:
    """The QR code of a text (an invite link) as SVG, drawn by segno."""
    return Response(qr_svg(body.text), media_type="image/svg+xml")


__all__ = ["QR_MAX_CHARS", "QrText", "qr_svg", "router"]
