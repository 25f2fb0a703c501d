"""The arena: matches between computer players on duplicate deals, with statistics.

A match of ``N`` chicas between players ``A`` and ``B`` (names of
:func:`cuarenta.players.make_player`) is ``N / 2`` *deal pairs*. Pair ``i`` is
dealt from the seed :func:`deal_seed` ``(S, i)`` and played twice: once with
``A`` on team 0 (side 0) and once with ``A`` on team 1 (side 1). The deals
(dealer draw and every hand's shuffle) depend only on the deal seed, so in the
second game each seat gets exactly the cards it got in the first, and the bots
have changed places: luck of the cards cancels out. With 4 players team 0 is
``A, A`` (seats 0 and 2) and team 1 ``B, B``. Each game uses the rules with
``chicas=1``, so a game is exactly one chica; every player is a fresh instance
seeded from ``(S, i, side, seat)``.

>>> result = run_match("facil", "aleatorio", chicas=4, players=2, rules="a_todo_rigor", seed=1)
>>> result.chicas, result.a_wins + result.bots[1].chicas_won
(4, 4)
>>> summary = result.to_dict()
>>> summary["bots"]["A"]["name"], sorted(summary["bots"]["A"]["move_ms"])
('facil', ['max', 'median', 'p95'])

Statistics: the win rate of ``A`` over all chicas with its 95% Wilson score
interval (:func:`wilson_interval`), the Elo difference that win rate means
(:func:`elo_difference`, the interval mapped through it too), the average point
margin per hand (points scored by ``A``'s team minus ``B``'s, over every hand
played, the last, unfinished hand of each chica included) and, per bot, the
chicas won, caídas, limpias and the wall-clock time of each decision in
milliseconds (median, p95, max), measured around each :func:`~cuarenta.players.act`.

With ``jobs > 1`` the deal pairs are shared among worker processes, and with
``pool=RayPool(...)`` (:mod:`cuarenta.players.pools`) among Ray workers, in
batches; the results are collected in pair order, so everything except the
timings is identical whatever the number of jobs or workers.
"""

from __future__ import annotations

import math
import os
import statistics
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any, Final

from cuarenta.errors import CuarentaError, IllegalMoveError, RulesError
from cuarenta.events import (
    Caida,
    CaidaLimpia,
    CaidaRonda,
    Carton,
    ChicaWon,
    Deal,
    FourOfAKind,
    Limpia,
    Ronda,
    Zapatero,
)
from cuarenta.game import Game
from cuarenta.players import Player, act, make_player
from cuarenta.players.pools import Pool, SerialPool, batch_size, batches, make_pool
from cuarenta.rules import OPTIONS_BY_NAME, PRESET_NAMES, Rules

#: A chica that has not ended after this many actions is an error (a bot or engine bug).
MAX_PLIES: Final = 20_000
#: The two-sided 95% quantile of the normal distribution.
Z95: Final = statistics.NormalDist().inv_cdf(0.975)
#: Labels of the two bots of a match.
LABELS: Final = ("A", "B")

_SCORING: Final = (Ronda, FourOfAKind, Caida, Limpia, CaidaLimpia, CaidaRonda, Carton)


class ArenaError(CuarentaError, ValueError):
    """A match that cannot be played as asked (unknown player, odd number of chicas, bad rules…)."""


class BotError(CuarentaError, RuntimeError):
    """A player misbehaved during a match (an illegal action, or it changed the game it was shown)."""


class ChicaTooLongError(CuarentaError, RuntimeError):
    """A chica did not end within the ply limit."""


# -- statistics ----------------------------------------------------------------------------------
def wilson_interval(wins: int, n: int, z: float = Z95) -> tuple[float, float]:
    """The Wilson score interval for ``wins`` successes in ``n`` trials (95% by default).

    >>> low, high = wilson_interval(8, 10, z=1.96)
    >>> round(low, 4), round(high, 4)
    (0.4902, 0.9433)
    >>> wilson_interval(0, 0), wilson_interval(5, 5)[1], wilson_interval(0, 5)[0]
    ((0.0, 1.0), 1.0, 0.0)
    """
    if n <= 0:
        return 0.0, 1.0
    if not 0 <= wins <= n:
        raise ValueError(f"wins={wins} must be between 0 and n={n}")
    p = wins / n
    z2 = z * z
    denom = 1 + z2 / n
    centre = (p + z2 / (2 * n)) / denom
    half = z * math.sqrt(p * (1 - p) / n + z2 / (4 * n * n)) / denom
    low = 0.0 if wins == 0 else max(0.0, centre - half)
    high = 1.0 if wins == n else min(1.0, centre + half)
    return low, high


