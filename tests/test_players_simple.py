"""The simple computer players (``aleatorio``, ``facil``) and what every player must do.

- ``facil`` takes what it sees — a caída first, then a limpia, then the capture with most cards —
  and otherwise drops a card at random: seeded (same seed, same choice) but varied across seeds.
- Every player (``aleatorio``, ``facil``, ``normal``) only ever returns a legal action, in random
  games of 2 and 4 players under every preset (campeonato: manual capture and claims).
- No player looks at hidden cards: it is given ``game.view(seat)``, and two games that differ only
  in cards the seat cannot see give it the same view and the same choice.
- The same seeds play the same game.
"""

from __future__ import annotations

import random

import pytest

from cuarenta import CARDS, Card, Claim, Game, Move, Rules
from cuarenta.moves import Action
from cuarenta.players import PLAYER_NAMES, Player, act, make_player
from cuarenta.players.simple import FacilPlayer, RandomPlayer, capture_facts
from cuarenta.rules import PRESET_NAMES
from support.positions import position

#: The players these tests cover (``dificil`` and ``oracle`` have their own, slower tests).
PLAYERS = ("aleatorio", "facil", "normal")


def choose(player: Player, game: Game) -> Action:
    """Seat the player at the seat to move and ask it, giving it only that seat's view."""
    player.start(game.turn, game.rules)
    return player.choose(game.view(game.turn), game.legal_moves())


def test_the_players_are_registered() -> None:
    for name in PLAYERS:
        assert name in PLAYER_NAMES
        player = make_player(name, seed=3)
        assert player.name == name
        assert not player.sees_all


# -- facil --------------------------------------------------------------------------------------
def test_capture_facts_name_caida_limpia_and_cards_taken() -> None:
    game = position(
        hands=[["5s", "7d", "Kc", "Qd"], ["Ah", "6s", "Jd", "3h"]],
        table=["2c", "5h"],
        last_drop="5h",
        stock_size=30,
    )
    view = game.view(0)
    assert capture_facts(Move.parse("5s x5h"), view) == (True, False, 1)
    assert capture_facts(Move.parse("7d x2c+5h"), view) == (False, True, 2)
    assert capture_facts(Move.parse("Kc"), view) == (False, False, 0)


def test_facil_prefers_a_caida_to_a_limpia() -> None:
    # 5s falls on the 5h just dropped (a caída, the 2c stays); 7d takes 5h+2c (a limpia, no caída)
    game = position(
        hands=[["5s", "7d", "Kc", "Qd"], ["Ah", "6s", "Jd", "3h"]],
        table=["2c", "5h"],
        last_drop="5h",
        stock_size=30,
    )
    assert {"5s x5h", "7d x2c+5h"} <= {str(m) for m in game.legal_moves()}
    for seed in range(10):
        assert choose(FacilPlayer(seed), game) == Move.parse("5s x5h")


def test_facil_prefers_a_caida_to_a_bigger_capture() -> None:
    # the 3d just dropped: 3s falls on it (1 card); 7c takes 3d+4h and the escalera J (3 cards)
    game = position(
        hands=[["3s", "7c", "Kd"], ["Ah", "6s", "2h"]],
        table=["4h", "Jd", "Ks", "3d"],
        last_drop="3d",
        stock_size=30,
    )
    moves = {str(m) for m in game.legal_moves()}
    assert "3s x3d,4h" in moves and "7c x3d+4h,Jd" in moves
    for seed in range(10):
        assert choose(FacilPlayer(seed), game) == Move.parse("3s x3d,4h")


def test_facil_takes_the_most_cards_when_nothing_scores() -> None:
    # 3h can take the 3d alone or A+2 (two cards); Qd takes the Qs; nothing is a caída or a limpia
    game = position(
        hands=[["3h", "Qd", "Kc"], ["4s", "6h", "Jd"]], table=["Ah", "2c", "3d", "Qs"], stock_size=30
    )
    moves = {str(m) for m in game.legal_moves()}
    assert {"3h x3d", "3h xAh+2c", "Qd xQs"} <= moves
    for seed in range(10):
        assert choose(FacilPlayer(seed), game) == Move.parse("3h xAh+2c")


def test_facil_drops_at_random_but_seeded() -> None:
    # nothing in the hand takes the Q: every card is a plain drop
    game = position(
        hands=[["4s", "4h", "7d", "Kc"], ["2h", "3d", "5c", "6s", "Jd"]], table=["Qs"], stock_size=30
    )
    drops = game.legal_moves()
    assert len(drops) == 5 and all(isinstance(m, Move) and not m.base for m in drops)
    by_seed = [choose(FacilPlayer(seed), game) for seed in range(40)]
    assert by_seed == [choose(FacilPlayer(seed), game) for seed in range(40)]  # same seed, same choice
    assert len(set(by_seed)) >= 3  # and it varies across seeds


def test_facil_claims_forgotten_cards_in_manual_capture() -> None:
    """R12 (campeonato): the previous seat dropped a 7 that could take 3+4; facil claims them."""
    rules = Rules.preset("campeonato", players=4)
    game = position(
        rules,
        hands=[
            ["7h", "Kd", "Qc", "Jd"],
            ["Ks", "2h", "5d", "6c"],
            ["Ac", "Js", "Qh", "2s"],
            ["Kh", "Qs", "Jh", "2c"],
        ],
        table=["3c", "4d", "5s", "6h"],
        stock_size=20,
        dealer=3,
    )
    assert game.turn == 0
    game.play("7h")  # forgets 3c+4d
    assert game.claimable
    action = choose(FacilPlayer(1), game)
    assert isinstance(action, Claim)
    assert {c.rank for c in action.cards} >= {Card("3c").rank, Card("4d").rank}


