"""Seating: who holds which seat of a room, by token and seat code (docs/tables.md "Taking a seat back").

:class:`Seating` answers which seat a token opens (:meth:`Seating.seat_of`, :meth:`Seating.authorize`),
and changes who sits where, each change stored before anyone is told: a friend joins with the invite
(:meth:`Seating.join_table`), takes a seat back with its code (:meth:`Seating.reclaim`), is given a new
code (:meth:`Seating.renew_code`) or leaves for good (:meth:`Seating.leave_table`); the creator hands a
seat over (:meth:`Seating.handover`) or makes an open seat a computer's (:meth:`Seating.make_computer`);
a judged table's reserved seat is taken by its person (:meth:`Seating.sit_reserved`). A replaced token's
sockets are told why and closed (:meth:`Seating.drop_replaced`).

What seating asks of the authority is :class:`~.tablework.TableHost` (find a room or a table, start a full
table, start the rematch when due, the table's policy, why a halted table refuses); it works on the
:class:`~.tablework.TableContext` it shares with a table's life, writes through the :class:`~.saving.Saver`
and tells through the :class:`~.announcer.Announcer`.
"""

from __future__ import annotations

import dataclasses

from cuarenta.server.authority import clock, computer_names, setup
from cuarenta.server.authority.codes import hash_code, new_seat_code, normalize
from cuarenta.server.authority.errors import SEAT_LEFT, SEAT_TAKEN, RoomProblem, TableError
from cuarenta.server.authority.messages import error_frame
from cuarenta.server.authority.model import Room, Seat, available_levels
from cuarenta.server.authority.outcomes import NewSeat, pending
from cuarenta.server.authority.ports import StoreError, hash_token
from cuarenta.server.authority.rows import store_problem
from cuarenta.server.authority.seats import new_token, same_token, seat_of_hash
from cuarenta.server.authority.tablework import TableHost, TablePart


