"""How far the page's announcement bubble runs behind the server (issue 8).

Plays hands in headless Chromium against the real server at its default pace (``--bot-delay 0.8``), with
animations on, the person "thinking" ``--think`` seconds before each move, and records in the page:

- when each ``state`` message arrives (a wrapper around ``WebSocket`` added before the page's script);
- when each bubble appears in ``#announce`` (a ``MutationObserver``), with its kind and sayings.

Each bubble is matched to the message that carried its event (by the bubble's ``data-state`` when the page
sets it, else the oldest unmatched event of the same kind and sayings), and the lag is the time between the
two. At each of the person's turns it also checks whether the bubble on screen is the newest announcement,
and whether it overlaps the strip's line ("Lo último en la mesa"), as it does at every frame a bubble is on
screen (issue 25, item 11).
Run from the repository root::

    python bench/announce_lag.py                       # this tree's page
    python bench/announce_lag.py --src /tmp/old/src    # another tree's page (e.g. `git archive` of a commit)

Figures are recorded in docs/web.md. This is a measurement, not a test.
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import tempfile
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "e2e"))

from harness import (
    ANNOUNCED,
    SCORING,
    Server,
    choose_first_option,
    close_summary,
    launch_browser,
    new_context,
    play_first_card,
    start_game,
    wait_step,
)
from playwright.sync_api import Page, sync_playwright

RECORDER = """
(() => {
  const lag = { msgs: [], bubbles: [] };
  window.__lag = lag;
  const Native = window.WebSocket;
  window.WebSocket = class extends Native {
    constructor(...args) {
      super(...args);
      this.addEventListener("message", (ev) => {
        let m;
        try { m = JSON.parse(ev.data); } catch { return; }
        // version 1's `state`, version 2's `snapshot` and `event` (the page's state number is their version)
        if (!["state", "snapshot", "event"].includes(m.type)) return;
        lag.msgs.push({ t: performance.now(), state: m.type === "state" ? m.state : m.version,
          events: (m.events || []).map((e) => ({ kind: e.kind, sayings: (e.sayings || []).join(" ") })) });
      });
    }
  };
  const seen = new WeakSet();
  const watch = () => {
    const box = document.querySelector("#announce");
    if (!box) return;
    const record = () => {
      const b = box.querySelector('[data-testid="saying"]');
      if (!b || seen.has(b) || !box.classList.contains("show")) return;
      seen.add(b);
      lag.bubbles.push({ t: performance.now(), kind: b.dataset.kind, sayings: b.dataset.sayings,
        state: b.dataset.state === undefined ? null : Number(b.dataset.state) });
    };
    new MutationObserver(record).observe(box, { attributes: true, childList: true });
  };
  document.addEventListener("DOMContentLoaded", watch);
  // issue 25, item 11: at every frame with a bubble on screen, does its box overlap the strip's line?
  lag.frames = 0;
  lag.overlaps = 0;
  const frame = () => {
    const b = document.querySelector('#announce.show [data-testid="saying"]');
    const line = document.querySelector("#last-play-line");
    if (b && line && !document.querySelector("#last-play").hidden) {
      const [p, q] = [b.getBoundingClientRect(), line.getBoundingClientRect()];
      lag.frames += 1;
      if (p.left < q.right && q.left < p.right && p.top < q.bottom && q.top < p.bottom) lag.overlaps += 1;
    }
    requestAnimationFrame(frame);
  };
  requestAnimationFrame(frame);
})();
"""

#: At the person's turn: is a bubble on screen, and does it overlap the strip's line (issue 25, item 11)?
OVERLAP_JS = """() => {
  const b = document.querySelector('#announce.show [data-testid="saying"]');
  const line = document.querySelector('#last-play-line');
  if (!b || !line || document.querySelector('#last-play').hidden) return null;
  const [p, q] = [b.getBoundingClientRect(), line.getBoundingClientRect()];
  return p.left < q.right && q.left < p.right && p.top < q.bottom && q.top < p.bottom;
}"""


def announceable(event: dict[str, Any]) -> bool:
    return event["kind"] in ANNOUNCED or bool(event["sayings"])


def newest(msgs: list[dict[str, Any]]) -> dict[str, Any] | None:
    for msg in reversed(msgs):
        lines = [e for e in msg["events"] if announceable(e)]
        if lines:
            best = lines[0]
            for e in lines[1:]:
                if SCORING.get(e["kind"], 1) >= SCORING.get(best["kind"], 1):
                    best = e
            return best
    return None


def play(
    page: Page, base_url: str, players: int, preset: str, seed: int, hands: int, think: float
) -> dict[str, int]:
    page.add_init_script(RECORDER)
    start_game(page, base_url, players=players, preset=preset, seed=seed)
    turns = stale = gone = bubbles_on_turn = over_line = 0
    since = 1
    done = 0
    while done < hands:
        kind = wait_step(page, timeout=120_000)
        if kind == "over":
            break
        if kind == "summary":
            close_summary(page)
            done += 1
            continue
        if kind == "choice":
            choose_first_option(page)
            continue
        msgs = page.evaluate("() => window.__lag.msgs")
        want = newest(msgs[since:])
        if want is not None:
            turns += 1
            shown = page.evaluate(
                """() => { const b = document.querySelector('#announce.show [data-testid="saying"]');
                 return b ? {kind: b.dataset.kind, sayings: b.dataset.sayings} : null; }"""
            )
            if shown is None:
                gone += 1
            elif shown != {"kind": want["kind"], "sayings": want["sayings"]}:
                stale += 1
        covered = page.evaluate(OVERLAP_JS)
        if covered is not None:
            bubbles_on_turn += 1
            over_line += bool(covered)
        page.wait_for_timeout(think * 1000)  # a person reading the table: a measurement, not a test
        since = len(page.evaluate("() => window.__lag.msgs"))
        play_first_card(page)
    return {
        "turns": turns,
        "stale": stale,
        "gone": gone,
        "bubble_turns": bubbles_on_turn,
        "over_line": over_line,
    }


def lags(data: dict[str, Any]) -> tuple[list[float], list[float], int, int]:
    """(lags of scoring bubbles, lags of all bubbles, announceable lines, bubbles) in ms."""
    msgs, bubbles = data["msgs"][1:], data["bubbles"]  # the join's answer is not announced
    pending = [(m, i) for m in msgs for i, e in enumerate(m["events"]) if announceable(e)]
    used: set[tuple[int, int]] = set()
    scoring: list[float] = []
    every: list[float] = []
    for b in bubbles:
        match = None
        for m, i in pending:
            e = m["events"][i]
            if (
                (m["state"], i) in used
                or m["t"] > b["t"]
                or (e["kind"], e["sayings"]) != (b["kind"], b["sayings"])
            ):
                continue
            if b["state"] is not None and m["state"] != b["state"]:
                continue
            match = (m, i)
            break
        if match is None:
            continue
        used.add((match[0]["state"], match[1]))
        ms = b["t"] - match[0]["t"]
        every.append(ms)
        if b["kind"] in SCORING:
            scoring.append(ms)
    return scoring, every, len(pending), len(bubbles)


def describe(name: str, values: list[float]) -> str:
    if not values:
        return f"{name}: none"
    values = sorted(values)
    p90 = values[min(len(values) - 1, int(0.9 * len(values)))]
    return (
        f"{name}: n={len(values)} median {statistics.median(values) / 1000:.2f} s, "
        f"p90 {p90 / 1000:.2f} s, max {values[-1] / 1000:.2f} s"
    )


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--src", type=Path, help="serve the page of this source tree (PYTHONPATH)")
    ap.add_argument("--bot-delay", type=float, default=0.8)
    ap.add_argument("--think", type=float, default=1.0, help="seconds the person waits before each move")
    ap.add_argument("--hands", type=int, default=3, help="hands of the 1v1 game (plus one 2v2 hand)")
    ap.add_argument("--reduced-motion", action="store_true", help="no animations (prefers-reduced-motion)")
    args = ap.parse_args()
    if args.src:
        os.environ["PYTHONPATH"] = str(args.src.resolve())
    totals = {
        "turns": 0,
        "stale": 0,
        "gone": 0,
        "bubble_turns": 0,
        "over_line": 0,
        "frames": 0,
        "overlaps": 0,
    }
    all_scoring: list[float] = []
    all_every: list[float] = []
    lines = shown = 0
    with (
        tempfile.TemporaryDirectory() as tmp,
        Server(Path(tmp) / "data", bot_delay=args.bot_delay) as srv,
        sync_playwright() as pw,
    ):
        browser = launch_browser(pw)
        for players, preset, seed, hands in [(2, "basico", 3, args.hands), (4, "a_todo_rigor", 5, 1)]:
            motion = "reduce" if args.reduced_motion else "no-preference"
            context = new_context(browser, reduced_motion=motion)
            page = context.new_page()
            got = play(page, srv.url, players, preset, seed, hands, args.think)
            data = page.evaluate("() => window.__lag")
            context.close()
            got.update(frames=data["frames"], overlaps=data["overlaps"])
            for k in totals:
                totals[k] += got[k]
            scoring, every, n_lines, n_bubbles = lags(data)
            all_scoring += scoring
            all_every += every
            lines += n_lines
            shown += n_bubbles
        browser.close()
    print(
        f"page: {args.src or 'this tree'}; bot delay {args.bot_delay} s; person thinks {args.think} s; "
        f"{'reduced motion' if args.reduced_motion else 'animations on'}"
    )
    print(describe("lag of scoring bubbles", all_scoring))
    print(describe("lag of all bubbles", all_every))
    print(f"announceable lines {lines}, bubbles shown {shown}")
    print(
        f"person's turns after an announcement {totals['turns']}: an older bubble {totals['stale']}, "
        f"no bubble (the newest already faded) {totals['gone']}"
    )
    print(
        f"the bubble over the strip's line: {totals['over_line']} of {totals['bubble_turns']} person's turns "
        f"with a bubble on screen; {totals['overlaps']} of {totals['frames']} frames with a bubble"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
