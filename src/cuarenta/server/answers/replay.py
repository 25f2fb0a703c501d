"""``GET /api/games/{room}/replay``: a finished mesa of the token's room, step by step, for the page's replay
(docs/protocol.md "Replay"; the server and the device host answer the same); and ``POST /api/replay``, the
same for a record the person holds (a file dropped on the page).

Only a finished mesa is replayed (a mesa in play is refused, ``409 mesa_in_play``, as its record is): every
card is then shown, so each step carries every seat's hand and the page shows one seat's or all of them.
The answer holds the mesa's events once, as the wire sends them (public, with their sayings), and for each
ply (0: before the first play) how many of them had happened and the table's state: the table, the card
just dropped, the scores, the chicas, the piles' and the stock's sizes, whose turn, the hand and the deal,
and the hands.

>>> from cuarenta import Game, Rules
>>> from cuarenta.record import GameRecord
>>> game = Game.new(Rules.preset("basico"), seed=2)
>>> while not game.is_over:
...     _ = game.play(game.legal_moves()[0])
>>> frames = replay_frames(GameRecord.from_game(game))
>>> len(frames["steps"]) == len(game.actions) + 1, frames["steps"][-1]["events"] == len(frames["events"])
(True, True)
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Final

from cuarenta.errors import RecordError
from cuarenta.game import Game
from cuarenta.i18n import SayingLog
from cuarenta.record import GameRecord
from cuarenta.replay import Replay
from cuarenta.server.answers.history import HistoryStore, finished_record
from cuarenta.server.answers.refused import Refused
from cuarenta.server.authority.eventview import wire_event

if TYPE_CHECKING:
    from cuarenta.server.authority.core import Authority


def _step(game: Game, ply: int) -> dict[str, Any]:
    """The table at one ply (every card: the mesa is over)."""
    state = game.state_summary()
    return {
        "ply": ply,
        "events": len(game.events),
        "hand": game.hand_number,
        "deal": game.deal_number,
        "turn": game.turn,
        "dealer": game.dealer,
        "table": state["table"],
        "last_drop": state["last_drop"],
        "scores": state["scores"],
        "chicas": state["chicas"],
        "hands": state["hands"],
        "pile_sizes": [len(p) for p in state["piles"]],
        "stock_size": len(state["stock"]),
    }


def replay_frames(replay: Replay | GameRecord) -> dict[str, Any]:
    """The steps and the events of a finished mesa's replay (or record; module docstring)."""
    if isinstance(replay, GameRecord):
        replay = Replay(replay)
    if not replay.finished:
        raise Refused(409, "the mesa is still in play: it is replayed once it is finished", "mesa_in_play")
    game = replay.goto(replay.last).game
    outcome = game.outcome.to_dict() if game.outcome is not None else None
    sayings = SayingLog().update(game)
    events = [wire_event(game, i, sayings[i]) for i in range(len(game.events))]
    steps = [_step(g, ply) for ply, _, g in replay.walk()]
    steps.append(_step(game, replay.last))
    return {
        "players": replay.record.players,
        "actions": [str(a) for a in replay.actions],
        "events": events,
        "steps": steps,
        "outcome": outcome,
    }


#: The longest record text ``POST /api/replay`` reads (a long 2 vs 2 mesa's is under 10,000 characters).
MAX_RECORD_CHARS: Final = 60_000


def read_record_text(text: str) -> Replay:
    """A record's text a person sent (a file they hold, a chica played offline), read and replayed once:
    :class:`Refused` 400 ``bad_record`` saying what is wrong, for text over :data:`MAX_RECORD_CHARS` or not
    a record that replays."""
    if len(text) > MAX_RECORD_CHARS:
        raise Refused(400, f"a record is at most {MAX_RECORD_CHARS} characters here", "bad_record")
    try:
        return Replay.from_text(text)
    except RecordError as exc:
        raise Refused(400, f"that is not a record this game can replay: {exc}", "bad_record") from None


def replay_text_answer(body: Any) -> dict[str, Any]:
    """``POST /api/replay`` with ``{"record": "..."}``: the steps of a finished mesa's record that the person
    holds (a file dropped on the page): :class:`Refused` 400 ``bad_record`` saying what is wrong with it, 409
    ``mesa_in_play`` for a record whose mesa is not over (every card is shown only then)."""
    if not isinstance(body, dict) or set(body) != {"record"} or not isinstance(body["record"], str):
        raise Refused(400, 'send {"record": "..."}: the text of a game record (.cuarenta)', "bad_record")
    replay = read_record_text(body["record"])
    return {
        "room": None,
        "mesa": None,
        "seat": 0,
        "names": list(replay.record.seats),
        **replay_frames(replay),
    }


def replay_answer(
    authority: Authority, store: HistoryStore, room_id: str, token: str, mesa: int | None = None
) -> dict[str, Any]:
    """``GET /api/games/{room}/replay``: the steps of a finished mesa of the token's room (default: the
    current one); refused as its record is (the token, 404, ``409 mesa_in_play``)."""
    found = finished_record(authority, store, room_id, token, mesa)
    seat = authority.seat_of(room_id, token)
    replay = Replay.from_text(found.text)
    return {
        "room": room_id,
        "mesa": found.mesa,
        "seat": seat,
        "names": list(replay.record.seats),
        **replay_frames(replay),
    }


__all__ = ["MAX_RECORD_CHARS", "read_record_text", "replay_answer", "replay_frames", "replay_text_answer"]
