// The connection to the game: the WebSocket (join, move, next, ping, reconnect with growing pauses),
// the messages it brings, the session (open, resume, forget) and sending a move. The `state` messages go
// to the queue (queue.js), which shows them one by one.

import * as I from "./i18n.js";
import * as Settings from "./settings.js";
import * as Bubble from "./announce.js";
import * as Presence from "./presence.js";
import * as Reactions from "./reactions.js";
import { authorized } from "./api.js";
import { hideError, showError } from "./dialogs.js";
import { $ } from "./dom.js";
import { pump } from "./queue.js";
import { showScreen, updateNav } from "./screens.js";
import { app } from "./state.js";
import { KEYS, load, store } from "./storage.js";
import { clearTable, renderClaims, renderHand, updateStatus } from "./table.js";

const { t } = I;

const PROTOCOL = 1;

class Connection {
  constructor(session, onMessage, onState) {
    this.session = session;
    this.onMessage = onMessage;
    this.onState = onState;
    this.closed = false;
    this.retry = 0;
    this.ws = null;
    this.timer = null;
    this.pinger = null;
    this.connect();
  }

  connect() {
    const scheme = location.protocol === "https:" ? "wss" : "ws";
    const base = location.pathname.replace(/[^/]*$/, "");
    let ws;
    try {
      // the room in the address lets a cluster's proxy send every socket of a table to the same server
      // (docs/scaling.md); the server reads the room from the join message, never from here
      const room = encodeURIComponent(this.session.room ?? "");
      ws = new WebSocket(`${scheme}://${location.host}${base}ws?room=${room}`);
    } catch {
      this.scheduleReconnect();
      return;
    }
    this.ws = ws;
    ws.addEventListener("open", () => {
      this.retry = 0;
      this.onState("open");
      this.send(joinMessage(this.session));
      this.pinger = setInterval(() => this.send({ type: "ping" }), 25000);
    });
    ws.addEventListener("message", (ev) => {
      let msg;
      try {
        msg = JSON.parse(ev.data);
      } catch {
        return;
      }
      this.onMessage(msg);
    });
    ws.addEventListener("close", () => {
      clearInterval(this.pinger);
      if (this.ws !== ws) return;
      this.ws = null;
      if (!this.closed) {
        this.scheduleReconnect();
        this.onState("lost");
      }
    });
  }

  scheduleReconnect() {
    if (this.closed) return;
    const delay = Math.min(10000, 500 * 2 ** this.retry);
    this.retry += 1;
    clearTimeout(this.timer);
    this.timer = setTimeout(() => this.connect(), delay);
  }

  send(obj) {
    if (!this.ws || this.ws.readyState !== WebSocket.OPEN) return false;
    if (obj.type === "join" || obj.type === "watch") app.joinPending = true;
    this.ws.send(JSON.stringify({ v: PROTOCOL, ...obj }));
    return true;
  }

  close() {
    this.closed = true;
    clearTimeout(this.timer);
    clearInterval(this.pinger);
    if (this.ws) this.ws.close();
    this.ws = null;
  }
}

/** The message that (re)joins the socket: `watch` for a spectator; `join` with `since` (the `event_count`
 * of the last state shown, docs/tables.md) when this page already shows the room: the state that answers
 * brings the events missed while the socket was down, and the queue shows them as it shows a move. */
function joinMessage(session) {
  if (session.watch) return { type: "watch", room: session.room };
  const msg = { type: "join", room: session.room, token: session.token, pace: Settings.pace() };
  const shown = app.msg;
  if (shown && shown.room === session.room && Number.isInteger(shown.event_count)) {
    msg.since = shown.event_count;
    app.queue.length = 0; // what is still queued comes again in the answer
    app.rejoinSince = true;
  } else app.rejoinSince = false;
  return msg;
}

export function openSession(session) {
  if (app.conn) app.conn.close();
  app.session = session;
  app.msg = null;
  app.queue = [];
  app.pending = false;
  app.connected = false;
  app.drawShownFor = null;
  app.rejoinSince = false;
  app.rematchSent = null;
  Presence.reset();
  $("#result").hidden = true;
  $("#draw-panel").hidden = true;
  Bubble.hide();
  clearTable();
  showScreen("table");
  updateStatus();
  app.conn = new Connection(session, onMessage, (what) => {
    app.connected = what === "open";
    updateStatus();
    renderHand(); // the cards are disabled while the socket is down
  });
}

