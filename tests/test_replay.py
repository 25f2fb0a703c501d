"""Replaying a record step by step (``cuarenta.replay``, issue 29): at every ply, however it was reached
(forward, back, jumps to a move or a deal, in any order), the replay's state is the record's (state
hashes); each step's events are the ones played; the deals are marked where they begin; what a seat saw
is its view; every card is shown only once the mesa is over; bad steps are refused clearly.
"""

from __future__ import annotations

import dataclasses
import io
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from cuarenta import Card, Game, ReplayError, Rules
from cuarenta.cli.records import record_names
from cuarenta.cli.replay import TerminalReplay
from cuarenta.cli.terminal import RULE
from cuarenta.errors import RecordError
from cuarenta.i18n import Narrator, card_text
from cuarenta.players import act, make_player
from cuarenta.record import GameRecord
from cuarenta.replay import Replay, hashes, state_hash
from support.commands import run_cli

PRESETS = [("a_todo_rigor", 2), ("a_todo_rigor", 4), ("todo_dos", 2), ("basico", 2), ("campeonato", 4)]


def record_of(preset: str, players: int, seed: int, plies: int | None = None) -> tuple[GameRecord, Game]:
    rules = Rules.preset(preset, players=players)
    game = Game.new(rules, seed=seed)
    bots = [make_player("normal" if s % 2 else "facil", f"{seed}/{s}") for s in range(players)]
    for s, bot in enumerate(bots):
        bot.start(s, rules)
    while not game.is_over and (plies is None or len(game.actions) < plies):
        game.play(act(bots[game.turn], game))
    return GameRecord.from_game(game), game


RECORDS = {(p, n): record_of(p, n, seed=11) for p, n in PRESETS}


@pytest.mark.parametrize(("preset", "players"), PRESETS)
def test_each_step_is_the_record_and_its_events(preset: str, players: int) -> None:
    record, game = RECORDS[(preset, players)]
    expected = hashes(record)
    replay = Replay(record)
    assert replay.last == len(game.actions) and replay.finished and len(expected) == replay.last + 1
    assert replay.state_hash() == expected[0]
    # straight through: each step's events are the ones the game produced for that action
    straight = Game.new(record.rules, seed=record.seed)
    assert replay.events(0) == tuple(straight.events)
    for ply in range(1, replay.last + 1):
        played = tuple(straight.play(record.actions[ply - 1]))
        assert replay.forward() == played and replay.events() == played
        assert replay.state_hash() == expected[ply] == state_hash(straight)
    assert replay.forward() == () and replay.ply == replay.last
    assert replay.open_state() == game.state_summary()
    # and back again
    for ply in range(replay.last - 1, -1, -1):
        replay.back()
        assert replay.state_hash() == expected[ply]
    replay.back()
    assert replay.ply == 0


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data())
def test_any_order_of_steps_reaches_the_recorded_states(data: st.DataObject) -> None:
    preset, players = data.draw(st.sampled_from(PRESETS))
    record, _ = RECORDS[(preset, players)]
    expected = hashes(record)
    replay = Replay(record)
    for _ in range(data.draw(st.integers(1, 12))):
        step = data.draw(st.sampled_from(["forward", "back", "goto", "deal"]))
        if step == "forward":
            replay.forward()
        elif step == "back":
            replay.back()
        elif step == "goto":
            replay.goto(data.draw(st.integers(0, replay.last)))
        else:
            mark = data.draw(st.sampled_from(replay.marks))
            replay.goto_deal(mark.hand, mark.deal)
            assert replay.ply == mark.ply
        assert replay.state_hash() == expected[replay.ply]


@pytest.mark.parametrize(("preset", "players"), PRESETS)
def test_the_deals_are_marked_where_they_begin(preset: str, players: int) -> None:
    record, _ = RECORDS[(preset, players)]
    replay = Replay(record)
    marks = replay.marks
    assert marks[0].ply == 0 and [m.ply for m in marks] == sorted({m.ply for m in marks})
    per_hand = 4 if players == 2 else 2
    assert len(marks) >= per_hand and all(0 <= m.deal < per_hand for m in marks)
    for m in marks:
        game = replay.goto(m.ply).game
        assert (game.hand_number, game.deal_number) == (m.hand, m.deal)
        assert replay.mark() == m
        if m.ply:  # the action before it was the previous deal's
            before = replay.goto(m.ply - 1).game
            assert (before.hand_number, before.deal_number) != (m.hand, m.deal)


def test_a_seat_sees_its_view_and_a_running_mesa_hides_the_rest() -> None:
    record, game = record_of("a_todo_rigor", 2, seed=5, plies=17)
    replay = Replay(record).goto(17)
    assert not replay.finished
    assert replay.view(0) == game.view(0) and replay.view(1) == game.view(1)
    with pytest.raises(ReplayError, match="not over") as caught:
        replay.open_state()
    assert caught.value.code == "replay_not_over"
    assert "no ha terminado" in caught.value.text("es")


def test_bad_steps_are_refused_and_change_nothing() -> None:
    record, _ = RECORDS[("a_todo_rigor", 2)]
    replay = Replay(record).goto(9)
    before = replay.state_hash()
    for bad in (-1, replay.last + 1, "3", 2.0, True):
        with pytest.raises(ReplayError, match="is not in this record") as caught:
            replay.goto(bad)  # type: ignore[arg-type]
        assert caught.value.code == "replay_ply"
    with pytest.raises(ReplayError) as caught:
        replay.goto_deal(40, 0)
    assert caught.value.code == "replay_deal" and "hand 41" in str(caught.value)
    for seat in (2, -1):
        with pytest.raises(ReplayError, match="not at this mesa"):
            replay.view(seat)
    assert replay.ply == 9 and replay.state_hash() == before


