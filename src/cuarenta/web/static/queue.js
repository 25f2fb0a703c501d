// Showing the `update`s of wire.js one by one: each is drawn (with its animations, announcements, the summary of
// a hand that ends, the mesa's result) before the next; the end of a hand is shown over its own table
// before the next deal (sequence.js).

import * as Settings from "./settings.js";
import * as S from "./sequence.js";
import * as Bubble from "./announce.js";
import { animate, showDraw, snapshot } from "./animate.js";
import { showResult, showSummary } from "./dialogs.js";
import { hideError } from "./errors.js";
import { $ } from "./dom.js";
import { ANNOUNCED, announce, narrate } from "./narration.js";
import { app } from "./store.js";
import { own } from "./wire.js";
import { renderAll, updateReady } from "./table.js";

export async function pump() {
  if (app.busy) return;
  app.busy = true;
  updateReady();
  try {
    while (app.queue.length) {
      const msg = app.queue.shift();
      try {
        await showState(msg);
      } catch (err) {
        console.error(err); // a drawing problem must not stop the game
        app.msg = msg;
        renderAll();
      }
    }
  } finally {
    app.busy = false;
    updateReady();
  }
}

export function isFresh(view) {
  return (
    view.hand_number === 0 &&
    view.deal_number === 0 &&
    !(view.history || []).some((e) => e.kind === "play") &&
    !(view.chica_results || []).length &&
    view.scores.every((s) => s === 0)
  );
}

async function showState(msg) {
  const prev = app.msg;
  // the answer to a re-join with `since` (connection.js): the events missed meanwhile, shown as a move's
  const rejoin = app.joinPending && app.rejoinSince && prev && prev.room === msg.room && prev.mesa === msg.mesa;
  const first = !rejoin && (app.joinPending || !prev || prev.room !== msg.room);
  app.joinPending = false;
  app.rejoinSince = false;
  const newMesa =
    prev && ((msg.mesa !== undefined && msg.mesa !== prev.mesa) || (prev.status === "finished" && msg.status === "playing"));
  if (!first && !newMesa) {
    // a hand or a chica ends in this message: its end first (over its own table), then the next deal
    const all = msg.events || [];
    const parts = S.endParts(all);
    if (parts) {
      await showEnding(msg, prev, parts);
      if (msg.status !== "finished") await showState({ ...msg, events: all.slice(parts.cut) });
      return;
    }
  }
  const rects = first || newMesa ? null : snapshot();
  if (!first && !newMesa) hideError(["stale", "illegal_move", "not_your_turn"]);
  app.msg = msg;
  app.pending = false;
  const events = msg.events || [];
  let narrated;
  if (!(first || newMesa)) narrated = narrate(events);
  else if (isFresh(msg.view)) {
    // a new mesa: announce its first rondas (the draw is shown on the felt)
    narrated = narrate(events).filter((l) => ["ronda", "four_of_a_kind"].includes(l.event.kind));
  } else narrated = [];
  renderAll({ dealt: events.some((e) => e.kind === "deal") && !first });
  if (msg.status !== "finished") $("#result").hidden = true;
  if ((first || newMesa) && isFresh(msg.view)) showDraw(msg, events);
  else if (msg.view.hand_number > 0 || msg.view.deal_number > 0) $("#draw-panel").hidden = true;
  if (rects) {
    S.beginSkippable();
    await animate(msg, prev, rects);
    S.endSkip();
  }
  if (!(first || newMesa)) Settings.onEvents(events);
  for (const line of narrated) if (ANNOUNCED.has(line.event.kind) || line.sayings.length) announce(line);
  const handEnd = events.find((e) => e.kind === "hand_end");
  const chicaWon = events.find((e) => e.kind === "chica_won");
  if (!first && msg.status !== "finished" && (handEnd || chicaWon)) await showSummary(events, msg);
  if (msg.status === "finished") {
    app.finalEvents = first ? null : events;
    showResult(msg, first);
  }
}

