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
answering between them (:mod:`~cuarenta.server.championships.tables`). A championship takes at most
``max_pairs`` pairs (``cuarenta serve --championship-pairs``, default :data:`DEFAULT_MAX_PAIRS`;
docs/performance.md says what one process holds).

Online, each running partida has a table (:meth:`Authority.open_partida`) with its deal seed; a computer
pair's seats are computer players. A finished table reports ``Report(partida, chicas, points)``: chicas per
pair from the mesa, and points = the sum of each pair's final score over the mesa's chicas. In a hall,
the judge's score sheet (:class:`~cuarenta.championship.hall.HallSheet`) of each partida is kept as its
entries (:mod:`~cuarenta.server.championships.hall`), and its finished mesa is reported.

>>> DEFAULT_MAX_PAIRS
256
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import secrets
import time
from collections.abc import Callable, Coroutine
from typing import Any, Final

from cuarenta.championship import Championship, Settings
from cuarenta.championship.actions import Action, Decide, Register
from cuarenta.championship.errors import ChampionshipError
from cuarenta.championship.hall import HallSheet
from cuarenta.championship.model import Partida
from cuarenta.server.authority.core import Authority
from cuarenta.server.authority.errors import TableError
from cuarenta.server.authority.model import Room, TableOptions, available_levels
from cuarenta.server.authority.policy import TablePolicy
from cuarenta.server.authority.ports import FinishedRow
from cuarenta.server.championships import access, hall
from cuarenta.server.championships.loaded import Loaded, decided, ordered, points_of, published
from cuarenta.server.championships.problems import ChampionshipProblem, _refusal
from cuarenta.server.championships.tables import PartidaTables
from cuarenta.server.championships.waits import WAIT_CHECK_SECONDS, due_walkovers
from cuarenta.server.store import Store, StoreConflict, StoreError, dumps, hash_token
from cuarenta.server.store import championships as cstore

log = logging.getLogger("cuarenta.server")

#: The most pairs a championship takes unless ``cuarenta serve --championship-pairs`` says otherwise: one
#: process pairs a Swiss round of 256 and opens its 128 tables with ``/api/health`` under 100 ms
#: (docs/performance.md "How large a championship one process runs").
DEFAULT_MAX_PAIRS: Final = 256


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
        self.tables = PartidaTables(authority, store, self.table_policy)
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
                work = asyncio.to_thread(published, loaded.count, loaded.champ)
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
        hall.load_sheets(self.store, loaded)
        self._cache[cid] = loaded
        self.tables.ensure(loaded)
        # a table finished while its report was not stored (the process stopped between): reported now
        for partida, room in self.tables.unreported(loaded):
            self._report(cid, partida, *self._mesa_result(room))
        return loaded

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
        self.tables.ensure(loaded, decided(loaded.champ, action))
        self.tables.tell_replaced(replaced)
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
            await self.tables.ensure_async(loaded, decided(loaded.champ, action))
            self.tables.tell_replaced(replaced)
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
        return (outcome.chicas[0], outcome.chicas[1]), points_of(room.game.chica_results)

    def _report(self, cid: str, partida: Partida, chicas: tuple[int, int], points: tuple[int, int]) -> None:
        """Report a mesa (:func:`~cuarenta.server.championships.loaded.ordered`) on this thread."""
        try:
            self.apply(cid, ordered(partida, chicas, points))
        except (TableError, StoreError):
            log.exception("the result of partida %s could not be stored", partida.id)

    async def _report_async(
        self, cid: str, partida: Partida, chicas: tuple[int, int], points: tuple[int, int]
    ) -> None:
        """Report a mesa (:func:`~.loaded.ordered`) through :meth:`apply_async`."""
        try:
            await self.apply_async(cid, ordered(partida, chicas, points))
        except (TableError, StoreError):
            log.exception("the result of partida %s could not be stored", partida.id)

    # -- the walkover wait ---------------------------------------------------------------------------------
    async def check_waits(self) -> None:
        """Every cached online championship: the walkovers whose wait is over are given, the others'
        alerts raised (:func:`~cuarenta.server.championships.waits.due_walkovers`)."""
        now = self.wall()
        for cid in list(self._cache):
            for walkover in due_walkovers(self.get(cid), self.authority, now):
                await self.apply_async(cid, walkover)

    # -- the hall ------------------------------------------------------------------------------------------
    def sheet(self, cid: str, partida_id: str) -> HallSheet:
        """The score sheet of a partida of a hall championship."""
        return hall.sheet_of(self.get(cid), partida_id)

    async def tap(self, cid: str, partida_id: str, entry: object) -> HallSheet:
        """The judge's entry on a hall partida's sheet: stored first; a finished mesa is reported. A refused
        entry answers its own code (:func:`~cuarenta.server.championships.problems.hall_refusal`)."""
        loaded = self.get(cid)
        try:
            sheet = hall.write(self.store, loaded, partida_id, entry)
        except StoreError:
            self._cache.pop(cid, None)
            raise
        if sheet.finished:
            partida = loaded.champ.partida(partida_id)
            await self._report_async(cid, partida, sheet.chicas, hall.sheet_points(sheet))
        return sheet

    def undo(self, cid: str, partida_id: str) -> HallSheet:
        """The last entry of a hall partida's sheet taken back."""
        return hall.erase(self.store, self.get(cid), partida_id)

    # -- secrets -------------------------------------------------------------------------------------------
    def role(self, cid: str, token: str | None) -> str | None:
        """``"organiser"``, ``"judge"`` or ``None`` for a bearer token."""
        return None if token is None else access.role_of(self.get(cid).row, token)

    def pair_of(self, cid: str, token: str) -> str:
        """The pair whose token this is."""
        return access.pair_with(self.get(cid), token)

    def check_code(self, cid: str, code: str) -> bool:
        """Whether ``code`` is the championship's registration code."""
        return access.code_matches(self.get(cid).row, code)

    async def register(self, cid: str, name: str, players: list[str], computer: str | None) -> dict[str, Any]:
        """Register a pair (a computer pair at ``computer``'s level): its id and its token (none for a
        computer pair). Refused past :attr:`max_pairs` (``championship_full``, 409)."""
        if computer is not None and computer not in available_levels():
            raise ChampionshipProblem("unknown_level", f"unknown level {computer!r}")
        token = None if computer else secrets.token_urlsafe(24)
        made: list[cstore.PairRow] = []

        def row(loaded: Loaded) -> cstore.PairRow:
            """The pair's row, made under the championship's lock (its id is the next)."""
            made.append(access.new_pair(loaded, token, computer, self.max_pairs))
            return made[0]

        await self.apply_async(cid, Register(name, tuple(players)), pair=row)  # type: ignore[arg-type]
        return {"pair": made[0].pair, "token": token}


__all__ = ["DEFAULT_MAX_PAIRS", "Championships"]