def elo_difference(score: float) -> float:
    """The Elo rating difference for which the expected score is ``score`` (±inf at 1 and 0).

    >>> round(elo_difference(0.75), 1), elo_difference(0.5), round(elo_difference(0.1), 1)
    (190.8, 0.0, -381.7)
    """
    if not 0.0 <= score <= 1.0:
        raise ValueError(f"score={score} must be between 0 and 1")
    if score == 0.0:
        return -math.inf
    if score == 1.0:
        return math.inf
    return -400.0 * math.log10(1.0 / score - 1.0) + 0.0  # + 0.0: no -0.0


def percentile(values: Sequence[float], q: float) -> float:
    """The ``q``-th percentile (0..100) with linear interpolation between ranks (numpy's default).

    >>> percentile([1, 2, 3, 4], 50), percentile([1, 2, 3, 4], 100), percentile([5], 95)
    (2.5, 4, 5)
    """
    if not values:
        raise ValueError("percentile of no values")
    ordered = sorted(values)
    pos = (len(ordered) - 1) * q / 100.0
    lo = math.floor(pos)
    hi = math.ceil(pos)
    if lo == hi:
        return ordered[lo]
    return ordered[lo] + (ordered[hi] - ordered[lo]) * (pos - lo)


@dataclass(frozen=True)
class MoveTimes:
    """Wall-clock time per decision of one bot, in milliseconds."""

    moves: int
    median: float
    p95: float
    max: float

    @classmethod
    def of(cls, ms: Sequence[float]) -> MoveTimes:
        if not ms:
            return cls(0, 0.0, 0.0, 0.0)
        return cls(len(ms), statistics.median(ms), percentile(ms, 95), max(ms))

    def to_dict(self) -> dict[str, float]:
        return {"median": round(self.median, 4), "p95": round(self.p95, 4), "max": round(self.max, 4)}


# -- one chica -----------------------------------------------------------------------------------
def deal_seed(seed: int, pair: int) -> str:
    """The seed of the deals of pair ``pair`` of a match seeded ``seed`` (a :meth:`Game.new` seed).

    >>> deal_seed(7, 3)
    'arena/7/3'
    """
    return f"arena/{seed}/{pair}"


def bot_seed(seed: int, pair: int, side: int, seat: int) -> str:
    """The seed of the player at ``seat`` in game ``side`` of pair ``pair``."""
    return f"arena/{seed}/{pair}/{side}/{seat}"


def seat_labels(players: int, side: int) -> tuple[str, ...]:
    """Which bot (``"A"``/``"B"``) sits at each seat: side 0 puts A on team 0, side 1 on team 1.

    >>> seat_labels(4, 0), seat_labels(2, 1)
    (('A', 'B', 'A', 'B'), ('B', 'A'))
    """
    return tuple(LABELS[(seat + side) % 2] for seat in range(players))


