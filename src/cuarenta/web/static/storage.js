// localStorage, and the keys the page keeps there: the session {room, token, seat} (at a table with friends
// also `table: true`; a spectator stores nothing), this browser's games, the Ayudas switch (on unless
// turned off: "0") and whether its one-line explanation was shown, the player's name and the new-game
// form, and a championship organiser's links under that championship's own key (champKey) — never a card. Storage that is full or disabled is ignored: the page still works for the visit.

export const KEYS = {
  session: "cuarenta.session",
  games: "cuarenta.games",
  ayudas: "cuarenta.ayudas", // "0": turned off; "1" or nothing stored (a newcomer): on
  ayudasIntro: "cuarenta.ayudas_intro", // "1": the Ayudas' one-line explanation was shown once (settings.js)
  name: "cuarenta.name",
  form: "cuarenta.form",
  muteReactions: "cuarenta.mute_reactions", // "1": the others' reactions are not shown (reactions.js)
  device: "cuarenta.device", // "1": this browser plays on the device (device.js), not on the server
  puzzles: "cuarenta.puzzles", // the puzzles' streak: {streak, best, solved, tried, last} (puzzles.js)
  daily: "cuarenta.daily", // the deal of the day played here: {day, room, token, seat} (daily.js)
  dailyOffline: "cuarenta.daily.offline", // the offline deals a server handed out: {days: [{day, seed}], rules, level}
  dailyOutbox: "cuarenta.daily.outbox", // the device's finished offline deals to send: [{day, room, record, name}]
  dailySent: "cuarenta.daily.sent", // what the server answered them: [{day, room, entry, place, beats, count, result}]
  puzzleSolver: "cuarenta.puzzle_solver", // this browser's random solver id: its puzzle rating (puzzles.js)
};

/** The room this browser plays (or played) the deal of the day in, or null (daily.js keeps it). */
export function dailyRoom() {
  return load(KEYS.daily)?.room ?? null;
}

/** The key of what the organiser of championship `id` keeps ({organiser, judge, register}: the secrets of
 * the links its creation answered once), that championship's alone. */
export function champKey(id) {
  return "cuarenta.champ." + id;
}

/** The games on the device have their own session, list and deal of the day's room (their rooms exist
 * only in this browser's IndexedDB, device-worker.js): called once at start when the page plays on the
 * device. */
export function useDeviceKeys() {
  KEYS.session = "cuarenta.device.session";
  KEYS.games = "cuarenta.device.games";
  KEYS.daily = "cuarenta.device.daily";
}

export function store(key, value) {
  try {
    if (value === null || value === undefined) localStorage.removeItem(key);
    else localStorage.setItem(key, typeof value === "string" ? value : JSON.stringify(value));
  } catch {
    /* storage full or disabled: the page still works for this visit */
  }
}
export function load(key, parse = true) {
  try {
    const raw = localStorage.getItem(key);
    if (raw === null) return null;
    return parse ? JSON.parse(raw) : raw;
  } catch {
    return null;
  }
}
