"""The search players: ``dificil`` (determinized search over the hidden cards) and ``oracle``.

Legal moves under every preset with 2 and 4 players, seeded determinism, the obvious caída and limpia,
the exact last deal of a 1v1 hand against a brute-force check with the engine, the search on ranks
against the same search done with engine push/pop, views only (hidden cards never change a choice),
what is inferred from the history, and the win-probability model.
"""

from __future__ import annotations

import random

import pytest

from cuarenta import Game, Rules
from cuarenta.events import Caida, CaidaLimpia, CaidaRonda, Carton, ChicaWon, Deal, HandEnd, Limpia
from cuarenta.moves import Action, Move
from cuarenta.players import PLAYER_NAMES, act, make_player
from cuarenta.players.base import Player
from cuarenta.players.dificil import Budget, DificilPlayer, passed_caidas
from cuarenta.players.experto import ExpertoPlayer
from cuarenta.players.oracle import OraclePlayer
from cuarenta.players.search import WorldSearch, move_classes, rank_key
from cuarenta.players.winprob import WinModel, carton_points, win_model
from support.examples import examples, quick_first
from support.positions import position

#: A small budget so that whole hands play fast in tests.
SMALL = Budget(nodes=300, min_worlds=2, max_worlds=3, depth=4, depth4=3)
SCORING = (Caida, CaidaLimpia, CaidaRonda, Limpia, Carton)


def small_oracle(seed: int | str) -> OraclePlayer:
    bot = OraclePlayer(seed)
    bot.depth = 4
    bot.depth4 = 3
    return bot


def play_some(rules: Rules, seats: list[Player], max_actions: int, seed: int) -> Game:
    """Play up to ``max_actions`` actions, checking that every one is legal."""
    game = Game.new(rules, seed=seed)
    for s, bot in enumerate(seats):
        bot.start(s, rules)
    for _ in range(max_actions):
        if game.is_over:
            break
        legal = game.legal_moves()
        action = act(seats[game.turn], game)
        assert action in legal, f"{seats[game.turn]!r} chose {action}, not in {[str(a) for a in legal]}"
        game.play(action)
    return game


def test_registered() -> None:
    assert "dificil" in PLAYER_NAMES and "oracle" in PLAYER_NAMES
    assert isinstance(make_player("dificil", 3), DificilPlayer)
    oracle = make_player("oracle", 3)
    assert isinstance(oracle, OraclePlayer) and oracle.sees_all
    assert not DificilPlayer.sees_all


@pytest.mark.parametrize(
    ("preset", "players", "other"),
    [
        ("a_todo_rigor", 2, "facil"),
        ("todo_dos", 2, "facil"),
        ("basico", 2, "aleatorio"),
        ("a_todo_rigor", 4, "facil"),
        ("todo_dos", 4, "aleatorio"),
        ("campeonato", 4, "aleatorio"),
    ],
)
def test_always_legal(preset: str, players: int, other: str) -> None:
    rules = Rules.preset(preset, players=players)
    for seed in range(2):
        seats: list[Player] = []
        for s in range(players):
            if s % 2 == seed % 2:
                seats.append(DificilPlayer(f"{seed}/{s}", budget=SMALL) if s < 2 else small_oracle(s))
            else:
                seats.append(make_player(other, f"{seed}/{s}"))
        game = play_some(rules, seats, 90 if players == 2 else 60, seed)
        assert len(game.actions) > 20


