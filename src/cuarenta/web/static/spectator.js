// Watching a table (docs/tables.md `watch`): the link `/#watch=ROOM` opens the table read-only. The page
// sends `watch` instead of `join`, shows the table, the piles, the scores, the events and the sayings,
// with no hand and no move controls. A spectator has no seat and no token, and stores nothing: its
// session {room, watch: true} lives in memory only (never in localStorage).

import { openSession } from "./session.js";

const ROOM = /^[A-Za-z0-9_-]{1,100}$/;

/** The room of a `#watch=ROOM` fragment, or null. */
export function watchedRoom(hash = location.hash) {
  const m = /^#watch=(.+)$/.exec(hash || "");
  if (!m) return null;
  const room = decodeURIComponent(m[1]);
  return ROOM.test(room) ? room : null;
}

/** Open the table of the fragment as a spectator; false when the fragment is not a watch link. */
export function watchFromHash() {
  const room = watchedRoom();
  if (!room) return false;
  openSession({ room, watch: true });
  return true;
}

window.addEventListener("hashchange", () => watchFromHash());
