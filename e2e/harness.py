"""The tooling of the browser tests (and of scripts/screenshots.py): the real server, Chromium, the page.

- :class:`Server` runs ``cuarenta serve`` as a subprocess on a free port with its own data directory, waits
  for ``GET /api/health``, and can be stopped and started again on the same port and data (a restart).
- :func:`launch_browser` starts Debian's Chromium (``/usr/bin/chromium``, or ``$CUARENTA_CHROMIUM``) through
  Playwright's sync API; no browser is downloaded.
- The rest drives the page like a person: fill the new-game form, wait until something needs the person
  (their turn, a capture choice, the end-of-hand summary, the result), click a card. Every wait is on
  the page's own state (``#screen-table[data-ready]``, open dialogs), never a sleep.

Selectors are the page's ``data-testid`` attributes (docs/web.md lists them).
"""

from __future__ import annotations

import contextlib
import functools
import http.server
import json
import os
import re
import subprocess
import sys
import threading
import time
import urllib.error
import urllib.request
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, ClassVar, Final

from playwright.sync_api import Browser, BrowserContext, Page, Playwright, Route, WebSocket, expect
from websockets.sync.client import connect as ws_connect

from cuarenta import Card
from cuarenta.i18n import LANGS, card_name

# the tests' port chooser (below the ephemeral range), shared with the browser tests
sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests"))
from support.ports import free_port
from support.wire import Reducer

ROOT: Final = Path(__file__).resolve().parent.parent
CHROMIUM: Final = os.environ.get("CUARENTA_CHROMIUM", "/usr/bin/chromium")
CHROMIUM_ARGS: Final = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
]
#: The phone the browser tests hold (CSS pixels).
PHONE: Final = {"width": 360, "height": 740}
#: Generous: the machine may be busy (2 cores, other test runs).
TIMEOUT_MS: Final = 20_000
#: How long a whole step may take (a computer move, a hand ending) before a wait fails.
STEP_TIMEOUT_MS: Final = 30_000
CARD_RE: Final = re.compile(r"^[A2-7JQK][hsdc]$")
RANKS: Final = "A234567JQK"
SUIT_SYMBOLS: Final = {"h": "♥", "s": "♠", "d": "♦", "c": "♣"}

#: Events that score or end something: they outrank a plain play's saying (announce.js SCORING).
SCORING = {
    "mesa_won": 5,
    "chica_won": 5,
    "zapatero": 5,
    "caida_limpia": 4,
    "caida_ronda": 4,
    "caida": 3,
    "limpia": 3,
    "carton": 2,
    "claim": 2,
    "ronda": 2,
    "four_of_a_kind": 2,
}
#: The kinds the page announces even without a saying (narration.js ANNOUNCED).
ANNOUNCED = {"ronda", "four_of_a_kind", "caida", "limpia", "caida_limpia", "caida_ronda", "claim"}
ANNOUNCED |= {"chica_won", "zapatero", "mesa_won"}


# -- the server -----------------------------------------------------------------------------------
def _serve_command() -> list[str]:
    """``cuarenta`` from the running interpreter's environment (the project's .venv), else ``-c``."""
    script = Path(sys.executable).with_name("cuarenta")
    if script.exists():
        return [str(script)]
    return [sys.executable, "-c", "import sys; from cuarenta.cli import main; sys.exit(main())"]


