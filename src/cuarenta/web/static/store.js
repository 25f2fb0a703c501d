// The page's state, every field declared here and nowhere else, and the subscribers told of each change.
// Modules read and write the fields of `app` (`app.pending = true`); a write of a field not declared here
// throws, and each write tells the subscribers of that field (`subscribe("pending", fn)`). What the page
// shows comes from the server's messages (docs/protocol.md): the store holds them, it computes nothing.

import { KEYS, load } from "./storage.js";

const fields = {
  options: null, // GET api/options, as the server sent it
  screen: "new", // the screen shown: new, table, history, wait, join, champ
  session: load(KEYS.session), // {room, token, seat} of the game shown ({room, watch: true} for a spectator)
  conn: null, // the Connection of connection.js, while a session is open
  wire: null, // the Wire of wire.js: the version-2 state the socket's frames add up to
  connected: false, // the socket is open
  msg: null, // the last `update` shown (wire.js: the version-2 state, its `private` part, the change's `events`)
  queue: [], // `update`s not yet shown
  busy: false, // the queue is showing a message
  joinPending: true, // the next state is the answer to a join: show it without animations
  rejoinSince: false, // that join asked for the events since the state shown (`since`)
  pending: false, // a move was sent and no answer came yet
  unsure: null, // the version a change was sent on that the server could not confirm (`outcome_unknown`)
  ayudas: load(KEYS.ayudas, false) !== "0", // the Ayudas switch: on for a newcomer, off once turned off
  advice: null, // the computer's advice asked at a version: {version, move} (move null while it thinks; advice.js)
  focusIndex: 0, // the hand card that has the keyboard's focus
  announceQueue: [], // the announcements of the update being shown
  announcing: false, // their bubble is about to be chosen
  drawShownFor: null, // the mesa/hand whose dealer draw was shown
  tableInfo: null, // a table with friends: {seats, table, status} of the last `update` or `table` message
  rematchSent: null, // the mesa after which this page asked for a rematch
  finalEvents: null, // the events of the mesa's last message
  champ: null, // the championship screen shown (champ-*.js): {view, id, token, data, …} as the server sent it
  replayFrom: null, // where the replay shown was opened: "standings" (a championship's), else null (History's)
};

const subscribers = new Map(); // field → Set of functions

/** Call `fn(value, field)` after every write of `field` (or of any of `field`, an array); returns the
 * function that stops it. */
export function subscribe(field, fn) {
  const names = Array.isArray(field) ? field : [field];
  for (const name of names) {
    if (!(name in fields)) throw new TypeError(`store.js declares no field "${name}"`);
    if (!subscribers.has(name)) subscribers.set(name, new Set());
    subscribers.get(name).add(fn);
  }
  return () => {
    for (const name of names) subscribers.get(name)?.delete(fn);
  };
}

/** The page's state: the fields above, nothing else (a write of another name throws). */
export const app = new Proxy(Object.seal(fields), {
  set(target, name, value) {
    if (!(name in target)) throw new TypeError(`store.js declares no field "${String(name)}"`);
    const old = target[name];
    target[name] = value;
    if (old !== value) for (const fn of subscribers.get(name) ?? []) fn(value, name);
    return true;
  },
  defineProperty() {
    throw new TypeError("the page's state is declared in store.js");
  },
  deleteProperty() {
    throw new TypeError("the page's state is declared in store.js");
  },
});