def test_manual_capture_claims_and_full_captures() -> None:
    """Campeonato (manual capture, R12): when cards were forgotten it claims them; it never forgets."""
    rules = Rules.preset("campeonato", players=4)
    claimed = 0
    for seed in range(3):
        game = Game.new(rules, seed=seed)
        seats: list[Player] = [
            DificilPlayer(s, budget=SMALL) if s % 2 == 0 else make_player("aleatorio", s) for s in range(4)
        ]
        for s, bot in enumerate(seats):
            bot.start(s, rules)
        while not game.is_over and len(game.actions) < 80:
            seat = game.turn
            action = act(seats[seat], game)
            if seat % 2 == 0:
                if game.claimable:
                    assert not isinstance(action, Move), "a claim was open and it played instead"
                    claimed += 1
                elif isinstance(action, Move):
                    legal = game.legal_moves()
                    same_card = [m for m in legal if isinstance(m, Move) and m.card == action.card]
                    if action.base:  # the whole escalera (R10)
                        longest = max(len(m.run) for m in same_card if m.base == action.base)
                        assert len(action.run) == longest, f"{action} forgets cards"
                    else:  # a drop only of a card that takes nothing
                        assert same_card == [action], f"{action} drops a card that could take something"
            game.play(action)
    assert claimed > 0


@pytest.mark.parametrize("kind", [DificilPlayer, ExpertoPlayer])
@pytest.mark.parametrize("players", [2, 4])
def test_seeded_determinism(players: int, kind: type[DificilPlayer]) -> None:
    rules = Rules(players=players)
    game = Game.new(rules, seed=11)
    others = [make_player("facil", s) for s in range(players)]
    a, b = kind(5, budget=SMALL), kind(5, budget=SMALL)
    a.start(0, rules)
    b.start(0, rules)
    choices = 0
    while not game.is_over and game.hand_number == 0:
        if game.turn == 0:
            view, legal = game.view(0), game.legal_moves()
            move_a, move_b = a.choose(view, legal), b.choose(view, legal)
            assert move_a == move_b
            choices += 1
            game.play(move_a)
        else:
            game.play(act(others[game.turn], game))
    assert choices >= 10


def test_takes_the_caida() -> None:
    """The opponent just dropped the 5♣: fall on it with the 5♥ (caída, R13) rather than take the K."""
    game = position(
        hands=[["Kc", "Qc", "Jc"], ["5h", "Kd", "Qs", "6c"]],
        table=["Kh", "3h", "5c"],
        last_drop="5c",
        stock_size=30,
        dealer=1,
    )
    bot = DificilPlayer(1)
    bot.start(1, game.rules)
    move = act(bot, game)
    assert str(move) == "5h x5c"


def test_takes_the_limpia() -> None:
    """Nothing dropped to fall on; the 7 takes 3+4 and the J: the table is clean (limpia, R14)."""
    game = position(
        hands=[["Kc", "Qc", "Jd"], ["7h", "Kd", "Qs", "6c"]],
        table=["3c", "4d", "Js"],
        stock_size=30,
        dealer=1,
    )
    bot = DificilPlayer(2)
    bot.start(1, game.rules)
    move = act(bot, game)
    assert isinstance(move, Move) and move.card.rank_char == "7" and len(move.taken) == 3


def test_wins_the_chica_with_a_caida_at_38() -> None:
    """At 38 only a caída scores (R20): the 5 falls on the 5 just dropped and wins the chica.

    (The 5 is also a limpia, worth nothing more at 38; the other cards take nothing.)"""
    game = position(
        hands=[["Kc", "Qc", "Jc", "Ah"], ["Kd", "Qs", "6c", "5h", "7d"]],
        table=["5c"],
        last_drop="5c",
        stock_size=30,
        dealer=1,
        scores=(20, 38),
    )
    bot = DificilPlayer(3)
    bot.start(1, game.rules)
    assert str(act(bot, game)) == "5h x5c"


