"""The names people give (a profile's, a table's seats, a room's): one check for all of them.

:func:`clean_name` takes a name as typed and answers the name as it is kept and shown, or refuses it with
:class:`BadName` (a ``ValueError``, which the API turns into a 422) saying what is wrong:

- **refused** wherever they stand: control characters (C0, DEL, C1), line and paragraph separators,
  bidirectional controls (U+200E, U+200F, U+061C, U+202A–U+202E, U+2066–U+2069: they reorder the text
  around a name, "Ana" + U+202E + "lleb" shows as "Anabell"), and surrogate halves;
- **removed**: characters that draw nothing — Unicode's default-ignorable characters (zero-width space,
  soft hyphen, word joiner, BOM, Hangul fillers, variation selectors …) and every other format character
  (category Cf) — except where they belong to an emoji: a zero-width joiner between two emoji
  (👩‍💻), a variation selector after a visible character (❤️), the tag characters of a flag (🏴󠁧󠁢󠁳󠁣󠁴󠁿);
- the rest is put in **NFC** (an "é" typed as e + ◌́ is kept as one "é") and stripped of spaces (and
  the braille blank U+2800) at both ends; what is left must hold **something visible**;
- at most :data:`NAME_MAX_CHARS` characters as typed.

Look-alike letters stay (a Cyrillic "а" in "Ana"): names are not identities here — a seat is held by its
token and a profile by its key, never by its name — and refusing every script but one would refuse the
names of people who write in it (docs/tables.md, "Names").

>>> clean_name("  Ana María ")
'Ana María'
>>> clean_name("Ana\\u200b"), clean_name("e\\u0301va"), clean_name("👩\\u200d💻")
('Ana', 'éva', '👩\\u200d💻')
>>> clean_name("\\u200b\\u3164")
Traceback (most recent call last):
...
cuarenta.names.BadName: the name has nothing visible: only spaces or invisible characters
>>> clean_name("Ana\\u202ellebA")
Traceback (most recent call last):
...
cuarenta.names.BadName: the name may not hold direction controls (U+202E at 3)

:data:`NAME_PATTERN` says the same in the OpenAPI schema's ``pattern`` (what is refused, and that a name
needs one visible character), so a client can check a name before sending it.
"""

from __future__ import annotations

import unicodedata
from functools import cache
from typing import TYPE_CHECKING, Final

#: The longest name a person may give, in characters as typed (the page's field takes its limit from here).
NAME_MAX_CHARS: Final = 40

#: Bidirectional controls: marks, embeddings, overrides and isolates (refused).
BIDI_CONTROLS: Final = frozenset(
    "\u061c\u200e\u200f" + "".join(map(chr, range(0x202A, 0x202F))) + "".join(map(chr, range(0x2066, 0x206A)))
)
#: Unicode's Default_Ignorable_Code_Point ranges (DerivedCoreProperties.txt): characters that draw nothing.
DEFAULT_IGNORABLE: Final = (
    (0x00AD, 0x00AD),
    (0x034F, 0x034F),
    (0x061C, 0x061C),
    (0x115F, 0x1160),
    (0x17B4, 0x17B5),
    (0x180B, 0x180F),
    (0x200B, 0x200F),
    (0x202A, 0x202E),
    (0x2060, 0x206F),
    (0x3164, 0x3164),
    (0xFE00, 0xFE0F),
    (0xFEFF, 0xFEFF),
    (0xFFA0, 0xFFA0),
    (0xFFF0, 0xFFF8),
    (0x1BCA0, 0x1BCA3),
    (0x1D173, 0x1D17A),
    (0xE0000, 0xE0FFF),
)
#: Blank but not a Unicode space: stripped at the ends, never the visible part of a name.
BLANKS: Final = frozenset("\u2800")  # BRAILLE PATTERN BLANK
_ZWJ: Final = "\u200d"
_CANCEL_TAG: Final = "\U000e007f"
_BLACK_FLAG: Final = "\U0001f3f4"


#: Where format characters (Cf), spaces and default-ignorable characters live: planes 0, 1 and 14
#: (tests/test_names.py checks this against every code point).
_PLANES: Final = (range(0x20000), range(0xE0000, 0xE1000))


# Each character is judged on its own, by its Unicode category: no table of every code point is built
# at import (it took 0.1 s in CPython and 1-3 s under Pyodide, at every start of the game on the device:
# docs/performance.md "The game on the device"). Only NAME_PATTERN needs the whole tables, built when
# it is first asked for.
def _refused(c: str) -> str | None:
    """What kind of character ``c`` is if a name may not hold it, else ``None``."""
    cat = unicodedata.category(c)
    if cat == "Cc":
        return "control characters"
    if c in BIDI_CONTROLS:
        return "direction controls"
    if cat in ("Zl", "Zp"):
        return "line separators"
    if cat == "Cs":
        return "surrogate halves"
    return None


def _invisible(c: str) -> bool:
    """A character that draws nothing: default-ignorable or a format character (and not refused)."""
    code = ord(c)
    ignorable = any(lo <= code <= hi for lo, hi in DEFAULT_IGNORABLE)
    return (ignorable or unicodedata.category(c) == "Cf") and _refused(c) is None


def _blank(c: str) -> bool:
    """A space (``str.isspace``) or another blank, not refused: stripped at the ends."""
    return (c.isspace() or c in BLANKS) and _refused(c) is None


