"""Estimate the win-probability tables of cuarenta.players.winprob by simulation.

1. Play many hands from 0-0 between two computer players (``--policy``, default
   ``normal``, the policy of the committed tables) and record, per hand, the
   scoring events in order (by kind, with the team relative to the dealer), the
   pile sizes at the end of every deal and the final pile sizes.
2. For every preset, replay those hands from every pair of start scores under the
   preset's scoring rules (caída y limpia, caída a la ronda, the 30 ronda limit,
   38 que no juega, the cartón, winning during play) and solve for V(x, y): the
   chance that the dealer's team wins the chica from a hand start at x : y.
3. For every number of deals still to come, store the joint distribution of the
   points made in play by each team in those deals and the quantiles of how the
   remaining cards split, for the end-of-deal evaluation.

The result is written to src/cuarenta/players/data/winprob.json, the data file that
winprob.py reads. Run from the repository root (about 6 minutes on one core)::

    .venv/bin/python scripts/make_winprob.py

With the defaults (6000 hands per number of players, ``normal``, seed 1) it writes
the committed file bit for bit: every scoring rule comes from
:class:`~cuarenta.Rules`, so a rule change is a re-run of this script.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from collections import Counter
from pathlib import Path
from typing import Any

from cuarenta import Game, Rules
from cuarenta.events import Caida, CaidaLimpia, CaidaRonda, Deal, FourOfAKind, HandEnd, Limpia, Ronda
from cuarenta.players import act, make_player
from cuarenta.players.winprob import DATA_FORMAT
from cuarenta.rules import PRESET_NAMES

TARGET_FILE = Path(__file__).resolve().parents[1] / "src" / "cuarenta" / "players" / "data" / "winprob.json"

# A simulated hand: events (deal, team relative to the dealer: 0 dealer's team, kind),
# piles (dealer's team, other) at the end of each deal but the last, final piles.
Sample = tuple[tuple[tuple[int, int, str], ...], tuple[tuple[int, int], ...], tuple[int, int]]


#: The letter of each scoring event a sample records (a caída a la ronda: ``cr``, or ``crl`` with a limpia).
_EVENT_LETTERS: tuple[tuple[type, str], ...] = (
    (Ronda, "r"),
    (FourOfAKind, "f"),
    (Caida, "c"),
    (CaidaLimpia, "cl"),
    (Limpia, "l"),
)


def _play_first_hand(game: Game, bots: list[Any], dt: int) -> list[tuple[int, int]]:
    """Play the game's first hand; the piles (the dealer's team first) as each new deal came."""
    deal_piles: list[tuple[int, int]] = []
    deal = 0
    while not game.is_over:
        action = act(bots[game.turn], game)
        game.push(action)
        if game.hand_number > 0 or game.is_over:
            break
        if game.deal_number != deal:
            deal = game.deal_number
            deal_piles.append((len(game.pile(dt)), len(game.pile(1 - dt))))
    return deal_piles


def _first_hand_events(game: Game, dt: int) -> tuple[list[tuple[int, int, str]], tuple[int, int] | None]:
    """The scoring events of the first hand as (deal, team — 0 the dealer's —, letter), and the piles at
    its end (``None``: four of a kind ended the chica first)."""
    events: list[tuple[int, int, str]] = []
    final: tuple[int, int] | None = None
    d = -1
    for e in game.events:
        if isinstance(e, Deal):
            if e.hand > 0:
                break
            d = e.deal
        elif isinstance(e, CaidaRonda):
            events.append((d, e.team ^ dt, "crl" if e.limpia else "cr"))
        elif isinstance(e, HandEnd):
            final = (e.pile_sizes[dt], e.pile_sizes[1 - dt])
        else:
            letter = next((x for kind, x in _EVENT_LETTERS if isinstance(e, kind)), None)
            if letter is not None:
                events.append((d, e.team ^ dt, letter))  # type: ignore[attr-defined]
    return events, final


def simulate(players: int, hands: int, policy: str, seed: int) -> list[Sample]:
    rules = Rules.preset("a_todo_rigor", players=players).replace(chicas=1)
    out: list[Sample] = []
    start = time.perf_counter()
    for h in range(hands):
        game = Game.new(rules, seed=f"winprob/{seed}/{h}")
        bots = [make_player(policy, seed=f"{h}/{s}") for s in range(players)]
        for s, bot in enumerate(bots):
            bot.start(s, rules)
        dt = game.dealer & 1
        deal_piles = _play_first_hand(game, bots, dt)
        events, final = _first_hand_events(game, dt)
        if final is None:  # four of a kind ended the chica
            continue
        out.append((tuple(events), tuple(deal_piles), final))
        if (h + 1) % 1000 == 0:
            print(f"  {players}p: {h + 1} hands, {time.perf_counter() - start:.0f} s", file=sys.stderr)
    return out


def score_event(rules: Rules, kind: str, score: int) -> tuple[int, bool] | None:
    """Points one recorded event gives a team at ``score`` under ``rules`` (R15–R20, computed by
    :class:`~cuarenta.Rules`), and whether it is a caída. ``None``: it wins the chica (four of a kind)."""
    if kind == "r":
        return rules.ronda_score(score)[0], False
    if kind == "f":
        if rules.four_of_a_kind == "wins_chica":
            return None
        return rules.ronda_score(score, four=True)[0], False
    if kind == "l":
        return rules.capture_score(score, caida=False, limpia=True).points, False
    limpia = kind.endswith("l")
    ronda = kind.startswith("cr")
    return rules.capture_score(score, caida=True, limpia=limpia, ronda_caida=ronda).points, True


def decided(rules: Rules, scores: list[int]) -> int | None:
    """The team (0 the dealer's) that has won the chica with these scores (R24, R25), or ``None``."""
    pair = (scores[0], scores[1])
    winner = rules.zapatero_winner(pair)
    return winner if winner is not None else rules.chica_winner(pair, dealer_team=0)


def replay(rules: Rules, sample: Sample, x: int, y: int) -> tuple[int, int] | int:
    """Scores (dealer's team, other) after the hand, or the winner (0 dealer's team, 1 other)."""
    s = [x, y]
    events, _, final = sample
    for _, team, kind in events:
        got = score_event(rules, kind, s[team])
        if got is None:
            return team
        s[team] += got[0]
        winner = decided(rules, s)
        if winner is not None:
            return winner
    carton = rules.carton(final, dealer_team=0)
    for team in (0, 1):
        s[team] += rules.award(s[team], carton[team][0], caida=False)[0]
    winner = decided(rules, s)
    if winner is not None:
        return winner
    return s[0], s[1]


def solve(rules: Rules, samples: list[Sample]) -> list[list[float]]:
    """V[x/2][y/2]: the dealer's team's chance to win from a hand start at x : y."""
    size = rules.target // 2
    weighted = Counter(samples)
    items = list(weighted.items())
    total = sum(weighted.values())
    outcomes: dict[tuple[int, int], list[tuple[int, tuple[int, int] | int]]] = {}
    for i in range(size):
        for j in range(size):
            outcomes[i, j] = [(w, replay(rules, smp, 2 * i, 2 * j)) for smp, w in items]
    v = [[0.5] * size for _ in range(size)]
    order = sorted(outcomes, key=lambda ij: -(ij[0] + ij[1]))
    for sweep in range(200):
        change = 0.0
        for i, j in order:
            acc = 0.0
            for w, res in outcomes[i, j]:
                if isinstance(res, int):
                    acc += w * (1.0 if res == 0 else 0.0)
                else:
                    x2, y2 = res
                    acc += w * (1.0 - v[y2 // 2][x2 // 2])
            new = acc / total
            change = max(change, abs(new - v[i][j]))
            v[i][j] = new
        if change < 1e-7:
            print(f"    converged after {sweep + 1} sweeps", file=sys.stderr)
            break
    return v


def mid_hand(rules: Rules, samples: list[Sample], deals: int, keep: int = 60) -> dict[str, Any]:
    """For each number of deals still to come: in-play atoms, pile-split quantiles, mean leftovers."""
    atoms: dict[int, list[list[int]]] = {}
    shares: dict[int, list[float]] = {}
    left: dict[int, float] = {}
    for deals_left in range(1, deals + 1):
        first = deals - deals_left  # the first deal still to be played
        hist: Counter[tuple[int, int, int, int]] = Counter()
        deltas: list[float] = []
        leftovers: list[int] = []
        for events, piles, final in samples:
            pts = [0, 0]
            caida = [0, 0]
            for d, team, kind in events:
                if d < first:
                    continue
                got = score_event(rules.replace(ronda_limit=None), kind, 0)
                if got is None:
                    continue
                pts[team] += got[0]
                caida[team] |= got[1]
            hist[pts[0], caida[0], pts[1], caida[1]] += 1
            base = piles[first - 1] if first > 0 else (0, 0)
            gains = (final[0] - base[0], final[1] - base[1])
            deltas.append((gains[0] - gains[1]) / 2)
            leftovers.append(40 - final[0] - final[1])
        n = sum(hist.values())
        top = hist.most_common(keep)
        kept = dict(top)
        top_keys = set(kept)
        for (a, ca, b, cb), c in hist.items():
            if (a, ca, b, cb) in top_keys:
                continue
            # merge a rare outcome into the closest kept one (same caída flags first)
            near = min(
                kept, key=lambda k: abs(k[0] - a) + abs(k[2] - b) + 100 * ((k[1] != ca) + (k[3] != cb))
            )
            kept[near] += c
        atoms[deals_left] = [
            [round(10000 * c / n), a, ca, b, cb] for (a, ca, b, cb), c in sorted(kept.items())
        ]
        print(f"    {deals_left} deals left: {len(hist)} outcomes merged into {len(kept)}", file=sys.stderr)
        deltas.sort()
        qs = (0.1, 0.3, 0.5, 0.7, 0.9)
        shares[deals_left] = [round(deltas[int(q * len(deltas))], 2) for q in qs]
        left[deals_left] = round(sum(leftovers) / len(leftovers), 2)
    return {"atoms": atoms, "shares": shares, "left": left}


def _json_keys(value: Any) -> Any:
    """The same data with every dict key as text (JSON objects have text keys)."""
    if isinstance(value, dict):
        return {str(k): _json_keys(v) for k, v in value.items()}
    if isinstance(value, list):
        return [_json_keys(v) for v in value]
    return value


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--hands", type=int, default=6000, help="simulated hands per number of players")
    parser.add_argument("--policy", default="normal", help="computer player used for the simulation")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--dry-run", action="store_true", help="print the data instead of writing it")
    args = parser.parse_args(argv)
    data: dict[str, dict[str, Any]] = {}
    for players in (2, 4):
        print(f"simulating {args.hands} hands, {players} players, {args.policy}", file=sys.stderr)
        samples = simulate(players, args.hands, args.policy, args.seed)
        deals = 40 // (5 * players)
        for name in PRESET_NAMES:
            try:
                rules = Rules.preset(name, players=players)
            except Exception:
                continue
            print(f"  solving {players}/{name}", file=sys.stderr)
            v = solve(rules, samples)
            entry: dict[str, Any] = {"v": [[round(10000 * p) for p in row] for row in v]}
            entry.update(mid_hand(rules, samples, deals))
            data[f"{players}/{name}"] = entry
    tables = {key: _json_keys(entry) for key, entry in data.items()}
    text = json.dumps(
        {"format": DATA_FORMAT, "version": 1, "tables": tables}, separators=(",", ":"), sort_keys=True
    )
    if args.dry_run:
        print(text)
        return
    TARGET_FILE.write_text(text + "\n", encoding="utf-8")
    print(f"wrote {TARGET_FILE}", file=sys.stderr)


if __name__ == "__main__":
    main()
