"""The championship: the one mutable state, changed only by actions (event-sourced).

:meth:`Championship.apply` validates an action against the state, then applies it; a refused action
raises a :class:`~cuarenta.championship.errors.ChampionshipError` and changes nothing. The list of
accepted actions, replayed on the same settings and secret (:meth:`Championship.replay`), gives the
same state. Every deal seed derives from the secret (sha256 of the secret, the round and the table; of
the secret and the round alone when the deals are duplicate), and :meth:`Championship.to_public` never
holds the secret nor a deal seed that could still be played.

>>> from cuarenta.championship import Championship, Register, Report, Settings, Start
>>> champ = Championship.new(Settings("Copa de Quito"), secret=2024)
>>> for name in ("Ases", "Reyes", "Sotas", "Ochos"):
...     _ = champ.apply(Register(name, (name + " 1", name + " 2")))
>>> [(p.id, p.pairs) for p in champ.apply(Start())]
[('r1t1', ('p4', 'p2')), ('r1t2', ('p3', 'p1'))]
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable, Iterable, Sequence
from dataclasses import replace
from typing import Any, ClassVar, Literal

from cuarenta.championship import formats
from cuarenta.championship.actions import (
    Action,
    Decide,
    Register,
    ReplacePlayer,
    Report,
    Review,
    SeedPair,
    Start,
    Walkover,
    Withdraw,
    action_from_dict,
)
from cuarenta.championship.errors import (
    ActionError,
    ChampionshipError,
    DecisionError,
    RegistrationError,
    ResultError,
    StateError,
)
from cuarenta.championship.model import Decision, Pair, Partida, Result, check_name, check_reason
from cuarenta.championship.settings import Settings
from cuarenta.championship.standings import standings
from cuarenta.errors import brief

Status = Literal["registering", "running", "finished"]
#: The largest seed a pair may be given; the most points a pair may report for a partida.
MAX_SEED = 999
MAX_POINTS = 10_000
#: The decisions of ``Decide`` (a walkover is the ``Walkover`` action).
DECIDE_KINDS = ("pause", "resume", "restart", "note", "penalty")


def derive_seed(secret: int, *parts: object) -> int:
    """A deal seed (63 bits) from the secret and the round (and table): sha256 of them.

    >>> derive_seed(1, "deal", 1, 1) == derive_seed(1, "deal", 1, 1) != derive_seed(1, "deal", 1, 2)
    True
    """
    text = ":".join(str(p) for p in (secret, *parts))
    return int.from_bytes(hashlib.sha256(text.encode()).digest()[:8], "big") >> 1


class Championship:
    """A championship of pairs: registration, rounds of partidas, results, the judges' decisions."""

    def __init__(self, settings: Settings, secret: int) -> None:
        if not isinstance(settings, Settings):
            raise StateError.of("not_settings", value=brief(settings))
        if not isinstance(secret, int) or isinstance(secret, bool):
            raise StateError.of("secret_not_int", type=type(secret).__name__)
        self.settings = settings
        self._secret = secret
        self.status: Status = "registering"
        self.pairs: list[Pair] = []
        self.rounds: list[list[Partida]] = []
        self.decisions: list[Decision] = []
        self.actions: list[Action] = []
        #: Swiss: the rounds to play (set at the start).
        self.total_rounds: int | None = None
        #: Groups: the pair ids of each group (set at the start); their round-robin schedule.
        self.groups: list[list[str]] | None = None
        self._schedule: list[list[formats.Pairing]] = []
        #: The first round of the knockout (knockout, or groups once the groups are over), else ``None``.
        self.knockout_from: int | None = None
        self._slots: list[str | None] = []
        #: The winner of a finished championship (a knockout's winner; a Swiss: the first of the standings).
        self.champion: str | None = None

    @classmethod
    def new(cls, settings: Settings, secret: int) -> Championship:
        """A championship open for registration; ``secret``: the server's random number."""
        return cls(settings, secret)

    @classmethod
    def replay(
        cls, settings: Settings, secret: int, actions: Iterable[Action | dict[str, Any]]
    ) -> Championship:
        """The championship after ``actions`` (objects or their ``to_dict()``), applied in order."""
        champ = cls(settings, secret)
        for action in actions:
            champ.apply(action_from_dict(action) if isinstance(action, dict) else action)
        return champ

    def copy(self) -> Championship:
        """An independent copy: applying an action to it leaves this one as it is (the values, all frozen,
        are shared; the lists are the copy's own). The server applies a round's pairing to a copy off its
        event loop while this one is still read (docs/championships.md "Running a championship").

        >>> champ = Championship.new(Settings("Copa"), secret=1)
        >>> twin = champ.copy()
        >>> _ = twin.apply(Register("Los Ases", ("Ana", "Beto")))
        >>> len(champ.pairs), len(twin.pairs), len(champ.actions), len(twin.actions)
        (0, 1, 0, 1)
        """
        twin = object.__new__(Championship)
        twin.__dict__.update(self.__dict__)
        twin._restore(self._save())
        twin.actions = list(self.actions)
        return twin

    # -- reading ------------------------------------------------------------------------------------
    @property
    def current_round(self) -> int:
        """The number of the last round opened (0 before the start)."""
        return len(self.rounds)

    def pair(self, pair_id: object) -> Pair:
        """The pair of that id (:class:`RegistrationError` ``pair_unknown`` if there is none)."""
        for pair in self.pairs:
            if pair.id == pair_id:
                return pair
        raise RegistrationError.of("pair_unknown", pair=brief(pair_id))

    def partida(self, partida_id: object) -> Partida:
        """The partida of that id (:class:`ResultError` ``partida_unknown`` if there is none)."""
        for round_ in self.rounds:
            for partida in round_:
                if partida.id == partida_id:
                    return partida
        raise ResultError.of("partida_unknown", partida=brief(partida_id))

    def active(self) -> list[Pair]:
        """The pairs not withdrawn, in registration order."""
        return [p for p in self.pairs if not p.withdrawn]

    def seed_is_public(self, partida: Partida) -> bool:
        """A deal seed is shown once it cannot be played again: the partida finished by a report (not a
        walkover, which a review may reverse) and, with duplicate deals, every partida of its round closed."""
        if partida.result is None or partida.result.walkover or partida.pairs[1] is None:
            return False
        return not self.settings.duplicate or not any(p.is_open for p in self.rounds[partida.round - 1])

    def to_public(self) -> dict[str, Any]:
        """Everything anybody may see, JSON-ready: never the secret, nor a seed still to be played."""
        return {
            "settings": self.settings.to_dict(),
            "status": self.status,
            "current_round": self.current_round,
            "total_rounds": self.total_rounds,
            "groups": self.groups,
            "knockout_from": self.knockout_from,
            "champion": self.champion,
            "pairs": [p.to_dict() for p in self.pairs],
            "rounds": [[p.to_dict(seed=self.seed_is_public(p)) for p in r] for r in self.rounds],
            "decisions": [d.to_dict() for d in self.decisions],
            "standings": [s.to_dict() for s in standings(self)],
        }

    # -- applying -------------------------------------------------------------------------------------
    def apply(self, action: Action) -> list[Partida]:
        """Apply one action; return the partidas that opened because of it (byes are not returned: they
        have nothing to play). A refused action raises and changes nothing."""
        handler = self._HANDLERS.get(type(action))
        if handler is None:
            raise ActionError.of("action_not_action", value=brief(action))
        saved = self._save()
        try:
            opened = handler(self, action)
        except BaseException:
            self._restore(saved)
            raise
        self.actions.append(action)
        return opened

    def _save(self) -> tuple[Any, ...]:
        return (
            self.status,
            list(self.pairs),
            [list(r) for r in self.rounds],
            list(self.decisions),
            self.total_rounds,
            None if self.groups is None else [list(g) for g in self.groups],
            list(self._schedule),
            self.knockout_from,
            list(self._slots),
            self.champion,
        )

    def _restore(self, saved: tuple[Any, ...]) -> None:
        (
            self.status,
            self.pairs,
            self.rounds,
            self.decisions,
            self.total_rounds,
            self.groups,
            self._schedule,
            self.knockout_from,
            self._slots,
            self.champion,
        ) = saved

    def _need(self, action: Action, *statuses: Status) -> None:
        if self.status not in statuses:
            raise StateError.of(f"status_{self.status}", action=action.kind)

    def _set_pair(self, pair: Pair) -> None:
        self.pairs = [pair if p.id == pair.id else p for p in self.pairs]

    def _set_partida(self, partida: Partida) -> None:
        round_ = self.rounds[partida.round - 1]
        self.rounds[partida.round - 1] = [partida if p.id == partida.id else p for p in round_]

    def _open_partida(self, partida_id: object) -> Partida:
        partida = self.partida(partida_id)
        status = partida.status
        if status != "running" and status != "paused":
            raise ResultError.of(f"partida_{status}", partida=partida.id)
        return partida

    # registration
    def _register(self, action: Register) -> list[Partida]:
        self._need(action, "registering")
        name = check_name(action.name, "pair")
        if any(p.name.casefold() == name.casefold() for p in self.pairs):
            raise RegistrationError.of("pair_name_taken", name=name)
        players = self._players(action.players)
        self.pairs.append(Pair(f"p{len(self.pairs) + 1}", name, players))
        return []

    @staticmethod
    def _players(value: object) -> tuple[str, str]:
        if not isinstance(value, tuple | list) or len(value) != 2:
            raise RegistrationError.of("players_two", value=brief(value))
        first, second = (check_name(v, "player") for v in value)
        if first.casefold() == second.casefold():
            raise RegistrationError.of("players_same", player=first)
        return (first, second)

    def _replace_player(self, action: ReplacePlayer) -> list[Partida]:
        self._need(action, "registering", "running")
        pair = self.pair(action.pair)
        if action.index not in (0, 1) or isinstance(action.index, bool):
            raise RegistrationError.of("player_index", value=brief(action.index))
        players = list(pair.players)
        players[action.index] = check_name(action.player, "player")
        self._set_pair(replace(pair, players=self._players(players)))
        return []

    def _seed_pair(self, action: SeedPair) -> list[Partida]:
        self._need(action, "registering")
        pair = self.pair(action.pair)
        seed = action.seed
        if seed is not None:
            if not isinstance(seed, int) or isinstance(seed, bool) or not 1 <= seed <= MAX_SEED:
                raise RegistrationError.of("seed_range", value=brief(seed), most=MAX_SEED)
            taken = [p for p in self.pairs if p.seed == seed and p.id != pair.id]
            if taken:
                raise RegistrationError.of("seed_taken", seed=seed, pair=taken[0].name)
        self._set_pair(replace(pair, seed=seed))
        return []

    def _withdraw(self, action: Withdraw) -> list[Partida]:
        self._need(action, "registering", "running")
        pair = self.pair(action.pair)
        if pair.withdrawn:
            raise RegistrationError.of("pair_withdrawn", pair=pair.name)
        self._set_pair(replace(pair, withdrawn=True))
        if self.status != "running":
            return []
        for partida in self.rounds[-1]:
            if partida.is_open and pair.id in partida.pairs:
                winner = partida.opponent(pair.id)
                assert winner is not None
                self._finish(partida, self._walkover_result(partida, winner, "withdrawal"))
        return self._after_result()

    # the rounds
    def _start(self, action: Start) -> list[Partida]:
        self._need(action, "registering")
        active = self.active()
        if len(active) < 2:
            raise StateError.of("too_few_pairs", pairs=len(active))
        order = formats.seeding_order(self.pairs, self._secret)
        fmt = self.settings.format
        if fmt == "groups":
            groups = formats.snake_groups(order, self.settings.group_size)
            smallest = min(len(g) for g in groups)
            if self.settings.advance > smallest:
                raise StateError.of("advance_group", advance=self.settings.advance, smallest=smallest)
            self.groups = groups
            self._schedule_groups(groups)
        self.status = "running"
        if fmt == "swiss":
            self.total_rounds = self.settings.swiss_rounds(len(active))
            pairings, bye = formats.swiss_first_round(order)
            return self._open([*pairings, *([(bye, None)] if bye else [])])
        if fmt == "knockout":
            self.knockout_from = 1
            return self._open_knockout(formats.knockout_slots(order))
        return self._open(self._schedule[0])

    def _schedule_groups(self, groups: Sequence[Sequence[str]]) -> None:
        schedules = [formats.round_robin(g) for g in groups]
        count = max(len(s) for s in schedules)
        self._schedule = [[m for s in schedules if r < len(s) for m in s[r]] for r in range(count)]

    def _open(self, pairings: Sequence[tuple[str | None, str | None]]) -> list[Partida]:
        """Open a round of ``pairings`` (a withdrawn pair's place is empty: its opponent has a bye)."""
        active = {p.id for p in self.active()}
        real: list[tuple[str, str]] = []
        byes: list[str] = []
        for a, b in pairings:
            x, y = (a if a in active else None), (b if b in active else None)
            if x is not None and y is not None:
                real.append((x, y))
            elif x is not None or y is not None:
                byes.append(x or y)  # type: ignore[arg-type]
        number = len(self.rounds) + 1
        partidas: list[Partida] = []
        duplicate = self.settings.duplicate
        for i, (x, y) in enumerate(real):
            table = i + 1
            twin = None
            if duplicate:
                twin = table + 1 if table % 2 else table - 1
                twin = twin if twin <= len(real) else None
            swapped = duplicate and table % 2 == 0
            seats = (y, x, y, x) if swapped else (x, y, x, y)
            seed = (
                derive_seed(self._secret, "deal", number)
                if duplicate
                else (derive_seed(self._secret, "deal", number, table))
            )
            partidas.append(Partida(f"r{number}t{table}", number, table, (x, y), seats, seed, twin))
        chicas = self.settings.rules.chicas
        for j, x in enumerate(byes):
            table = len(real) + j + 1
            result = Result(x, (chicas, 0), (0, 0), walkover=False, by="bye")
            partidas.append(
                Partida(f"r{number}t{table}", number, table, (x, None), (x, None, x, None), 0, None, result)
            )
        seen = [p for partida in partidas for p in partida.pairs if p is not None]
        assert len(seen) == len(set(seen)), "a pair in two partidas of one round"
        self.rounds.append(partidas)
        opened = [p for p in partidas if p.is_open]
        return opened if opened else self._advance()

    def _open_knockout(self, slots: list[str | None]) -> list[Partida]:
        active = {p.id for p in self.active()}
        self._slots = [s if s in active else None for s in slots]
        if len(self._slots) == 1 or sum(s is not None for s in self._slots) <= 1:
            return self._finish_championship(next((s for s in self._slots if s is not None), None))
        return self._open(formats.matches(self._slots))

    def _finish_championship(self, champion: str | None = None) -> list[Partida]:
        """The end: the champion is the knockout's winner, or (Swiss) the first of the standings."""
        self.status = "finished"
        if champion is None and self.settings.format == "swiss":
            champion = next((s.pair for s in standings(self) if not s.withdrawn), None)
        self.champion = champion
        return []

    def _after_result(self) -> list[Partida]:
        if any(p.is_open for p in self.rounds[-1]):
            return []
        return self._advance()

    def _advance(self) -> list[Partida]:
        """The current round is over: open the next one, or finish the championship."""
        fmt = self.settings.format
        active = self.active()
        if fmt == "swiss":
            assert self.total_rounds is not None
            if len(self.rounds) >= self.total_rounds or len(active) < 2:
                return self._finish_championship()
            table = [s for s in standings(self) if not s.withdrawn]
            ranking = [s.pair for s in table]
            scores = {s.pair: s.won for s in table}
            met = {
                frozenset((p.pairs[0], b)) for r in self.rounds for p in r if (b := p.pairs[1]) is not None
            }
            had_bye = {p.pairs[0] for r in self.rounds for p in r if p.pairs[1] is None}
            pairings, bye = formats.swiss_pairing(ranking, scores, met, had_bye)
            return self._open([*pairings, *([(bye, None)] if bye else [])])
        if self.knockout_from is None:  # groups
            if len(self.rounds) < len(self._schedule):
                return self._open(self._schedule[len(self.rounds)])
            assert self.groups is not None
            ranked = [s.pair for s in standings(self) if not s.withdrawn]
            rankings = [[p for p in ranked if p in group] for group in self.groups]
            advance = self.settings.advance
            qualifiers = sum(min(advance, len(r)) for r in rankings)
            self.knockout_from = len(self.rounds) + 1
            if qualifiers <= 1:
                return self._finish_championship(next((r[0] for r in rankings if r), None))
            return self._open_knockout(formats.crossover_slots(rankings, advance))
        winners: list[str | None] = []
        for a, b in formats.matches(self._slots):
            if a is None or b is None:
                winners.append(a or b)
                continue
            partida = next(p for p in self.rounds[-1] if set(p.pairs) == {a, b})
            winners.append(partida.result.winner if partida.result else None)
        return self._open_knockout(formats.next_slots(winners))

    # results
    def _finish(self, partida: Partida, result: Result) -> None:
        self._set_partida(replace(partida, result=result, paused=False))

    def _walkover_result(self, partida: Partida, winner: str, by: str) -> Result:
        chicas = self.settings.rules.chicas
        won = (chicas, 0) if partida.side(winner) == 0 else (0, chicas)
        return Result(winner, won, (0, 0), walkover=True, by=by)

    def _report(self, action: Report) -> list[Partida]:
        self._need(action, "running")
        partida = self._open_partida(action.partida)
        if partida.paused:
            raise ResultError.of("partida_paused", partida=partida.id)
        chicas = self.settings.rules.chicas
        values = [*self._numbers(action.chicas, "chicas"), *self._numbers(action.points, "points")]
        c0, c1, p0, p1 = values
        if not (0 <= c0 <= chicas and 0 <= c1 <= chicas) or (c0 == chicas) == (c1 == chicas):
            raise ResultError.of("chicas_no_winner", chicas=f"{c0}–{c1}", needed=chicas)
        if not (0 <= p0 <= MAX_POINTS and 0 <= p1 <= MAX_POINTS):
            raise ResultError.of("points_range", points=f"{p0}–{p1}", most=MAX_POINTS)
        winner = partida.pairs[0] if c0 == chicas else partida.pairs[1]
        assert winner is not None
        self._finish(partida, Result(winner, (c0, c1), (p0, p1)))
        return self._after_result()

    @staticmethod
    def _numbers(value: object, what: str) -> tuple[int, int]:
        if (
            not isinstance(value, tuple | list)
            or len(value) != 2
            or not all(isinstance(v, int) and not isinstance(v, bool) for v in value)
        ):
            raise ResultError.of("result_numbers", what=what, value=brief(value))
        return (value[0], value[1])

    # the judges and the committee
    def _walkover(self, action: Walkover) -> list[Partida]:
        self._need(action, "running")
        partida = self._open_partida(action.partida)
        if action.winner not in partida.pairs:
            raise ResultError.of("winner_not_in_partida", pair=brief(action.winner), partida=partida.id)
        reason, by = check_reason(action.reason), check_reason(action.by, "by")
        self.decisions.append(
            Decision(len(self.decisions), partida.id, "walkover", reason, by, winner=action.winner)
        )
        self._finish(partida, self._walkover_result(partida, action.winner, by))
        return self._after_result()

    def _decide(self, action: Decide) -> list[Partida]:
        kind = action.decision
        if kind not in DECIDE_KINDS:
            raise DecisionError.of("decision_kind", kind=brief(kind), kinds=", ".join(DECIDE_KINDS))
        reason, by = check_reason(action.reason), check_reason(action.by, "by")
        partida: Partida | None = None
        if action.partida is not None:
            partida = self.partida(action.partida)
        elif kind in ("pause", "resume", "restart"):
            raise DecisionError.of("decision_needs_partida", kind=kind)
        if partida is not None and kind in ("pause", "resume", "restart"):
            self._need(action, "running")
            wanted = {"pause": ("running",), "resume": ("paused",), "restart": ("running", "paused")}[kind]
            if partida.status not in wanted:
                raise DecisionError.of(f"cannot_{kind}", partida=partida.id, status=partida.status)
            self._set_partida(replace(partida, paused=kind == "pause"))
        self.decisions.append(
            Decision(len(self.decisions), None if partida is None else partida.id, kind, reason, by)
        )
        return []

    def _review(self, action: Review) -> list[Partida]:
        index = action.decision
        if not isinstance(index, int) or isinstance(index, bool) or not 0 <= index < len(self.decisions):
            raise DecisionError.of("decision_unknown", decision=brief(index))
        decision = self.decisions[index]
        if decision.reviewed:
            raise DecisionError.of("decision_reviewed", decision=index, by=decision.reviewed_by)
        reason, by = check_reason(action.reason), check_reason(action.by, "by")
        if not isinstance(action.reverse, bool):
            raise DecisionError.of("review_reverse", value=brief(action.reverse))
        reviewed = replace(
            decision, reviewed_by=by, review_reason=reason, reversed_by=by if action.reverse else None
        )
        if action.reverse and decision.partida is not None:
            partida = self.partida(decision.partida)
            if self.status == "finished" or partida.round != len(self.rounds):
                raise DecisionError.of("review_round_closed", decision=index, round=partida.round)
            if decision.kind == "walkover" and partida.result is not None and partida.result.walkover:
                gone = [p for p in partida.pairs if p is not None and self.pair(p).withdrawn]
                if gone:
                    raise DecisionError.of(
                        "review_pair_withdrawn", decision=index, pair=self.pair(gone[0]).name
                    )
                self._set_partida(replace(partida, result=None, paused=False))
            elif decision.kind == "pause" and partida.status == "paused":
                self._set_partida(replace(partida, paused=False))
            elif decision.kind == "resume" and partida.status == "running":
                self._set_partida(replace(partida, paused=True))
        self.decisions[index] = reviewed
        return []

    _HANDLERS: ClassVar[dict[type, Callable[[Championship, Any], list[Partida]]]] = {
        Register: _register,
        ReplacePlayer: _replace_player,
        SeedPair: _seed_pair,
        Withdraw: _withdraw,
        Start: _start,
        Report: _report,
        Walkover: _walkover,
        Decide: _decide,
        Review: _review,
    }


__all__ = ["DECIDE_KINDS", "MAX_POINTS", "MAX_SEED", "Championship", "ChampionshipError", "derive_seed"]
