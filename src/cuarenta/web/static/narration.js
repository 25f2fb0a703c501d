// Narration (the sayings' keys come with every event, chosen by the server): events as lines of text and
// sayings, and the announcements of one `update` gathered for the bubble (announce.js), which
// shows only those of the message's newest moment (issue 17).

import * as I from "./i18n.js";
import * as Bubble from "./announce.js";
import { app, names } from "./state.js";

export const ANNOUNCED = new Set([
  "ronda", "four_of_a_kind", "caida", "limpia", "caida_limpia", "caida_ronda", "claim",
  "chica_won", "zapatero", "mesa_won",
]);

/**
 * Events as lines: [{event, text, sayings (in words), keys, moment, latest}]. `moment`: the key of the
 * move (a play or a claim) the event follows in `events` (announce.js `momentKey`), "" when no move comes
 * before it there; `latest`: the event belongs to the newest moment of `events` (after their last move,
 * or every event when they hold no move).
 */
export function narrate(events) {
  let moment = "";
  const lines = events.map((e) => {
    const keys = Array.isArray(e.sayings) ? e.sayings : [];
    const sayings = keys.map((k) => I.sayingLine(k, I.sayingPoints(e))).filter(Boolean);
    moment = Bubble.momentKey(e) || moment;
    return { event: e, text: I.describeEvent(e, names()), sayings, keys, moment };
  });
  for (const line of lines) line.latest = line.moment === moment;
  return lines;
}

/** Lines of the update being shown, gathered in their order: the best of their newest moment
 * replaces the bubble (announce.js). */
export function announce(line) {
  app.announceQueue.push({ ...line, version: app.msg?.version });
  if (!app.announcing) {
    app.announcing = true;
    queueMicrotask(runAnnouncements);
  }
}

function runAnnouncements() {
  app.announcing = false;
  Bubble.offer(app.announceQueue.splice(0));
}
