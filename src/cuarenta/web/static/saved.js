// This browser's games: the one shown (the saved session), the list History reads, forgetting a game.
// Only {room, token, seat} and what the form chose are kept (storage.js), never a card.

import { app } from "./store.js";
import { KEYS, load, store } from "./storage.js";

/** A new game becomes the saved session and the first of this browser's games. */
export function rememberGame(session, extra) {
  store(KEYS.session, session);
  app.session = session;
  const games = (load(KEYS.games) ?? []).filter((g) => g.room !== session.room);
  games.unshift({ ...session, ...extra, started: new Date().toISOString() });
  store(KEYS.games, games.slice(0, 100));
}

/** The saved game is gone (or left): forget it and close its socket. */
export function forgetSession() {
  store(KEYS.session, null);
  app.session = null;
  if (app.conn) app.conn.close();
  app.conn = null;
  app.msg = null;
  app.queue = [];
}

/** A spectator's table is gone: back to this browser's own saved game, if any (nothing was stored). */
export function forgetWatch() {
  if (app.conn) app.conn.close();
  app.conn = null;
  app.msg = null;
  app.queue = [];
  app.session = load(KEYS.session);
  if (location.hash.startsWith("#watch=")) history.replaceState(null, "", location.pathname + location.search);
}