class Server:
    """``cuarenta serve --port P --data DIR --bot-delay D`` as a subprocess."""

    def __init__(
        self,
        data_dir: Path,
        bot_delay: float = 0.05,
        port: int | None = None,
        options: tuple[str, ...] = (),
        env: dict[str, str | None] | None = None,
    ) -> None:
        self.data_dir = data_dir
        self.options = options  #: more options of ``cuarenta serve``
        self.env = env or {}  #: changes to the process' environment (``None``: removed)
        self.bot_delay = bot_delay
        self.port = port or free_port()
        self.url = f"http://127.0.0.1:{self.port}/"
        self.log_path = data_dir.parent / f"{data_dir.name}-server.log"
        self.proc: subprocess.Popen[bytes] | None = None
        self.starts = 0

    def start(self, timeout: float = 120.0) -> None:
        """Start the process and wait until ``/api/health`` answers (fails with the server's log; at once
        if it exits). ``timeout`` only bounds a start that hangs: on the tests' 2-core machine under load a
        start took more than 30 s (tests/support/cluster.py START_SECONDS)."""
        assert self.proc is None, "already running"
        self.data_dir.mkdir(parents=True, exist_ok=True)
        self.starts += 1
        cmd = [
            *_serve_command(),
            "serve",
            "--host",
            "127.0.0.1",
            "--port",
            str(self.port),
            "--data",
            str(self.data_dir),
            "--bot-delay",
            str(self.bot_delay),
            # the whole suite's browsers are one client address (127.0.0.1), many people a minute: no
            # limits per address (tests/test_limits.py tests them)
            *("--http-per-minute", "0", "--max-sockets-per-address", "0"),
            *self.options,
        ]
        log = self.log_path.open("ab")
        log.write(f"\n== start {self.starts}: {' '.join(cmd)}\n".encode())
        log.flush()
        changed = {**os.environ, "PYTHONUNBUFFERED": "1", **self.env}
        env = {name: value for name, value in changed.items() if value is not None}
        self.proc = subprocess.Popen(cmd, stdout=log, stderr=subprocess.STDOUT, cwd=ROOT, env=env)
        log.close()
        deadline = time.monotonic() + timeout
        while True:
            if self.proc.poll() is not None:
                code = self.proc.returncode
                self.proc = None
                raise RuntimeError(f"cuarenta serve exited with {code}:\n{self.log()}")
            try:
                with urllib.request.urlopen(self.url + "api/health", timeout=2) as res:
                    health = json.load(res)
                if health.get("ok") is True and health.get("protocol") == 2:
                    return
            except (OSError, urllib.error.URLError, ValueError):
                pass
            if time.monotonic() > deadline:
                self.stop()
                raise RuntimeError(f"cuarenta serve did not answer /api/health in {timeout} s:\n{self.log()}")
            time.sleep(0.1)  # polling a process that is starting: not a synchronisation with the page

    def stop(self) -> None:
        """Terminate the process (SIGTERM, then SIGKILL after 10 s)."""
        proc, self.proc = self.proc, None
        if proc is None:
            return
        proc.terminate()
        try:
            proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait(timeout=10)

    def restart(self) -> None:
        """Stop and start again on the same port and data directory."""
        self.stop()
        self.start()

    def log(self) -> str:
        """The server's output so far (for failure messages)."""
        try:
            return self.log_path.read_text(errors="replace")[-6000:]
        except OSError:
            return "(no log)"

    def get_json(self, path: str) -> Any:
        """GET a JSON answer from the server (HTTP errors raise)."""
        with urllib.request.urlopen(self.url + path.lstrip("/"), timeout=10) as res:
            return json.load(res)

    def post_json(self, path: str, body: Any) -> Any:
        """POST a JSON body and read the JSON answer (HTTP errors raise)."""
        request = urllib.request.Request(
            self.url + path.lstrip("/"),
            data=json.dumps(body).encode(),
            headers={"Content-Type": "application/json"},
            method="POST",
        )
        with urllib.request.urlopen(request, timeout=10) as res:
            return json.load(res)

    def get_text(self, path: str, token: str | None = None) -> str:
        """GET a text answer, with a seat's ``token`` in the ``Authorization`` header if given."""
        headers = {"Authorization": f"Bearer {token}"} if token else {}
        request = urllib.request.Request(self.url + path.lstrip("/"), headers=headers)
        with urllib.request.urlopen(request, timeout=10) as res:
            return str(res.read().decode())

    def __enter__(self) -> Server:
        self.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self.stop()


