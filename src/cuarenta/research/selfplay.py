"""Self-play: many mesas between two computer players, written down for training.

:func:`selfplay` plays ``mesas`` mesas of ``a`` against ``b`` (any names of
:func:`cuarenta.players.make_player`) on seeds derived from one seed, and writes them to a directory:

- ``records/CCCCC/mesa-NNNNNNN.cuarenta``: each mesa as a game record (:mod:`cuarenta.record`,
  docs/record-format.md), one file per mesa, a folder per chunk; ``GameRecord.from_text`` replays it;
- ``mesas.parquet``: one row per mesa — ``mesa``, ``seed``, ``variant``
  (:func:`~cuarenta.research.variant.variant_name`), ``preset``, ``seats`` (the player at each seat),
  ``a_team``, ``winner_team``, ``winner`` (the winning player's name), ``chicas`` and ``score`` (per
  team, at the end), ``plies``, ``actions`` (the mesa's actions in the project's notation, spaces
  between);
- ``plies.parquet``: one row per action — ``mesa``, ``ply``, ``seat``, ``action`` (text),
  ``action_id`` (:func:`cuarenta.research.actions.action_id`), ``legal`` (how many actions were
  legal), ``result`` (+1 if that seat's team won the mesa, -1 if it lost);
- ``selfplay.json``: what was asked and the totals.

Seeds: mesas ``2k`` and ``2k + 1`` are dealt from the same seed ``selfplay/S/k`` with the players'
teams swapped (``a`` holds team 0 in even mesas, team 1 in odd ones), as the arena's duplicate deals;
the player at seat ``s`` of mesa ``i`` is seeded ``selfplay/S/i/s``. The mesas are played in chunks
of ``chunk`` mesas (a task for a worker process or a Ray worker: about 500 × 10 ms for ``facil``)
and written in chunk order, one Parquet row group per chunk, so the files are byte for byte the same
whatever the pool.

Parquet needs ``pyarrow`` (``pip install 'cuarenta[research]'``); the records need nothing.

>>> import tempfile, pathlib
>>> out = pathlib.Path(tempfile.mkdtemp())
>>> summary = selfplay("facil", "aleatorio", mesas=2, seed=1, out=out, formats=("records",))
>>> summary["mesas"], sorted(p.name for p in (out / "records" / "00000").iterdir())
(2, ['mesa-0000000.cuarenta', 'mesa-0000001.cuarenta'])
"""

from __future__ import annotations

import json
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Final

from cuarenta.errors import CuarentaError
from cuarenta.game import Game
from cuarenta.players import Player, act, make_player
from cuarenta.players.arena import MAX_PLIES, ArenaError, BotError, check_player, match_rules
from cuarenta.players.pools import RESEARCH_EXTRA, Pool, SerialPool, batches
from cuarenta.record import GameRecord
from cuarenta.research.actions import action_id
from cuarenta.research.variant import variant_name
from cuarenta.rules import Rules

#: Mesas per task and per Parquet row group.
CHUNK_MESAS: Final = 500
#: What :func:`selfplay` can write.
FORMATS: Final = ("records", "parquet")


class SelfplayError(CuarentaError, ValueError):
    """A self-play run that cannot be made as asked."""


def mesa_seed(seed: int, mesa: int) -> str:
    """The deal seed of mesa ``mesa`` (mesas ``2k`` and ``2k + 1`` share it, teams swapped).

    >>> mesa_seed(1, 0), mesa_seed(1, 1), mesa_seed(1, 2)
    ('selfplay/1/0', 'selfplay/1/0', 'selfplay/1/1')
    """
    return f"selfplay/{seed}/{mesa // 2}"


@dataclass
class Chunk:
    """What a worker sends back for one chunk of mesas: the records' text and the two tables' columns."""

    first: int
    records: list[str] = field(default_factory=list)
    mesas: dict[str, list[Any]] = field(default_factory=dict)
    plies: dict[str, list[Any]] = field(default_factory=dict)


_MESA_COLUMNS: Final = (
    "mesa", "seed", "variant", "preset", "seats", "a_team", "winner_team", "winner", "chicas", "score",
    "plies", "actions",
)  # fmt: skip
_PLY_COLUMNS: Final = ("mesa", "ply", "seat", "action", "action_id", "legal", "result")