@dataclass(frozen=True)
class ChicaRecord:
    """What happened in one game (one chica) of a match; bot-indexed pairs are ``(A, B)``."""

    pair: int
    side: int  #: 0: A holds team 0; 1: A holds team 1
    seed: str  #: the deal seed (same for both sides of a pair)
    seats: tuple[str, ...]  #: the bot label at each seat
    first_hands: tuple[tuple[str, ...], ...]  #: the cards each seat was dealt first
    dealer: int  #: the first dealer
    winner: str  #: "A" or "B"
    reason: str  #: ChicaWon reason: "target", "four_of_a_kind" or "cuatro_caidas"
    scores: tuple[int, int]  #: final points of A's team and B's team
    hand_margins: tuple[int, ...]  #: A's points minus B's, hand by hand (last one possibly partial)
    caidas: tuple[int, int]
    limpias: tuple[int, int]
    zapatero: bool  #: the loser ended with fewer than 10 points (R25)
    plies: int  #: actions played
    move_ms: tuple[tuple[float, ...], tuple[float, ...]] = field(compare=False, repr=False)

    def to_dict(self, timings: bool = False) -> dict[str, Any]:
        out: dict[str, Any] = {
            "pair": self.pair,
            "side": self.side,
            "seed": self.seed,
            "seats": list(self.seats),
            "dealer": self.dealer,
            "winner": self.winner,
            "reason": self.reason,
            "scores": list(self.scores),
            "hand_margins": list(self.hand_margins),
            "caidas": list(self.caidas),
            "limpias": list(self.limpias),
            "zapatero": self.zapatero,
            "plies": self.plies,
        }
        if timings:
            out["move_ms"] = [list(t) for t in self.move_ms]
        return out


def chica_rules(rules: Rules) -> Rules:
    """The rules of one arena game: the same options, one chica per mesa."""
    return rules.replace(chicas=1)


def play_chica(
    a: str,
    b: str,
    rules: Rules,
    seed: int,
    pair: int,
    side: int,
    max_plies: int = MAX_PLIES,
) -> tuple[Game, ChicaRecord]:
    """Play one game of a match (``rules`` must already be :func:`chica_rules`) and describe it."""
    labels = seat_labels(rules.players, side)
    names = {"A": a, "B": b}
    bots: list[Player] = []
    for seat, label in enumerate(labels):
        bot = make_player(names[label], bot_seed(seed, pair, side, seat))
        bot.start(seat, rules)
        bots.append(bot)
    dseed = deal_seed(seed, pair)
    game = Game.new(rules, seed=dseed)
    first_hands = tuple(tuple(str(c) for c in game.hand(s)) for s in range(rules.players))
    dealer = game.dealer
    times: dict[str, list[float]] = {"A": [], "B": []}
    plies = 0
    perf = time.perf_counter
    while not game.is_over:
        if plies >= max_plies:
            raise ChicaTooLongError(
                f"{a} vs {b}: the chica of pair {pair}, side {side} (deal seed {dseed!r}, "
                f"{rules.players} players) has not ended after {max_plies} actions; scores {game.score}"
            )
        seat = game.turn
        bot = bots[seat]
        before = len(game.actions)
        t0 = perf()
        action = act(bot, game)
        elapsed = perf() - t0
        if len(game.actions) != before or game.turn != seat:
            raise BotError(f"{bot.name} (seat {seat}) changed the game it was shown (deal seed {dseed!r})")
        times[labels[seat]].append(elapsed * 1000.0)
        try:
            game.play(action)
        except IllegalMoveError as exc:
            raise BotError(
                f"{bot.name} (seat {seat}) chose an illegal action {action!s} "
                f"(deal seed {dseed!r}, ply {plies + 1}): {exc}"
            ) from None
        plies += 1
    move_ms = (tuple(times["A"]), tuple(times["B"]))
    return game, describe_chica(game, labels, pair, side, first_hands, dealer, plies, move_ms)