# -- the browser ----------------------------------------------------------------------------------
def launch_browser(pw: Playwright) -> Browser:
    """Debian's Chromium, headless, with the flags a root user in a closed network needs."""
    return pw.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS, headless=True)


@dataclass
class PageLog:
    """What a page did behind the scenes: WebSocket frames received and sent, script errors, and the
    address of every request it made."""

    received: list[str] = field(default_factory=list)
    sent: list[str] = field(default_factory=list)
    errors: list[str] = field(default_factory=list)
    urls: list[str] = field(default_factory=list)

    #: the frames read so far by :meth:`states` and what they add up to (a page's frames only grow: each
    #: call reads the new ones; reading them all again at every turn took half of a long test's time)
    _reducer: Reducer = field(default_factory=lambda: Reducer(keep=False), repr=False)
    _states: list[dict[str, Any]] = field(default_factory=list, repr=False)
    _read: int = 0

    def states(self) -> list[dict[str, Any]]:
        """The ``state`` messages the frames received add up to, in order (:func:`states_of`)."""
        new = self.received[self._read :]
        self._read += len(new)
        self._states.extend(_fold(self._reducer, new))
        return list(self._states)

    def server_errors(self) -> list[dict[str, Any]]:
        """The ``error`` messages received."""
        return [m for m in map(json.loads, self.received) if m.get("type") == "error"]


#: The frames of protocol version 2 that change the state a page holds (docs/protocol.md, "Version 2").
WIRE_FRAMES: Final = {"snapshot", "event", "resumed"}


def states_of(frames: list[str]) -> list[dict[str, Any]]:
    """The version-1 ``state`` messages that the frames of a page's sockets add up to, one per ``state``,
    ``snapshot``, ``event`` or ``resumed`` frame, each with that frame's ``events`` (the page speaks
    version 2: the tests' :class:`~support.wire.Reducer` applies its frames as wire.js does)."""
    return list(_fold(Reducer(keep=False), frames))


def _fold(reducer: Reducer, frames: list[str]) -> Iterator[dict[str, Any]]:
    """The states of :func:`states_of` for ``frames`` read after those ``reducer`` has applied."""
    for raw in frames:
        msg = json.loads(raw)
        kind = msg.get("type")
        if kind == "state":
            yield msg
        elif kind in WIRE_FRAMES:
            reducer.apply(msg)
            state = json.loads(json.dumps(reducer.state))
            yield {**state, "type": "state", "v": msg["v"], "events": msg.get("events", [])}
        elif kind == "table":
            reducer.apply(msg)


def watch_page(page: Page) -> PageLog:
    """Record every WebSocket frame and every script error of ``page``."""
    log = PageLog()

    def on_ws(ws: WebSocket) -> None:
        ws.on("framereceived", lambda payload: log.received.append(_text(payload)))
        ws.on("framesent", lambda payload: log.sent.append(_text(payload)))

    page.on("websocket", on_ws)
    page.on("request", lambda request: log.urls.append(request.url))
    page.on("pageerror", lambda exc: log.errors.append(f"pageerror: {exc}"))
    page.on(
        "console",
        lambda message: (
            log.errors.append(f"console.error: {message.text}") if message.type == "error" else None
        ),
    )
    return log


def _text(payload: str | bytes) -> str:
    return payload if isinstance(payload, str) else payload.decode()


def new_context(browser: Browser, width: int = 1280, height: int = 800, **kwargs: Any) -> BrowserContext:
    """A fresh context (empty localStorage) of a browser set to Spanish (``locale="es-EC"``: the page opens
    in the browser's language, i18n.js ``getLang``). Animations are off (reduced motion) unless asked for."""
    options: dict[str, Any] = {
        "viewport": {"width": width, "height": height},
        "reduced_motion": "reduce",
        "locale": "es-EC",
    }
    options.update(kwargs)
    context = browser.new_context(**options)
    context.set_default_timeout(TIMEOUT_MS)
    context.set_default_navigation_timeout(TIMEOUT_MS)
    return context