def test_aleatorio_is_seeded_and_legal() -> None:
    game = position(
        hands=[["4s", "4h", "7d", "Kc"], ["2h", "3d", "5c", "6s", "Jd"]], table=["Qs"], stock_size=30
    )
    picks = [choose(RandomPlayer(seed), game) for seed in range(30)]
    assert picks == [choose(RandomPlayer(seed), game) for seed in range(30)]
    assert all(p in game.legal_moves() for p in picks)
    assert len(set(picks)) >= 3


# -- every player -------------------------------------------------------------------------------
def _tables() -> list[tuple[str, int]]:
    out = []
    for preset in PRESET_NAMES:
        for n in (2, 4):
            try:
                Rules.preset(preset, players=n)
            except Exception:
                continue
            out.append((preset, n))
    return out


@pytest.mark.parametrize(("preset", "players"), _tables())
def test_every_player_returns_only_legal_actions(preset: str, players: int) -> None:
    """Whole mesas with the players mixed at the table; every action is checked before it is played."""
    rules = Rules.preset(preset, players=players)
    for seed in range(3):
        names = [PLAYERS[(seed + s) % len(PLAYERS)] for s in range(players)]
        bots = [make_player(names[s], seed=f"{seed}/{s}") for s in range(players)]
        game = Game.new(rules, seed=f"legal/{preset}/{seed}")
        for s, bot in enumerate(bots):
            bot.start(s, rules)
        kinds: set[str] = set()
        while not game.is_over:
            legal = game.legal_moves()
            action = act(bots[game.turn], game)
            assert action in legal, (names[game.turn], str(action), [str(a) for a in legal])
            kinds.add(type(action).__name__)
            game.play(action)
        assert game.outcome is not None
    assert "Move" in kinds


def _first_deal_game(rules: Rules, seed: int) -> Game:
    """The first deal of a hand, with hands and stock dealt from ``seed``."""
    n = rules.players
    deck = list(CARDS)
    random.Random(seed).shuffle(deck)
    hands = [deck[5 * s : 5 * s + 5] for s in range(n)]
    return Game.from_position(rules, hands=hands, stock=deck[5 * n :], turn=1, dealer=0, seed=seed)


def _hidden_variant(game: Game, start: list[list[Card]], seat: int, rng: random.Random) -> Game:
    """The same public history as ``game`` (still in its first deal), with every card ``seat``
    cannot see dealt again at random: the other seats keep only the cards they have played."""
    n = game.players
    played: dict[int, list[Card]] = {s: [] for s in range(n)}
    for i, action in enumerate(game.actions):
        if isinstance(action, Move):
            played[(1 + i) % n].append(action.card)
    assert not any(isinstance(a, Claim) for a in game.actions)
    fixed = set(start[seat]) | {c for s in range(n) for c in played[s]}
    pool = [c for c in CARDS if c not in fixed]
    rng.shuffle(pool)
    hands: list[list[Card]] = []
    for s in range(n):
        if s == seat:
            hands.append(list(start[s]))
        else:
            hands.append(played[s] + pool[: 5 - len(played[s])])
            del pool[: 5 - len(played[s])]
    other = Game.from_position(game.rules, hands=hands, stock=pool, turn=1, dealer=0, seed=game.seed)
    for action in game.actions:
        other.play(action)
    return other


@pytest.mark.parametrize("players", [2, 4])
def test_no_player_sees_hidden_cards(players: int) -> None:
    """Re-dealing the cards a seat cannot see never changes its view, nor any player's choice."""
    rules = Rules(players=players)
    rng = random.Random(99)
    checked = 0
    for seed in range(12):
        game = _first_deal_game(rules, seed)
        start = [game.hand(s) for s in range(players)]
        walker = RandomPlayer(seed)
        for _ in range(rng.randrange(1, 5 * players - 1)):
            walker.start(game.turn, rules)
            game.play(act(walker, game))
        if game.deal_number != 0 or game.is_over:
            continue
        seat = game.turn
        for _ in range(3):
            other = _hidden_variant(game, start, seat, rng)
            assert other.state_summary() != game.state_summary()  # hidden cards differ
            assert other.view(seat) == game.view(seat)
            for name in PLAYERS:
                a, b = make_player(name, seed=seed), make_player(name, seed=seed)
                assert choose(a, game) == choose(b, other), name
            checked += 1
    assert checked >= 20


@pytest.mark.parametrize("name", PLAYERS)
def test_same_seeds_play_the_same_mesa(name: str) -> None:
    def mesa() -> list[str]:
        rules = Rules(players=2)
        game = Game.new(rules, seed=5)
        bots = [make_player(name, seed=7), make_player("facil", seed=8)]
        for s, bot in enumerate(bots):
            bot.start(s, rules)
        while not game.is_over:
            game.play(act(bots[game.turn], game))
        return [str(a) for a in game.actions]

    assert mesa() == mesa()
