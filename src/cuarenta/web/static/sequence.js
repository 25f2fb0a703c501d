// The end of a hand or of a chica, shown in order (docs/web.md, "The end of a hand, step by step"):
// the last move on the table, its announcement, the summary over THAT final table, and the next deal
// only after the player continues. A `state` message that ends a hand carries the events of the end
// and of the next deal at once, and its `view` is already the next hand; this module finds where the
// ending stops in the events and draws the table as the server says it was at that moment: the public
// table after the last play (`after` of a play or claim), the end-of-hand view of `hand_end` (`end`: the
// table it ended on, the cards each team took, the scores after the cartón), the scores of `chica_won`.
// No rule and no replay: only the server's figures. Also the pauses a click or a key cuts short.

/** Kinds that end a hand or a chica (the summary opens after them). */
const END_KINDS = new Set(["hand_end", "chica_won"]);
/** Kinds that belong to the ending itself (the summary words them; they are not announced first). */
export const ENDING_KINDS = new Set(["hand_end", "carton", "chica_won", "zapatero", "mesa_won"]);

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
 * The seat's view as it was right after `events` (the head of a message, up to its ending), from `view`
 * (the view shown before them) and what the server sent with the events: the table, the last drop, the
 * piles and the hand sizes after the last play (`after`), the end of the hand (`end`), the scores of a
 * chica that ends. The card I played is no longer in my hand. Nobody's turn: the hand is over.
 */
export function endView(view, events) {
  const played = new Set(events.filter((e) => e.kind === "play" && e.seat === view.seat).map((e) => e.card));
  const v = {
    ...view,
    hand: (view.hand || []).filter((c) => !played.has(c)),
    history: [...(view.history || []), ...events],
    claimable: [],
    turn: null,
  };
  const last = [...events].reverse().find((e) => e.after);
  if (last) {
    const { table, last_drop, pile_sizes, hand_sizes } = last.after;
    Object.assign(v, { table, last_drop, pile_sizes, hand_sizes });
  }
  const handEnd = events.find((e) => e.kind === "hand_end");
  if (handEnd) {
    const { table, cards, scores, score_marks } = handEnd.end;
    Object.assign(v, { table, last_drop: null, pile_sizes: cards, scores, score_marks });
  }
  const chica = events.find((e) => e.kind === "chica_won");
  if (chica) Object.assign(v, { scores: chica.scores, score_marks: chica.score_marks });
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
