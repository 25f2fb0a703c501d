"""``cuarenta daily``: the deal of the day in the terminal, played offline and sent later (docs/daily.md
"Offline", docs/terminal.md).

With a connection, ``cuarenta daily --server URL`` takes the week's offline deals from the server and keeps
them in a folder of the person's (:class:`DailyShelf`), with the server's address; it sends what waits
there, plays today's deal (UTC) against the day's computer player, and sends the finished chica's record.
Without one, ``cuarenta daily`` plays today's deal from the folder and keeps the record until the next time
there is a connection (``cuarenta daily --send`` sends and plays nothing). The server checks each record by
replaying it and places it among the day's offline results.

>>> import tempfile, pathlib
>>> with tempfile.TemporaryDirectory() as d:
...     shelf = DailyShelf(pathlib.Path(d))
...     deals = {"days": [{"day": "2026-12-05", "seed": "dia/2026-12-05/sin/ab"}]}
...     shelf.keep_deals("http://localhost:8000", deals)
...     shelf.deal_of(datetime.date(2026, 12, 5)), shelf.deal_of(datetime.date(2026, 12, 6)), shelf.server()
('dia/2026-12-05/sin/ab', None, 'http://localhost:8000')
"""

from __future__ import annotations

import datetime
import hashlib
import json
import os
import sys
import urllib.error
import urllib.request
from pathlib import Path
from typing import Annotated, Any, Final

import typer

from cuarenta.cli.options import LangOption
from cuarenta.cli.play import TTY_DELAY
from cuarenta.cli.terminal import TerminalGame
from cuarenta.daily import DAILY_LEVEL, daily_rules, is_offline, today
from cuarenta.i18n import DEFAULT_LANG, t
from cuarenta.names import BadName, clean_name
from cuarenta.record import GameRecord
from cuarenta.seeds import mesa_seed

#: Seconds a request to the server may take before the terminal plays on without it.
TIMEOUT_SECONDS: Final = 10.0


def default_dir() -> Path:
    """Where the deals and the records waiting to be sent are kept: ``$XDG_DATA_HOME/cuarenta/daily``
    (``~/.local/share/cuarenta/daily``)."""
    base = os.environ.get("XDG_DATA_HOME") or str(Path.home() / ".local" / "share")
    return Path(base) / "cuarenta" / "daily"


class Unreachable(Exception):
    """The server did not answer (no connection, a wrong address, a timeout)."""


class Refusal(Exception):
    """The server answered with a refusal: ``status``, ``code`` and what it said."""

    def __init__(self, status: int, code: str, detail: str) -> None:
        super().__init__(detail)
        self.status, self.code, self.detail = status, code, detail


class DailyClient:
    """The two routes of a server's offline deal of the day (docs/protocol.md "Offline")."""

    def __init__(self, base: str, timeout: float = TIMEOUT_SECONDS) -> None:
        self.base = base.rstrip("/")
        self.timeout = timeout

    def _call(self, path: str, body: dict[str, Any] | None = None) -> Any:
        data = None if body is None else json.dumps(body).encode()
        request = urllib.request.Request(
            self.base + path, data=data, headers={"Content-Type": "application/json"}
        )
        try:
            with urllib.request.urlopen(request, timeout=self.timeout) as answer:
                return json.loads(answer.read())
        except urllib.error.HTTPError as exc:
            try:
                said = json.loads(exc.read())
            except ValueError:
                said = {}
            detail = said.get("detail") if isinstance(said, dict) else None
            code = said.get("code") if isinstance(said, dict) else None
            raise Refusal(exc.code, str(code or exc.code), str(detail or exc.reason)) from None
        except (urllib.error.URLError, OSError, ValueError) as exc:
            raise Unreachable(str(getattr(exc, "reason", exc))) from None

    def deals(self) -> dict[str, Any]:
        """``GET /api/daily/offline``: the week's offline deals."""
        answer = self._call("/api/daily/offline")
        if not isinstance(answer, dict) or not isinstance(answer.get("days"), list):
            raise Unreachable(f"{self.base} did not answer as a Cuarenta server")
        return answer

    def send(self, record: str) -> dict[str, Any]:
        """``POST /api/daily/offline``: a finished chica's record; the entry and its place."""
        answer = self._call("/api/daily/offline", {"record": record})
        if not isinstance(answer, dict):
            raise Unreachable(f"{self.base} did not answer as a Cuarenta server")
        return answer


