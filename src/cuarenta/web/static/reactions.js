// Reactions at a table with friends (docs/tables.md `react` and `reaction`): one button under the hand
// ("Reacciones", `reactions-open`) opens a compact tray of quick buttons with traditional sayings and the
// switch, remembered in localStorage, that hides the others' bubbles; a bubble shows at the sender's seat
// for a moment and the buttons rest for 2 seconds after a send (the server's limit). The tray closes with
// Escape, a click outside it, or a send. "Dejar la mesa" is an item of the table menu (#table-menu, whose
// Escape and outside click are handled here too: docs/web.md "The table on a phone (issue 17)").
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
/** The reactions button's icon: a speech bubble (no emoji: the phone's fonts may lack them). */
const BUBBLE_ICON =
  '<svg viewBox="0 0 24 24" width="18" height="18" focusable="false"><path fill="currentColor" d="M4 4h16a2 2 0 0 1 2 2v9a2 2 0 0 1-2 2H10l-5 4v-4H4a2 2 0 0 1-2-2V6a2 2 0 0 1 2-2z"/></svg>';
const REST_MS = 2000;

let restUntil = 0;
let restTimer = null;

function muted() {
  return load(KEYS.muteReactions, false) === "1";
}

/** The reactions button and its tray (in the row under the hand) and "Dejar la mesa" (in the table menu),
 * drawn with the table; hidden away from tables and for spectators. */
export function render() {
  let opener = $("#reactions-open");
  let tray = $("#reactions");
  const show = isTable() && !spectating() && Boolean(app.msg);
  if (!show) {
    if (opener) opener.hidden = true;
    if (tray) tray.hidden = true;
    const leave = $("#leave-table");
    if (leave) leave.hidden = true;
    return;
  }
  if (!opener) {
    tray = el("div", { id: "reactions", class: "reactions", "data-testid": "reactions", role: "group", hidden: "" });
    opener = el("button", {
      type: "button",
      id: "reactions-open",
      class: "btn reactions-open",
      "data-testid": "reactions-open",
      "aria-expanded": "false",
      "aria-controls": "reactions",
      onclick: () => setTray(tray.hidden),
    });
    tray.addEventListener("keydown", onTrayKey);
    opener.addEventListener("keydown", onTrayKey);
    $("#table-menu").before(opener);
    $("#controls").append(tray);
  }
  if (tray.dataset.lang !== I.getLang()) build(opener, tray);
  opener.hidden = false;
  $("#leave-table").hidden = false;
  updateButtons();
}

/** Open (true) or close (false) the tray; closing gives the focus back to the button when it was inside. */
function setTray(open) {
  const tray = $("#reactions");
  const opener = $("#reactions-open");
  if (!tray || !opener) return;
  if (open) {
    $("#table-menu").open = false;
    tray.hidden = false;
    opener.setAttribute("aria-expanded", "true");
    (tray.querySelector(".reaction-btn:not(:disabled)") || tray.querySelector("#mute-reactions"))?.focus();
    return;
  }
  const hadFocus = tray.contains(document.activeElement);
  tray.hidden = true;
  opener.setAttribute("aria-expanded", "false");
  if (hadFocus) opener.focus();
}

function onTrayKey(event) {
  if (event.key === "Escape" && !$("#reactions").hidden) {
    event.preventDefault();
    event.stopPropagation();
    setTray(false);
    $("#reactions-open").focus();
  }
}

function build(opener, tray) {
  tray.dataset.lang = I.getLang();
  tray.setAttribute("aria-label", t("at_table.reactions"));
  opener.title = t("at_table.reactions");
  opener.replaceChildren(
    el("span", { class: "reactions-open-icon", "aria-hidden": "true", html: BUBBLE_ICON }),
    el("span", { class: "reactions-open-label", text: t("at_table.reactions") }),
  );
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
  tray.replaceChildren(el("div", { class: "reaction-buttons" }, buttons), mute);
  $("#leave-table")?.remove();
  const leave = el("button", {
    type: "button",
    id: "leave-table",
    class: "btn btn-secondary leave-table",
    "data-testid": "leave-table",
    text: t("at_table.leave"),
    onclick: leaveTable,
  });
  $("#table-menu-items").append(leave);
}

// the table menu and the tray close with Escape and with a click (or tap) outside them
document.addEventListener("keydown", (event) => {
  const menu = $("#table-menu");
  if (event.key === "Escape" && menu?.open) {
    menu.open = false;
    menu.querySelector("summary").focus();
  }
});
document.addEventListener("pointerdown", (event) => {
  const menu = $("#table-menu");
  if (menu?.open && !menu.contains(event.target)) menu.open = false;
  const tray = $("#reactions");
  if (tray && !tray.hidden && !tray.contains(event.target) && !$("#reactions-open").contains(event.target)) {
    setTray(false);
  }
});
// an action of the menu (a button in it: the tips, "Dejar la mesa", …) closes it; the legend opens in place
$("#table-menu-items")?.addEventListener("click", (event) => {
  if (event.target.closest("button")) $("#table-menu").open = false;
});
$("#table-menu")?.addEventListener("toggle", () => {
  if ($("#table-menu").open) setTray(false);
});

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
  $("#reactions-open")?.toggleAttribute("data-resting", resting);
}

function rest(ms) {
  restUntil = Date.now() + ms;
  updateButtons();
  clearTimeout(restTimer);
  restTimer = setTimeout(updateButtons, ms + 20);
}

function send(key) {
  if (Date.now() < restUntil) return;
  if (react(key)) {
    rest(REST_MS);
    setTray(false); // sent: the tray gets out of the way of the table
  }
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