def brute_force(game: Game, model: WinModel) -> dict[tuple[object, ...], float]:
    """Every action's value (P(team 0 wins)) by plain minimax with the engine's push/pop to the end
    of the hand: the last deal of a 1v1 hand, cartón scored by the engine."""

    def settle(start: int, scores: tuple[int, int]) -> float | None:
        s = list(scores)
        for e in game.events[start:]:
            if isinstance(e, Deal):
                break
            if isinstance(e, ChicaWon):
                return 1.0 if e.team == 0 else 0.0
            if isinstance(e, SCORING):
                s[e.team] += e.points
            if isinstance(e, HandEnd):
                over = True
        else:
            return None
        assert over
        return model.hand_start(s[0], s[1], 1 - dealer_team)

    def value(action: Action) -> float:
        start, scores, hand = len(game.events), game.score, game.hand_number
        game.push(action)
        if game.hand_number != hand or game.is_over:
            v = settle(start, scores)
            assert v is not None
        else:
            vals = [value(m) for m in game.legal_moves()]
            v = max(vals) if game.turn % 2 == 0 else min(vals)
        game.pop()
        return v

    dealer_team = game.dealer & 1
    return {rank_key(m): value(m) for m in game.legal_moves()}


def test_exact_last_deal_matches_brute_force() -> None:
    """In the last deal of a 1v1 hand nothing is hidden: dificil's and experto's choices are best moves."""
    rules = Rules().replace(chicas=1)
    model = win_model(rules)
    checked = 0
    for seed in range(40):
        game = Game.new(rules, seed=seed)
        bots = [make_player("facil", s) for s in range(2)]
        while not game.is_over and not (game.deal_number == 3 and len(game.hand(game.turn)) <= 4):
            game.play(act(bots[game.turn], game))
        if game.is_over or game.hand_number:
            continue
        seat = game.turn
        values = brute_force(game.copy(), model)
        sign = 1 if seat % 2 == 0 else -1
        best = max(sign * v for v in values.values())
        for bot in (DificilPlayer(seed), ExpertoPlayer(seed)):  # experto solves it as dificil does
            bot.start(seat, rules)
            choice = act(bot, game)
            assert sign * values[rank_key(choice)] == pytest.approx(best, abs=1e-12), bot.name
        oracle = OraclePlayer(seed)
        oracle.start(seat, rules)
        assert sign * values[rank_key(act(oracle, game))] == pytest.approx(best, abs=1e-12)
        if len({round(v, 9) for v in values.values()}) > 1:
            checked += 1
        if checked >= 6:
            break
    assert checked >= 6


def reference_values(game: Game, model: WinModel, depth: int, quiescence: bool) -> list[float]:
    """The search of :class:`WorldSearch` done with engine push/pop, without pruning, stopping at least
    two cards before the end of the deal (so that only the depth limit, with its last caída or limpia,
    and chica ends give leaves)."""
    n = game.players
    deals_left = len(game.stock) // (5 * n)
    dealer_team = game.dealer & 1

    def child(action: Action, d: int) -> float:
        chicas = game.chicas
        if isinstance(action, Move):
            d -= 1
        game.push(action)
        if game.chicas != chicas:
            v = 1.0 if game.chicas[0] > chicas[0] else 0.0
        elif d <= 0:
            v = quiet() if quiescence else leaf()
        else:
            vals = [child(m, d) for m in move_classes(game.legal_moves(), game.rules.capture == "manual")]
            v = max(vals) if game.turn % 2 == 0 else min(vals)
        game.pop()
        return v

    def leaf() -> float:
        return model.deal_end(*game.score, len(game.pile(0)), len(game.pile(1)), deals_left + 1, dealer_team)

    def quiet() -> float:
        """At the depth limit: the position as it stands, or the mover's best caída or limpia."""
        values = [leaf()]
        for m in move_classes(game.legal_moves(), game.rules.capture == "manual"):
            start, chicas = len(game.events), game.chicas
            game.push(m)
            if game.chicas != chicas:
                values.append(1.0 if game.chicas[0] > chicas[0] else 0.0)
            elif any(isinstance(e, (Caida, CaidaLimpia, CaidaRonda, Limpia)) for e in game.events[start:]):
                values.append(leaf())
            game.pop()
        return max(values) if game.turn % 2 == 0 else min(values)

    roots = move_classes(game.legal_moves(), game.rules.capture == "manual")
    return [child(m, depth) for m in roots]


