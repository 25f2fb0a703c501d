// The end of a hand or of a chica, shown in order (docs/web.md, "The end of a hand, step by step"):
// the last move on the table, its announcement, the summary over THAT final table, and the next deal
// only after the player continues. A `state` message that ends a hand carries the events of the end
// and of the next deal at once, and its `view` is already the next hand; this module finds where the
// ending stops in the events and draws the table as it was at that moment from the previous view and
// the events themselves (what each play took, the leftovers, the points the server counted). No rule:
// only the server's events, replayed for the picture. Also the pauses a click or a key cuts short.

import { parseMove } from "./i18n.js";

/** Kinds that end a hand or a chica (the summary opens after them). */
const END_KINDS = new Set(["hand_end", "chica_won"]);
/** Kinds that belong to the ending itself (the summary words them; they are not announced first). */
export const ENDING_KINDS = new Set(["hand_end", "carton", "chica_won", "zapatero", "mesa_won"]);
/** Kinds whose `points` the scoreboard adds while the hand goes on. */
const SCORING_KINDS = new Set(["ronda", "four_of_a_kind", "caida", "limpia", "caida_limpia", "caida_ronda", "carton"]);

/**
 * Where the first ending in `events` stops: the index of the first event after it (the next `deal`,
 * or the end of the list); -1 when no hand or chica ends in them.
 */
export function endCut(events) {
  const at = events.findIndex((e) => END_KINDS.has(e.kind));
  if (at < 0) return -1;
  const next = events.findIndex((e, i) => i > at && e.kind === "deal");
  return next < 0 ? events.length : next;
}

/**
 * The seat's view as it was right after `events` (the head of a message, up to its ending), drawn
 * from `view` (the view shown before them): the cards played leave the hands, a drop stays on the
 * table, a capture goes to its team's pile, the hand's leftovers are the table at its end, scores add
 * the points of the events. Nobody's turn: the hand is over.
 */
export function endView(view, events) {
  const v = {
    ...view,
    hand: [...(view.hand || [])],
    hand_sizes: [...(view.hand_sizes || [])],
    table: [...(view.table || [])],
    pile_sizes: [...(view.pile_sizes || [0, 0])],
    scores: [...(view.scores || [0, 0])],
    history: [...(view.history || []), ...events],
    claimable: [],
    turn: null,
  };
  for (const e of events) {
    if (e.kind === "play") {
      const m = parseMove(e.move);
      if (e.seat === v.seat) v.hand = v.hand.filter((c) => c !== m.card);
      if (typeof v.hand_sizes[e.seat] === "number") v.hand_sizes[e.seat] = Math.max(0, v.hand_sizes[e.seat] - 1);
      const taken = [...m.base, ...m.run];
      if (!taken.length) {
        v.table.push(m.card);
        v.last_drop = m.card;
      } else {
        v.table = v.table.filter((c) => !taken.includes(c));
        v.pile_sizes[e.team] = (v.pile_sizes[e.team] ?? 0) + 1 + taken.length;
        v.last_drop = null;
      }
    } else if (e.kind === "claim") {
      v.table = v.table.filter((c) => !(e.cards || []).includes(c));
      v.pile_sizes[e.team] = (v.pile_sizes[e.team] ?? 0) + (e.cards || []).length;
    } else if (e.kind === "hand_end") {
      v.table = [...(e.leftovers || [])];
      if (Array.isArray(e.pile_sizes)) v.pile_sizes = [...e.pile_sizes];
      v.last_drop = null;
    } else if (e.kind === "chica_won") {
      v.scores = [...e.scores];
    } else if (SCORING_KINDS.has(e.kind) && typeof e.points === "number") {
      v.scores[e.team] = (v.scores[e.team] ?? 0) + e.points;
    }
  }
  return v;
}

// -- pauses a click or a key cuts short ----------------------------------------------------------
let skipping = false;
let active = false;
const waiting = new Set();

/** From now on a click or a key cuts the pauses short (until `endSkip`). */
export function beginSkippable() {
  active = true;
  skipping = false;
}

function onInput() {
  if (active) skipNow();
}
document.addEventListener("pointerdown", onInput, true);
document.addEventListener("keydown", onInput, true);

/** Cut every running pause short (and the ones started until `endSkip`): the player asked to go on. */
export function skipNow() {
  skipping = true;
  for (const resolve of waiting) resolve();
  waiting.clear();
}

/** The skippable stretch is over: pauses wait again, clicks and keys do their own work. */
export function endSkip() {
  active = false;
  skipping = false;
}

/** Whether the player asked to skip the stretch running now. */
export function skipped() {
  return skipping;
}

/** Wait `ms`, or less if the player clicks or presses a key (skipNow). */
export function pause(ms) {
  if (skipping || ms <= 0) return Promise.resolve();
  return new Promise((resolve) => {
    const done = () => {
      clearTimeout(timer);
      waiting.delete(done);
      resolve();
    };
    const timer = setTimeout(done, ms);
    waiting.add(done);
  });
}

/** Wait until `test()` is true (checked every 50 ms), at most `ms`, cut short by a skip. */
export async function until(test, ms) {
  const end = Date.now() + ms;
  while (!skipping && !test() && Date.now() < end) await pause(50);
}
