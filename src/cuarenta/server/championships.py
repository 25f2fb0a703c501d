"""The championships service (docs/championships.md "Running a championship"): the library's
:class:`~cuarenta.championship.Championship` over the store and the authority's tables.

A championship is loaded by replaying its stored actions and cached with its action count; every use
first compares that count with the store's (one small query) and replays again when another process has
stored more (cluster-safe). A change (:meth:`Championships.apply_async`) is applied to a copy of the
championship in a thread — a Swiss round's pairing takes a second or more with hundreds of pairs, and the
event loop keeps answering meanwhile, the copy in memory still read as it was — then appended to the store
as action ``seq`` (a compare-and-set), and only then does the copy replace the one in memory; on a conflict
or a failure the championship is reloaded from the store and the change refused (``stale`` 409 /
``store_unavailable`` 503): nothing is acknowledged before it is stored. The changes of one championship
are made one at a time (a lock per championship); the tables of a round open a few at a time, the loop
answering between them. A championship takes at most ``max_pairs`` pairs (``cuarenta serve
--championship-pairs``, default :data:`DEFAULT_MAX_PAIRS`; docs/performance.md says what one process
holds).

Online, each running partida has a table (:meth:`Authority.open_partida`) with its deal seed; a computer
pair's seats are computer players. A finished table reports ``Report(partida, chicas, points)``: chicas per
pair from the mesa, and points = the sum of each pair's final score over the mesa's chicas. In a hall,
the judge's score sheet (:class:`~cuarenta.championship.hall.HallSheet`) of each partida is kept as its
entries (stored before acknowledged; an undo deletes the last one), and its finished mesa is reported.
"""

from __future__ import annotations

import asyncio
import contextlib
import datetime
import json
import logging
import secrets
import time
from collections.abc import Callable, Coroutine, Iterator
from dataclasses import dataclass, field
from typing import Any, Final

from cuarenta.championship import Championship, Settings
from cuarenta.championship.actions import Action, Decide, Register, Report, Review, Walkover
from cuarenta.championship.errors import ChampionshipError
from cuarenta.championship.hall import HallError, HallSheet, entry_from_dict
from cuarenta.championship.model import Partida
from cuarenta.errors import render
from cuarenta.server.authority.core import Authority
from cuarenta.server.authority.errors import TableError
from cuarenta.server.authority.model import Room, TableOptions, available_levels, now_text
from cuarenta.server.authority.policy import TablePolicy
from cuarenta.server.authority.ports import FinishedRow
from cuarenta.server.authority.seats import same_token
from cuarenta.server.edge.statuses import Kind
from cuarenta.server.store import Store, StoreConflict, StoreError, dumps, hash_token
from cuarenta.server.store import championships as cstore

log = logging.getLogger("cuarenta.server")

#: Seconds between two checks of the tables waiting for a pair (the walkover wait).
WAIT_CHECK_SECONDS: Final = 5.0
#: The most pairs a championship takes unless ``cuarenta serve --championship-pairs`` says otherwise: one
#: process pairs a Swiss round of 256 and opens its 128 tables with ``/api/health`` under 100 ms
#: (docs/performance.md "How large a championship one process runs").
DEFAULT_MAX_PAIRS: Final = 256
#: The longest the event loop is held opening a round's tables before it answers others (seconds).
OPENING_SLICE_SECONDS: Final = 0.01
#: The reason of a walkover the server gives when the wait is over (``by: "server"``): a code, which the
#: page says in its language (``page.champ.server_reason.no_show``); a person's reason is kept as typed.
NO_SHOW: Final = "no_show"
#: The hall's refusals of an entry's own fields (400, bad input); its other refusals are about the
#: sheet's state (409): a cartón too early, a ronda out of order …
HALL_BAD_INPUT: Final = frozenset(
    {
        "hall_not_object",
        "hall_entry_kind",
        "hall_entry_keys",
        "hall_entry_missing",
        "hall_not_an_entry",
        "hall_seat",
        "hall_team",
        "hall_carton_counts",
        "hall_carton_total",
        "hall_limpia_flag",
    }
)


