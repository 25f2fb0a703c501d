// The connection to the game: the WebSocket (join, move, next, ping, reconnect with growing pauses),
// the messages it brings, the session (open, resume, forget) and sending a move. The `state` messages go
// to the queue (queue.js), which shows them one by one.

import * as I from "./i18n.js";
import * as Settings from "./settings.js";
import * as Bubble from "./announce.js";
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
      ws = new WebSocket(`${scheme}://${location.host}${base}ws`);
    } catch {
      this.scheduleReconnect();
      return;
    }
    this.ws = ws;
    ws.addEventListener("open", () => {
      this.retry = 0;
      this.onState("open");
      this.send({ type: "join", room: this.session.room, token: this.session.token, pace: Settings.pace() });
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
    if (obj.type === "join") app.joinPending = true;
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

export function openSession(session) {
  if (app.conn) app.conn.close();
  app.session = session;
  app.msg = null;
  app.queue = [];
  app.pending = false;
  app.connected = false;
  app.drawShownFor = null;
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
    app.queue.push(msg);
    pump();
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
  if (code === "unknown_room" || code === "bad_token" || code === "corrupt_room") {
    forgetSession();
    showScreen("new");
    showError(t(`page.err.${code}`, { message }));
    return;
  }
  if (code === "not_joined" && app.conn) {
    app.conn.send({ type: "join", room: app.session.room, token: app.session.token, pace: Settings.pace() });
  }
  let text;
  if (code === "illegal_move") text = t("move.illegal", { reason: I.errorText(msg.reason) ?? message });
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
  // ask first whether the saved room still exists (404 unknown, 403 wrong token)
  try {
    const res = await fetch(`api/rooms/${encodeURIComponent(session.room)}`, authorized(session.token));
    if (res.status === 404 || res.status === 403) {
      forgetSession();
      showScreen("new");
      showError(t(res.status === 404 ? "page.err.unknown_room" : "page.err.bad_token"));
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

function forgetSession() {
  store(KEYS.session, null);
  app.session = null;
  if (app.conn) app.conn.close();
  app.conn = null;
  app.msg = null;
  app.queue = [];
  updateNav();
}
