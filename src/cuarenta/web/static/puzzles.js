// The puzzles (issue 29, docs/web.md "Puzzles"): one position at a time as its seat sees it
// (GET api/puzzles; docs/protocol.md "Puzzles"), a card tapped (and, when it can be played several ways,
// which), the answer told with the chances and what the next best does wrong (POST api/puzzles/ID/answer),
// a streak kept in this browser. With a server, the answer carries this browser's random solver id: the first
// try of a puzzle moves its rating and the person's, both shown (docs/analysis.md "Puzzle ratings"), and a
// wrong puzzle can be reported with a short reason (POST api/puzzles/ID/report). The same on the device (its
// host answers the routes) but with the shipped ratings, and no reports: they need a server.
//
//   showPuzzles()   // opens the screen on the puzzle after the last one seen (the first at first)

import * as I from "./i18n.js";
import { api, postJSON } from "./api.js";
import { cardText } from "./cards.js";
import { onDevice } from "./device.js";
import { wayText } from "./dialogs.js";
import { $, el } from "./dom.js";
import { showError } from "./errors.js";
import { showScreen } from "./screens.js";
import { app } from "./store.js";
import { cardRow } from "./replay.js";
import { KEYS, load, store } from "./storage.js";

const { t } = I;

/** The puzzle shown, the move being chosen (a card with several ways), the answer once told, and the
 * report: its form open, the reason typed, sent. */
const shown = { puzzle: null, card: null, told: null, tried: null, reporting: false, reason: "", reported: false };
/** The longest reason of a report (the server's MAX_REASON_CHARS). */
const MAX_REASON = 200;

/** This browser's solver id, made once (random, 32 hex digits): the server rates its first tries. */
function solverId() {
  let id = load(KEYS.puzzleSolver, false);
  if (!/^[0-9a-f]{32}$/.test(id ?? "")) {
    const bytes = crypto.getRandomValues(new Uint8Array(16)); // (randomUUID needs a secure context)
    id = Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join("");
    store(KEYS.puzzleSolver, id);
  }
  return id;
}

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
    const puzzle = await api(`api/puzzles${query}`);
    Object.assign(shown, { puzzle, card: null, told: null, tried: null, reporting: false, reason: "", reported: false });
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
    // on the device nothing is rated: no solver id is sent
    const body = onDevice() ? { move } : { move, solver: solverId() };
    res = await postJSON(`api/puzzles/${encodeURIComponent(p.id)}/answer`, body);
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
    el("p", { class: "replay-where", "data-testid": "puzzle-where", "data-id": p.id, "data-rating": String(p.rating), text: t("page.puzzle.where", { n: p.index + 1, count: p.count, rating: p.rating }) }),
    el("p", { "data-testid": "puzzle-streak", "data-streak": String(mine.streak), text: t("page.puzzle.streak", { streak: mine.streak, best: mine.best }) }),
    el("p", { class: "replay-score", "data-testid": "puzzle-score", text: score }),
    el("p", { class: "hint-text", "data-testid": "puzzle-task", "data-kind": p.kind ?? "exact", text: t(p.kind === "sampled" ? "page.puzzle.task_sampled" : "page.puzzle.task") }),
  ];
  if (plays.length) parts.push(el("h2", { text: t("page.puzzle.plays") }), el("ul", { class: "replay-events" }, plays));
  parts.push(el("h2", { text: t("page.replay.table") }), cardRow(p.table, "puzzle-table"));
  if (p.last_drop) parts.push(el("p", { class: "hint-text", text: t("page.puzzle.last_drop", { card: cardText(p.last_drop) }) }));
  parts.push(el("h2", { text: t(p.kind === "sampled" ? "page.puzzle.unseen_sampled" : "page.puzzle.unseen") }), cardRow(p.unseen, "puzzle-unseen"));
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
  parts.push(reportPart(p));
  $("#puzzles-body").replaceChildren(...parts);
}

