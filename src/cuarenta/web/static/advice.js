// The computer's advice (docs/protocol.md "Advice", issue 28): on the person's turn in a game against the
// computer, with the Ayudas on, "Consejo" asks what `experto` would play. The server (or, on the device,
// the page's worker) thinks about it where the computer players think, from this seat's view only; the
// answer marks the card in the hand (`data-advised`; the way to play it in its label and, when it has several,
// in the choice) and the status line names it instead of "Tu turno" (`data-advice`; no line of its own,
// which would push the controls off a phone's screen). It belongs to
// the state it was asked at: once the table moves on it is gone.
//
//   askAdvice()        // sends {type: "advice", state: version}
//   onAdvice(msg)      // the server's answer: app.advice = {version, move}
//   advisedMove()      // the move advised for the state shown, or null

import { cardText } from "./cards.js";
import * as I from "./i18n.js";
import { describeOption } from "./dialogs.js";
import { $ } from "./dom.js";
import { send } from "./moves.js";
import { isTable } from "./presence.js";
import { advisedMove, app, isMyTurn, own, watching } from "./state.js";

const { t } = I;

/** The errors that end a question (the table moved on, or the computer could not think). */
const ENDS_A_QUESTION = new Set(["stale", "not_your_turn", "game_over", "no_advice", "advice_failed"]);

/** Whether the page offers the advice now: a seat's page (not a spectator's) in a game against the
 * computer (never at a table with friends, rated or a championship's: the server refuses it there), on
 * its turn, with the Ayudas on, the socket open and no move on its way. */
export function adviceOffered() {
  return Boolean(
    app.ayudas && app.connected && !app.pending && !watching() && !isTable() && isMyTurn(),
  );
}

export { advisedMove }; // state.js holds it: dialogs.js, which this module imports, marks the advised way too

/** Whether a question about the state shown waits for its answer. */
function thinking() {
  const a = app.advice;
  return Boolean(a && !a.move && a.version === app.msg?.version);
}

/** Ask what `experto` would play at the state shown (once per state). */
export function askAdvice() {
  if (!adviceOffered() || app.advice?.version === app.msg.version) return;
  const version = app.msg.version;
  if (send({ type: "advice", state: version })) app.advice = { version, move: null };
}

/** The server's `advice`: kept if it answers the state shown (an answer for a table that moved on is
 * dropped; the server sends none then, but a frame may cross a move). */
export function onAdvice(msg) {
  if (msg.state !== app.msg?.version || app.advice?.version !== msg.state) return;
  app.advice = { version: msg.state, move: msg.move };
}

/** An error frame while a question waits: true if it was the question's (it is then forgotten; the page
 * says only what the person must know: `no_advice` and `advice_failed`). */
export function onAdviceError(code) {
  if (!thinking() || app.pending || !ENDS_A_QUESTION.has(code)) return false;
  app.advice = null;
  return true;
}

/** What the server says of the advised move (an entry of the seat's `moves`: its `card`, or the cards of
 * a `claim`), or null: the page reads the notation nowhere (docs/web.md "Playing"). */
export function advisedInfo() {
  const move = advisedMove();
  return move ? (own(app.msg).moves.find((m) => m.move === move) ?? null) : null;
}

/** What the status line says while an advice stands for the state shown (the Ayudas on), or null: short,
 * so that it keeps to one line on a phone ("El experto jugaría 4♦."); which way to play the card is in the
 * card's label and, when the card can be played several ways, marked in the choice (dialogs.js). */
export function adviceLine() {
  const info = app.ayudas ? advisedInfo() : null;
  if (!info) return null;
  if (info.claim) return t("page.advice.says_claim", { cards: I.cardsText(info.claim) });
  return t("page.advice.says", { card: cardText(info.card) });
}

/** The advised move in words, for the card's label: "llevar 3♣ + 4♦ · caída". */
export function adviceWords(move) {
  const d = describeOption(move);
  return [d.text.charAt(0).toLowerCase() + d.text.slice(1), ...d.tags].join(" · ");
}

/** The button beside the Ayudas switch, as the state shown allows. */
export function renderAdvice() {
  const button = $("#advice-ask");
  if (!button) return;
  const move = advisedMove();
  const offered = adviceOffered();
  button.hidden = !offered && !(move && app.ayudas);
  const waiting = thinking();
  button.disabled = waiting || Boolean(move) || !offered;
  button.setAttribute("aria-busy", String(waiting));
  button.querySelector("span").textContent = waiting ? t("page.advice.thinking") : t("page.advice.ask");
}