class Seating(TablePart):
    """Who holds which seat (module docstring). ``wall`` is the wall clock of the graces it starts."""

    # -- which seat a token opens ----------------------------------------------------------------------------
    def seat_of(self, room_id: str, token: str, *, left_ok: bool = False) -> int:
        """The seat of a token in a room, without loading its game (``unknown_room``, ``bad_token``; and
        ``seat_left`` for the token of a person who left the table for good, which opens nothing any more —
        unless ``left_ok``, for the requests that only tell it so)."""
        room = self.cache.find(room_id)
        digest = hash_token(token)
        found: tuple[int, bool] | None = None
        if room is not None and self.bus.trusts(room_id):
            found = self.seat_in_current(room, digest)
            if found is None:
                tell_former(self.former_in(room, digest))
        else:
            try:
                if not self.store.room_exists(room_id):
                    raise RoomProblem("unknown_room", f"there is no room {room_id!r}")
                found = self.store.token_seat(room_id, digest)
                if found is None:
                    former = self.store.former_token_seat(room_id, digest)
            except StoreError as exc:
                raise store_problem(room_id, exc) from None
            if found is None:
                tell_former(former)
        return checked_seat(room_id, found, left_ok=left_ok)

    @staticmethod
    def seat_in(room: Room, digest: str) -> tuple[int, bool] | None:
        """The seat whose token has the hash ``digest``, and whether its person left."""
        s = seat_of_hash(room.seats, digest)
        return None if s is None else (s.seat, s.left)

    def seat_in_current(self, room: Room, digest: str) -> tuple[int, bool] | None:
        """The seat of a token's hash in a room in memory. Where other server processes write the store
        (a cluster), a token the copy does not know is looked for once more after the room is read from
        the store and caught up: a seat taken on another node a moment ago, whose notice is still on its
        way, is not refused as ``bad_token`` (issue 25: the page forgets its seat on that answer). A token
        the copy knows as replaced is told so at once (a replaced token never comes back)."""
        found = self.seat_in(room, digest)
        if found is not None or not self.bus.others_write() or self.former_in(room, digest) is not None:
            return found
        try:
            changed = self.saver.refresh(room)
        except StoreError as exc:
            raise store_problem(room.id, exc) from None
        if changed:
            self.saver.caught_up(room)
        return self.seat_in(room, digest)

    @staticmethod
    def former_in(room: Room, digest: str) -> tuple[int, str] | None:
        """The seat whose last replaced token has the hash ``digest``, and why it was replaced."""
        for s in room.seats:
            if s.former_hash is not None and same_token(s.former_hash, digest):
                return s.seat, s.former or "reclaimed"
        return None

    def authorize(self, room_id: str, token: str) -> tuple[Room, int]:
        """The room (loaded, current) and the token's seat in it, or :class:`RoomProblem`. A room in
        memory is brought up to date first (a cluster node), and its seats are then the truth; another is
        not loaded for a token that opens nothing."""
        if room_id in self.cache:
            room = self.host.get(room_id)
            digest = hash_token(token)
            found = self.seat_in_current(room, digest)
            if found is None:
                tell_former(self.former_in(room, digest))
            return room, checked_seat(room_id, found)
        seat = self.seat_of(room_id, token)
        return self.host.get(room_id), seat

    def seat_of_token(self, room_id: str, token: str, *, left_ok: bool = False) -> tuple[Room, int]:
        """The table and the seat of a token (:class:`TableError`)."""
        room = self.host.table(room_id)
        return room, self.seat_of(room_id, token, left_ok=left_ok)

    def creator_only(self, room_id: str, token: str) -> Room:
        """The table, if the token is its creator's (``not_creator``; ``judge_runs_table`` at a table its
        judge runs)."""
        room, seat = self.seat_of_token(room_id, token)
        assert room.table is not None
        if self.host.policy(room).judged:
            raise TableError(
                "judge_runs_table",
                "a championship's table has no creator: its judge runs it (pause, restart, walkover)",
            )
        if seat != room.table.creator:
            raise TableError("not_creator", "only the table's creator may do that")
        return room

    # -- taking a seat -------------------------------------------------------------------------------------
    def join_table(
        self,
        room_id: str,
        *,
        invite: str,
        name: str,
        seat: int | None = None,
        team: int | None = None,
        profile: str | None = None,
    ) -> NewSeat:
        """Take an open seat with the invite code: ``seat`` if given, else the first open seat of ``team``
        if given, else the first open seat. :class:`TableError` says why not."""
        room = self.host.table(room_id)
        assert room.table is not None
        if self.host.policy(room).reserved:
            raise TableError(
                "championship_seat", "a championship's seats are reserved: sit with your pair's link"
            )
        chosen = setup.seat_to_take(room, invite=invite, seat=seat, team=team, profile=profile)
        token, digest = new_token()
        code, code_digest = new_seat_code(room.id)
        new = Seat(chosen, "person", name, None, digest, profile, code_hash=code_digest)
        with pending(NewSeat(room.id, chosen, token, code)) as given:
            if room.started:  # a seat the creator handed over (vacant): taken in the middle of the game
                self.take_vacant(room, new)
            else:
                self.change_seats(room, {chosen: new}, "the seat could not be stored, so it was not taken")
        return given

    def take_vacant(self, room: Room, new: Seat) -> None:
        """Someone new takes a vacant seat of a table in play: the seat is theirs (the last token's hash
        is kept, so that it is told the seat was given away), and the computer plays it on until their
        page joins. A name another seat has is refused (``name_taken``): in the middle of a mesa nobody is
        renamed, and two seats of one name would make the log ambiguous."""
        before = room.seats[new.seat]
        if any(
            s.seat != new.seat and s.name and s.name.casefold() == new.name.strip().casefold()
            for s in room.seats
        ):
            raise TableError("name_taken", f"{new.name!r} is already a name at this table: choose another")
        new.former_hash, new.former = before.former_hash, before.former
        new.stand_in = True
        self.saver.put_seats(room, {new.seat: new}, "the seat could not be stored, so it was not taken")
        self.announcer.tell_table(room)
        self.announcer.kick(room)

    def sit_reserved(self, room_id: str, seat: int, name: str, profile: str | None = None) -> NewSeat:
        """The person of a table's reserved ``seat`` sits there (the service that reserved it checked the
        person's right, and ``profile``'s key): an open seat is taken (the table starts once full); a seat
        the person holds already gets a new token and code, the old token is told ``seat_reclaimed`` (a
        page opened again, another device). At a rated table the person sits with a profile, no other
        seat's, and sits again with the same one."""
        room = self.host.table(room_id)
        assert room.table is not None
        if not self.host.policy(room).reserved:
            raise TableError("not_championship", "this table is not a championship's")
        if room.replaced:  # the pair's place is its partida's new table (the service never sends it here)
            halted = self.host.halt_problem(room)
            assert halted is not None
            raise halted
        before = room.seats[seat]
        profile = self._reserved_profile(room, seat, before, profile) if room.table.rated else None
        token, digest = new_token()
        code, code_digest = new_seat_code(room.id)
        if before.kind == "open":
            self.change_seats(
                room,
                {seat: Seat(seat, "person", name, None, digest, profile, code_hash=code_digest)},
                "the seat could not be stored, so it was not taken",
            )
        elif before.kind == "person" and not before.left:
            self.replace_token(
                room,
                dataclasses.replace(
                    before,
                    token_hash=digest,
                    code_hash=code_digest,
                    former_hash=before.token_hash,
                    former="reclaimed",
                ),
            )
        else:
            raise TableError("seat_not_open", f"seat {seat} is played by the computer now")
        return NewSeat(room.id, seat, token, code)

    @staticmethod
    def _reserved_profile(room: Room, seat: int, before: Seat, profile: str | None) -> str:
        """The profile a person sits with at a rated table's reserved seat (checked)."""
        if profile is None:
            raise TableError(
                "profile_required",
                "this championship is rated: sit with your profile (a name and its key)",
            )
        if any(s.profile == profile for s in room.seats if s.seat != seat):
            raise TableError("profile_seated", "that profile holds a seat at this table already")
        if before.kind == "person" and before.profile != profile:
            raise TableError(
                "profile_differs",
                "this seat is played for another profile: sit with the one that took it",
            )
        return profile

    # -- taking a seat back, handing it over (docs/tables.md "Taking a seat back") ---------------------------
    def reclaim(self, room_id: str, *, invite: str, code: str) -> NewSeat:
        """A person takes their seat back from another browser with the invite and their seat code: the
        seat gets a new token and a new code; the old token is refused from now on (``seat_reclaimed``),
        and its sockets are told so and closed. ``bad_invite``, ``bad_code``, ``wrong_code`` change
        nothing."""
        room = self.host.table(room_id)
        assert room.table is not None
        if not same_token(invite, room.table.invite):
            raise TableError("bad_invite", "the invite code is not this table's: ask for the link again")
        if normalize(code) is None:
            raise TableError("bad_code", "a seat code is 8 letters and digits, like K7QX-2M9D")
        digest = hash_code(room.id, code)
        held = [
            s
            for s in room.seats
            if s.kind == "person" and s.code_hash is not None and same_token(s.code_hash, digest)
        ]
        if not held:
            raise TableError(
                "wrong_code",
                "that code takes back no seat at this table: check it, or ask the table's creator",
            )
        before = held[0]
        token, token_digest = new_token()
        new_code, code_digest = new_seat_code(room.id)
        with pending(NewSeat(room.id, before.seat, token, new_code)) as given:
            self.replace_token(
                room,
                dataclasses.replace(
                    before,
                    token_hash=token_digest,
                    code_hash=code_digest,
                    former_hash=before.token_hash,
                    former="reclaimed",
                ),
            )
        return given

    def handover(self, room_id: str, token: str, seat: int) -> Room:
        """The creator gives the seat of a person who is away to someone new: its token and code stop
        working (``seat_given``), the computer plays it (a ``vacant`` seat) until someone takes it with the
        invite. Not at a rated table (the profile playing it would change), not the creator's own seat,
        not a person who is connected."""
        room = self.creator_only(room_id, token)
        assert room.table is not None
        if room.table.rated:
            raise TableError(
                "rated_table",
                "a rated table's seat cannot be given to someone else: the ratings are of its profile",
            )
        if not 0 <= seat < room.players:
            raise TableError("bad_seat", f"seat {seat} is not a seat of this table (0..{room.players - 1})")
        before = room.seats[seat]
        if seat == room.table.creator:
            raise TableError("not_a_person", "that is your own seat")
        if before.kind != "person":
            raise TableError("not_a_person", f"seat {seat} is not held by a person")
        if not room.started:
            raise TableError("not_started", "the table waits: nobody is away yet")
        if room.connected(seat):
            raise TableError(
                "seat_not_away", f"{before.name or 'the person'} is at the table: the seat stays theirs"
            )
        self.replace_token(
            room,
            Seat(
                seat,
                "computer",
                before.name,
                room.table.level,
                former_hash=before.token_hash,
                former="handed",
                vacant=True,
            ),
        )
        return room

    def renew_code(self, room_id: str, token: str) -> NewSeat:
        """A new seat code for the token's seat (the old one stops working): for a page that has none (a
        seat taken before codes existed, or a code lost)."""
        room, seat = self.seat_of_token(room_id, token)
        before = room.seats[seat]
        if before.kind != "person":
            raise TableError("not_a_person", f"seat {seat} is not held by a person")
        code, code_digest = new_seat_code(room.id)
        replaced = dataclasses.replace(before, code_hash=code_digest)
        self.saver.put_seats(room, {seat: replaced}, "the new code could not be stored, so it was not made")
        return NewSeat(room.id, seat, token, code)

    def replace_token(self, room: Room, new: Seat) -> None:
        """Store a seat whose token was replaced (taken back or handed over: ``new`` is the seat now), then
        close the old token's sockets, telling them why."""
        seat = new.seat
        self.saver.put_seats(room, {seat: new})
        self.drop_replaced(room)
        room.rematch.discard(seat)
        if not self.host.rematch_if_due(room):
            self.announcer.tell_table(room)
        self.announcer.arm(room)
        self.announcer.kick(room)

    def drop_replaced(self, room: Room) -> bool:
        """Close the sockets here whose token no longer holds their seat (taken back on another device,
        or handed over), each told why first; the seat is then away. Whether any was closed."""
        gone = [
            c
            for c in room.connections
            if c.seat is not None
            and c.token_hash is not None
            and not room.seats[c.seat].left
            and room.seats[c.seat].token_hash != c.token_hash
        ]
        for conn in gone:
            seat = conn.seat
            assert seat is not None
            code, message = SEAT_TAKEN.get(room.seats[seat].former or "", SEAT_TAKEN["reclaimed"])
            room.connections.discard(conn)
            conn.room, conn.seat = None, None
            conn.send(error_frame(code, message))
            conn.close(1000)
            s = room.seats[seat]
            if s.kind == "person" and not room.connected(seat) and not s.stand_in and s.away_until is None:
                clock.went_away(room, seat, now=self.wall())
        if gone:
            self.bus.left(room)
        return bool(gone)

    # -- the seats of a waiting table, leaving ---------------------------------------------------------------
    def make_computer(self, room_id: str, token: str, seat: int, level: str) -> Room:
        """The creator turns open ``seat`` into a computer player of ``level``."""
        room = self.creator_only(room_id, token)
        if level not in available_levels():
            raise TableError(
                "unknown_level", f"unknown level {level!r}: choose one of {', '.join(available_levels())}"
            )
        if not 0 <= seat < room.players or room.seats[seat].kind != "open":
            raise TableError("seat_not_open", f"seat {seat} is not open")
        self.change_seats(room, {seat: Seat(seat, "computer", "", level)})
        return room

    def change_seats(
        self,
        room: Room,
        new: dict[int, Seat],
        what: str = "the change could not be stored, so it was not made",
    ) -> None:
        """Give a waiting table some new seats, stored before anyone is told; it starts once it is full.
        A new computer seat gets a name, and so does a computer whose name a person now has."""
        trial = list(room.seats)
        for i, s in new.items():
            trial[i] = s
        new = {i: s for i, s in enumerate(computer_names.named(room.id, trial)) if s is not room.seats[i]}
        self.saver.put_seats(room, new, what)
        if not any(s.kind == "open" for s in room.seats):
            self.host.start_table(room)  # full: it starts
        else:
            self.announcer.tell_table(room)

    def leave_table(self, room_id: str, token: str) -> Room:
        """A person leaves for good: the seat becomes a computer player of the table's level, and the
        token only says so from now on (``seat_left``). Before the start the seat opens again (for its
        person only, at a table whose seats are reserved); the creator of a waiting table stays."""
        room, seat = self.seat_of_token(room_id, token, left_ok=True)
        assert room.table is not None
        s = room.seats[seat]
        if s.kind != "person":
            raise TableError("already_left", "you left this table already")
        reserved = self.host.policy(room).reserved
        if not room.started:  # before the start, the seat opens again for someone else
            if seat == room.table.creator and not self.host.policy(room).judged:
                raise TableError(
                    "creator_stays", "the creator cannot leave a table that waits: start it or let it be"
                )
            self.saver.put_seats(room, {seat: Seat(seat, "open", s.name if reserved else "")})
        else:
            self.saver.put_seats(
                room, {seat: Seat(seat, "computer", s.name, room.table.level, s.token_hash, s.profile, True)}
            )
        for conn in [c for c in room.connections if c.seat == seat]:
            room.connections.discard(conn)
            conn.room, conn.seat = None, None
        room.rematch.discard(seat)
        if not self.host.rematch_if_due(room):
            self.announcer.tell_table(room)
        self.announcer.kick(room)
        return room


def tell_former(former: tuple[int, str] | None) -> None:
    """A token replaced when its seat was taken back or handed over is told so (``seat_reclaimed``,
    ``seat_given``: docs/tables.md "Taking a seat back")."""
    if former is not None:
        code, message = SEAT_TAKEN.get(former[1], SEAT_TAKEN["reclaimed"])
        raise RoomProblem(code, message)


def checked_seat(room_id: str, found: tuple[int, bool] | None, *, left_ok: bool = False) -> int:
    """The seat found for a token: ``bad_token`` if none, ``seat_left`` if its person left (unless
    ``left_ok``)."""
    if found is None:
        raise RoomProblem("bad_token", f"that token holds no seat in room {room_id}")
    seat, left = found
    if left and not left_ok:
        raise RoomProblem("seat_left", SEAT_LEFT)
    return seat


__all__ = ["Seating", "TableHost", "checked_seat", "tell_former"]