def describe_chica(
    game: Game,
    labels: Sequence[str],
    pair: int,
    side: int,
    first_hands: tuple[tuple[str, ...], ...],
    dealer: int,
    plies: int,
    move_ms: tuple[tuple[float, ...], tuple[float, ...]] = ((), ()),
) -> ChicaRecord:
    """Read a finished one-chica game's events into a :class:`ChicaRecord`.

    Hands are delimited by the first deal of each hand (a :class:`~cuarenta.events.Deal`
    with ``deal == 0``), so the rondas of a hand's first deal count in that hand and the
    cartón in the hand it ends; the hand in which the chica ended counts even though it
    was not finished.
    """
    a_team = labels.index("A") % 2
    margins: list[int] = []
    points = [0, 0]
    caidas = [0, 0]
    limpias = [0, 0]
    won: ChicaWon | None = None
    zapatero = False
    for event in game.events:
        if isinstance(event, Deal) and event.deal == 0:
            if won is not None:
                break  # the next chica's deal (not played here)
            margins.append(0)
        elif isinstance(event, _SCORING):
            sign = 1 if event.team == a_team else -1
            margins[-1] += sign * event.points
            points[event.team] += event.points
            bot = 0 if event.team == a_team else 1
            if isinstance(event, (Caida, CaidaLimpia, CaidaRonda)):
                caidas[bot] += 1
            if isinstance(event, (Limpia, CaidaLimpia)) or (isinstance(event, CaidaRonda) and event.limpia):
                limpias[bot] += 1
        elif isinstance(event, ChicaWon):
            if won is not None:
                break
            won = event
        elif isinstance(event, Zapatero) and won is not None:
            zapatero = True
    if won is None:
        raise ArenaError(f"game {game.seed!r} has no finished chica")
    scores = (won.scores[a_team], won.scores[1 - a_team])
    if (points[a_team], points[1 - a_team]) != scores or sum(margins) != scores[0] - scores[1]:
        raise CuarentaError(
            f"game {game.seed!r}: the scoring events add up to {points}, but the chica ended {won.scores}"
        )
    return ChicaRecord(
        pair=pair,
        side=side,
        seed=str(game.seed),
        seats=tuple(labels),
        first_hands=first_hands,
        dealer=dealer,
        winner="A" if won.team == a_team else "B",
        reason=won.reason,
        scores=scores,
        hand_margins=tuple(margins),
        caidas=(caidas[0], caidas[1]),
        limpias=(limpias[0], limpias[1]),
        zapatero=zapatero,
        plies=plies,
        move_ms=move_ms,
    )


def _play_pair(a: str, b: str, rules: Rules, seed: int, pair: int, max_plies: int) -> list[ChicaRecord]:
    """Both games of a deal pair (run in a worker process with ``jobs > 1``)."""
    return [play_chica(a, b, rules, seed, pair, side, max_plies)[1] for side in (0, 1)]


# -- the match -----------------------------------------------------------------------------------
@dataclass(frozen=True)
class BotStats:
    """One bot's totals over a match."""

    label: str
    name: str
    chicas_won: int
    caidas: int
    limpias: int
    zapateros: int  #: chicas it won leaving the other team zapatero
    move_ms: MoveTimes = field(compare=False)

    def to_dict(self, timings: bool = True) -> dict[str, Any]:
        out: dict[str, Any] = {
            "name": self.name,
            "chicas_won": self.chicas_won,
            "caidas": self.caidas,
            "limpias": self.limpias,
            "zapateros": self.zapateros,
            "moves": self.move_ms.moves,
        }
        if timings:
            out["move_ms"] = self.move_ms.to_dict()
        return out


def _finite(x: float) -> float | None:
    return round(x, 2) if math.isfinite(x) else None


@dataclass(frozen=True)
class MatchResult:
    """The result of :func:`run_match`. ``games`` holds one record per chica, in pair order."""

    a: str
    b: str
    players: int
    preset: str  #: the preset name (or "custom")
    rules: Rules  #: the rules of each game (chicas=1)
    seed: int
    chicas: int
    a_wins: int
    hands: int
    margin_total: int  #: A's points minus B's over the whole match
    pairs: tuple[int, int, int]  #: deal pairs won twice by A, split, won twice by B
    bots: tuple[BotStats, BotStats]
    games: tuple[ChicaRecord, ...] = field(repr=False)
    seconds: float = field(default=0.0, compare=False)

    @property
    def win_rate(self) -> float:
        return self.a_wins / self.chicas if self.chicas else 0.0

    @property
    def ci(self) -> tuple[float, float]:
        """95% Wilson interval of A's win rate."""
        return wilson_interval(self.a_wins, self.chicas)

    @property
    def elo(self) -> float:
        return elo_difference(self.win_rate)

    @property
    def elo_ci(self) -> tuple[float, float]:
        low, high = self.ci
        return elo_difference(low), elo_difference(high)

    @property
    def margin_per_hand(self) -> float:
        return self.margin_total / self.hands if self.hands else 0.0

    def to_dict(self, timings: bool = True) -> dict[str, Any]:
        """A JSON-ready summary. Infinite Elo values (a 0% or 100% win rate) are ``None``.

        With ``timings=False`` the per-bot ``move_ms`` (and ``seconds``) are left out: what is
        left depends only on the bots, the rules and the seed.
        """
        low, high = self.ci
        elo_low, elo_high = self.elo_ci
        out: dict[str, Any] = {
            "a": self.a,
            "b": self.b,
            "players": self.players,
            "rules": self.preset,
            "seed": self.seed,
            "chicas": self.chicas,
            "a_wins": self.a_wins,
            "win_rate": round(self.win_rate, 6),
            "ci_low": round(low, 6),
            "ci_high": round(high, 6),
            "elo": _finite(self.elo),
            "elo_low": _finite(elo_low),
            "elo_high": _finite(elo_high),
            "hands": self.hands,
            "margin_per_hand": round(self.margin_per_hand, 4),
            "pairs": {"a_both": self.pairs[0], "split": self.pairs[1], "b_both": self.pairs[2]},
            "bots": {bot.label: bot.to_dict(timings) for bot in self.bots},
        }
        if timings:
            out["seconds"] = round(self.seconds, 3)
        return out