/** The ratings after an answer: the puzzle's before and after, the person's (none on the device). */
function ratingsPart(told) {
  const { before, after } = told.puzzle_rating;
  if (told.solver_rating === null) {
    return el("p", { class: "hint-text", "data-testid": "puzzle-rating", "data-before": String(before), "data-after": String(after), text: t("page.puzzle.shipped_rating", { rating: after }) });
  }
  return el(
    "div",
    {},
    el("p", { "data-testid": "puzzle-rating", "data-before": String(before), "data-after": String(after), text: told.rated ? t("page.puzzle.moved", { before, after }) : t("page.puzzle.again", { rating: after }) }),
    el("p", { "data-testid": "puzzle-solver-rating", "data-rating": String(told.solver_rating), text: t("page.puzzle.yours", { rating: told.solver_rating }) }),
  );
}

/** The report of a wrong puzzle: a button that opens a small form (a reason, sent), then thanks; on the device
 * a line saying reports need a server. */
function reportPart(p) {
  if (onDevice()) return el("p", { class: "hint-text", "data-testid": "puzzle-report-offline", text: t("page.puzzle.report_offline") });
  if (shown.reported) return el("p", { "data-testid": "puzzle-reported", role: "status", text: t("page.puzzle.reported") });
  if (!shown.reporting) {
    return el("button", {
      type: "button",
      id: "puzzle-report",
      class: "btn btn-secondary",
      "data-testid": "puzzle-report",
      text: t("page.puzzle.report"),
      onclick: () => {
        shown.reporting = true;
        render();
        $("#puzzle-report-reason")?.focus();
      },
    });
  }
  const reason = el("textarea", { id: "puzzle-report-reason", class: "puzzle-report-reason", "data-testid": "puzzle-report-reason", maxlength: String(MAX_REASON), rows: "2", required: true });
  reason.value = shown.reason;
  reason.addEventListener("input", () => {
    shown.reason = reason.value;
  });
  const form = el(
    "form",
    { class: "puzzle-report", "data-testid": "puzzle-report-form", "aria-label": t("page.puzzle.report") },
    el("label", { for: "puzzle-report-reason", text: t("page.puzzle.report_reason", { max: MAX_REASON }) }),
    reason,
    el(
      "div",
      { class: "puzzle-report-buttons" },
      el("button", { type: "submit", class: "btn btn-primary", "data-testid": "puzzle-report-send", text: t("page.puzzle.report_send") }),
      el("button", {
        type: "button",
        class: "btn btn-secondary",
        "data-testid": "puzzle-report-cancel",
        text: t("page.cancel"),
        onclick: () => {
          shown.reporting = false;
          render();
          $("#puzzle-report")?.focus();
        },
      }),
    ),
  );
  form.addEventListener("submit", (e) => {
    e.preventDefault();
    sendReport(p, reason);
  });
  return form;
}

async function sendReport(p, input) {
  const reason = input.value.trim();
  if (!reason) {
    showError(t("page.puzzle.report_empty"));
    input.focus();
    return;
  }
  let res;
  try {
    res = await postJSON(`api/puzzles/${encodeURIComponent(p.id)}/report`, { reason });
  } catch {
    showError(t("page.err.network"));
    return;
  }
  if (!res.ok) {
    showError(t(res.status === 429 ? "page.puzzle.report_limited" : "page.puzzle.report_failed"));
    return;
  }
  if (shown.puzzle !== p) return; // another puzzle is shown by now
  Object.assign(shown, { reporting: false, reason: "", reported: true });
  render();
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
    ratingsPart(told),
    el("button", { type: "button", id: "puzzle-next", class: "btn btn-primary", "data-testid": "puzzle-next", text: t("page.puzzle.next"), onclick: () => next(p.id) }),
  );
}

/** The page's language changed: the puzzle's words again. */
export function relabelPuzzles() {
  if (app.screen === "puzzles") render();
}