class ChampionshipProblem(TableError):
    """A refused championship request: a code (the library's, the hall sheet's, or the service's of
    :data:`~cuarenta.server.edge.statuses.STATUS`), a sentence, the ``kind`` of a code of the library or
    the hall sheet (``bad_input``, ``not_found``, ``wrong_state``: its HTTP status is
    :data:`~cuarenta.server.edge.statuses.KIND_STATUS`'s), and the ``params`` of its words when it has some
    (the page says ``error.<code>`` with them in its own language)."""

    def __init__(
        self, code: str, message: str, kind: Kind | None = None, params: dict[str, Any] | None = None
    ) -> None:
        super().__init__(code, message)
        self.kind = kind
        self.params = params


@dataclass
class Loaded:
    """A championship in memory: the library's state, its stored action count, and its side tables."""

    row: cstore.ChampionshipRow
    champ: Championship
    count: int
    pairs: dict[str, cstore.PairRow]
    tables: dict[str, tuple[str, str]]  #: partida → (room, opened)
    sheets: dict[str, HallSheet] = field(default_factory=dict)
    alerts: dict[str, set[str]] = field(default_factory=dict)
    #: ``champ.to_public()``, as data and as JSON text, and the action count it is of (it changes with the
    #: actions only: a crowd polling the public page reads it built once)
    public: tuple[int, dict[str, Any], str] | None = None
    #: the building of :attr:`public` under way in a thread (its action count and its task)
    building: tuple[int, asyncio.Task[tuple[int, dict[str, Any], str]]] | None = None


#: The library's errors that are bad input (400); the others are a wrong state (409).
BAD_INPUT: Final = ("SettingsError", "ActionError", "RegistrationError")


def _refusal(exc: ChampionshipError) -> ChampionshipProblem:
    """A refusal of the library as the API's: its code, sentence and params; 400 for bad input, else 409."""
    bad = type(exc).__name__ in BAD_INPUT or exc.code.startswith(("chicas", "points", "result", "reason"))
    if exc.code in ("pair_unknown", "partida_unknown", "decision_unknown"):
        return ChampionshipProblem(exc.code, str(exc), "not_found", exc.params)
    return ChampionshipProblem(exc.code, str(exc), "bad_input" if bad else "wrong_state", exc.params)


def hall_refusal(exc: HallError) -> ChampionshipProblem:
    """A refused entry of the hall's sheet as the API's: the refusal's own code and params (an entry not
    in the form ``Entry.to_dict`` writes: the code of what is wrong in it), 400 for an entry's own fields,
    else 409.

    >>> from cuarenta.championship.hall import entry_from_dict
    >>> try:
    ...     entry_from_dict({"kind": "carton", "cards": [30, 9], "leftovers": 0})
    ... except HallError as exc:
    ...     problem = hall_refusal(exc)
    >>> problem.code, problem.kind, problem.params["total"]
    ('hall_carton_total', 'bad_input', 39)
    """
    code, params = exc.code, exc.params
    reason = params.get("reason")
    if code == "hall_entry_malformed" and isinstance(reason, dict) and isinstance(reason.get("code"), str):
        code, params = reason["code"], dict(reason.get("params") or {})
    kind: Kind = "bad_input" if code in HALL_BAD_INPUT else "wrong_state"
    return ChampionshipProblem(code, render(code, params, "en"), kind, params)


def _published(count: int, champ: Championship) -> tuple[int, dict[str, Any], str]:
    """``champ.to_public()`` after ``count`` actions, as data and as JSON text."""
    data = champ.to_public()
    return count, data, json.dumps(data, ensure_ascii=False, separators=(",", ":"))


