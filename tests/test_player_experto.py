"""``experto`` and its model of play (issue 28).

The plays of a deal are read back from a seat's view exactly as they happened (the table, the open caída,
the cards gone, the hand each seat held then); the model's chances add up to one and mark a caída let
pass as unlikely; the fit finds the weights that made a sample and is reproducible; ``experto`` plays
whole mesas of every preset with 2 and 4 players, legal and within its budget of nodes and worlds, is
seeded, and its choice does not change when the cards it cannot see change consistently with its view.
"""

from __future__ import annotations

import math
import random
from collections.abc import Iterable

import pytest

from cuarenta import CARDS, Card, Game, Rules
from cuarenta.moves import Move
from cuarenta.players import PLAYER_NAMES, act, make_player
from cuarenta.players.base import Player
from cuarenta.players.dificil import Budget
from cuarenta.players.experto import EXPERTO_BUDGET, ExpertoPlayer
from cuarenta.players.playfit import Row, collect, fit, log_likelihood
from cuarenta.players.playmodel import (
    FEATURES,
    Decision,
    PlayModel,
    choices,
    deal_decisions,
    features,
    play_model,
)
from support.examples import quick_first
from support.worlds import swapped_worlds

#: A small budget so that whole hands play fast in tests.
SMALL = Budget(nodes=300, min_worlds=2, max_worlds=4, depth=4, depth4=3)


def small_experto(seed: int | str) -> ExpertoPlayer:
    bot = ExpertoPlayer(seed, budget=SMALL)
    bot.weighed = 12
    return bot


def counts(cards: Iterable[Card | str]) -> tuple[int, ...]:
    """Cards per rank (cards or their texts)."""
    out = [0] * 10
    for c in cards:
        out[Card.parse(c) >> 2 if isinstance(c, str) else c >> 2] += 1
    return tuple(out)


def test_registered() -> None:
    assert "experto" in PLAYER_NAMES
    bot = make_player("experto", 3)
    assert isinstance(bot, ExpertoPlayer) and not bot.sees_all


@pytest.mark.parametrize(
    ("preset", "players", "extra"),
    quick_first(
        [
            ("a_todo_rigor", 2, {}),
            ("campeonato", 4, {}),
            ("todo_dos", 2, {"caida_across_deals": True}),
            ("basico", 2, {}),
            ("a_todo_rigor", 4, {"caida_across_deals": True}),
        ]
    ),
)
def test_the_deal_is_read_back_as_it_was_played(preset: str, players: int, extra: dict[str, object]) -> None:
    """At every turn of whole mesas, each play of the current deal comes back from the view with the
    table, the open caída and the captured cards of its moment, and the hand its seat held then."""
    rules = (
        Rules.preset(preset, players=players).replace(**extra)
        if extra
        else Rules.preset(preset, players=players)
    )
    checked = 0
    for seed in range(3):
        game = Game.new(rules, seed=seed)
        bots = [make_player("normal" if s % 2 else "aleatorio", f"{seed}/{s}") for s in range(players)]
        truth: list[tuple[int, tuple[int, ...], int | None, tuple[int, ...], tuple[int, ...], Move]] = []
        deal_no = (game.hand_number, game.deal_number)
        while not game.is_over and len(game.actions) < 400:
            if (game.hand_number, game.deal_number) != deal_no:
                truth, deal_no = [], (game.hand_number, game.deal_number)
            seat = game.turn
            view = game.view(seat)
            got = deal_decisions(view)
            assert [(d.seat, d.key[0]) for d in got] == [(t[0], t[5].card >> 2) for t in truth]
            for d, (s, table, drop, gone, hand, move) in zip(got, truth, strict=True):
                assert (d.table, d.drop, d.gone, d.card) == (table, drop, gone, move.card)
                assert counts((*game.hand(s), d.card, *d.later)) == hand
                checked += 1
            action = act(bots[seat], game)
            if isinstance(action, Move):
                drop = None if game.last_drop is None else game.last_drop >> 2
                piles = [*game.pile(0), *game.pile(1)]
                truth.append((seat, counts(game.table), drop, counts(piles), counts(game.hand(seat)), action))
            game.play(action)
    assert checked > 100


def decision_of(hand: str, table: str, played: str) -> tuple[Decision, list[int]]:
    """Seat 0 drops the 5♦ on ``table``; seat 1, holding ``hand``, plays ``played``: that decision, read
    back from seat 0's view of the real game, and what seat 1 holds after it (counts per rank)."""
    rules = Rules()
    named = [*hand.split(), *table.split(), "5d"]
    others = [c for c in CARDS if str(c) not in named]
    hands = [[Card.parse("5d"), *others[:4]], Card.parse_many(hand)]
    rest = others[4:]
    game = Game.from_position(
        rules,
        hands=hands,
        table=Card.parse_many(table),
        stock=rest[:20],
        piles=[rest[20:], []],
        turn=0,
        dealer=1,
    )
    game.play(Move(Card.parse("5d")))
    game.play(next(m for m in game.legal_moves() if str(m).split()[0] == played))
    decision = deal_decisions(game.view(0))[-1]
    assert decision.seat == 1 and decision.drop == Card.parse("5d") >> 2
    return decision, list(counts(game.hand(1)))


def test_the_chances_of_a_seats_choices_add_up_to_one() -> None:
    model = play_model()
    decision, _ = decision_of("5h 5s 2c Kd 7h", "3c", "5h")
    total = 0.0
    hand = [c for c in CARDS if str(c) in ("5h", "5s", "2c", "Kd", "7h")]
    options = choices(list(counts(hand)), decision.table, False)
    assert len(options) >= 4
    for key in options:
        other = type(decision)(
            decision.seat, decision.card, key, decision.table, decision.drop, decision.gone, ()
        )
        total += math.exp(model.log_prob(other, hand, False))
    assert total == pytest.approx(1.0)