def test_a_record_that_does_not_replay_is_refused_when_the_replay_is_made() -> None:
    record, game = RECORDS[("basico", 2)]
    wrong = dataclasses.replace(record, score=(game.score[0] + 2, game.score[1]))
    with pytest.raises(RecordError, match="contradicts the replay"):
        Replay(wrong)


@pytest.mark.parametrize(("preset", "players"), PRESETS)
def test_a_replay_read_from_text_is_the_record_s_and_walks_every_turn(preset: str, players: int) -> None:
    """``Replay.from_text`` keeps the reading's own replay: the same steps as a replay of the record read
    first; ``walk`` stands before each action with the seat that played it (``turns``) and ends at the end."""
    record, game = RECORDS[(preset, players)]
    read = Replay.from_text(record.to_text())
    made = Replay(record)
    assert (read.actions, read.marks, read.turns) == (made.actions, made.marks, made.turns)
    expected = hashes(record)
    straight = Game.new(record.rules, seed=record.seed)
    for ply, action, at in read.walk():
        assert state_hash(at) == expected[ply] and at.turn == straight.turn == read.turns[ply]
        assert action == record.actions[ply]
        straight.play(action)
    assert read.ply == read.last and read.state_hash() == expected[-1]
    assert [e for ply in range(read.last + 1) for e in read.events(ply)] == list(game.events)
    broken = record.to_text().replace(str(record.actions[3]), "Zz", 1)
    with pytest.raises(RecordError):
        Replay.from_text(broken)


# -- the terminal's replay (cuarenta replay) -----------------------------------------------------------------
def terminal(record: GameRecord, words: str, lang: str = "es", **options: object) -> str:
    out = io.StringIO()
    code = TerminalReplay(record, inp=io.StringIO(words), out=out, lang=lang, **options).run()  # type: ignore[arg-type]
    assert code == 0
    return out.getvalue()


def screens(text: str) -> list[str]:
    """The steps shown, each from its rule line on."""
    return text.split(RULE)[1:]


def test_the_terminal_steps_through_the_mesa_as_it_was_said() -> None:
    record, _ = RECORDS[("a_todo_rigor", 2)]
    replay = Replay(record)
    names = record_names(record, "es")
    narrator = Narrator(record.rules, "es", names)
    said = [narrator.narrate(replay.events(p)) for p in range(replay.last + 1)]
    shown = screens(terminal(record, "\n" * 5 + "a\nir 30\ninicio\nfin\nq\n"))
    plies = [0, 1, 2, 3, 4, 5, 4, 30, 0, replay.last]
    assert len(shown) == len(plies)
    for screen, ply in zip(shown, plies, strict=True):
        replay.goto(ply)
        mark = replay.mark()
        assert f"Jugada {ply} de {replay.last} · mano {mark.hand + 1}, reparto {mark.deal + 1}" in screen
        for line in said[ply]:  # the plays, sayings and summaries of the step, as they were said
            assert line.text in screen
            for saying in line.sayings:
                assert saying in screen
        hand = " ".join(card_text(c) for c in replay.view(0).hand) or "—"
        assert f"Mano de {names[0]}: {hand}\n" in screen
        assert f"Mano de {names[1]}:" not in screen  # the other hand stays hidden


def test_the_terminal_shows_a_seat_and_every_hand_of_a_finished_mesa() -> None:
    record, _ = RECORDS[("a_todo_rigor", 4)]
    replay = Replay(record).goto(7)
    names = record_names(record, "en")
    shown = screens(terminal(record, "go 7\nseat 3\nopen\nq\n", lang="en"))
    hand = " ".join(card_text(c) for c in replay.view(2).hand)
    assert f"{names[2]}'s hand: {hand}\n" in shown[2]
    state = replay.open_state()
    for seat in range(4):
        cards = " ".join(card_text(Card.parse(c)) for c in state["hands"][seat])
        assert f"{names[seat]}'s hand: {cards}\n" in shown[3]


def test_the_terminal_refuses_what_it_cannot_do_and_stays() -> None:
    record, _ = record_of("a_todo_rigor", 2, seed=5, plies=17)
    text = terminal(record, "ir 17\nabierto\nir 99\nver 3\nmano 9\nhola\nir x\n?\nq\n")
    assert "las cartas que los asientos no podían ver siguen ocultas" in text
    assert "la jugada 99 no está en este registro: tiene de la 0 a la 17" in text
    assert "el asiento 2 no está en esta mesa" in text
    assert "la mano 9, reparto 1 no está en este registro" in text
    assert "No entiendo «hola»" in text and "No entiendo «ir x»" in text
    assert len(screens(text)) == 2  # the start and ply 17: nothing else moved
    with pytest.raises(ReplayError):
        TerminalReplay(record, open_cards=True, inp=io.StringIO(""), out=io.StringIO())


def test_the_replay_command(tmp_path: Path) -> None:
    record, _ = RECORDS[("basico", 2)]
    path = tmp_path / "mesa.cuarenta"
    path.write_text(record.to_text(), encoding="utf-8")
    run = run_cli("replay", str(path), "--open", "--ply", "3", "--lang", "en", stdin="\nq\n")
    assert run.returncode == 0, run.stderr
    assert "Play 3 of" in run.stdout and "Play 4 of" in run.stdout
    unfinished = tmp_path / "running.cuarenta"
    unfinished.write_text(record_of("basico", 2, seed=5, plies=9)[0].to_text(), encoding="utf-8")
    refused = run_cli("replay", str(unfinished), "--open")
    assert refused.returncode == 2 and "the mesa is not over" in refused.stderr