def play_mesa(
    a: str, b: str, rules: Rules, seed: int, mesa: int, chunk: Chunk, records: bool
) -> None:  # fmt: skip
    """Play mesa ``mesa`` and add its rows (and record text, if ``records``) to ``chunk``."""
    a_team = mesa % 2
    names = [a if seat % 2 == a_team else b for seat in range(rules.players)]
    bots: list[Player] = []
    for seat, name in enumerate(names):
        bot = make_player(name, f"selfplay/{seed}/{mesa}/{seat}")
        bot.start(seat, rules)
        bots.append(bot)
    game = Game.new(rules, seed=mesa_seed(seed, mesa))
    seats: list[int] = []
    texts: list[str] = []
    ids: list[int] = []
    legal: list[int] = []
    limit = MAX_PLIES * rules.chicas
    while not game.is_over:
        if len(seats) >= limit:
            raise SelfplayError(f"mesa {mesa} (seed {game.seed!r}) has not ended after {limit} actions")
        seat = game.turn
        options = game.legal_moves()
        claimable = game.claimable
        action = act(bots[seat], game)
        if action not in options:
            raise BotError(f"{names[seat]} (seat {seat}) chose an illegal action {action!s} in mesa {mesa}")
        ids.append(action_id(action, claimable))
        legal.append(len(options))
        seats.append(seat)
        texts.append(str(action))
        game.play(action)
    outcome = game.outcome
    assert outcome is not None
    winner = outcome.winner
    row = {
        "mesa": mesa,
        "seed": str(game.seed),
        "variant": variant_name(rules),
        "preset": rules.preset_name,
        "seats": names,
        "a_team": a_team,
        "winner_team": winner,
        "winner": a if winner == a_team else b,
        "chicas": list(game.chicas),
        "score": list(game.score),
        "plies": len(seats),
        "actions": " ".join(texts),
    }
    for key in _MESA_COLUMNS:
        chunk.mesas.setdefault(key, []).append(row[key])
    n = len(seats)
    columns: dict[str, list[Any]] = {
        "mesa": [mesa] * n,
        "ply": list(range(n)),
        "seat": seats,
        "action": texts,
        "action_id": ids,
        "legal": legal,
        "result": [1 if s % 2 == winner else -1 for s in seats],
    }
    for key in _PLY_COLUMNS:
        chunk.plies.setdefault(key, []).extend(columns[key])
    if records:
        record = GameRecord.from_game(
            game,
            seats=[f"bot:{name}" for name in names],
            headers={"Event": f"selfplay {a} vs {b}, seed {seed}"},
        )
        chunk.records.append(record.to_text())


def _play_chunk(task: tuple[str, str, Rules, int, Sequence[int], bool]) -> Chunk:
    """One chunk of mesas (what a worker runs)."""
    a, b, rules, seed, mesas, records = task
    chunk = Chunk(first=mesas[0])
    for mesa in mesas:
        play_mesa(a, b, rules, seed, mesa, chunk, records)
    return chunk


def _arrow() -> tuple[Any, Any]:
    try:
        import pyarrow as pa
        import pyarrow.parquet as pq
    except ModuleNotFoundError as exc:
        raise SelfplayError(f"Parquet needs pyarrow: {RESEARCH_EXTRA}") from exc
    return pa, pq


def _schemas(pa: Any) -> tuple[Any, Any]:
    mesas = pa.schema(
        [
            ("mesa", pa.int64()),
            ("seed", pa.string()),
            ("variant", pa.string()),
            ("preset", pa.string()),
            ("seats", pa.list_(pa.string())),
            ("a_team", pa.int8()),
            ("winner_team", pa.int8()),
            ("winner", pa.string()),
            ("chicas", pa.list_(pa.int8())),
            ("score", pa.list_(pa.int16())),
            ("plies", pa.int32()),
            ("actions", pa.string()),
        ]
    )
    plies = pa.schema(
        [
            ("mesa", pa.int64()),
            ("ply", pa.int32()),
            ("seat", pa.int8()),
            ("action", pa.string()),
            ("action_id", pa.int16()),
            ("legal", pa.int16()),
            ("result", pa.int8()),
        ]
    )
    return mesas, plies


