"""The authority's ratings, kept in the store: profiles and ratings (:mod:`cuarenta.server.store.profiles`,
:mod:`cuarenta.server.store.ratings`), fair play (:mod:`cuarenta.server.ratings.fairplay`).

A rated table's seat notes the network its person plays from when the seat's socket joins; each finished
mesa of a rated table updates the ratings of its people — or is recorded unrated, with the reason.
"""

from __future__ import annotations

import logging
from typing import TYPE_CHECKING

from cuarenta.server.authority.ports import FinishedRow, StoreError
from cuarenta.server.ratings.fairplay import note_address, unrated_reason
from cuarenta.server.ratings.mesa import rate_mesa
from cuarenta.server.store.profilerows import ProfileProblem

if TYPE_CHECKING:
    from cuarenta.server.authority.model import Room
    from cuarenta.server.store import Store

log = logging.getLogger("cuarenta.server")


class StoreRatings:
    """:class:`~cuarenta.server.authority.ports.Ratings` kept in ``store``."""

    def __init__(self, store: Store) -> None:
        self.store = store

    def seen(self, profile: str, address: str | None) -> None:
        """The network a rated seat plays from (:func:`~cuarenta.server.ratings.fairplay.note_address`)."""
        note_address(self.store, profile, address)

    def finished(self, room: Room, row: FinishedRow) -> None:
        """Update the ratings of a rated table's people (a person who left counts: leaving does not dodge a
        loss). A mesa some seat of which has no profile is not rated (logged); a failure is logged."""
        teams: list[list[str]] = [[], []]
        for s in room.seats:
            if s.profile is None:
                log.warning(
                    "room %s mesa %d is not rated: seat %d has no profile", room.id, room.mesa, s.seat
                )
                return
            teams[s.seat % 2].append(s.profile)
        try:
            reason = unrated_reason(self.store, teams, row.finished)
            if reason is not None:
                log.info("room %s mesa %d is played unrated: %s", room.id, room.mesa, reason)
            rate_mesa(
                self.store,
                room=room.id,
                mesa=room.mesa,
                finished=row.finished,
                teams=teams,
                winner=row.winner,
                unrated=reason,
            )
        except (ValueError, ProfileProblem, StoreError):
            log.exception("rating room %s mesa %d failed", room.id, room.mesa)


__all__ = ["StoreRatings"]