def is_visible(c: str) -> bool:
    """Whether one character shows something (not refused, not a space, not invisible).

    >>> [is_visible(c) for c in ("A", " ", "\\u200b", "\\u3164", "\\u0301", "\\u2800")]
    [True, False, False, False, True, False]
    """
    return _refused(c) is None and not _blank(c) and not _invisible(c)


def _emoji(c: str) -> bool:
    """An emoji-like character a zero-width joiner may join (a symbol or a skin-tone modifier)."""
    return unicodedata.category(c) in ("So", "Sk")


def _keep_invisible(text: str, i: int, kept: list[str]) -> bool:
    """Whether the invisible ``text[i]`` belongs to an emoji sequence (and so is kept)."""
    c = text[i]
    before = kept[-1] if kept else ""
    if 0xFE00 <= ord(c) <= 0xFE0F or 0xE0100 <= ord(c) <= 0xE01EF:  # a variation selector
        return bool(before) and is_visible(before)
    if 0xE0020 <= ord(c) <= 0xE007F:  # a tag character: only in a flag's tag sequence
        return before == _BLACK_FLAG or (0xE0020 <= ord(before or " ") <= 0xE007E)
    if c == _ZWJ:
        last = next((k for k in reversed(kept) if not 0xFE00 <= ord(k) <= 0xFE0F), "")
        after = text[i + 1] if i + 1 < len(text) else ""
        return bool(last and after) and _emoji(last) and _emoji(after)
    return False


class BadName(ValueError):
    """A name that cannot be kept: too long, a refused character, or nothing visible."""


def clean_name(name: str, *, empty_ok: bool = False) -> str:
    """The name as kept and shown, or :class:`BadName` saying why it cannot be one (see the module).

    ``empty_ok``: the empty text stands for "no name" (a room's name is optional) and is answered as is.

    >>> clean_name("", empty_ok=True), clean_name("  Beto\\u00ad ")
    ('', 'Beto')
    >>> clean_name("Ana\\u0085")
    Traceback (most recent call last):
    ...
    cuarenta.names.BadName: the name may not hold control characters (U+0085 at 3)
    """
    if not isinstance(name, str):
        raise BadName(f"a name is text, not {type(name).__name__}")
    if empty_ok and name == "":
        return ""
    if len(name) > NAME_MAX_CHARS:
        raise BadName(f"the name is longer than {NAME_MAX_CHARS} characters")
    for i, c in enumerate(name):
        kind = _refused(c)
        if kind:
            raise BadName(f"the name may not hold {kind} (U+{ord(c):04X} at {i})")
    kept: list[str] = []
    for i, c in enumerate(name):
        if not _invisible(c) or _keep_invisible(name, i, kept):
            kept.append(c)
    cleaned = unicodedata.normalize("NFC", "".join(kept))
    start, end = 0, len(cleaned)
    while start < end and _blank(cleaned[start]):
        start += 1
    while end > start and _blank(cleaned[end - 1]):
        end -= 1
    cleaned = cleaned[start:end]
    if not any(is_visible(c) for c in cleaned):
        raise BadName("the name has nothing visible: only spaces or invisible characters")
    return cleaned


def _ranges(codes: list[int]) -> list[tuple[int, int]]:
    out: list[tuple[int, int]] = []
    for code in sorted(set(codes)):
        if out and out[-1][1] == code - 1:
            out[-1] = (out[-1][0], code)
        else:
            out.append((code, code))
    return out


def _escape(code: int) -> str:
    return f"\\u{code:04x}" if code <= 0xFFFF else f"\\U{code:08x}"


def _char_class(codes: list[int]) -> str:
    return "".join(_escape(lo) if lo == hi else f"{_escape(lo)}-{_escape(hi)}" for lo, hi in _ranges(codes))


@cache
def _pattern() -> str:
    # Surrogate halves are left out: no UTF-8 JSON text holds one (the API refuses it when it reads the
    # body) and the schema's regular expressions (Rust's, ECMA's) cannot name them.
    codes = [code for plane in _PLANES for code in plane]
    refused = [code for code in codes if _refused(chr(code)) and not 0xD800 <= code <= 0xDFFF]
    hidden = [*refused, *(code for code in codes if _blank(chr(code)) or _invisible(chr(code)))]
    allowed = f"[^{_char_class(refused)}]"
    visible = f"[^{_char_class(hidden)}]"
    return f"^{allowed}*{visible}{allowed}*$"


if TYPE_CHECKING:
    #: The schema's ``pattern`` of a name (a seat's, a profile's): no refused character, one visible one
    #: at least (built from the same judgement as :func:`clean_name`, so the two agree; built when first
    #: named, PEP 562: the device never needs it).
    NAME_PATTERN: str
    #: The pattern of an optional name (a room's): the empty text, or a name.
    OPTIONAL_NAME_PATTERN: str


def __getattr__(name: str) -> str:
    if name == "NAME_PATTERN":
        return _pattern()
    if name == "OPTIONAL_NAME_PATTERN":
        return f"^$|{_pattern()}"
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


__all__ = [
    "BIDI_CONTROLS",
    "BLANKS",
    "DEFAULT_IGNORABLE",
    "NAME_MAX_CHARS",
    "NAME_PATTERN",
    "OPTIONAL_NAME_PATTERN",
    "BadName",
    "clean_name",
    "is_visible",
]