/** The lines of `events` the bubble tells before a summary or the result (these word the ending). */
function endingLines(events) {
  return narrate(events).filter((l) => !S.ENDING_KINDS.has(l.event.kind) && (ANNOUNCED.has(l.event.kind) || l.sayings.length));
}

/** Announce `lines` and leave them on screen for their bubble's time (0.7 s when there is none); a click
 * or a key goes on at once. */
async function tell(lines) {
  for (const line of lines) announce(line);
  await S.until(() => !app.announceQueue.length, 5000);
  await S.pause(lines.length ? Bubble.duration() : 700); // its bubble, read at the reader's pace
}

/**
 * The end of a hand or of a chica (`parts`: sequence.js `endParts`), in order: the last move on the
 * table as it left it (the scores as they were until its cards land: nothing of the end is shown while
 * the move crosses the table), its announcement; a deal that decided the chica, its rondas announced
 * with their points; then the summary (or the mesa's result) over that final table. The next deal (the
 * rest of the message) is drawn by the caller only after the summary is closed.
 */
async function showEnding(msg, prev, parts) {
  const { move, hand, deal, head } = parts;
  const rects = snapshot();
  hideError(["stale", "illegal_move", "not_your_turn"]);
  const finished = msg.status === "finished";
  app.announceQueue.length = 0; // older announcements give way to the end
  Bubble.hide();
  $("#result").hidden = true;
  $("#draw-panel").hidden = true;
  /** Draw `v` as the table of the ending, after `played` (the seat's cards played there are out of its
   * hand): nobody's turn, no move to make, the mesa not over yet. */
  const draw = (v, events, played) => {
    const cards = S.endHand(own(prev).hand, prev.view.seat, played);
    const part = msg.private && { ...msg.private, hand: cards, legal: [], moves: [], hints: [] };
    app.msg = { ...msg, events, view: v, private: part, status: "playing" };
    app.pending = false;
    renderAll();
  };
  // 1. the last move crosses the table; its points (and the end of the hand) once it has landed
  const landing = [...move, ...hand];
  const upTo = deal.length ? landing : head;
  const landed = S.endView(prev.view, upTo); // the scores: the hand's end, or the chica's
  landed.history = [...(prev.view.history || []), ...landing]; // the chica's end is the summary's
  const crossing = { history: [...(prev.view.history || []), ...move], scores: prev.view.scores, score_marks: prev.view.score_marks };
  draw({ ...landed, ...crossing }, move, upTo);
  S.beginSkippable();
  await animate(app.msg, prev, rects);
  draw(landed, move, upTo);
  Settings.onEvents(head);
  await tell(endingLines(move));
  // 2. a chica decided at the next deal: that deal and its rondas, with their points
  if (deal.length) {
    const decided = S.endView(prev.view, [...landing, ...deal]);
    const won = parts.chica.find((e) => e.kind === "chica_won");
    if (won) Object.assign(decided, { scores: won.scores, score_marks: won.score_marks });
    draw(decided, deal, [...landing, ...deal]);
    await tell(endingLines(deal));
  }
  S.endSkip();
  app.announceQueue.length = 0;
  Bubble.hide();
  // 3. the summary, or the mesa's result, over the table the ending left
  const ended = S.endView(prev.view, head);
  if (finished) {
    // the mesa's last message keeps its own view (the result reads it), with the table it ended on and
    // the log of the hand it ended in, up to the end
    const view = { ...msg.view, table: ended.table, last_drop: ended.last_drop, pile_sizes: ended.pile_sizes, history: ended.history };
    app.msg = { ...msg, events: head, view };
    renderAll();
    app.finalEvents = msg.events || [];
    showResult(app.msg, false);
    return;
  }
  if (head.some((e) => e.kind === "chica_won")) {
    ended.chicas = msg.view.chicas;
    ended.chica_results = msg.view.chica_results;
  }
  draw(ended, head, head);
  await showSummary(head, app.msg);
}
