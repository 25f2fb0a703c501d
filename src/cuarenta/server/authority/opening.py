"""Opening rooms: a room against the computer, a table with friends, a judged table with reserved seats.

:class:`Opener` makes a new room, stores it (with its seats; its log is empty) and keeps it in memory:
:meth:`Opener.create` (a person against the computer), :meth:`Opener.create_table` (a table with friends:
:func:`.setup.new_table`) and :meth:`Opener.open_table` (a table whose seats are reserved for named people
or computers, dealt from a given seed: a championship's partida). Each table is given its
:class:`~.policy.TablePolicy` as it is made (``given``); a table nobody is awaited at starts at once
(``start``: the authority's).
"""

from __future__ import annotations

import secrets
from collections.abc import Callable

from cuarenta.game import Game
from cuarenta.rules import Rules
from cuarenta.server.authority import computer_names, setup
from cuarenta.server.authority.cache import RoomCache
from cuarenta.server.authority.codes import new_seat_code
from cuarenta.server.authority.model import Room, Seat, TableOptions, available_levels, mesa_seed, now_text
from cuarenta.server.authority.outcomes import NewSeat
from cuarenta.server.authority.policy import TablePolicy
from cuarenta.server.authority.ports import StorePort
from cuarenta.server.authority.rows import room_row
from cuarenta.server.authority.seats import new_token
from cuarenta.server.authority.setup import DEFAULT_GRACE