def match_rules(rules: str | Rules, players: int) -> tuple[Rules, str]:
    """The per-game rules (one chica) and the preset name, from a preset name or a Rules object."""
    try:
        OPTIONS_BY_NAME["players"].check(players)
    except RulesError as exc:
        raise ArenaError(str(exc), code=exc.code, params=exc.params) from None
    if isinstance(rules, Rules):
        if rules.players != players:
            raise ArenaError(f"the rules are for {rules.players} players, not {players}")
        base = rules
    else:
        if rules not in PRESET_NAMES:
            raise ArenaError(f"unknown preset {rules!r}: choose one of {', '.join(PRESET_NAMES)}")
        try:
            base = Rules.preset(rules, players)
        except RulesError as exc:
            raise ArenaError(str(exc)) from None
    return chica_rules(base), base.preset_name


def check_player(name: str) -> None:
    """Raise :class:`ArenaError` unless ``name`` is a registered player."""
    try:
        make_player(name, 0)
    except ValueError as exc:
        raise ArenaError(str(exc)) from None


def summarize(
    a: str, b: str, rules: Rules, preset: str, seed: int, games: Sequence[ChicaRecord], seconds: float = 0.0
) -> MatchResult:
    """Add up the records of a match (in pair order) into a :class:`MatchResult`."""
    a_wins = sum(1 for g in games if g.winner == "A")
    hands = sum(len(g.hand_margins) for g in games)
    margin = sum(sum(g.hand_margins) for g in games)
    by_pair: dict[int, int] = {}
    for g in games:
        by_pair[g.pair] = by_pair.get(g.pair, 0) + (g.winner == "A")
    pairs = (
        sum(1 for w in by_pair.values() if w == 2),
        sum(1 for w in by_pair.values() if w == 1),
        sum(1 for w in by_pair.values() if w == 0),
    )
    bots = []
    for i, (label, name) in enumerate(zip(LABELS, (a, b), strict=True)):
        won = [g for g in games if g.winner == label]
        ms = [t for g in games for t in g.move_ms[i]]
        bots.append(
            BotStats(
                label=label,
                name=name,
                chicas_won=len(won),
                caidas=sum(g.caidas[i] for g in games),
                limpias=sum(g.limpias[i] for g in games),
                zapateros=sum(1 for g in won if g.zapatero),
                move_ms=MoveTimes.of(ms),
            )
        )
    return MatchResult(
        a=a,
        b=b,
        players=rules.players,
        preset=preset,
        rules=rules,
        seed=seed,
        chicas=len(games),
        a_wins=a_wins,
        hands=hands,
        margin_total=margin,
        pairs=pairs,
        bots=(bots[0], bots[1]),
        games=tuple(games),
        seconds=seconds,
    )


#: Called after each finished deal pair with its two records (in completion order).
ProgressCallback = Callable[[Sequence[ChicaRecord]], None]


