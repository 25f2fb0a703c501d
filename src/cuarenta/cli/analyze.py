"""``cuarenta analyze RECORD``: the computer's analysis of one seat's moves in a recorded mesa.

A thin layer over :func:`cuarenta.analysis.analyze`: it reads a record file (the text or the JSON form of
docs/record-format.md), judges the seat's decisions with ``experto`` from that seat's view alone, and
prints the costly ones in the game's words, in Spanish or English, or everything as JSON. docs/analysis.md
explains the grades and the words.
"""

from __future__ import annotations

import dataclasses
import json
import sys
from collections.abc import Callable
from typing import Annotated

import typer

from cuarenta.analysis import ANALYSIS_LEVEL, GRADES, THRESHOLDS, Decision, Review, analyst, analyze
from cuarenta.analysis.luck import ChicaSplit, split
from cuarenta.cli.options import LangOption
from cuarenta.cli.records import RecordArgument, read_record, record_names
from cuarenta.cli.terminal import option_text
from cuarenta.game import Game
from cuarenta.i18n import DEFAULT_LANG, card_text, cards_text, t
from cuarenta.moves import Action, Claim
from cuarenta.players.dificil import Budget
from cuarenta.record import GameRecord
from cuarenta.replay import Replay


def describe_action(action: Action, game: Game, lang: str = DEFAULT_LANG) -> str:
    """An action of the seat to move in ``game``, in words: ``7♥: llevar 3♣ + 4♦ (es caída)``."""
    if isinstance(action, Claim):
        return t("claim.take", lang, cards=cards_text(action.cards))
    return f"{card_text(action.card)}: {option_text(action, list(game.table), game.last_drop, lang)}"


def report(record: GameRecord, review: Review, lang: str = DEFAULT_LANG, every: bool = False) -> list[str]:
    """The analysis in words: a title, each costly decision (every one with ``every``) and a summary."""
    level = t(f"level.{review.level}", lang)
    lines = [
        t("analysis.title", lang, seat=record_names(record, lang)[review.seat], level=level, seed=review.seed)
    ]
    shown = {d.ply: d for d in review.decisions if every or d.grade is not None}
    for ply, _, game in Replay(record).walk():
        decision: Decision | None = shown.get(ply)
        if decision is not None:
            where = {"hand": decision.hand + 1, "deal": decision.deal + 1, "ply": ply + 1}
            played = describe_action(decision.played, game, lang)
            if decision.best == decision.played:
                lines.append(t("analysis.line_best", lang, **where, played=played))
            else:
                grade = t(f"analysis.grade.{decision.grade}", lang) if decision.grade else "—"
                best = describe_action(decision.best, game, lang)
                loss = f"{100 * decision.loss:.1f}"
                lines.append(
                    t(
                        "analysis.line",
                        lang,
                        **where,
                        played=played,
                        best=best,
                        loss=loss,
                        points=f"{decision.points:.1f}",
                        grade=grade,
                    )
                )
            if decision.motifs:
                words = t("word.list_sep", lang).join(t(f"analysis.motif.{m}", lang) for m in decision.motifs)
                lines.append("  " + t("analysis.why", lang, motifs=words))
    if not any(d.grade for d in review.decisions):
        lines.append(t("analysis.clean", lang, threshold=f"{100 * THRESHOLDS[GRADES[0]]:g}"))
    counts = review.counts
    lines.append(
        t(
            "analysis.summary",
            lang,
            decisions=len(review.decisions),
            forced=review.forced,
            imprecision=counts["imprecision"],
            error=counts["error"],
            grave=counts["grave"],
            loss=f"{100 * review.loss:.1f}",
            points=f"{review.points:.1f}",
        )
    )
    return lines


def luck_line(s: ChicaSplit, players: int, lang: str = DEFAULT_LANG) -> str:
    """One chica's luck and skill in words."""
    key = "analysis.luck" if players == 2 else "analysis.luck_pairs"
    return t(
        key,
        lang,
        chica=s.chica + 1,
        result=t("analysis.won" if s.won else "analysis.lost", lang),
        start=f"{100 * s.start:.0f}",
        own=f"{100 * s.own:.0f}",
        rivals=f"{100 * s.rivals:.0f}",
        luck=f"{100 * s.luck:+.0f}",
    )


def worlds_budget(worlds: int | None) -> Budget | None:
    """``--worlds N``: the analysing level's budget, N worlds a decision (``None``: its own budget)."""
    if worlds is None:
        return None
    own = analyst(ANALYSIS_LEVEL, 0).budget
    return dataclasses.replace(own, nodes=0, min_worlds=worlds, max_worlds=worlds)


def luck_splits(
    record: GameRecord, review: Review, budget: Budget | None, progress: Callable[[int, int], None]
) -> list[ChicaSplit]:
    """The luck and skill of ``review``'s team in each chica: the other seats analysed as it was."""
    reviews = {review.seat: review}
    for other in range(record.players):
        if other != review.seat:
            reviews[other] = analyze(
                record, other, level=review.level, seed=review.seed, budget=budget, progress=progress
            )
    return split(record, reviews, review.seat % 2)


def analyze_command(
    record_path: RecordArgument,
    seat: Annotated[
        int, typer.Option("--seat", metavar="N", help="The seat whose moves are judged (0: the first).")
    ] = 0,
    as_json: Annotated[
        bool, typer.Option("--json", help="Print the whole analysis as one JSON object.")
    ] = False,
    every: Annotated[
        bool, typer.Option("--all", help="Show every decision, not only the costly ones.")
    ] = False,
    seed: Annotated[int, typer.Option("--seed", metavar="S", help="Seed of the analysis's worlds.")] = 0,
    luck: Annotated[
        bool,
        typer.Option(
            "--luck", help="Also split each chica's result into luck and skill (analyses every seat)."
        ),
    ] = False,
    worlds: Annotated[
        int | None,
        typer.Option(
            "--worlds",
            metavar="N",
            min=1,
            max=2000,
            help="Deals of the hidden cards searched per decision (default: experto's own budget; more is "
            "deeper and slower).",
        ),
    ] = None,
    lang: LangOption = DEFAULT_LANG,
) -> None:
    """Judge a seat's moves in a recorded mesa: what `experto` would have played, and what each move cost.

    Every judgement uses only what that seat knew at the time. Example: `cuarenta analyze mesa.txt --seat 1`.
    """
    record = read_record(record_path)
    if not 0 <= seat < record.players:
        raise typer.BadParameter(
            f"seat {seat} is not a seat of this record: it has seats 0 to {record.players - 1}",
            param_hint="'--seat'",
        )
    talk = sys.stderr.isatty() and not as_json

    def progress(done: int, total: int) -> None:
        if talk:
            sys.stderr.write("\r" + t("analysis.thinking", lang, done=done, total=total))
            sys.stderr.flush()

    budget = worlds_budget(worlds)
    review = analyze(record, seat, level=ANALYSIS_LEVEL, seed=seed, budget=budget, progress=progress)
    splits = luck_splits(record, review, budget, progress) if luck else []
    if talk:
        sys.stderr.write("\n")
    if as_json:
        data = review.to_dict()
        if luck:
            data["luck"] = [s.to_dict() for s in splits]
        typer.echo(json.dumps(data, ensure_ascii=False, indent=1))
        return
    for line in report(record, review, lang, every):
        typer.echo(line)
    for s in splits:
        typer.echo(luck_line(s, record.players, lang))