class People:
    """Several people, each a browser context of their own (:func:`new_context`); :meth:`close` fails if a
    page logged a script error other than those of :attr:`expected`. The ``people`` fixture (conftest.py)."""

    def __init__(self, browser: Browser) -> None:
        self.browser = browser
        self.contexts: list[BrowserContext] = []
        self.logs: list[PageLog] = []
        #: browser messages a test expects (a refused request is logged by the browser itself)
        self.expected: list[str] = []

    def open(self, **kwargs: Any) -> tuple[Page, PageLog]:
        """A page in a new context (``kwargs`` as :func:`new_context`'s), and what it logs."""
        context = new_context(self.browser, **kwargs)
        self.contexts.append(context)
        page = context.new_page()
        log = watch_page(page)
        self.logs.append(log)
        return page, log

    def page(self, **kwargs: Any) -> Page:
        """A page in a new context, as :meth:`open`."""
        return self.open(**kwargs)[0]

    def close(self) -> None:
        for context in self.contexts:
            context.close()
        errors = [e for log in self.logs for e in log.errors if not any(x in e for x in self.expected)]
        assert not errors, errors


# -- a table with friends through the API (docs/tables.md) ------------------------------------------------
def make_table(server: Server, **body: Any) -> dict[str, Any]:
    """``POST /api/tables`` (Ana's table unless ``name`` says otherwise): the creator's answer, with its
    ``room``, ``invite``, ``token``, ``seat`` and seat ``code``."""
    body.setdefault("name", "Ana")
    made: dict[str, Any] = server.post_json("/api/tables", body)
    return made


def join_table(server: Server, made: dict[str, Any], name: str, **extra: Any) -> dict[str, Any]:
    """Sit ``name`` at the table ``made`` by its invite (``extra``: ``seat``, ``team``…); the answer."""
    body = {"invite": made["invite"], "name": name, **extra}
    joined: dict[str, Any] = server.post_json(f"/api/tables/{made['room']}/join", body)
    return joined


def session_of(answer: dict[str, Any]) -> dict[str, Any]:
    """The session the page keeps in localStorage for a seat of a table (``cuarenta.session``)."""
    return {"room": answer["room"], "token": answer["token"], "seat": answer["seat"], "table": True}


def seated_context(
    browser: Browser, answer: dict[str, Any], width: int = 1280, height: int = 800, **kwargs: Any
) -> BrowserContext:
    """A fresh context (:func:`new_context`) whose page opens the seat of ``answer``, as a saved game is
    resumed: the session is put in localStorage before the page's first load (and left as the page keeps
    it on later loads)."""
    context = new_context(browser, width, height, **kwargs)
    context.add_init_script(
        "if (!localStorage.getItem('cuarenta.session'))"
        f" localStorage.setItem('cuarenta.session', {json.dumps(json.dumps(session_of(answer)))});"
    )
    return context


# -- the new-game form ----------------------------------------------------------------------------
def fix_seed(page: Page, seed: int, rules: dict[str, Any] | None = None) -> None:
    """Make the rooms this page creates reproducible: add ``seed`` to the form's ``POST /api/rooms``.

    The form sends ``"seed": null`` (a random room); the browser tests use fixed seeds so that a run
    is the same game every time (the computer players are seeded from the room). A chosen seed makes
    the room a practice room (``"practice": true``): the server refuses a seed otherwise. ``rules``,
    if given, are options laid over the form's (a custom table, e.g. a short chica).
    """

    def handle(route: Route) -> None:
        request = route.request
        if request.method != "POST":
            route.continue_()
            return
        body = json.loads(request.post_data or "{}")
        body["seed"] = seed
        body["practice"] = True
        if rules is not None:
            body["rules"] = {**body["rules"], "preset": "custom", **rules}
        route.continue_(post_data=json.dumps(body))

    page.route("**/api/rooms", handle)