class DailyShelf:
    """The folder of the terminal's deal of the day: ``deals.json`` (the server and its offline deals),
    ``outbox/`` (each finished chica's record until the server has it) and ``sent.jsonl`` (what the
    server answered each)."""

    def __init__(self, folder: Path) -> None:
        self.folder = folder
        self.outbox = folder / "outbox"

    def keep_deals(self, server: str, answer: dict[str, Any]) -> None:
        """Keep the server's address and the days of its answer that are offline deals."""
        days = {
            d["day"]: d["seed"]
            for d in answer.get("days", [])
            if isinstance(d, dict) and isinstance(d.get("day"), str) and is_offline(d.get("seed"))
        }
        self.folder.mkdir(parents=True, exist_ok=True)
        (self.folder / "deals.json").write_text(json.dumps({"server": server, "days": days}, indent=1))

    def _deals(self) -> dict[str, Any]:
        try:
            found = json.loads((self.folder / "deals.json").read_text())
        except (OSError, ValueError):
            return {}
        return found if isinstance(found, dict) else {}

    def server(self) -> str | None:
        """The server the deals came from, if any."""
        server = self._deals().get("server")
        return server if isinstance(server, str) else None

    def deal_of(self, day: datetime.date) -> str | None:
        """The offline deal's seed of ``day``, if it is kept."""
        days = self._deals().get("days")
        seed = days.get(day.isoformat()) if isinstance(days, dict) else None
        return seed if is_offline(seed) else None

    def put(self, record: str) -> Path:
        """Keep a finished chica's record until it is sent (its name: the day and a digest of it)."""
        self.outbox.mkdir(parents=True, exist_ok=True)
        digest = hashlib.sha256(record.encode()).hexdigest()[:16]
        path = self.outbox / f"{today().isoformat()}-{digest}.cuarenta"
        path.write_text(record, encoding="utf-8")
        return path

    def waiting(self) -> list[Path]:
        """The records not sent yet, oldest first."""
        return sorted(self.outbox.glob("*.cuarenta")) if self.outbox.is_dir() else []

    def done(self, path: Path, answer: dict[str, Any]) -> None:
        """``path`` was answered (kept or refused for good): note the answer, drop the record."""
        with (self.folder / "sent.jsonl").open("a", encoding="utf-8") as notes:
            notes.write(json.dumps({"record": path.name, **answer}) + "\n")
        path.unlink()


def standing_words(count: int, beats: float, lang: str) -> str:
    """Where a result stands among the day's ``count`` offline results, of which it beats the share
    ``beats``: alone, the day's first (beating "100% of the others" when there are none says nothing).

    >>> standing_words(4, 0.75, "en"), standing_words(1, 1.0, "en")
    ('better than 75% of the others', 'the first result of the day')
    """
    return t("page.daily.beats", lang, beats=round(100 * beats)) if count > 1 else t("page.daily.first", lang)


def send_waiting(shelf: DailyShelf, client: DailyClient, lang: str) -> bool:
    """Send every record that waits, saying what the server made of each; ``False`` if the server could
    not be reached (what is left waits for the next time)."""
    for path in shelf.waiting():
        try:
            answer = client.send(path.read_text(encoding="utf-8"))
        except Unreachable:
            return False
        except Refusal as exc:  # a record the server will never take: said once, and not sent again
            shelf.done(path, {"refused": exc.code, "detail": exc.detail})
            typer.echo(t("term.daily.refused", lang, detail=exc.detail))
            continue
        shelf.done(path, answer)
        typer.echo(
            t(
                "term.daily.placed",
                lang,
                day=answer["day"],
                result=f"{answer['result']:+d}",
                place=answer["place"],
                count=answer["count"],
                standing=standing_words(answer["count"], answer["beats"], lang),
            )
        )
    return True


def daily_command(
    server: Annotated[
        str | None,
        typer.Option(
            "--server",
            metavar="URL",
            help="The Cuarenta server to take the week's offline deals from and send results to (kept for "
            "next time).",
        ),
    ] = None,
    name: Annotated[str, typer.Option("--name", help="Your name in the day's offline ranking.")] = "",
    send_only: Annotated[
        bool, typer.Option("--send", help="Only send the results that wait; play nothing.")
    ] = False,
    folder: Annotated[
        Path | None,
        typer.Option("--dir", metavar="DIR", help="Where the deals and the waiting results are kept."),
    ] = None,
    lang: LangOption = DEFAULT_LANG,
    delay: Annotated[
        float | None,
        typer.Option("--delay", metavar="SECONDS", min=0.0, help="Pause before each computer move."),
    ] = None,
) -> None:
    """Play the deal of the day offline and send the result when there is a connection."""
    try:
        name = clean_name(name, empty_ok=True)
    except BadName as exc:
        raise typer.BadParameter(str(exc), param_hint="'--name'") from None
    shelf = DailyShelf(folder or default_dir())
    address = server or shelf.server()
    client = None if address is None else DailyClient(address)
    online = False
    if client is not None:
        try:
            shelf.keep_deals(client.base, client.deals())
            online = send_waiting(shelf, client, lang)
        except (Unreachable, Refusal) as exc:
            typer.echo(t("term.daily.no_server", lang, server=client.base, why=str(exc)), err=True)
    if send_only:
        if not online:
            raise typer.Exit(1)
        return
    seed = shelf.deal_of(today())
    if seed is None:
        typer.echo(t("term.daily.no_deal", lang, day=today().isoformat()), err=True)
        raise typer.Exit(1)
    if delay is None:
        delay = TTY_DELAY if sys.stdin.isatty() else 0.0
    typer.echo(t("term.daily.title", lang, day=today().isoformat()))
    # dealt as a room deals its first mesa (the server's and the device's alike): the same cards, the same
    # computer player (seeded from the chica's seed and its seat)
    game = TerminalGame(daily_rules(), level=DAILY_LEVEL, seed=mesa_seed(seed, 1), lang=lang, delay=delay)
    code = game.run()
    if not game.game.chica_results:
        typer.echo(t("term.daily.unfinished", lang))
        raise typer.Exit(code)
    record = GameRecord.from_game(game.game, seats=(name or "person", f"bot:{DAILY_LEVEL}")).to_text()
    shelf.put(record)
    if client is None or not send_waiting(shelf, client, lang):
        typer.echo(t("term.daily.kept", lang, folder=str(shelf.outbox)))


__all__ = [
    "DailyClient",
    "DailyShelf",
    "Refusal",
    "Unreachable",
    "daily_command",
    "default_dir",
    "send_waiting",
]
