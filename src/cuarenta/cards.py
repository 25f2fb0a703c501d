"""Cards, ranks and suits of the 40-card Cuarenta deck (R1, R2).

A :class:`Card` is a small immutable value. It is an ``int`` subclass (its
index 0..39, ordered by rank then suit) so that the engine can use cards as
array indices and bit positions at no cost, while users see ``"7h"``::

    >>> from cuarenta import Card
    >>> card = Card.parse("7h")
    >>> card, str(card), card.rank_char, card.value
    (Card('7h'), '7h', '7', 7)
    >>> Card("Js").value is None       # J, Q and K never take part in a sum
    True
    >>> sorted(Card.parse_many("Kc 3d Ah"))
    [Card('Ah'), Card('3d'), Card('Kc')]
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Final

from cuarenta.errors import CardParseError, brief, clip

#: Rank characters in rank order (R1): A 2 3 4 5 6 7 J Q K.
RANK_CHARS: Final = "A234567JQK"
#: Suit characters: h ♥ corazón rojo, s ♠ corazón negro, d ♦ brillo, c ♣ trébol.
SUIT_CHARS: Final = "hsdc"
SUIT_SYMBOLS: Final = "♥♠♦♣"

NUM_RANKS: Final = 10
NUM_SUITS: Final = 4
NUM_CARDS: Final = 40

#: Rank indices 0..9. Ranks 0..6 (A..7) have values 1..7; J, Q, K have none.
ACE, JACK, QUEEN, KING = 0, 7, 8, 9


def rank_value(rank: int) -> int | None:
    """Sum value of a rank index (R2): A=1 … 7=7, and ``None`` for J, Q, K."""
    return rank + 1 if rank < JACK else None


def parse_rank(text: str) -> int:
    """Parse a rank character (``"A"``, ``"7"``, ``"J"`` …) into a rank index 0..9.

    >>> parse_rank("J")
    7
    """
    if not isinstance(text, str):
        raise CardParseError.of("rank_unknown", text=brief(text), ranks=" ".join(RANK_CHARS))
    t = text.strip().upper()
    if t == "1":
        t = "A"
    if len(t) == 1 and t in RANK_CHARS:
        return RANK_CHARS.index(t)
    if t in ("8", "9", "10"):
        raise CardParseError.of("rank_not_in_deck", text=clip(text))
    raise CardParseError.of("rank_unknown", text=clip(text), ranks=" ".join(RANK_CHARS))


class Card(int):
    """One of the 40 cards. ``Card("7h")``, ``Card.parse("7h")`` or ``Card(27)``.

    Cards are interned: there are exactly 40 instances, compared and hashed as
    their index ``rank * 4 + suit``.
    """

    __slots__ = ()

    def __new__(cls, spec: str | int) -> Card:
        if isinstance(spec, str):
            return cls.parse(spec)
        if isinstance(spec, int) and not isinstance(spec, bool) and 0 <= spec < NUM_CARDS:
            return CARDS[spec]
        raise CardParseError.of("card_index", value=brief(spec))

    @classmethod
    def parse(cls, text: str) -> Card:
        """Parse ``"7h"`` (rank then suit; case-insensitive; ``♥♠♦♣`` accepted).

        >>> Card.parse("qd"), Card.parse("A♣")
        (Card('Qd'), Card('Ac'))
        """
        if not isinstance(text, str):
            raise CardParseError.of("card_not_text", value=brief(text))
        t = text.strip()
        if len(t) < 2:
            raise CardParseError.of("card_too_short", text=clip(text))
        rank_text, suit_text = t[:-1], t[-1]
        if rank_text in ("8", "9", "10"):
            raise CardParseError.of("card_not_in_deck", text=clip(text))
        try:
            rank = parse_rank(rank_text)
        except CardParseError:
            raise CardParseError.of("card_bad_rank", text=clip(text), ranks=" ".join(RANK_CHARS)) from None
        s = suit_text.lower()
        if s in SUIT_CHARS:
            suit = SUIT_CHARS.index(s)
        elif suit_text in SUIT_SYMBOLS:
            suit = SUIT_SYMBOLS.index(suit_text)
        else:
            raise CardParseError.of("card_bad_suit", text=clip(text))
        return CARDS[rank * NUM_SUITS + suit]

    @classmethod
    def parse_many(cls, text: str | Iterable[str | int]) -> list[Card]:
        """Parse cards separated by spaces or commas, or an iterable of specs.

        >>> Card.parse_many("7h, 3c 4d")
        [Card('7h'), Card('3c'), Card('4d')]
        """
        if isinstance(text, str):
            parts: Iterable[str | int] = text.replace(",", " ").split()
        elif isinstance(text, Iterable) and not isinstance(text, bytes | bytearray | dict):
            parts = text
        else:
            raise CardParseError.of("cards_not_a_list", value=brief(text))
        return [Card(p) for p in parts]

    @property
    def index(self) -> int:
        """Position in the sorted deck, 0..39."""
        return int(self)

    @property
    def rank(self) -> int:
        """Rank index 0..9 (A=0 … 7=6, J=7, Q=8, K=9)."""
        return int(self) >> 2

    @property
    def suit(self) -> int:
        """Suit index 0..3 in the order h s d c."""
        return int(self) & 3

    @property
    def rank_char(self) -> str:
        return RANK_CHARS[int(self) >> 2]

    @property
    def suit_char(self) -> str:
        return SUIT_CHARS[int(self) & 3]

    @property
    def value(self) -> int | None:
        """Sum value (R2): A=1 … 7=7; ``None`` for J, Q, K."""
        return rank_value(int(self) >> 2)

    def symbol(self) -> str:
        """The card with a suit symbol: ``"7♥"``."""
        return RANK_CHARS[int(self) >> 2] + SUIT_SYMBOLS[int(self) & 3]

    def __str__(self) -> str:
        return RANK_CHARS[int(self) >> 2] + SUIT_CHARS[int(self) & 3]

    def __repr__(self) -> str:
        return f"Card('{self}')"

    def __format__(self, spec: str) -> str:
        return format(str(self), spec)

    def __reduce__(self) -> tuple[type[Card], tuple[int]]:
        return (Card, (int(self),))


def __getattr__(name: str) -> object:
    """Deprecated names: the suits' names are texts of the catalogue (``suit.h`` … in ``locale/``)."""
    langs = {"SUIT_NAMES_ES": "es", "SUIT_NAMES_EN": "en"}
    if name not in langs:
        raise AttributeError(f"module 'cuarenta.cards' has no attribute {name!r}")
    import warnings

    from cuarenta import catalogue  # deferred: the catalogue's texts load only for a deprecated name

    warnings.warn(
        f"cuarenta.cards.{name} is deprecated: the suits' names are catalogue texts (i18n.suit_name)",
        DeprecationWarning,
        stacklevel=2,
    )
    return tuple(catalogue.text(f"suit.{c}", langs[name]) for c in SUIT_CHARS)


def _make_cards() -> tuple[Card, ...]:
    return tuple(int.__new__(Card, i) for i in range(NUM_CARDS))


#: The 40 cards in index order (A♥ A♠ A♦ A♣ 2♥ … K♣).
CARDS: Final[tuple[Card, ...]] = _make_cards()


def full_deck() -> list[Card]:
    """A new list of the 40 cards in index order."""
    return list(CARDS)


def cards_str(cards: Iterable[int]) -> str:
    """Cards as text separated by spaces: ``"7h 3c"``."""
    return " ".join(str(CARDS[c]) for c in cards)
