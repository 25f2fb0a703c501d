// At a table with friends (docs/tables.md, docs/web.md "At the table with friends"): who is connected,
// who is away (with the countdown of the grace), for whom the computer plays, who left; the banner on the
// felt while the table waits for someone away on their turn; the turn clock; how many people watch; and
// "your turn" in the tab's title (and a favicon mark, a vibration, a sound) while the page is hidden.
//
// The seats and the `table` field come in `update`s (wire.js) and `table` messages: the newest one received is kept
// in app.tableInfo (a `table` message is not queued: it tells what holds now).

import * as I from "./i18n.js";
import * as Settings from "./settings.js";
import { $, el } from "./dom.js";
import { app, mySeat, seatName, view, watching } from "./state.js";

const { t } = I;

/** Whether the page shows a table with friends (as a seated person or as a spectator). */
export function isTable() {
  return Boolean(app.tableInfo?.table);
}

/** Whether this page only watches the table (`/#watch=ROOM`). */
export function spectating() {
  return watching();
}

export function reset() {
  app.tableInfo = null;
  clockAnnounced = null;
  refresh();
}

/** An `update` received (before the queue shows it): its seats and table are the newest. */
export function onUpdate(msg) {
  if (msg.table) app.tableInfo = { seats: msg.seats || [], table: msg.table, status: msg.status };
  else app.tableInfo = null;
}

/** A `table` message: seats or clock changed without a move. */
export function onTable(msg) {
  app.tableInfo = { seats: msg.seats || [], table: msg.table || {}, status: msg.status };
  refresh();
  renderRematch();
}

function tableSeat(seat) {
  return (app.tableInfo?.seats || []).find((s) => s.seat === seat) ?? null;
}

/** connected, offline, away, stand_in, left — or null for a computer player or an open seat. */
export function presenceOf(seat) {
  const s = tableSeat(seat);
  if (!s) return null;
  if (s.left) return "left";
  if (s.kind !== "person") return null;
  if (s.stand_in) return "stand_in";
  if (s.away) return "away";
  return s.connected ? "connected" : "offline";
}

function personName(seat) {
  return tableSeat(seat)?.name || seatName(seat);
}

function clock(ms) {
  const left = Math.max(0, Math.ceil((ms - Date.now()) / 1000));
  return `${Math.floor(left / 60)}:${String(left % 60).padStart(2, "0")}`;
}

/** A countdown to `until` (ms since 1970): a span the ticker keeps up to date. */
function countdown(until, attrs = {}) {
  ensureTicker();
  return el("span", { class: "countdown", "data-until": String(until), ...attrs, text: clock(until) });
}

/** `t(key)` with its {time} as a live countdown. */
function withCountdown(key, params, until) {
  const mark = "\u0000";
  const [before, after = ""] = t(key, { ...params, time: mark }).split(mark);
  return [before, countdown(until), after];
}

function presenceLine(seat) {
  const state = presenceOf(seat);
  if (!state) return null;
  const name = personName(seat);
  let words;
  if (state === "away") words = withCountdown("at_table.away", { name }, tableSeat(seat).away);
  else if (state === "stand_in") words = [t("at_table.stand_in", { name })];
  else if (state === "left") words = [t("at_table.left", { name })];
  else words = [t(`at_table.${state}`)];
  return el(
    "p",
    { class: `presence presence-${state}`, "data-testid": `presence-${seat}`, "data-presence": state },
    el("span", { class: "presence-dot", "aria-hidden": "true" }),
    el("span", { class: "presence-text" }, ...words),
  );
}

function turnClock(seat) {
  const v = view();
  const deadline = app.tableInfo?.table?.deadline;
  if (!v || !deadline || v.turn !== seat || app.msg?.status === "finished") return null;
  return el(
    "p",
    { class: `turn-clock${seat === mySeat() && !spectating() ? " mine" : ""}`, "data-testid": "turn-clock", "data-seat": seat },
    el("span", { class: "visually-hidden", text: `${t("at_table.clock_aria")}: ` }),
    countdown(deadline, { "data-testid": "turn-clock-time" }),
  );
}

/** What a seat panel shows at a table besides its cards: presence, the clock, a reaction's bubble. */
function fillExtra(box, seat) {
  const bubble = box.querySelector(".reaction-bubble");
  box.replaceChildren(...[presenceLine(seat), turnClock(seat)].filter(Boolean));
  if (bubble) box.append(bubble);
}

/** Called by table.js for each seat panel it draws. */
export function decorateSeat(panel, seat) {
  if (!isTable()) return;
  const box = el("div", { class: "seat-extra", "data-seat-extra": seat });
  fillExtra(box, seat);
  panel.append(box);
}

/** Presence, clocks, the waiting banner and the watchers, drawn again from app.tableInfo. */
export function refresh() {
  for (const box of document.querySelectorAll("[data-seat-extra]")) fillExtra(box, Number(box.dataset.seatExtra));
  renderBanner();
  renderWatchers();
  renderSpectating();
}

function renderSpectating() {
  let note = $("#spectating");
  if (!spectating() || !app.msg) {
    if (note) note.hidden = true;
    return;
  }
  if (!note) {
    note = el("p", { id: "spectating", class: "spectating", "data-testid": "spectating" });
    $("#my-area").before(note);
  }
  note.textContent = t("at_table.spectating");
  note.hidden = false;
}