const hooks = [];
/** Another module sees each socket message first (friends.js: a table that waits for people); a hook
 * that returns true has used the message up. */
export function addMessageHook(hook) {
  hooks.push(hook);
}

function onMessage(msg) {
  if (!msg || typeof msg !== "object") return;
  if (hooks.some((hook) => hook(msg))) return;
  if (msg.type === "state") {
    Presence.onState(msg);
    app.queue.push(msg);
    pump();
  } else if (msg.type === "table") {
    Presence.onTable(msg);
  } else if (msg.type === "reaction") {
    Reactions.onReaction(msg);
  } else if (msg.type === "error") {
    onServerError(msg);
  } else if (msg.type === "pace") {
    Settings.onServerPace(msg);
  }
}

function onServerError(msg) {
  app.pending = false;
  const code = msg.code ?? "";
  const message = msg.message ?? "";
  if (code === "too_fast") {
    Reactions.onTooFast(); // a reaction sent too soon: the row rests, no banner
    return;
  }
  const watching = Boolean(app.session?.watch);
  if (code === "unknown_room" || code === "bad_token" || code === "corrupt_room" || code === "seat_left" || code === "not_a_table") {
    if (watching) forgetWatch();
    else forgetSession();
    showScreen("new");
    showError(I.hasKey(`at_table.err.${code}`) ? t(`at_table.err.${code}`) : t(`page.err.${code}`, { message }));
    return;
  }
  if (code === "not_joined" && app.conn && app.session) {
    app.conn.send(joinMessage(app.session));
  }
  let text;
  if (code === "illegal_move") text = t("move.illegal", { reason: I.errorText(msg.reason) ?? message });
  else if (I.hasKey(`at_table.err.${code}`)) text = t(`at_table.err.${code}`);
  else if (I.hasKey(`page.err.${code}`)) text = t(`page.err.${code}`, { message });
  else text = t("page.err.generic", { message: message || code });
  showError(text, code);
  updateStatus();
  renderHand();
}

export function sendMove(move) {
  if (!app.conn || !app.msg) return;
  hideError();
  const ok = app.conn.send({ type: "move", move, state: app.msg.state });
  if (!ok) {
    showError(t("page.status.reconnecting"));
    return;
  }
  app.pending = true;
  $("#draw-panel").hidden = true;
  const dialog = $("#choice-dialog");
  if (dialog.open) dialog.close();
  renderHand();
  renderClaims();
  updateStatus();
}

export async function resume(session) {
  // ask first whether the saved room still exists (404 unknown, 403 wrong token, 410 the seat was left)
  try {
    const res = await fetch(`api/rooms/${encodeURIComponent(session.room)}`, authorized(session.token));
    if (res.status === 404 || res.status === 403 || res.status === 410) {
      forgetSession();
      showScreen("new");
      const key = { 404: "page.err.unknown_room", 403: "page.err.bad_token", 410: "at_table.err.seat_left" };
      showError(t(key[res.status]));
      return;
    }
    if (res.ok) {
      const info = await res.json().catch(() => null);
      if (info && typeof info.seat === "number") session.seat = info.seat;
    }
  } catch {
    /* the server may be starting: the WebSocket retries */
  }
  openSession(session);
}

/** Go on with one of this browser's games (from History): it becomes the saved session. */
export function resumeGame(room) {
  const game = (load(KEYS.games) ?? []).find((g) => g.room === room && g.token);
  if (!game) return;
  if (app.session && app.session.room === room && app.conn) {
    showScreen("table");
    return;
  }
  const session = { room: game.room, token: game.token, seat: game.seat ?? 0 };
  store(KEYS.session, session);
  openSession(session);
}

/** A spectator's table is gone: back to this browser's own saved game, if any (nothing was stored). */
function forgetWatch() {
  if (app.conn) app.conn.close();
  app.conn = null;
  app.msg = null;
  app.queue = [];
  app.session = load(KEYS.session);
  if (location.hash.startsWith("#watch=")) history.replaceState(null, "", location.pathname + location.search);
  updateNav();
}

export function forgetSession() {
  store(KEYS.session, null);
  app.session = null;
  if (app.conn) app.conn.close();
  app.conn = null;
  app.msg = null;
  app.queue = [];
  updateNav();
}