def _decided(champ: Championship, action: Action) -> set[str | None]:
    """The partida whose pause ``action`` may have changed: a judge's decision's, a reviewed one's."""
    if isinstance(action, Decide):
        return {action.partida}
    if isinstance(action, Review) and 0 <= action.decision < len(champ.decisions):
        return {champ.decisions[action.decision].partida}
    return set()


def _pause_reason(champ: Championship, partida: str) -> str | None:
    """The reason of the judge's pause in force at a partida (its last pause not reversed)."""
    for decision in reversed(champ.decisions):
        if decision.partida == partida and decision.kind == "pause" and decision.reversed_by is None:
            return decision.reason
    return None


class Championships:
    """Every championship of the server (module docstring)."""

    def __init__(self, authority: Authority, store: Store, max_pairs: int = DEFAULT_MAX_PAIRS) -> None:
        self.authority = authority
        self.store = store
        self.max_pairs = max_pairs  #: the most pairs a championship takes (0: no limit)
        self._cache: dict[str, Loaded] = {}
        self.wall: Callable[[], float] = time.time  #: the clock of the walkover wait (a test may replace it)
        self.check_seconds = WAIT_CHECK_SECONDS
        self._task: asyncio.Task[None] | None = None
        self._locks: dict[str, asyncio.Lock] = {}
        self._pending: set[asyncio.Task[Any]] = set()  #: reports made off a table's finishing move
        #: the policy of its tables (:mod:`cuarenta.server.authority.policy`): one mesa (no rematch), run
        #: by the judge (no creator; paused by the judge), seats reserved for the pairs' people, the deal of
        #: the championship's seed; a finished mesa is reported here (and rated here, if still the partida's)
        self.table_policy = TablePolicy(
            rematch=False,
            judged=True,
            reserved=True,
            keeps_seed=True,
            on_finished=lambda room, row: self._finished(room, row),
        )
        authority.policies.add(self._policy_of)  # a table read back from the store gets it again

    def _policy_of(self, options: TableOptions) -> TablePolicy | None:
        """The policy of a table whose stored options name a championship: :attr:`table_policy`."""
        return self.table_policy if options.championship is not None else None

    # -- lifecycle ---------------------------------------------------------------------------------------
    async def open(self) -> None:
        """Load the running championships (their waits are checked from the start; a table finished
        while its report was not stored reports now), then check the waits every few seconds."""
        try:
            running = cstore.running_championships(self.store)
        except StoreError:
            log.exception("the running championships could not be read (they load on their first use)")
            running = []
        for cid in running:
            try:
                self.get(cid)
            except Exception:  # one broken championship does not keep the server from starting
                log.exception("championship %s could not be loaded at start", cid)
        self._task = asyncio.get_running_loop().create_task(self._watch(), name="championship-waits")

    async def close(self) -> None:
        if self._task is not None:
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._task
        if self._pending:  # the reports under way are stored (or refused) before the process stops
            await asyncio.gather(*self._pending, return_exceptions=True)

    async def _watch(self) -> None:
        while True:
            await asyncio.sleep(self.check_seconds)
            try:
                await self.check_waits()
            except Exception:  # the wait is checked again next time
                log.exception("checking the championships' waiting tables failed")

    def _soon(self, work: Coroutine[Any, Any, None]) -> None:
        """Run ``work`` on the event loop as a task of its own (kept until it ends), or at once where no
        loop runs."""
        try:
            loop = asyncio.get_running_loop()
        except RuntimeError:
            asyncio.run(work)
            return
        task = loop.create_task(work)
        self._pending.add(task)
        task.add_done_callback(self._pending.discard)

    # -- creating and loading ----------------------------------------------------------------------------
    def create(self, settings: Settings) -> dict[str, str]:
        """A new championship: its id, the organiser's and the judge's tokens, the registration code."""
        cid = secrets.token_urlsafe(9)
        organiser, judge, register = (secrets.token_urlsafe(24) for _ in range(3))
        row = cstore.ChampionshipRow(
            cid,
            settings.name,
            dumps(settings.to_dict()),
            secrets.randbelow(2**62),
            hash_token(organiser),
            hash_token(judge),
            hash_token(register),
        )
        cstore.insert_championship(self.store, row)
        return {"championship": cid, "organiser": organiser, "judge": judge, "register": register}

    def get(self, cid: str) -> Loaded:
        """The championship, up to date with the store (replayed again if another process added to it)."""
        loaded = self._cache.get(cid)
        if loaded is not None and cstore.action_count(self.store, cid) == loaded.count:
            return loaded
        return self._load(cid)

    async def public_async(self, cid: str) -> tuple[dict[str, Any], str]:
        """``to_public()`` of the championship, as data (a fresh dict) and as JSON text: built once per stored
        action, in a thread (tens of milliseconds with a thousand pairs), once for every request that asks
        meanwhile."""
        loaded = self.get(cid)
        if loaded.public is None or loaded.public[0] != loaded.count:
            if loaded.building is None or loaded.building[0] != loaded.count:
                work = asyncio.to_thread(_published, loaded.count, loaded.champ)
                loaded.building = (loaded.count, asyncio.ensure_future(work))
            built = await loaded.building[1]
            if loaded.public is None or loaded.public[0] < built[0]:
                loaded.public = built
            return dict(built[1]), built[2]
        return dict(loaded.public[1]), loaded.public[2]

    def _load(self, cid: str) -> Loaded:
        row = cstore.load_championship(self.store, cid)
        if row is None:
            raise ChampionshipProblem("unknown_championship", f"there is no championship {cid!r}")

        settings = Settings.from_dict(json.loads(row.settings))
        actions = cstore.load_actions(self.store, cid)
        champ = Championship.replay(settings, row.secret, actions)
        loaded = Loaded(
            row, champ, len(actions), cstore.load_pairs(self.store, cid), cstore.load_tables(self.store, cid)
        )
        for partida, entries in cstore.load_entries(self.store, cid).items():
            sheet = HallSheet(settings.rules, dealer=0)
            for entry in entries:
                sheet.tap(entry_from_dict(entry))
            loaded.sheets[partida] = sheet
        self._cache[cid] = loaded
        self._ensure_tables(loaded)
        self._report_finished(loaded)
        return loaded

    def _report_finished(self, loaded: Loaded) -> None:
        """On load: a running partida whose mapped table's mesa is over was not reported (the process
        stopped between the table's last move and the report): it is reported now."""
        champ = loaded.champ
        if champ.settings.venue != "online" or not champ.rounds:
            return
        for partida in list(champ.rounds[-1]):
            mapped = loaded.tables.get(partida.id)
            if mapped is None or not champ.partida(partida.id).is_open:
                continue
            try:
                room = self.authority.table(mapped[0])
            except TableError:
                log.exception("the table of partida %s could not be read", partida.id)
                continue
            if room.game.is_over:
                self._report_room(loaded.row.id, champ.partida(partida.id), room)

    # -- changes -------------------------------------------------------------------------------------------
    def apply(self, cid: str, action: Action, *, pair: cstore.PairRow | None = None) -> list[Partida]:
        """Apply ``action`` and store it (module docstring), on the calling thread; the tables of the
        partidas it opened open. The server's routes use :meth:`apply_async`."""
        loaded = self.get(cid)
        try:
            opened = loaded.champ.apply(action)
        except ChampionshipError as exc:
            raise _refusal(exc) from None
        replaced = self._stored(cid, loaded, loaded.champ, action, pair)
        self._ensure_tables(loaded, _decided(loaded.champ, action))
        self._tell_replaced(replaced)
        return opened

    async def apply_async(
        self,
        cid: str,
        action: Action,
        *,
        pair: cstore.PairRow | Callable[[Loaded], cstore.PairRow] | None = None,
    ) -> list[Partida]:
        """Apply ``action`` and store it (module docstring): the library applies it to a copy in a thread
        (a round's pairing never holds the event loop), the action is stored (a compare-and-set), then the
        copy replaces the championship in memory and the tables of the partidas it opened open, the loop
        answering between them. One change of a championship at a time: ``pair`` (a registration's row) may
        be made from the championship as it is then (a callable, which may refuse it)."""
        lock = self._locks.setdefault(cid, asyncio.Lock())
        async with lock:
            loaded = self.get(cid)
            row = pair(loaded) if callable(pair) else pair
            twin = loaded.champ.copy()
            try:
                opened = await asyncio.to_thread(twin.apply, action)
            except ChampionshipError as exc:
                raise _refusal(exc) from None
            replaced = self._stored(cid, loaded, twin, action, row)
            await self._ensure_tables_async(loaded, _decided(loaded.champ, action))
            self._tell_replaced(replaced)
        return opened

    def _stored(
        self, cid: str, loaded: Loaded, champ: Championship, action: Action, pair: cstore.PairRow | None
    ) -> str | None:
        """Store ``action``, already applied to ``champ`` (``loaded``'s championship or its copy), as the
        next action; then ``champ`` is the championship in memory. Refused (``stale``, or the store's
        error) with the championship reloaded from the store on its next use. The room a restart replaced
        (stopped in the same transaction), if any."""
        # a restart online: the partida's table is unmapped with the decision (one transaction); its next
        # table opens below, or on the next load if this process stops first
        unmap = (
            action.partida
            if isinstance(action, Decide)
            and action.decision == "restart"
            and champ.settings.venue == "online"
            else None
        )
        try:
            replaced = cstore.append_action(
                self.store, cid, loaded.count + 1, action.to_dict(), pair=pair, unmap=unmap
            )
        except StoreConflict:
            self._cache.pop(cid, None)
            raise ChampionshipProblem("stale", "the championship changed meanwhile: look again") from None
        except StoreError:
            self._cache.pop(cid, None)
            raise
        loaded.champ = champ
        loaded.count += 1
        if pair is not None:
            loaded.pairs[pair.pair] = pair
        if unmap is not None:
            loaded.tables.pop(unmap, None)
        return replaced

    def _tell_replaced(self, replaced: str | None) -> None:
        """A table a restart stopped with its decision: its people learn it once the new table is open."""
        if replaced is not None:
            self.authority.table_rewritten(replaced)

    def _ensure_tables(self, loaded: Loaded, sync: set[str | None] | None = None) -> None:
        """Online: every running partida of the current round gets a table if it has none (also after a
        crash between storing an action and opening its tables); the tables' paused flags follow the
        partidas of ``sync`` (those an action just paused or resumed), or all of them (``None``: on load,
        also after a crash between a decision and its table's flag)."""
        for _ in self._open_tables(loaded, sync):
            pass

    async def _ensure_tables_async(self, loaded: Loaded, sync: set[str | None] | None = None) -> None:
        """:meth:`_ensure_tables`, the event loop answering others every :data:`OPENING_SLICE_SECONDS`."""
        began = time.monotonic()
        for _ in self._open_tables(loaded, sync):
            if time.monotonic() - began > OPENING_SLICE_SECONDS:
                await asyncio.sleep(0)
                began = time.monotonic()

    def _open_tables(self, loaded: Loaded, sync: set[str | None] | None) -> Iterator[None]:
        """The work of :meth:`_ensure_tables`, a step per table opened."""
        champ = loaded.champ
        if champ.settings.venue != "online" or not champ.rounds:
            return
        for partida in champ.rounds[-1]:
            if not partida.is_open:
                continue
            if partida.id not in loaded.tables:
                try:
                    self._open_table(loaded, partida)
                except (StoreError, TableError):
                    log.exception("the table of partida %s could not be opened (retried on load)", partida.id)
                    continue
                yield
            if sync is not None and partida.id not in sync:
                continue
            room_id = loaded.tables[partida.id][0]
            try:
                if self.authority.table(room_id).paused != partida.paused:
                    self.authority.set_paused(room_id, partida.paused, _pause_reason(champ, partida.id))
            except (StoreError, TableError):
                log.exception(
                    "the table of partida %s could not be paused or resumed (again on load)", partida.id
                )

    def _open_table(self, loaded: Loaded, partida: Partida) -> str:
        champ = loaded.champ
        seats: list[str] = []
        names: list[str] = []
        players_seen: dict[str, int] = {}
        for pid in partida.seats:
            assert pid is not None
            index = players_seen.get(pid, 0)
            players_seen[pid] = index + 1
            level = loaded.pairs.get(pid, cstore.PairRow(pid, None, None)).computer
            seats.append(level if level else "open")
            names.append(champ.pair(pid).players[index])
        room: Room
        room, _ = self.authority.open_partida(
            rules=champ.settings.rules,
            seats=seats,
            names=names,
            seed=partida.deal_seed,
            clock=champ.settings.clock,
            championship=loaded.row.id,
            partida=partida.id,
            rated=champ.settings.rated,
            policy=self.table_policy,
        )
        mapped = cstore.map_table(self.store, loaded.row.id, partida.id, room.id)
        if mapped != room.id:
            # another process opened the partida's table first (its copy was replayed between the action
            # and its tables): that one is the partida's; this one is held paused, never reported
            log.info("partida %s has table %s already: %s is left paused", partida.id, mapped, room.id)
            try:
                self.authority.set_paused(room.id, True)
            except TableError:  # nobody sits at it: its seats are reserved for the mapped table's
                log.exception("table %s could not be held paused", room.id)
            room = self.authority.table(mapped)
        loaded.tables[partida.id] = (room.id, now_text())
        return room.id

    def restart(self, cid: str, partida_id: str) -> str | None:
        """The partida's table after a restart decision (:meth:`apply` unmapped the old one with the
        decision and opened a fresh one with the same deal seed); ``None`` if it could not be opened yet
        (it opens on the next load)."""
        mapped = self.get(cid).tables.get(partida_id)
        return None if mapped is None else mapped[0]

    # -- finished tables -----------------------------------------------------------------------------------
    def _finished(self, room: Room, row: FinishedRow) -> None:
        table = room.table
        if table is None or table.championship is None or table.partida is None:
            return
        loaded = self.get(table.championship)
        mapped = loaded.tables.get(table.partida)
        if mapped is None or mapped[0] != room.id:
            return  # a table replaced by a restart
        partida = loaded.champ.partida(table.partida)
        if not partida.is_open:
            return  # decided meanwhile (a walkover): the mesa counts for nothing, rates nobody
        if table.rated and self.authority.ratings is not None:  # a rated championship's partida
            self.authority.ratings.finished(room, row)
        # the report may close the round and pair the next: off the finishing move, in a task of its own
        self._soon(self._report_async(table.championship, partida, *self._mesa_result(room)))

    @staticmethod
    def _mesa_result(room: Room) -> tuple[tuple[int, int], tuple[int, int]]:
        """The chicas and points (the sum of each team's final scores) of a table's finished mesa."""
        outcome = room.game.outcome
        assert outcome is not None
        points = [0, 0]
        for result in room.game.chica_results:
            points[0] += result.scores[0]
            points[1] += result.scores[1]
        return (outcome.chicas[0], outcome.chicas[1]), (points[0], points[1])

    def _report_room(self, cid: str, partida: Partida, room: Room) -> None:
        """Report the finished mesa of the partida's table (on this thread: a championship loading)."""
        self._report(cid, partida, *self._mesa_result(room))

    @staticmethod
    def _ordered(partida: Partida, chicas: tuple[int, int], points: tuple[int, int]) -> Report:
        """The report of a mesa whose team 0 sat at seats 0 and 2, in the order of the partida's pairs."""
        if partida.seats[0] != partida.pairs[0]:
            chicas, points = (chicas[1], chicas[0]), (points[1], points[0])
        return Report(partida.id, chicas=chicas, points=points)

    def _report(self, cid: str, partida: Partida, chicas: tuple[int, int], points: tuple[int, int]) -> None:
        """Report a mesa (:meth:`_ordered`) on this thread."""
        try:
            self.apply(cid, self._ordered(partida, chicas, points))
        except (TableError, StoreError):
            log.exception("the result of partida %s could not be stored", partida.id)

    async def _report_async(
        self, cid: str, partida: Partida, chicas: tuple[int, int], points: tuple[int, int]
    ) -> None:
        """Report a mesa (:meth:`_ordered`) through :meth:`apply_async`."""
        try:
            await self.apply_async(cid, self._ordered(partida, chicas, points))
        except (TableError, StoreError):
            log.exception("the result of partida %s could not be stored", partida.id)

    # -- the walkover wait ---------------------------------------------------------------------------------
    async def check_waits(self) -> None:
        """Every cached online championship: a table open for ``wait_minutes`` whose pairs are not seated:
        a walkover when exactly one pair has both players seated (its reason the code :data:`NO_SHOW`),
        else the alert ``walkover_due``. A partida whose walkover the committee reversed is never given one
        again by the server (only the alert: the judge decides), so a reversal sticks and nothing loops."""

        now = self.wall()
        for cid in list(self._cache):
            loaded = self.get(cid)
            champ = loaded.champ
            if champ.status != "running" or champ.settings.venue != "online":
                continue
            wait = champ.settings.wait_minutes * 60
            reversed_walkover = {
                d.partida for d in champ.decisions if d.kind == "walkover" and d.reversed_by is not None
            }
            for partida in list(champ.rounds[-1]):
                if partida.status != "running" or partida.id not in loaded.tables:
                    continue
                room_id, opened = loaded.tables[partida.id]
                room = self.authority.table(room_id)
                if room.started:
                    loaded.alerts.get(partida.id, set()).discard("walkover_due")
                    continue
                since = datetime.datetime.strptime(opened, "%Y-%m-%dT%H:%M:%SZ").replace(tzinfo=datetime.UTC)
                if now - since.timestamp() < wait:
                    continue
                seated = [
                    p
                    for p in partida.pairs
                    if p is not None
                    and all(room.seats[i].kind != "open" for i, s in enumerate(partida.seats) if s == p)
                ]
                if len(seated) == 1 and partida.id not in reversed_walkover:
                    await self.apply_async(cid, Walkover(partida.id, seated[0], NO_SHOW, "server"))
                else:
                    loaded.alerts.setdefault(partida.id, set()).add("walkover_due")

    # -- the hall ------------------------------------------------------------------------------------------
    def sheet(self, cid: str, partida_id: str) -> HallSheet:
        loaded = self.get(cid)
        if loaded.champ.settings.venue != "hall":
            raise ChampionshipProblem("not_hall", "this championship is played online: no score sheet")
        try:
            loaded.champ.partida(partida_id)
        except ChampionshipError:
            raise ChampionshipProblem("unknown_partida", f"there is no partida {partida_id!r}") from None
        return loaded.sheets.setdefault(partida_id, HallSheet(loaded.champ.settings.rules, dealer=0))

    async def tap(self, cid: str, partida_id: str, entry: object) -> HallSheet:
        """The judge's entry on a hall partida's sheet: stored first; a finished mesa is reported. A refused
        entry answers its own code (:func:`hall_refusal`)."""
        sheet = self.sheet(cid, partida_id)
        loaded = self._cache[cid]
        partida = loaded.champ.partida(partida_id)
        if partida.status != "running":
            raise ChampionshipProblem("wrong_state", f"partida {partida_id} is {partida.status}")
        try:
            made = entry_from_dict(entry)
            sheet.tap(made)
        except HallError as exc:
            raise hall_refusal(exc) from None
        try:
            cstore.append_entry(self.store, cid, partida_id, len(sheet.entries), made.to_dict())
        except StoreError:
            sheet.undo()
            self._cache.pop(cid, None)
            raise
        if sheet.finished:
            points = [0, 0]
            for result in sheet.chica_results:
                points[0] += result.scores[0]
                points[1] += result.scores[1]
            await self._report_async(cid, partida, sheet.chicas, (points[0], points[1]))
        return sheet

    def undo(self, cid: str, partida_id: str) -> HallSheet:
        sheet = self.sheet(cid, partida_id)
        partida = self._cache[cid].champ.partida(partida_id)
        if partida.status != "running":
            raise ChampionshipProblem("wrong_state", f"partida {partida_id} is {partida.status}")
        if not sheet.entries:
            raise hall_refusal(HallError.of("hall_nothing_to_undo"))
        cstore.remove_entry(self.store, cid, partida_id, len(sheet.entries))
        sheet.undo()
        return sheet

    # -- secrets -------------------------------------------------------------------------------------------
    def role(self, cid: str, token: str | None) -> str | None:
        """``"organiser"``, ``"judge"`` or ``None`` for a bearer token."""
        if token is None:
            return None
        row = self.get(cid).row
        digest = hash_token(token)
        if same_token(digest, row.organiser_hash):
            return "organiser"
        if same_token(digest, row.judge_hash):
            return "judge"
        return None

    def pair_of(self, cid: str, token: str) -> str:
        digest = hash_token(token)
        for pair in self.get(cid).pairs.values():
            if pair.token_hash is not None and same_token(digest, pair.token_hash):
                return pair.pair
        raise ChampionshipProblem("bad_championship_token", "that token is no pair's of this championship")

    def check_code(self, cid: str, code: str) -> bool:
        return same_token(hash_token(code), self.get(cid).row.register_hash)

    async def register(self, cid: str, name: str, players: list[str], computer: str | None) -> dict[str, Any]:
        """Register a pair (a computer pair at ``computer``'s level): its id and its token (none for a
        computer pair). Refused past :attr:`max_pairs` (``championship_full``, 409)."""
        if computer is not None and computer not in available_levels():
            raise ChampionshipProblem("unknown_level", f"unknown level {computer!r}")
        token = None if computer else secrets.token_urlsafe(24)
        made: list[str] = []

        def row(loaded: Loaded) -> cstore.PairRow:
            """The pair's row, made under the championship's lock (its id is the next)."""
            champ = loaded.champ
            if computer is not None and champ.settings.rated:
                raise ChampionshipProblem(
                    "rated_computer",
                    "a rated championship is for pairs of people: the ratings are theirs",
                )
            if self.max_pairs and len(champ.pairs) >= self.max_pairs and champ.status == "registering":
                raise ChampionshipProblem(
                    "championship_full",
                    f"this championship has {len(champ.pairs)} pairs, the most this server takes "
                    f"(cuarenta serve --championship-pairs {self.max_pairs})",
                    params={"pairs": self.max_pairs},
                )
            made.append(f"p{len(champ.pairs) + 1}")
            return cstore.PairRow(made[0], None if token is None else hash_token(token), computer)

        await self.apply_async(cid, Register(name, tuple(players)), pair=row)  # type: ignore[arg-type]
        return {"pair": made[0], "token": token}


__all__ = [
    "DEFAULT_MAX_PAIRS",
    "NO_SHOW",
    "WAIT_CHECK_SECONDS",
    "ChampionshipProblem",
    "Championships",
    "Loaded",
    "hall_refusal",
]