def run_match(  # noqa: PLR0913 - the public entry point of `cuarenta arena`, its options keyword-able
    a: str,
    b: str,
    chicas: int,
    players: int = 2,
    rules: str | Rules = "a_todo_rigor",
    seed: int = 0,
    jobs: int = 1,
    *,
    progress: ProgressCallback | None = None,
    max_plies: int = MAX_PLIES,
    pool: Pool | None = None,
) -> MatchResult:
    """Play ``chicas`` chicas (an even number: ``chicas / 2`` duplicate deal pairs) of ``a`` against ``b``.

    ``rules`` is a preset name or a :class:`~cuarenta.Rules` for ``players`` players (its
    ``chicas`` option is ignored: every game is one chica). ``jobs`` worker processes
    share the pairs (0: one per CPU); ``pool`` (a :mod:`cuarenta.players.pools` pool, e.g.
    ``RayPool("auto")``) runs them elsewhere instead. The result does not depend on either
    except for the timings. Raises :class:`ArenaError` for a bad request, :class:`BotError` or
    :class:`ChicaTooLongError` if a game goes wrong, :class:`~cuarenta.players.pools.PoolError`
    if the pool cannot run.
    """
    for name in (a, b):
        check_player(name)
    if isinstance(chicas, bool) or not isinstance(chicas, int) or chicas <= 0 or chicas % 2:
        raise ArenaError(
            f"chicas={chicas!r} must be a positive even number: each deal is played twice, seats swapped"
        )
    if isinstance(seed, bool) or not isinstance(seed, int):
        raise ArenaError(f"seed={seed!r} must be an integer")
    if isinstance(jobs, bool) or not isinstance(jobs, int) or jobs < 0:
        raise ArenaError(f"jobs={jobs!r} must be a whole number (0 = one per CPU)")
    game_rules, preset = match_rules(rules, players)
    n_pairs = chicas // 2
    if pool is None:
        pool = make_pool(min(jobs or os.cpu_count() or 1, n_pairs))
    start = time.perf_counter()
    games = play_pairs(a, b, game_rules, seed, n_pairs, pool, max_plies=max_plies, progress=progress)
    return summarize(a, b, game_rules, preset, seed, games, time.perf_counter() - start)


def _play_batch(task: tuple[str, str, Rules, int, Sequence[int], int]) -> list[list[ChicaRecord]]:
    """The deal pairs of one task (what a worker runs)."""
    a, b, rules, seed, pairs, max_plies = task
    return [_play_pair(a, b, rules, seed, pair, max_plies) for pair in pairs]


def play_pairs(
    a: str,
    b: str,
    rules: Rules,
    seed: int,
    n_pairs: int,
    pool: Pool,
    *,
    max_plies: int = MAX_PLIES,
    progress: ProgressCallback | None = None,
) -> list[ChicaRecord]:
    """The records of deal pairs ``0 .. n_pairs - 1`` (``rules`` already :func:`chica_rules`), in pair order.

    In one process the pairs are played in order. Otherwise pair 0 is played here, its time sizes
    the batches (:func:`~cuarenta.players.pools.batch_size`: about a quarter of a second of work per
    task, at least four tasks per worker), and the pool plays the other pairs batch by batch.
    """
    by_pair: list[list[ChicaRecord]] = []
    if isinstance(pool, SerialPool) or n_pairs <= 1:
        for pair in range(n_pairs):
            by_pair.append(_play_pair(a, b, rules, seed, pair, max_plies))
            if progress is not None:
                progress(by_pair[-1])
        return [r for records in by_pair for r in records]
    t0 = time.perf_counter()
    first = _play_pair(a, b, rules, seed, 0, max_plies)
    if progress is not None:
        progress(first)
    size = batch_size(n_pairs - 1, pool.workers, time.perf_counter() - t0)
    tasks = [(a, b, rules, seed, chunk, max_plies) for chunk in batches(range(1, n_pairs), size)]
    done: dict[int, list[list[ChicaRecord]]] = {}
    for index, result in pool.run(_play_batch, tasks):
        done[index] = result
        if progress is not None:
            for records in result:
                progress(records)
    by_pair = [first] + [records for index in range(len(tasks)) for records in done[index]]
    return [r for records in by_pair for r in records]
