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
  if (!send({ type: "move", move, state: app.msg.version })) {
    showError(t("page.status.reconnecting"));
    return;
  }
  app.pending = true;
}

/** The message that (re)joins the socket: `watch` for a spectator, `join` for a seat, with `hints`
 * always (the page shows them only with its Ayudas on: asking always lets the switch show them at once,
 * without joining again, as version 1 always sent them). With `since` (the last version wire.js applied)
 * when this page already follows the room: the server replays the events missed while the socket was
 * down, then `resumed`, and wire.js makes of them one update that the queue shows as it shows a move
 * (docs/protocol.md, "Version 2"); what is still queued stays queued (it was applied before). */
function joinMessage(session) {
  const msg = session.watch
    ? { type: "watch", room: session.room }
    : { type: "join", room: session.room, token: session.token, pace: Settings.pace(), hints: true };
  const wire = app.wire;
  if (wire && wire.room === session.room && Number.isInteger(wire.version)) {
    msg.since = wire.version;
    wire.expectReplay();
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