#: Options that change when a chica ends: zapatero at 30 (R25) and the dos por dar cartón (R23).
ZAPATERO = {"zapatero_wins_mesa": True, "carton_short": "dos_por_dar"}


@pytest.mark.parametrize(
    ("preset", "players", "extra"),
    quick_first(
        [
            ("a_todo_rigor", 2, {}),
            ("todo_dos", 4, {}),
            ("todo_dos", 2, {}),
            ("basico", 2, {}),
            ("campeonato", 4, {}),
            ("a_todo_rigor", 2, ZAPATERO),
            ("a_todo_rigor", 4, ZAPATERO),
        ],
        keep=2,
    ),
    ids=[
        "a_todo_rigor-2",
        "todo_dos-4",
        "todo_dos-2",
        "basico-2",
        "campeonato-4",
        "zapatero-2",
        "zapatero-4",
    ],
)
@pytest.mark.parametrize("quiescence", [False, True])
def test_rank_search_equals_engine_search(
    preset: str, players: int, extra: dict[str, object], quiescence: bool
) -> None:
    """The search on ranks scores exactly like the engine (caída, limpia, caída a la ronda, 38, R21 …)."""
    rules = Rules.preset(preset, players=players).replace(chicas=1, **extra)
    model = win_model(rules)
    rng = random.Random(7)
    compared = 0
    for seed in range(3):
        game = Game.new(rules, seed=seed)
        bots = [make_player("facil", s) for s in range(players)]
        while not game.is_over:
            cards = sum(len(game.hand(s)) for s in range(players))
            if cards >= 3 and rng.random() < 0.3:
                depth = min(cards - 2, 5 if players == 2 else 4)
                roots = move_classes(game.legal_moves(), rules.capture == "manual")
                fast = WorldSearch(game.copy(), model, depth, quiescence).values(roots)
                slow = reference_values(game.copy(), model, depth, quiescence)
                assert fast == pytest.approx(slow, abs=1e-12)
                compared += 1
            game.play(act(bots[game.turn], game))
    assert compared > 10


@pytest.mark.parametrize(
    ("preset", "players"),
    [
        ("a_todo_rigor", 2),
        ("a_todo_rigor", 4),
        ("todo_dos", 2),
        ("todo_dos", 4),
        ("basico", 2),
        ("campeonato", 4),
    ],
)
def test_the_search_scoring_is_the_rule(preset: str, players: int) -> None:
    """WorldSearch keeps a fast copy of R13–R15, R18–R20 on ranks: equal to Rules.capture_score for every
    score, kind of capture and ronda, under every preset and the options that change it."""
    base = Rules.preset(preset, players=players)
    variants = [
        base,
        base.replace(ronda_limit=None),
        base.replace(treinta_y_ocho=False, caida_ronda_points=6),
    ]
    for rules in variants:
        game = Game.new(rules, seed=1)
        search = WorldSearch(game, win_model(rules), depth=2)
        victim = (1 - 1) % players  # the seat before seat 1
        for score in range(0, rules.target, 2):
            for caida, limpia in ((True, False), (False, True), (True, True)):
                for ronda in (False, True):
                    search.rondas = frozenset({10 * victim + 4} if ronda else ())
                    fast = search._points(1, score, caida, limpia, 4)
                    rule = rules.capture_score(score, caida=caida, limpia=limpia, ronda_caida=ronda and caida)
                    assert fast == rule.points, (rules, score, caida, limpia, ronda)