def start_game(  # noqa: PLR0913 - one keyword per choice of the new-game form
    page: Page,
    base_url: str,
    players: int = 2,
    level: str = "facil",
    preset: str = "a_todo_rigor",
    seed: int | None = None,
    goto: bool = True,
    name: str = "Ana",
    options: dict[str, object] | None = None,
) -> None:
    """Fill the new-game form, press "Empezar a jugar", and wait until the table shows a hand.

    ``options`` changes rules in the form's custom table ("Todas las opciones") after the preset is
    chosen, which makes the rules "A mi manera" (custom)."""
    if seed is not None:
        fix_seed(page, seed)
    if goto:
        page.goto(base_url)
    form = page.locator("#new-game-form")
    expect(form).to_be_visible()
    # the form is built from api/options (the start button waits for them): a choice made before would be
    # met by the form being built under it (CI's loaded run once saw "players-4" refuse to stay checked)
    expect(page.get_by_test_id("start")).to_be_enabled()
    page.get_by_test_id("player-name").fill(name)
    page.get_by_test_id(f"players-{players}").check()
    page.get_by_test_id(f"level-{level}").check()
    expect(page.get_by_test_id("preset").locator(f'option[value="{preset}"]')).to_be_enabled()
    page.get_by_test_id("preset").select_option(preset)
    if options:
        page.get_by_test_id("custom-rules").locator("summary").click()
        for option, value in options.items():
            page.get_by_test_id(f"opt-{option}").select_option(json.dumps(value))
        expect(page.get_by_test_id("preset")).to_have_value("custom")
    page.get_by_test_id("start-game").click()
    expect(page.get_by_test_id("table-screen")).to_be_visible()
    expect(page.get_by_test_id("hand-card").first).to_be_visible(timeout=STEP_TIMEOUT_MS)


# -- playing --------------------------------------------------------------------------------------
#: What needs the person on the page now: "ready", "choice", "summary", "over", "error" or null.
STEP_JS = """
() => {
  const screen = document.querySelector('#screen-table');
  if (!screen || screen.hidden) return null;
  const error = document.querySelector('#error');
  if (error && !error.hidden) return 'error';
  if (document.querySelector('#summary-dialog')?.open) return 'summary';
  if (document.querySelector('#choice-dialog')?.open) return 'choice';
  const result = document.querySelector('#result');
  if (result && !result.hidden && screen.dataset.turn === 'over') return 'over';
  if (screen.dataset.ready === '1') return 'ready';
  return null;
}
"""


def wait_step(page: Page, timeout: int = STEP_TIMEOUT_MS) -> str:
    """Wait until the page needs the person: ``ready`` (their turn, nothing queued), ``choice`` (the
    capture choice is open), ``summary`` (end of a hand), or ``over`` (the mesa's result).
    A visible error banner fails at once with its text."""
    kind = str(page.wait_for_function(STEP_JS, timeout=timeout).json_value())
    if kind == "error":
        text = page.get_by_test_id("error").inner_text()
        raise AssertionError(f"the page shows an error: {text!r}")
    return kind


def hand_cards(page: Page) -> list[str]:
    """The person's hand as the page shows it (``data-card`` of the hand buttons, in order)."""
    return [
        str(c)
        for c in page.eval_on_selector_all("#hand [data-testid=hand-card]", "n => n.map(e => e.dataset.card)")
    ]


def table_cards(page: Page) -> list[str]:
    """The table as the page shows it."""
    return [
        str(c)
        for c in page.eval_on_selector_all(
            "#table-cards [data-testid=table-card]", "n => n.map(e => e.dataset.card)"
        )
    ]