class _Writer:
    """Writes chunks in chunk order (those that arrive early wait), one Parquet row group per chunk."""

    def __init__(self, out: Path, formats: Sequence[str], chunk_mesas: int) -> None:
        self.out = out
        self.formats = formats
        self.chunk_mesas = chunk_mesas
        self.waiting: dict[int, Chunk] = {}
        self.next = 0
        self.a_wins = 0
        self.plies = 0
        self.parquet: tuple[Any, Any] | None = None
        if "parquet" in formats:
            pa, pq = _arrow()
            mesa_schema, ply_schema = _schemas(pa)
            options = {"compression": "zstd", "write_statistics": True}
            self.pa = pa
            self.schemas = (mesa_schema, ply_schema)
            self.parquet = (
                pq.ParquetWriter(out / "mesas.parquet", mesa_schema, **options),
                pq.ParquetWriter(out / "plies.parquet", ply_schema, **options),
            )

    def add(self, index: int, chunk: Chunk) -> None:
        self.waiting[index] = chunk
        while self.next in self.waiting:
            self._write(self.waiting.pop(self.next))
            self.next += 1

    def _write(self, chunk: Chunk) -> None:
        self.a_wins += sum(
            w == t for w, t in zip(chunk.mesas["winner_team"], chunk.mesas["a_team"], strict=True)
        )
        self.plies += len(chunk.plies["ply"])
        if chunk.records:
            folder = self.out / "records" / f"{chunk.first // self.chunk_mesas:05d}"
            folder.mkdir(parents=True, exist_ok=True)
            for mesa, text in zip(chunk.mesas["mesa"], chunk.records, strict=True):
                (folder / f"mesa-{mesa:07d}.cuarenta").write_text(text, encoding="utf-8")
        if self.parquet is not None:
            for writer, schema, columns in zip(
                self.parquet, self.schemas, (chunk.mesas, chunk.plies), strict=True
            ):
                writer.write_table(self.pa.Table.from_pydict(columns, schema=schema))

    def close(self) -> None:
        if self.parquet is not None:
            for writer in self.parquet:
                writer.close()


def selfplay(  # noqa: PLR0913 - the run's settings, by name
    a: str,
    b: str,
    mesas: int,
    seed: int = 0,
    out: str | Path = "selfplay",
    *,
    players: int = 2,
    rules: str | Rules = "a_todo_rigor",
    one_chica: bool = False,
    formats: Sequence[str] = FORMATS,
    pool: Pool | None = None,
    chunk: int = CHUNK_MESAS,
    progress: Callable[[int], None] | None = None,
) -> dict[str, Any]:
    """Play ``mesas`` mesas of ``a`` against ``b`` and write them to ``out`` (see the module); the summary
    written to ``selfplay.json``. ``one_chica`` plays one chica per mesa; ``pool`` (default: this process)
    plays the chunks; ``progress`` is told how many mesas each finished chunk held."""
    for name in (a, b):
        try:
            check_player(name)
        except ArenaError as exc:
            raise SelfplayError(str(exc)) from None
    if isinstance(mesas, bool) or not isinstance(mesas, int) or mesas <= 0:
        raise SelfplayError(f"mesas={mesas!r} must be a positive whole number")
    if isinstance(chunk, bool) or not isinstance(chunk, int) or chunk <= 0:
        raise SelfplayError(f"chunk={chunk!r} must be a positive whole number")
    unknown = [f for f in formats if f not in FORMATS]
    if unknown or not formats:
        raise SelfplayError(f"formats {list(formats)!r}: choose among {', '.join(FORMATS)}")
    try:
        base, preset = match_rules(rules, players)
    except ArenaError as exc:
        raise SelfplayError(str(exc)) from None
    if not one_chica:
        base = Rules.preset(preset, players) if isinstance(rules, str) else rules
    folder = Path(out)
    folder.mkdir(parents=True, exist_ok=True)
    writer = _Writer(folder, formats, chunk)
    tasks = [(a, b, base, seed, list(part), "records" in formats) for part in batches(range(mesas), chunk)]
    try:
        for index, result in (pool or SerialPool()).run(_play_chunk, tasks):
            writer.add(index, result)
            if progress is not None:
                progress(len(result.mesas["mesa"]))
    finally:
        writer.close()
    summary = {
        "a": a,
        "b": b,
        "mesas": mesas,
        "seed": seed,
        "players": players,
        "variant": variant_name(base),
        "one_chica": one_chica,
        "chunk": chunk,
        "formats": sorted(formats),
        "plies": writer.plies,
        "a_wins": writer.a_wins,
    }
    (folder / "selfplay.json").write_text(json.dumps(summary, indent=2) + "\n", encoding="utf-8")
    return summary