def hidden_variants() -> tuple[Game, Game]:
    """Two games that look the same from seat 0 (its hand, the table, the scores) but differ in the
    cards seat 1 holds and in the stock."""
    one, two = (
        position(
            hands=[["Js", "7h", "Ac", "2d"], other],
            table=["3c", "Jd"],
            last_drop="Jd",
            stock_size=30,
            dealer=1,
            scores=(12, 14),
        )
        for other in (["4h", "5s", "6d", "Kc"], ["Kd", "Ks", "2c", "Ah"])
    )
    assert one.hand(1) != two.hand(1) and one.stock != two.stock
    return one, two


def test_sees_only_its_view() -> None:
    one, two = hidden_variants()
    assert one.view(0) == two.view(0)
    for seed in range(3):
        a, b = DificilPlayer(seed), DificilPlayer(seed)
        a.start(0, one.rules)
        b.start(0, two.rules)
        assert act(a, one) == act(b, two)


def test_oracle_sees_the_hidden_cards() -> None:
    """Seat 0 holds the 5♠: the oracle keeps its 5 for the caída on it (R13) instead of dropping it."""
    game = position(hands=[["5s"], ["5h", "Kc"]], table=["2c"], dealer=1)
    assert game.turn == 1
    bot = OraclePlayer(1)
    bot.start(1, game.rules)
    assert str(act(bot, game)) == "Kc"
    with pytest.raises(RuntimeError):
        bot.choose(game.view(1), game.legal_moves())


def test_position_without_history() -> None:
    """A game set up from a position has no history naming the captured cards: dificil still plays."""
    game = position(hands=[["5s"], ["5h", "Kc"]], table=["2c"], dealer=1)
    assert game.view(1).history == () and sum(game.view(1).pile_sizes) == 36
    bot = DificilPlayer(1)
    bot.start(1, game.rules)
    assert act(bot, game) in game.legal_moves()


def test_move_classes() -> None:
    game = position(
        hands=[["Kc", "Ks", "5d", "Ah", "7h"], ["Qc", "Qd", "2h", "3s", "4c"]], table=["Jc"], dealer=1
    )
    classes = move_classes(game.legal_moves(), manual=False)
    assert [str(m) for m in classes] == ["Kc", "5d", "Ah", "7h"]  # one K: suits never matter (R1)
    manual = Rules.preset("campeonato", players=4)
    game = position(
        manual,
        hands=[["3h", "Kd", "Qs"], ["Jc", "Js", "Ah"], ["Kc", "Qh", "Jd"], ["Kh", "Qc", "2s"]],
        table=["3c", "4d", "5s"],
        dealer=3,
        turn=0,
    )
    kept = [str(m) for m in move_classes(game.legal_moves(), manual=True)]
    assert kept == ["3h x3c,4d,5s", "Kd", "Qs"]  # the full escalera only; no drop of the 3


def test_passed_caidas() -> None:
    """A seat that let a caída pass holds no card of that rank for the rest of the deal."""
    rules = Rules(players=4)
    hands = ["5h Kd Qs Jc 2c", "Kc Qd Js Ah 3d", "As 2s 3s 4s 6s", "Ac 2h 3h 4h 6h"]
    named = " ".join(hands).split()
    stock = [r + s for r in "A234567JQK" for s in "hsdc" if r + s not in named]
    game = Game.from_position(rules, hands=[h.split() for h in hands], stock=stock, turn=0, dealer=3)
    game.play("5h")
    game.play("Kc")  # seat 1 lets the caída on the 5 pass: no 5 now
    game.play("As")
    assert passed_caidas(game.view(0)) == {1: {4}, 2: {9}}  # and seat 2 let the K pass
    game.play("Ac xAs")  # seat 3 takes the caída: nothing inferred
    assert passed_caidas(game.view(0)) == {1: {4}, 2: {9}}