function renderBanner() {
  let banner = $("#table-wait");
  const v = view();
  const turn = v?.turn;
  const s = isTable() && turn !== null && turn !== undefined && app.msg?.status !== "finished" ? tableSeat(turn) : null;
  const waiting = Boolean(s && s.kind === "person" && s.away && !s.stand_in);
  if (!waiting) {
    if (banner) banner.hidden = true;
    return;
  }
  if (!banner) {
    banner = el("p", { id: "table-wait", class: "table-wait", "data-testid": "table-wait", role: "status" });
    $("#felt").append(banner);
  }
  banner.replaceChildren(...withCountdown("at_table.wait_banner", { name: personName(turn) }, s.away));
  banner.hidden = false;
}

function renderWatchers() {
  let box = $("#watchers");
  const n = isTable() ? app.tableInfo.table.watchers ?? 0 : 0;
  if (!n) {
    if (box) box.hidden = true;
    return;
  }
  if (!box) {
    box = el("p", { id: "watchers", class: "watchers", "data-testid": "watchers" });
    $("#scoreboard").append(box);
  }
  box.dataset.count = String(n);
  box.textContent = t("at_table.watchers", { n });
  box.hidden = false;
}

// -- the ticker: every countdown on the page, and the clock's one announcement at 10 s ----------------
let ticker = null;
let clockAnnounced = null;

function ensureTicker() {
  if (!ticker) ticker = setInterval(tick, 250);
}

function tick() {
  const nodes = document.querySelectorAll(".countdown[data-until]");
  for (const node of nodes) {
    const text = clock(Number(node.dataset.until));
    if (node.textContent !== text) node.textContent = text;
  }
  announceClock();
  if (!nodes.length) {
    clearInterval(ticker);
    ticker = null;
  }
}

/** On the person's own turn with a clock: one polite announcement at 10 seconds left, no more. */
function announceClock() {
  const deadline = app.tableInfo?.table?.deadline;
  const v = view();
  if (!deadline || !v || spectating() || v.turn !== mySeat()) return;
  const left = deadline - Date.now();
  if (left > 10500 || left <= 0 || clockAnnounced === deadline) return;
  clockAnnounced = deadline;
  let live = $("#clock-live");
  if (!live) {
    live = el("p", { id: "clock-live", class: "visually-hidden", "data-testid": "clock-live", "aria-live": "polite" });
    $("#screen-table").append(live);
  }
  live.textContent = t("at_table.clock_ten");
}

// -- "your turn" while the page is hidden ------------------------------------------------------------
let lastTurn = "none";
let marked = false;
const ICON = "favicon.svg";
const ICON_TURN = "favicon-turn.svg";

/** The turn as updateReady (table.js) saw it: "me", "other", "over", "none". */
export function onTurn(turn) {
  const became = turn === "me" && lastTurn !== "me";
  lastTurn = turn;
  if (!became || !document.hidden || !isTable() || spectating()) return;
  marked = true;
  document.title = t("at_table.your_turn_title");
  const icon = document.querySelector('link[rel="icon"]');
  if (icon) icon.setAttribute("href", ICON_TURN);
  if (Settings.notifyOn()) {
    try {
      navigator.vibrate?.([120, 80, 120]);
    } catch {
      /* no vibration here */
    }
    Settings.turnSound();
  }
}

function unmark() {
  if (!marked) return;
  marked = false;
  document.title = app.screen === "table" ? `${t("page.table_title")} · Cuarenta` : "Cuarenta";
  document.querySelector('link[rel="icon"]')?.setAttribute("href", ICON);
}

document.addEventListener("visibilitychange", () => {
  if (!document.hidden) unmark();
});

// -- the rematch at a finished mesa (the result panel's main button, dialogs.js) ---------------------
/** Who agreed to another mesa, under the result's buttons. */
export function renderRematch() {
  const panel = $("#result");
  if (!panel) return;
  let line = $("#rematch-status");
  const seats = isTable() ? app.tableInfo.table.rematch || [] : [];
  const sent = app.rematchSent && app.rematchSent === app.msg?.mesa;
  if (!seats.length && !sent) {
    if (line) line.hidden = true;
    return;
  }
  if (!line) {
    line = el("p", { id: "rematch-status", class: "rematch-status", "data-testid": "rematch-status", role: "status" });
    panel.querySelector(".result-actions")?.before(line);
  }
  const others = seats.filter((s) => s !== mySeat() || spectating()).map(personName);
  const parts = [];
  if (others.length) parts.push(t(others.length === 1 ? "at_table.rematch_wants_1" : "at_table.rematch_wants", { names: I.listText(others) }));
  // who has not agreed yet: the people at the table (a socket holds their seat: the server waits for
  // them, docs/tables.md), the reader apart (their own button says it) — "Falta Carla" (issue 25)
  const missing = (app.tableInfo?.seats || [])
    .filter((s) => s.kind === "person" && s.connected && !seats.includes(s.seat) && (s.seat !== mySeat() || spectating()))
    .map((s) => personName(s.seat));
  if (missing.length) parts.push(t(missing.length === 1 ? "at_table.rematch_missing_1" : "at_table.rematch_missing", { names: I.listText(missing) }));
  else if (sent) parts.push(t("at_table.rematch_sent"));
  line.textContent = parts.join(" · ");
  line.dataset.seats = seats.join(",");
  line.hidden = false;
}
