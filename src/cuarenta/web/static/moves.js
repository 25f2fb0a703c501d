// Every request of play the page sends on the socket: a move (with the number of the state it answers),
// join or watch, the next mesa, a rematch, a reaction, the computer's pace. Only moves the server listed
// in `legal` are sent; what a move does is the server's to say.

import * as Settings from "./settings.js";
import { t } from "./i18n.js";
import { hideError, showError } from "./errors.js";
import { app } from "./store.js";

/** Send `message` on the open socket; false when there is none. */
export function send(message) {
  return Boolean(app.conn && app.conn.send(message));
}

/** Play `move` (one of `legal`) against the state shown; the table waits for the answer (`pending`). */
export function sendMove(move) {
  if (!app.conn || !app.msg) return;
  hideError();
  if (!send({ type: "move", move, state: app.msg.state })) {
    showError(t("page.status.reconnecting"));
    return;
  }
  app.pending = true;
}

/** The message that (re)joins the socket: `watch` for a spectator; `join` with `since` (the
 * `event_count` of the last state shown, docs/tables.md) when this page already shows the room: the
 * state that answers brings the events missed while the socket was down, and the queue shows them as it
 * shows a move. */
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

/** Join (or watch) the session's room: the next state is shown without animations. */
export function join(session) {
  const message = joinMessage(session);
  app.joinPending = true;
  return send(message);
}

/** Another mesa against the computer (`next`). */
export function next() {
  return send({ type: "next" });
}

/** At a table with friends: agree to another mesa (`rematch`). */
export function rematch() {
  const sent = send({ type: "rematch" });
  if (sent) app.rematchSent = app.msg?.mesa ?? null;
  return sent;
}

/** A quick saying (`react`). */
export function react(saying) {
  return send({ type: "react", saying });
}

/** Settings' messages (the computer's pace); a spectator does not set the pace of a table it watches. */
export function settingsMessage(message) {
  return Boolean(!app.session?.watch && send(message));
}
