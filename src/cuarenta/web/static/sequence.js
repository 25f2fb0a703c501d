// The end of a hand or of a chica, shown in order (docs/web.md, "The end of a hand, step by step"):
// the last move on the table, its announcement, the deal that decided the chica with its rondas (when a
// ronda or four of a kind at the next deal ends it), the summary over THAT final table, and the next deal
// only after the player continues. An `update` that ends a hand carries the events of the end and
// of the next deal at once, and its `view` is already the next hand; this module finds the parts of the
// ending in the events and draws the table as the server says it was at each moment: the public table
// after the last play (`after` of a play or claim), the end-of-hand view of `hand_end` (`end`: the table
// it ended on, the cards each team took, the scores after the cartón), the scores of `chica_won`.
// No rule and no replay: only the server's figures and the order of its events. Also the pauses a click
// or a key cuts short.

/** Kinds that end a hand or a chica (the summary opens after them). */
const END_KINDS = new Set(["hand_end", "chica_won"]);
/** Kinds that belong to the ending itself (the summary words them; they are not announced first). */
export const ENDING_KINDS = new Set(["hand_end", "carton", "chica_won", "zapatero", "mesa_won"]);
/** What a deal may bring before the first play: its rondas and fours of a kind (they may end a chica). */
const AT_A_DEAL = new Set(["ronda", "four_of_a_kind"]);

/**
 * The parts of the first ending in `events` (a hand's or a chica's), each a list of events in order:
 *
 * - `move`: the move that ends it, with what it scored (a play or a claim and its caída, limpia …);
 * - `hand`: the end of the hand (`hand_end` and the cartón), when the hand ends;
 * - `deal`: a deal whose rondas end the chica (the `deal` and its `ronda`/`four_of_a_kind` events, when
 *   `chica_won` follows them at once: the chica is decided at the deal, after the hand or in its middle);
 * - `chica`: the end of the chica (`chica_won`, `zapatero`, `mesa_won`), when it ends;
 *
 * `head` is all of them, `cut` the index of the first event after them (the next deal, or the end of the
 * list). Null when no hand or chica ends in `events`, or when another deal comes before the ending (the
 * events of several moves, after a reconnection: they are drawn as they are).
 */
export function endParts(events) {
  const at = events.findIndex((e) => END_KINDS.has(e.kind));
  if (at < 0) return null;
  const dealAfter = (from) => {
    const i = events.findIndex((e, j) => j > from && e.kind === "deal");
    return i < 0 ? events.length : i;
  };
  const chicaAt = events.findIndex((e, j) => j >= at && e.kind === "chica_won");
  /** Whether the deal at `d` decided the chica: only its rondas come between it and `chica_won`. */
  const decides = (d) => d >= 0 && d < chicaAt && chicaAt - d > 1 && events.slice(d + 1, chicaAt).every((e) => AT_A_DEAL.has(e.kind));
  let moveEnd = at; // the move's events end where the hand's (or the chica's, or the deal's) begin
  let handEnd = at; // the hand's part: [moveEnd, handEnd)
  let dealEnd = at; // the deal's part: [handEnd, dealEnd)
  let cut;
  if (events[at].kind === "hand_end") {
    const next = dealAfter(at);
    if (decides(next)) {
      handEnd = next;
      dealEnd = chicaAt;
      cut = dealAfter(chicaAt);
    } else {
      handEnd = chicaAt >= 0 && chicaAt < next ? chicaAt : next;
      dealEnd = handEnd;
      cut = next;
    }
  } else {
    // a chica ended in the middle of a hand: by the move, or by the rondas of the deal it brought
    let deal = -1;
    for (let j = at - 1; j >= 0 && deal < 0; j -= 1) if (events[j].kind === "deal") deal = j;
    if (decides(deal)) moveEnd = handEnd = deal;
    cut = dealAfter(at);
  }
  const parts = {
    move: events.slice(0, moveEnd),
    hand: events.slice(moveEnd, handEnd),
    deal: events.slice(handEnd, dealEnd),
    chica: events.slice(dealEnd, cut),
    head: events.slice(0, cut),
    cut,
  };
  if (parts.move.some((e) => e.kind === "deal")) return null;
  return parts;
}

/**
 * Where the first ending in `events` stops: the index of the first event after it (the next `deal`,
 * or the end of the list); -1 when no hand or chica ends in them or it cannot be shown in steps.
 */
/** The seat's hand right after `events` (from `hand`, the one shown before them): the cards the seat
 * played are no longer in it. */
export function endHand(hand, seat, events) {
  const played = new Set(events.filter((e) => e.kind === "play" && e.seat === seat).map((e) => e.card));
  return hand.filter((c) => !played.has(c));
}

export function endCut(events) {
  return endParts(events)?.cut ?? -1;
}

/**
 * The seat's view as it was right after `events` (the head of a message, up to its ending or a part of
 * it), from `view` (the view shown before them) and what the server sent with the events: the table, the
 * last drop, the piles and the hand sizes after the last play (`after`), the end of the hand (`end`), the
 * scores of a chica that ends. Nobody's turn: the hand is over. (The seat's hand is its private part's:
 * `endHand`.)
 */
export function endView(view, events) {
  const v = {
    ...view,
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

/** The events of a deal that decided a chica (its `deal` and rondas, `endParts`' `deal`), found in the
 * events of a whole message (for the summary and the result); empty when the chica ended otherwise. */
export function decidingDeal(events) {
  return endParts(events || [])?.deal ?? [];
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