def scores(page: Page) -> tuple[int, int]:
    """The two scores on the scoreboard."""
    return (
        int(page.get_by_test_id("score-0").inner_text()),
        int(page.get_by_test_id("score-1").inner_text()),
    )


def state_number(page: Page) -> int:
    """The ``state`` number of the message the table shows."""
    return int(page.get_by_test_id("table-screen").get_attribute("data-state") or "-1")


def seat_counts(page: Page) -> dict[int, int]:
    """The card counts of the other seats (their face-down hands), by seat."""
    raw = page.eval_on_selector_all(
        "[data-testid^=seat-][data-seat]",
        "n => n.map(e => [Number(e.dataset.seat),"
        " e.querySelector('[data-testid=seat-hand]')?.dataset.count ?? null])",
    )
    return {int(seat): int(count) for seat, count in raw if count is not None}


def play_first_card(page: Page) -> str:
    """Click the first card of the hand; returns it."""
    card = page.get_by_test_id("hand-card").first
    code = str(card.get_attribute("data-card"))
    card.click()
    return code


def choose_first_option(page: Page) -> str:
    """In the capture choice, click the first option; returns its move."""
    option = page.get_by_test_id("capture-option").first
    move = str(option.get_attribute("data-move"))
    option.click()
    return move


@dataclass
class Summary:
    """An end-of-hand summary as the page showed it."""

    title: str
    cards: tuple[str, str]
    scores: tuple[int, int]
    scoreboard: tuple[int, int]


def read_summary(page: Page) -> Summary:
    """Read the open end-of-hand dialog (and the scoreboard behind it)."""
    dialog = page.get_by_test_id("hand-summary")
    expect(dialog).to_be_visible()

    def cell(name: str) -> str:
        loc = dialog.get_by_test_id(name)
        return loc.inner_text().strip() if loc.count() else ""

    def score(team: int) -> int:
        loc = dialog.get_by_test_id(f"summary-score-{team}").locator("strong")
        return int(loc.inner_text()) if loc.count() else -1

    return Summary(
        title=page.locator("#summary-title").inner_text(),
        cards=(cell("summary-cards-0"), cell("summary-cards-1")),
        scores=(score(0), score(1)),
        scoreboard=scores(page),
    )


def close_summary(page: Page) -> None:
    page.get_by_test_id("summary-continue").click()
    expect(page.get_by_test_id("hand-summary")).to_be_hidden()


def wait_for_held(page: Page, held: dict[str, Route], name: str, seconds: float = 20) -> None:
    """Wait until the page has asked for ``name``: its request held by the test's route, which stores it in
    ``held`` under that name (``page.route(url, lambda route: held.__setitem__(name, route))``)."""
    deadline = time.monotonic() + seconds
    while name not in held and time.monotonic() < deadline:
        page.wait_for_timeout(50)
    assert name in held, f"the page never asked for its {name}"


def local_storage(page: Page) -> dict[str, str]:
    return dict(page.evaluate("() => Object.fromEntries(Object.entries(localStorage))"))


# -- what a hidden card would look like in the page -----------------------------------------------
def card_words(code: str) -> list[str]:
    """How the page writes a card in its text: ``7♥``, and its name in words in every language (``siete
    de corazón rojo``, ``seven of hearts``: the catalogue's ``card.name``). The code, ``7h``, is in
    attributes only: as text it could be a word, like the saying "¡As que no caerás!"."""
    rank, suit = code[0], code[1]
    return [rank + SUIT_SYMBOLS[suit], *(card_name(Card(code), lang) for lang in LANGS)]


