"""Moves and claims, and their text notation.

A :class:`Move` is the card played plus what it takes: its *base* (one card
of the same rank, R7, or two or more cards that sum to its value, R8) and its
*escalera* (the run of following ranks, R10). The notation needs no position:

    ``7h``                 drop the 7♥, taking nothing
    ``7h x7s``             take the 7♠ by igualdad
    ``7h x3c+4d``          take 3♣ and 4♦ by suma
    ``7h x3c+4d,Js,Qh``    … and the escalera J♠ Q♥

    >>> from cuarenta import Move
    >>> move = Move.parse("7h x3c+4d,Js")
    >>> move.card, move.base, move.run
    (Card('7h'), (Card('3c'), Card('4d')), (Card('Js'),))
    >>> str(move), move.is_capture, len(move.taken)
    ('7h x3c+4d,Js', True, 3)

A :class:`Claim` (manual capture mode, R12) takes cards that the previous
player forgot: ``claim 5s,6h``.
"""

from __future__ import annotations

from typing import NamedTuple, TypeAlias

from cuarenta.cards import Card
from cuarenta.errors import CardParseError, MoveParseError, brief, clip


def _parse_card_list(text: str, sep: str, whole: str) -> tuple[Card, ...]:
    parts = [p.strip() for p in text.split(sep)]
    if not parts or any(not p for p in parts):
        raise MoveParseError.of("move_empty_card", move=clip(whole), part=clip(text))
    try:
        return tuple(Card.parse(p) for p in parts)
    except CardParseError as exc:
        raise MoveParseError.of("move_card", move=clip(whole), reason=exc) from None


class Move(NamedTuple):
    """A card played, with the table cards it takes (``base`` then ``run``)."""

    card: Card
    base: tuple[Card, ...] = ()
    run: tuple[Card, ...] = ()

    @classmethod
    def parse(cls, text: str) -> Move:
        """Parse the notation above; raises :class:`~cuarenta.MoveParseError`.

        >>> Move.parse("3h x3c,4d,5s")
        Move.parse('3h x3c,4d,5s')
        """
        if not isinstance(text, str):
            raise MoveParseError.of("move_not_text", value=brief(text))
        t = text.strip()
        if not t:
            raise MoveParseError.of("move_empty")
        if t.lower().startswith("claim"):
            raise MoveParseError.of("move_is_claim", move=clip(text))
        head, sep, tail = t.partition(" ")
        head = head.strip()
        tail = tail.strip()
        if "x" in head[2:] and not sep:
            # Accept "7hx7s" written without the space.
            head, tail = head[:2], head[2:]
            sep = " "
        try:
            card = Card.parse(head)
        except CardParseError as exc:
            raise MoveParseError.of("move_card", move=clip(text), reason=exc) from None
        if not sep:
            return cls(card)
        if not tail.lower().startswith("x"):
            raise MoveParseError.of("move_no_x", move=clip(text))
        takes = tail[1:].replace(" ", "")
        if not takes:
            raise MoveParseError.of("move_nothing_after_x", move=clip(text))
        base_text, _, run_text = takes.partition(",")
        base = _parse_card_list(base_text, "+", text)
        run = _parse_card_list(run_text, ",", text) if run_text else ()
        return cls(card, base, run)

    @property
    def taken(self) -> tuple[Card, ...]:
        """The table cards this move takes: base, then escalera."""
        return self.base + self.run

    @property
    def is_capture(self) -> bool:
        return bool(self.base)

    @property
    def is_pair(self) -> bool:
        """True for a capture by igualdad (R7)."""
        return len(self.base) == 1

    def __str__(self) -> str:
        if not self.base:
            return str(self.card)
        text = f"{self.card} x" + "+".join(str(c) for c in self.base)
        if self.run:
            text += "," + ",".join(str(c) for c in self.run)
        return text

    def __repr__(self) -> str:
        return f"Move.parse('{self}')"


class Claim(NamedTuple):
    """Manual capture mode (R12): take cards the previous player forgot."""

    cards: tuple[Card, ...]

    @classmethod
    def parse(cls, text: str) -> Claim:
        """Parse ``"claim 5s,6h"``.

        >>> Claim.parse("claim 5s,6h").cards
        (Card('5s'), Card('6h'))
        """
        t = text.strip() if isinstance(text, str) else ""
        if not t.lower().startswith("claim"):
            raise MoveParseError.of("claim_not_claim", value=brief(text))
        rest = t[5:].replace(" ", "")
        if not rest:
            raise MoveParseError.of("claim_no_cards", claim=clip(text))
        return cls(_parse_card_list(rest, ",", text))

    def __str__(self) -> str:
        return "claim " + ",".join(str(c) for c in self.cards)

    def __repr__(self) -> str:
        return f"Claim.parse('{self}')"


#: What a seat can do on its turn.
Action: TypeAlias = Move | Claim


def parse_action(text: str) -> Action:
    """Parse a move or a claim.

    >>> parse_action("claim 4d"), parse_action("Kc")
    (Claim.parse('claim 4d'), Move.parse('Kc'))
    """
    if isinstance(text, str) and text.strip().lower().startswith("claim"):
        return Claim.parse(text)
    return Move.parse(text)
