// Reactions at a table with friends (docs/tables.md `react` and `reaction`): a row of quick buttons with
// traditional sayings, a bubble at the sender's seat for a moment, the row resting for 2 seconds after a
// send (the server's limit) and a switch, remembered in localStorage, that hides the others' bubbles.
// Only at tables, only for seated people (a spectator sees the bubbles but has no buttons).

import * as I from "./i18n.js";
import { $, el } from "./dom.js";
import { authorized, errorDetail, request } from "./api.js";
import { showError } from "./errors.js";
import { react } from "./moves.js";
import { forgetSession } from "./saved.js";
import { isTable, spectating } from "./presence.js";
import { showScreen } from "./screens.js";
import { app, mySeat } from "./state.js";
import { KEYS, load, store } from "./storage.js";

const { t } = I;

/** The sayings offered as reactions: ones that make sense as a cheer or a tease at any moment. */
export const REACTIONS = ["capariche", "mosero", "voy_llucho", "marido_tiene", "as_que_no_caeras", "q_lo_que_caiga"];
const BUBBLE_MS = 2500;
const REST_MS = 2000;

let restUntil = 0;
let restTimer = null;

function muted() {
  return load(KEYS.muteReactions, false) === "1";
}

/** The row of buttons under the hand (drawn with the table; hidden away from tables and for spectators). */
export function render() {
  let row = $("#reactions");
  const show = isTable() && !spectating() && Boolean(app.msg);
  if (!show) {
    if (row) row.hidden = true;
    return;
  }
  if (!row) {
    row = el("div", { id: "reactions", class: "reactions", "data-testid": "reactions", role: "group" });
    $(".controls").before(row);
  }
  if (row.dataset.lang !== I.getLang()) build(row);
  row.hidden = false;
  updateButtons();
}

function build(row) {
  row.dataset.lang = I.getLang();
  row.setAttribute("aria-label", t("at_table.reactions"));
  const buttons = REACTIONS.map((key) =>
    el("button", {
      type: "button",
      class: "btn reaction-btn",
      "data-testid": "reaction",
      "data-saying": key,
      title: I.sayingGloss(key),
      text: I.sayingWords(key),
      onclick: () => send(key),
    }),
  );
  const mute = el(
    "button",
    {
      type: "button",
      id: "mute-reactions",
      class: "toggle mute-toggle",
      "data-testid": "mute-reactions",
      "aria-pressed": String(muted()),
      onclick: () => {
        store(KEYS.muteReactions, muted() ? "0" : "1");
        mute.setAttribute("aria-pressed", String(muted()));
        if (muted()) for (const b of document.querySelectorAll(".reaction-bubble.others")) b.remove();
      },
    },
    el("span", { class: "toggle-track", "aria-hidden": "true" }, el("span", { class: "toggle-knob" })),
    el("span", { text: t("at_table.mute") }),
  );
  const leave = el("button", {
    type: "button",
    id: "leave-table",
    class: "btn btn-secondary leave-table",
    "data-testid": "leave-table",
    text: t("at_table.leave"),
    onclick: leaveTable,
  });
  row.replaceChildren(el("div", { class: "reaction-buttons" }, buttons), mute, leave);
}

/** Leave the table for good (docs/tables.md): the computer plays the seat from now on; this browser
 * forgets the seat and goes back to the new-game screen. Asked first: it cannot be undone. */
async function leaveTable() {
  const session = app.session;
  if (!session || !window.confirm(t("at_table.leave_confirm"))) return;
  try {
    const res = await request(
      `api/tables/${encodeURIComponent(session.room)}/leave`,
      authorized(session.token, { method: "POST" }),
    );
    if (!res.ok && res.status !== 409) throw new Error(errorDetail(await res.json().catch(() => null)));
  } catch (err) {
    showError(err instanceof TypeError ? t("page.err.network") : String(err.message || err));
    return;
  }
  forgetSession();
  showScreen("new");
}

function updateButtons() {
  const resting = Date.now() < restUntil || !app.connected;
  for (const b of document.querySelectorAll("#reactions .reaction-btn")) b.disabled = resting;
  const row = $("#reactions");
  if (row) row.dataset.resting = resting ? "1" : "0";
}

function rest(ms) {
  restUntil = Date.now() + ms;
  updateButtons();
  clearTimeout(restTimer);
  restTimer = setTimeout(updateButtons, ms + 20);
}

function send(key) {
  if (Date.now() < restUntil) return;
  if (react(key)) rest(REST_MS);
}

/** The server refused a reaction sent too soon (`too_fast`): rest the row again. */
export function onTooFast() {
  rest(REST_MS);
}

/** A `reaction` message: a bubble at the sender's seat (not for the others' when muted). */
export function onReaction(msg) {
  if (!REACTIONS.includes(msg.saying) && !I.hasKey(`saying.${msg.saying}`)) return;
  const mine = msg.seat === mySeat() && !spectating();
  if (!mine && muted()) return;
  const box = document.querySelector(`[data-seat-extra="${Number(msg.seat)}"]`);
  if (!box) return;
  box.querySelector(".reaction-bubble")?.remove();
  const bubble = el("p", {
    class: `reaction-bubble${mine ? "" : " others"}`,
    "data-testid": "reaction-bubble",
    "data-seat": msg.seat,
    "data-saying": msg.saying,
    title: I.sayingGloss(msg.saying),
    text: I.sayingWords(msg.saying),
  });
  box.append(bubble);
  setTimeout(() => bubble.remove(), BUBBLE_MS);
}