def test_a_caida_let_pass_makes_a_world_unlikely() -> None:
    """Seat 1 dropped the K instead of falling on the 5♦ just dropped (R13): in a world where it held a 5
    then, that play is much less likely than in one where it held none."""
    model = play_model()
    decision, held_now = decision_of("2c Kd 7h 6s Jh", "3c", "Kd")
    with_five = [c for c in CARDS if str(c) in ("2c", "5h", "6s", "Jh")]
    without = [c for c in CARDS if str(c) in ("2c", "7h", "6s", "Jh")]
    assert model.log_prob(decision, [*with_five, decision.card], False) < model.log_prob(
        decision, [*without, decision.card], False
    ) - math.log(4)
    assert sum(held_now) == 4


def test_the_fit_finds_the_weights_that_made_the_sample() -> None:
    """Choices drawn from a known model: the fit finds its weights back (within the sample's noise)."""
    rng = random.Random(5)
    truth = PlayModel((2.0, 1.0, 1.5, 0.0, -2.0, 0.5, 0.8, -0.7, -1.2, -0.5))
    rows: list[Row] = []
    for _ in range(4000):
        options = tuple(tuple(rng.random() for _ in FEATURES) for _ in range(rng.randint(2, 6)))
        scores = [sum(w * x for w, x in zip(truth.weights, f, strict=True)) for f in options]
        exps = [math.exp(s) for s in scores]
        pick = rng.random() * sum(exps)
        chosen = next(i for i, e in enumerate(exps) if (pick := pick - e) <= 0)
        rows.append((options, chosen))
    model = fit(rows, ridge=1e-6)
    for got, want in zip(model.weights, truth.weights, strict=True):
        assert got == pytest.approx(want, abs=0.6)
    assert log_likelihood(model, rows) >= log_likelihood(truth, rows)


def test_the_model_is_rebuilt_to_the_same_bytes_whatever_the_jobs() -> None:
    one = fit(collect("normal", "facil", chicas=2, players=2, seed=7, jobs=1)).to_json()
    two = fit(collect("normal", "facil", chicas=2, players=2, seed=7, jobs=2)).to_json()
    assert one == two
    assert PlayModel.from_json(one).to_json() == one


def test_a_model_file_with_other_features_is_refused() -> None:
    with pytest.raises(ValueError, match="features"):
        PlayModel.from_json('{"features": ["caida"], "weights": [1.0]}')


def test_features_say_what_a_choice_does() -> None:
    hand = counts(["5h", "Kd"])
    table = counts(["5d", "3c"])
    caida = features((4, (4,), ()), hand, table, 4, [0] * 10)
    assert caida[FEATURES.index("caida")] == 1.0 and caida[FEATURES.index("leave_one")] == 1.0
    drop = features((9, (), ()), hand, table, 4, [0] * 10)
    assert drop[FEATURES.index("drop")] == 1.0 and drop[FEATURES.index("drop_figure")] == 1.0
    assert drop[FEATURES.index("drop_risk")] == 1.0  # three kings the seat cannot see


def play_within(game: Game, seats: list[Player], limit: int = 3000) -> int:
    """Play ``game`` to its end with ``seats``: every action legal, every ``experto`` move within its own
    budget (:class:`~cuarenta.players.dificil.SearchWork`); how many of its moves searched."""
    players = game.rules.players
    searched = 0
    while not game.is_over:
        assert len(game.actions) < limit, "a mesa that does not end"
        bot = seats[game.turn]
        action = act(bot, game)
        assert action in game.legal_moves()
        if isinstance(bot, ExpertoPlayer) and bot.work is not None:
            assert bot.work.within(bot.budget, players), (bot.work, bot.budget)
            searched += 1
        game.play(action)
    return searched


@pytest.mark.parametrize(
    ("preset", "players"),
    quick_first(
        [
            ("a_todo_rigor", 2),
            ("campeonato", 4),
            ("a_todo_rigor", 4),
            ("todo_dos", 2),
            ("todo_dos", 4),
            ("basico", 2),
        ]
    ),
)
def test_plays_whole_mesas_legal_and_within_its_budget(preset: str, players: int) -> None:
    rules = Rules.preset(preset, players=players)
    for seed in range(2):
        game = Game.new(rules, seed=seed)
        seats: list[Player] = [
            small_experto(f"{seed}/{s}") if s % 2 == seed % 2 else make_player("normal", f"{seed}/{s}")
            for s in range(players)
        ]
        for s, bot in enumerate(seats):
            bot.start(s, rules)
        assert play_within(game, seats) > 10
        assert game.outcome is not None


@pytest.mark.slow
def test_plays_a_whole_mesa_within_its_real_budget() -> None:
    """With the budget it plays people with (:data:`~cuarenta.players.experto.EXPERTO_BUDGET`), against
    ``dificil``: the node and world counts, not the clock, bound each move."""
    rules = Rules.preset("a_todo_rigor", players=2)
    game = Game.new(rules, seed=5)
    seats: list[Player] = [ExpertoPlayer("real/0"), make_player("dificil", "real/1")]
    for s, bot in enumerate(seats):
        bot.start(s, rules)
    assert seats[0].budget == EXPERTO_BUDGET
    assert play_within(game, seats) > 10


def test_sees_only_its_view() -> None:
    one, two = swapped_worlds()
    assert [d.seat for d in deal_decisions(one.view(0))].count(1) == 2  # the rival's plays are read
    for seed in range(3):
        a, b = ExpertoPlayer(seed), ExpertoPlayer(seed)
        a.start(0, one.rules)
        b.start(0, two.rules)
        assert act(a, one) == act(b, two)
