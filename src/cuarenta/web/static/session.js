// A game's session: open its socket (connection.js) and (re)join the room (moves.js), hand the server's
// messages to what shows them (the queue of `update`s of wire.js, presence, reactions, the pace, the errors),
// resume the saved game, go on with one from History.

import * as I from "./i18n.js";
import * as Settings from "./settings.js";
import * as Bubble from "./announce.js";
import * as Presence from "./presence.js";
import * as Reactions from "./reactions.js";
import { onAdvice, onAdviceError } from "./advice.js";
import { authorized, request } from "./api.js";
import { Connection } from "./connection.js";
import { DeviceConnection, onDevice } from "./device.js";
import { Wire } from "./wire.js";
import { hideError, showError } from "./errors.js";
import { $ } from "./dom.js";
import { join } from "./moves.js";
import { pump } from "./queue.js";
import { forgetSession, forgetWatch } from "./saved.js";
import { showScreen } from "./screens.js";
import { app } from "./store.js";
import { KEYS, load, store } from "./storage.js";
import { clearTable, renderHand, updateStatus } from "./table.js";

const { t } = I;

export function openSession(session) {
  if (app.conn) app.conn.close();
  app.session = session;
  app.msg = null;
  app.wire = new Wire();
  app.queue = [];
  app.pending = false;
  app.unsure = null;
  app.connected = false;
  app.drawShownFor = null;
  app.rejoinSince = false;
  app.rematchSent = null;
  app.advice = null;
  Presence.reset();
  $("#result").hidden = true;
  $("#draw-panel").hidden = true;
  Bubble.hide();
  clearTable();
  showScreen("table");
  updateStatus();
  const Transport = onDevice() ? DeviceConnection : Connection;
  app.conn = new Transport(session.room, {
    open: () => join(session),
    message: (frame) => {
      for (const msg of app.wire.receive(frame)) onMessage(msg);
    },
    state: (what) => {
      app.connected = what === "open";
      if (app.advice && !app.advice.move) app.advice = null; // a question the lost socket took with it: ask again
      updateStatus();
      renderHand(); // the cards are disabled while the socket is down
    },
  });
}

const hooks = [];
/** Another module sees each socket message first (friends.js: a table that waits for people); a hook
 * that returns true has used the message up. */
export function addMessageHook(hook) {
  hooks.push(hook);
}

function onMessage(msg) {
  if (msg.type === "resync") {
    if (app.session) join(app.session); // a frame did not follow the state held: a snapshot (wire.js)
    return;
  }
  if (hooks.some((hook) => hook(msg))) return;
  if (msg.type === "update") {
    if (app.unsure !== null && msg.version > app.unsure) {
      app.unsure = null; // the table moved on (the move shown as made, or a later one): known now
      hideError(["outcome_unknown"]);
    }
    Presence.onUpdate(msg);
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
  } else if (msg.type === "advice") {
    onAdvice(msg);
  }
}

function onServerError(msg) {
  const code = msg.code ?? "";
  const message = msg.message ?? "";
  // a question to the computer that ended (advice.js): the table moved on (nothing to say), or it refused
  if (onAdviceError(code)) {
    if (code === "no_advice" || code === "advice_failed") showError(t(`page.err.${code}`), code);
    return;
  }
  app.pending = false;
  if (code === "too_fast") {
    Reactions.onTooFast(); // a reaction sent too soon: the row rests, no banner
    return;
  }
  const watching = Boolean(app.session?.watch);
  // a seat taken back on another device, or handed to someone new (seatback.js): this page's token is done
  const taken = code === "seat_reclaimed" || code === "seat_given";
  if (taken || code === "unknown_room" || code === "bad_token" || code === "corrupt_room" || code === "seat_left" || code === "not_a_table") {
    if (watching) forgetWatch();
    else forgetSession();
    showScreen("new");
    if (taken) showError(t(`page.reclaim.err.${code}`));
    else showError(I.hasKey(`at_table.err.${code}`) ? t(`at_table.err.${code}`) : t(`page.err.${code}`, { message }));
    return;
  }
  // not joined, or a change the server could not confirm (it may have been made): ask for the state again;
  // the server sends the table's state once it knows (the move made), and the banner goes then
  if (code === "outcome_unknown") app.unsure = app.msg?.version ?? null;
  if ((code === "not_joined" || code === "outcome_unknown") && app.session) join(app.session);
  let text;
  if (code === "illegal_move") text = t("move.illegal", { reason: I.errorText(msg.reason) ?? message });
  else if (I.hasKey(`at_table.err.${code}`)) text = t(`at_table.err.${code}`);
  else if (I.hasKey(`page.err.${code}`)) text = t(`page.err.${code}`, { message });
  else text = t("page.err.generic", { message: message || code });
  showError(text, code);
  updateStatus();
  renderHand();
}

export async function resume(session) {
  // ask first whether the saved room still exists (404 unknown, 403 wrong token, 410 the seat was left)
  try {
    const res = await request(`api/rooms/${encodeURIComponent(session.room)}`, authorized(session.token));
    if (res.status === 404 || res.status === 403 || res.status === 410) {
      forgetSession();
      showScreen("new");
      const key = { 404: "page.err.unknown_room", 403: "page.err.bad_token", 410: "at_table.err.seat_left" };
      const why = res.status === 410 ? (await res.json().catch(() => null))?.code : null;
      showError(t(why === "seat_reclaimed" || why === "seat_given" ? `page.reclaim.err.${why}` : key[res.status]));
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