class Opener:
    """Makes new rooms (module docstring). ``policy_of`` is the policy of a table made without one
    (derived from its options); ``given`` records a new table's policy before it may start."""

    def __init__(
        self,
        *,
        cache: RoomCache,
        store: StorePort,
        start: Callable[[Room], None],
        policy_of: Callable[[TableOptions], TablePolicy],
        given: Callable[[Room, TablePolicy], None],
    ) -> None:
        self.cache = cache
        self.store = store
        self.start = start
        self.policy_of = policy_of
        self.given = given

    def new_id(self) -> str:
        """A new room id, in neither the memory nor the store."""
        room_id = secrets.token_urlsafe(9)
        while room_id in self.cache or self.store.room_exists(room_id):  # pragma: no cover
            room_id = secrets.token_urlsafe(9)
        return room_id

    def open(
        self,
        *,
        rules: Rules,
        level: str,
        seed: int | str,
        seats: list[Seat],
        practice: bool = False,
        table: TableOptions | None = None,
        room_id: str | None = None,
    ) -> Room:
        """Make a new room, store it (with its seats; its log is empty) and keep it in memory."""
        room = Room(
            id=self.new_id() if room_id is None else room_id,
            created=now_text(),
            level=level,
            rules=rules,
            seed=seed,
            seats=seats,
            mesa=1,
            game=Game.new(rules, mesa_seed(seed, 1)),
            practice=practice,
            table=table,
            started=table is None,
        )
        room.seats = computer_names.named(room.id, room.seats)  # the computers' names, before it is stored
        self.store.insert_room(room_row(room))
        self.cache.remember(room)
        return room

    def create(
        self,
        *,
        rules: Rules,
        level: str,
        name: str = "",
        seed: int | str | None = None,
        practice: bool = False,
        daily: str | None = None,
    ) -> tuple[Room, str]:
        """A new room against the computer: the person at seat 0, computer players of ``level`` elsewhere.

        The server chooses the seed. Only a ``practice`` room may be given one (to replay or rehearse a
        deal); practice rooms are marked as such and their mesas never count in the statistics. ``daily``
        is the deal of the day's seed (the server's own, never a person's: docs/daily.md).
        Returns the room and the person's token (only its hash is kept). ``ValueError`` says what is wrong.
        """
        if level not in available_levels():
            raise ValueError(f"unknown level {level!r}: choose one of {', '.join(available_levels())}")
        if not isinstance(practice, bool):
            raise ValueError(f"practice must be true or false, not {practice!r}")
        if daily is not None:
            if seed is not None or practice:
                raise ValueError("the deal of the day has its own seed and is not a practice room")
            seed = daily
        elif seed is None:
            seed = secrets.randbelow(2**63)
        elif not practice:
            raise ValueError("the server chooses the seed: a seed may be given only for a practice room")
        elif isinstance(seed, bool) or not isinstance(seed, int | str):
            raise ValueError(f"the seed must be a number or text, not {seed!r}")
        token, digest = new_token()
        seats = [Seat(0, "person", name, None, digest)]
        seats += [Seat(s, "computer", "", level, None) for s in range(1, rules.players)]
        room = self.open(rules=rules, level=level, seed=seed, seats=seats, practice=practice)
        return room, token

    def create_table(  # noqa: PLR0913 -- a table's public keyword options, as the HTTP body gives them
        self,
        *,
        rules: Rules,
        name: str,
        seats: list[str] | None = None,
        level: str | None = None,
        grace: float = DEFAULT_GRACE,
        clock: int | None = None,
        lobby: bool = False,
        profile: str | None = None,
        rated: bool = False,
        policy: TablePolicy | None = None,
    ) -> tuple[Room, NewSeat, str]:
        """A new table (:func:`.setup.new_table`), stored; it starts at once if nobody is awaited.

        A ``rated`` table is for people only, each with a profile (``profile``: the creator's, checked by
        the caller), and its rules must be a preset's (checked by the caller). ``policy`` is the table's
        (default: the one its options give). Returns the room, the creator's seat and token, and the
        invite code. ``ValueError`` says what is wrong with an option.
        """
        token, digest = new_token()
        table, seat_list = setup.new_table(
            rules,
            name=name,
            digest=digest,
            seats=seats,
            level=level,
            grace=grace,
            clock=clock,
            lobby=lobby,
            profile=profile,
            rated=rated,
            invite=secrets.token_urlsafe(12),
        )
        room_id = self.new_id()
        code, seat_list[0].code_hash = new_seat_code(room_id)
        room = self.open(
            rules=rules,
            level=table.level,
            seed=secrets.randbelow(2**63),
            seats=seat_list,
            table=table,
            room_id=room_id,
        )
        self.given(room, self.policy_of(table) if policy is None else policy)
        if not any(s.kind == "open" for s in seat_list):
            self.start(room)  # nobody to wait for
        return room, NewSeat(room.id, 0, token, code), table.invite

    def open_table(  # noqa: PLR0913 -- a championship table's keyword options (its service names each)
        self,
        *,
        rules: Rules,
        seats: list[str],
        names: list[str],
        seed: int,
        clock: int | None,
        grace: float = DEFAULT_GRACE,
        championship: str,
        partida: str,
        level: str | None = None,
        rated: bool = False,
        policy: TablePolicy | None = None,
    ) -> tuple[Room, str]:
        """A table with reserved seats (docs/championships.md "Running a championship"): each seat
        ``"open"`` (reserved for the person ``names[seat]``, who takes it through
        :meth:`~.seating.Seating.sit_reserved`) or a computer level. Nobody created it. It starts when its
        last open seat is taken, or at once when every seat is a computer, and it deals from ``seed``.
        ``championship`` and ``partida`` are stored with it (its service finds its tables by them); a
        ``rated`` one (people only) rates its mesa as its ``policy`` says. Returns the room and its invite
        code (never used to join: the seats are reserved)."""
        if rated and any(kind != "open" for kind in seats):
            raise ValueError("a rated championship table is for people only")
        if len(seats) != rules.players or len(names) != rules.players:
            raise ValueError(f"a championship table has {rules.players} seats, not {len(seats)}")
        levels = available_levels()
        seat_list: list[Seat] = []
        for i, kind in enumerate(seats):
            if kind == "open":
                seat_list.append(Seat(i, "open", names[i]))
            elif kind in levels:
                seat_list.append(Seat(i, "computer", "", kind))
            else:
                raise ValueError(f"seat {i}: {kind!r} is neither 'open' nor one of {', '.join(levels)}")
        invite = secrets.token_urlsafe(12)
        table = TableOptions(
            invite=invite[: setup.INVITE_CHARS],
            creator=0,
            level=level or ("normal" if "normal" in levels else levels[0]),
            grace=float(grace),
            clock=clock,
            championship=championship,
            partida=partida,
            rated=rated,
        )
        room = self.open(rules=rules, level=table.level, seed=seed, seats=seat_list, table=table)
        self.given(room, self.policy_of(table) if policy is None else policy)
        if not any(s.kind == "open" for s in seat_list):
            self.start(room)
        return room, table.invite


__all__ = ["Opener"]
