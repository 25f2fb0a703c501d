// The puzzles (issue 29, docs/web.md "Puzzles"): one position at a time as its seat sees it
// (GET api/puzzles; docs/protocol.md "Puzzles"), a card tapped (and, when it can be played several ways,
// which), the answer told with the chances and what the next best does wrong (POST api/puzzles/ID/answer),
// a streak kept in this browser. The same on the device (its host answers the routes).
//
//   showPuzzles()   // opens the screen on the puzzle after the last one seen (the first at first)

import * as I from "./i18n.js";
import { api, postJSON } from "./api.js";
import { cardText } from "./cards.js";
import { wayText } from "./dialogs.js";
import { $, el } from "./dom.js";
import { showError } from "./errors.js";
import { showScreen } from "./screens.js";
import { app } from "./store.js";
import { cardRow } from "./replay.js";
import { KEYS, load, store } from "./storage.js";

const { t } = I;

/** The puzzle shown, the move being chosen (a card with several ways) and the answer once told. */
const shown = { puzzle: null, card: null, told: null, tried: null };

/** This browser's record: {streak, best, solved, tried, last} (localStorage). */
function record() {
  return { streak: 0, best: 0, solved: 0, tried: 0, last: null, ...(load(KEYS.puzzles) ?? {}) };
}

/** Open the puzzles on the one after the last seen (the first at first). */
export async function showPuzzles() {
  showScreen("puzzles");
  await next(record().last);
}

async function next(after) {
  $("#puzzles-body").replaceChildren(el("p", { text: t("page.loading") }));
  try {
    const query = after ? `?after=${encodeURIComponent(after)}` : "";
    Object.assign(shown, { puzzle: await api(`api/puzzles${query}`), card: null, told: null, tried: null });
  } catch (err) {
    $("#puzzles-body").replaceChildren(el("p", { "data-testid": "puzzle-error", text: t("page.puzzle.failed") }));
    showError(err instanceof TypeError ? t("page.err.network") : err.message);
    return;
  }
  render();
}

/** The move tried: sent, then the answer shown and the streak kept. */
async function tryMove(move) {
  const p = shown.puzzle;
  let res;
  try {
    res = await postJSON(`api/puzzles/${encodeURIComponent(p.id)}/answer`, { move });
  } catch {
    showError(t("page.err.network"));
    return;
  }
  if (!res.ok) {
    showError(t("page.puzzle.failed"));
    return;
  }
  const told = await res.json();
  const mine = record();
  mine.tried += 1;
  if (told.right) {
    mine.solved += 1;
    mine.streak += 1;
    mine.best = Math.max(mine.best, mine.streak);
  } else mine.streak = 0;
  mine.last = p.id;
  store(KEYS.puzzles, mine);
  Object.assign(shown, { told, tried: move, card: null });
  render();
  $("#puzzle-next")?.focus();
}

function chooseCard(card) {
  const ways = shown.puzzle.moves.filter((m) => m.card === card);
  if (ways.length === 1) tryMove(ways[0].move);
  else {
    shown.card = card;
    render();
  }
}

function render() {
  const p = shown.puzzle;
  if (!p) return;
  const mine = record();
  const you = t("puzzle.you");
  const rival = t("puzzle.rival");
  const who = (seat) => (seat === p.seat ? you : rival);
  const score = [p.seat, 1 - p.seat].map((s) => t("page.names.score", { name: who(s), n: p.scores[s] ?? 0 })).join(" – ");
  const plays = p.plays.map((play) =>
    el("li", {}, `${who(play.seat)}: ${play.card ? cardText(play.card) : ""}${play.taken.length ? ` → ${play.taken.map(cardText).join(" ")}` : ""}`),
  );
  const parts = [
    el("p", { class: "replay-where", "data-testid": "puzzle-where", "data-id": p.id, text: t("page.puzzle.where", { n: p.index + 1, count: p.count, rating: p.rating }) }),
    el("p", { "data-testid": "puzzle-streak", "data-streak": String(mine.streak), text: t("page.puzzle.streak", { streak: mine.streak, best: mine.best }) }),
    el("p", { class: "replay-score", "data-testid": "puzzle-score", text: score }),
    el("p", { class: "hint-text", text: t("page.puzzle.task") }),
  ];
  if (plays.length) parts.push(el("h2", { text: t("page.puzzle.plays") }), el("ul", { class: "replay-events" }, plays));
  parts.push(el("h2", { text: t("page.replay.table") }), cardRow(p.table, "puzzle-table"));
  if (p.last_drop) parts.push(el("p", { class: "hint-text", text: t("page.puzzle.last_drop", { card: cardText(p.last_drop) }) }));
  parts.push(el("h2", { text: t("page.puzzle.unseen") }), cardRow(p.unseen, "puzzle-unseen"));
  parts.push(el("h2", { text: t("page.puzzle.hand") }), cardRow(p.hand, "puzzle-hand", { onPick: chooseCard, disabled: Boolean(shown.told) }));
  if (shown.card && !shown.told) {
    const ways = p.moves.filter((m) => m.card === shown.card);
    parts.push(
      el(
        "div",
        { class: "replay-choices", role: "group", "data-testid": "puzzle-ways", "aria-label": t("page.puzzle.ways") },
        ways.map((m) => el("button", { type: "button", class: "btn", "data-testid": "puzzle-way", "data-move": m.move, text: wayText(m), onclick: () => tryMove(m.move) })),
      ),
    );
  }
  if (shown.told) parts.push(toldPanel(p, shown.told));
  $("#puzzles-body").replaceChildren(...parts);
}

function toldPanel(p, told) {
  const words = (move) => {
    const found = p.moves.find((m) => m.move === move);
    return found ? wayText(found) : move;
  };
  const [best, bestChance] = told.values[0];
  const [second, secondChance] = told.values[1];
  const reasons = told.reasons.map((code) => t(`analysis.motif.${code}`)).join(t("word.list_sep"));
  return el(
    "div",
    { class: "panel", "data-testid": "puzzle-told", "data-right": told.right ? "1" : "0", role: "status" },
    el("p", { class: told.right ? "puzzle-right" : "puzzle-wrong", text: told.right ? t("puzzle.right", { streak: record().streak }) : t("page.puzzle.wrong", { best: words(told.answer) }) }),
    el("p", { text: t("puzzle.why", { best: words(best), best_chance: Math.round(bestChance * 100), second: words(second), second_chance: Math.round(secondChance * 100) }) }),
    reasons ? el("p", { text: t("page.puzzle.reasons", { reasons }) }) : "",
    el("button", { type: "button", id: "puzzle-next", class: "btn btn-primary", "data-testid": "puzzle-next", text: t("page.puzzle.next"), onclick: () => next(p.id) }),
  );
}

/** The page's language changed: the puzzle's words again. */
export function relabelPuzzles() {
  if (app.screen === "puzzles") render();
}