def test_win_model() -> None:
    model = WinModel(Rules())
    for dealer in (0, 1):
        row = [model.hand_start(s, 20, dealer) for s in range(0, 40, 2)]
        assert all(0.0 <= v <= 1.0 for v in row)
        assert row == sorted(row), "more points never lower the chances"
    assert model.hand_start(40, 30, 1) == 1.0 and model.hand_start(30, 40, 0) == 0.0
    # cards in the pile are worth a cartón
    piles = [model.deal_end(30, 30, p, 20 - p, 1, 0) for p in range(0, 21, 2)]
    assert piles == sorted(piles) and piles[-1] - piles[0] > 0.5
    assert carton_points(Rules(), 26, 14, True) == 12


def test_budget_bounds_the_work(monkeypatch: pytest.MonkeyPatch) -> None:
    """The budget (in nodes and worlds, not time: reproducible) bounds how many worlds it searches."""
    import cuarenta.players.dificil as dificil

    one, _ = hidden_variants()
    sampled = [0]
    real = dificil.sample_inferred

    def counted(*args: object) -> Game:
        sampled[0] += 1
        return real(*args)  # type: ignore[arg-type]

    monkeypatch.setattr(dificil, "sample_inferred", counted)
    seen = []
    small, big = Budget(nodes=0, min_worlds=3, max_worlds=3), Budget(nodes=10**9, min_worlds=1, max_worlds=9)
    for budget in (small, big):
        sampled[0] = 0
        bot = DificilPlayer(1, budget=budget)
        bot.start(0, one.rules)
        act(bot, one)
        seen.append(sampled[0])
        assert bot.work is not None and bot.work.worlds == sampled[0]  # what the move says it searched
        assert bot.work.within(budget, 2) and bot.work.nodes >= bot.work.last_nodes > 0
    assert seen == [3, 9]


def test_streak_from_the_view() -> None:
    """R21 (four caídas in a row): the streak read from a view's history equals the one read from the
    game's events, so sampled worlds (which have no history) search with the right one."""
    from cuarenta.players.search import _streak, view_streak

    rules = Rules.preset("campeonato", players=4)
    longest = 0
    for seed in range(10):
        game = Game.new(rules, seed=seed)
        bots = [make_player("aleatorio", s) for s in range(4)]
        while not game.is_over and game.hand_number == 0:
            streak = view_streak(game.view(game.turn))
            assert streak == _streak(game.hand_events())
            longest = max(longest, streak[1])
            game.play(act(bots[game.turn], game))
    assert longest >= 2


@pytest.mark.parametrize("level", quick_first(["dificil", "experto"]))
def test_the_values_it_gives_are_the_ones_it_chooses_by(level: str) -> None:
    """``values`` (what the analysis reads) weighs the same worlds as ``choose`` for the same seed: the
    class it values most is the one it plays, for either team; every value is a chance. (12 decisions a
    player in CI, 3 in the quick loop.)"""
    small = Budget(nodes=0, min_worlds=6, max_worlds=6)
    checked = 0
    per_player = examples(12)
    for players in (2, 4):
        game = Game.new(Rules(players=players), seed=12)
        bots = [make_player("normal", s) for s in range(players)]
        for s, bot in enumerate(bots):
            bot.start(s, game.rules)
        while not game.is_over and checked < per_player * players:
            seat = game.turn
            classes = move_classes(game.legal_moves(), False)
            if len(classes) > 1:
                chooser, valuer = make_player(level, f"v/{seat}"), make_player(level, f"v/{seat}")
                assert isinstance(chooser, DificilPlayer) and isinstance(valuer, DificilPlayer)
                chooser.budget = valuer.budget = small
                chooser.start(seat, game.rules)
                valuer.start(seat, game.rules)
                chosen = chooser.choose(game.view(seat), game.legal_moves())
                values = valuer.values(game.view(seat), classes)
                assert all(0.0 <= v <= 1.0 for v in values)
                assert classes[max(range(len(classes)), key=lambda i: values[i])] == chosen
                assert valuer.work == chooser.work  # the same worlds, the same work
                checked += 1
            game.play(act(bots[seat], game))
    assert checked >= per_player