_DOM_TEXT_JS = """
() => {
  // everything the table screen shows or names, except the parts that speak of other times:
  // the dealer draw (a separate shuffle), the announcement bubble and the dialogs (past events)
  const skip = '#draw-panel, #announce, dialog, .ghost';
  const text = [];
  const codes = [];
  const walk = (node) => {
    if (node.nodeType === Node.TEXT_NODE) { text.push(node.textContent); return; }
    if (node.nodeType !== Node.ELEMENT_NODE || node.matches(skip)) return;
    for (const a of ['aria-label', 'title', 'alt']) {
      const v = node.getAttribute(a);
      if (v) text.push(v);
    }
    for (const a of ['data-card', 'data-move']) {
      const v = node.getAttribute(a);
      if (v) codes.push(v);
    }
    for (const child of node.childNodes) walk(child);
  };
  walk(document.querySelector('#screen-table'));
  return {text: text.join('\\n'), codes: codes.join('\\n')};
}
"""


def dom_text(page: Page) -> tuple[str, str]:
    """The table screen's text (with accessible names) and its card codes (``data-card``,
    ``data-move``); see ``_DOM_TEXT_JS`` for what is left out."""
    found = page.evaluate(_DOM_TEXT_JS)
    return str(found["text"]), str(found["codes"])


def walk_strings(value: Any, path: str = "") -> Iterator[tuple[str, str]]:
    """Every (path, string value) in a JSON value."""
    if isinstance(value, dict):
        for k, v in value.items():
            yield from walk_strings(v, f"{path}.{k}")
    elif isinstance(value, list):
        for i, v in enumerate(value):
            yield from walk_strings(v, f"{path}[{i}]")
    elif isinstance(value, str):
        yield path, value


def json_keys(value: Any) -> set[str]:
    """Every object key in a JSON value, at any depth."""
    if isinstance(value, dict):
        return set(value).union(*(json_keys(v) for v in value.values()))
    if isinstance(value, list):
        return set().union(*(json_keys(v) for v in value))
    return set()


def cards_in(text: str) -> set[str]:
    """The card codes a string names (a card, a move like ``7h x3c+4d,Js``, ``claim 5s,6h``)."""
    return {tok for tok in re.split(r"[^A-Za-z0-9]+", text) if CARD_RE.match(tok)}


# -- a plain static file server (a static site of `cuarenta site`: no Cuarenta server) -------------------
class _StaticHandler(http.server.SimpleHTTPRequestHandler):
    """Python's static file server, without a log line per request, with the types the pack needs."""

    extensions_map: ClassVar[dict[str, str]] = {
        **http.server.SimpleHTTPRequestHandler.extensions_map,
        ".mjs": "text/javascript",
        ".wasm": "application/wasm",
        ".webmanifest": "application/manifest+json",
    }

    def log_message(self, format: str, *args: Any) -> None:
        return None


@contextlib.contextmanager
def static_server(folder: Path) -> Iterator[str]:
    """Serve ``folder`` on a free loopback port with Python's plain static file server; its base URL."""
    handler = functools.partial(_StaticHandler, directory=str(folder))
    httpd = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    thread = threading.Thread(target=httpd.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{httpd.server_address[1]}/"
    finally:
        httpd.shutdown()
        httpd.server_close()
        thread.join()


def play_over_socket(server: Server, room: str, token: str, pick: int = 0) -> None:
    """Play the person's seat of ``room`` to the end of its mesa over the real server's socket (version 2),
    choosing the legal move at ``pick`` each turn (0: the first; -1: the last)."""
    with ws_connect(server.url.replace("http", "ws", 1) + "ws", open_timeout=30) as ws:
        ws.send(json.dumps({"v": 2, "type": "join", "room": room, "token": token}))
        version, legal, status = 0, [], "playing"
        while status == "playing":
            frame = json.loads(ws.recv(timeout=30))
            if frame["type"] in ("snapshot", "event"):
                version = frame["version"]
                if frame.get("private") is not None:
                    legal = frame["private"]["legal"]
                status = frame.get("status") or status
            if legal and status == "playing":
                ws.send(json.dumps({"v": 2, "type": "move", "move": legal[pick], "state": version}))
                legal = []
