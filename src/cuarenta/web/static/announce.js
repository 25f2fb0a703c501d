// What just happened (issue 17): the "last play" strip (`#last-play`) and the announcement bubble
// (`#announce`, inside the strip, under its line), one box with a fixed place in the layout, always
// telling the newest event the table shows.
//
// - A *moment* is a move (a play or a claim) with what follows it up to the next move: its caída, its
//   limpia, the deal that may come after it and that deal's rondas (a hand's first deal, before any
//   move, is a moment of its own). Its key names the move (`momentKey`). The newest moment of the view
//   drawn is the newest thing the table shows.
// - The lines of one `update` are offered together (narration.js); only those of its newest moment
//   can be shown, the heaviest of them (the newest of equals) with its saying — or, when it has none, the
//   saying of another line of the same moment (the same move's). The bubble replaces the one on screen at
//   once: no queue, no hold.
// - Each time the strip is drawn (`renderLastPlay`, from table.js), a bubble of an older moment is dropped:
//   the table moved on, so the bubble goes with it, before the new move's animation even starts.
// - It stays `duration()` ms, by the reader's pace (settings.js), unless a newer event replaces it first.
//   The bubble carries `data-pace`, `data-duration` and `data-moment` (docs/web.md, "Announcements").
// - The bubble has a room of its own in the strip, under the line (issue 25: before, the two shared one
//   grid cell and the bubble covered the line); the strip grows if the bubble needs more room, so it
//   covers nothing: not the line, the hand, the table cards, nor a seat's panel (styles.css).
import { cardElement } from "./cards.js";
import * as I from "./i18n.js";
import * as Settings from "./settings.js";
import { $, el } from "./dom.js";
import { names } from "./state.js";

const { t } = I;

/** How much an event weighs: what scores or ends something outranks a plain play's saying (1). */
const SCORING = {
  mesa_won: 5, chica_won: 5, zapatero: 5, caida_limpia: 4, caida_ronda: 4, caida: 3, limpia: 3,
  carton: 2, claim: 2, ronda: 2, four_of_a_kind: 2,
};
const weight = (line) => SCORING[line.event.kind] ?? 1;

/** How long a bubble stays at each pace of settings.js (ms): long enough to read the saying and its line. */
export const READ_MS = { slow: 5000, normal: 3500, fast: 2200 };

/** The kinds that start a moment: what happens after them (up to the next one) belongs to them. */
const HEADS = new Set(["play", "claim"]);

/** The key of the moment the move `event` starts (a play, a claim; "" for the start of a hand, before
 * any move), the same for the event in `events` of a message and in `view.history`. */
export function momentKey(event) {
  if (!event) return "";
  if (event.kind === "play") return `play:${event.seat}:${event.move}`;
  if (event.kind === "claim") return `claim:${event.seat}:${(event.cards || []).join(",")}`;
  return "";
}

/** The event that starts the newest moment of `events` (null when none does). */
function newestHead(events) {
  for (let i = events.length - 1; i >= 0; i -= 1) if (HEADS.has(events[i].kind)) return events[i];
  return null;
}

/** The moment the table shows: the key of the newest moment of the view drawn. */
let tableMoment = "";
/** The bubble on screen: {line, said (the line whose saying it shows), moment}, or null. */
let shown = null;
let timer = null;

/** How long a bubble stays, at the reader's pace. */
export function duration() {
  return READ_MS[Settings.pace()] ?? READ_MS.normal;
}

/**
 * Lines ({event, text, sayings, keys, moment, latest, version}: narration.js) of one update, in the
 * order of its events: the heaviest line of its newest moment (`latest`) replaces the bubble. Lines of
 * older moments of the message are never shown; none of the newest: the bubble is left as it is (the
 * strip's drawing has already dropped it if it told an older moment).
 */
export function offer(batch) {
  const lines = batch.filter((line) => line.latest);
  if (!lines.length) return;
  let best = null;
  for (const line of lines) if (!best || weight(line) >= weight(best)) best = line;
  // the saying: the best line's own, else another's of the same moment (the newest that has one)
  let said = best;
  if (!best.sayings.length) said = [...lines].reverse().find((l) => l.sayings.length) ?? best;
  // a message with no move continues the moment the table shows
  show(best, said, best.moment || tableMoment);
}

function show(line, said, moment) {
  clearTimeout(timer);
  const box = $("#announce");
  if (!box) return;
  const ms = duration();
  shown = { line, said, moment };
  const bubble = el("div", { class: `bubble kind-${line.event.kind}` });
  bubble.dataset.testid = "saying";
  Object.assign(bubble.dataset, {
    kind: line.event.kind,
    sayings: line.keys.join(" "),
    state: line.version ?? "", // the version of the update it tells
    moment,
    pace: Settings.pace(),
    duration: String(ms),
  });
  const saying = said.sayings[0];
  if (saying) {
    const s = el("span", { class: "bubble-saying", text: saying });
    s.title = I.sayingLine(said.keys[0], I.sayingPoints(said.event), true);
    bubble.append(s, " ");
  }
  bubble.append(el("span", { class: "bubble-text", text: line.text }));
  box.replaceChildren(bubble);
  box.classList.add("show");
  box.dataset.moment = moment;
  timer = setTimeout(hide, ms);
}

/** The bubble goes (its time is over, a newer moment came, an ending's summary opens). */
export function hide() {
  clearTimeout(timer);
  shown = null;
  const box = $("#announce");
  if (!box) return;
  box.classList.remove("show");
  box.replaceChildren();
  delete box.dataset.moment;
}

/** The bubble on screen tells an older moment than `view`'s newest: it goes; else it is worded again
 * (the language may have changed: it says what the log says). */
function sync(v) {
  tableMoment = momentKey(newestHead(v.history || []));
  if (!shown) return;
  if (shown.moment !== tableMoment) {
    hide();
    return;
  }
  const { line, said } = shown;
  const text = $("#announce .bubble-text");
  if (text) text.textContent = I.describeEvent(line.event, names());
  const saying = $("#announce .bubble-saying");
  if (saying && said.keys[0]) {
    saying.textContent = I.sayingLine(said.keys[0], I.sayingPoints(said.event));
    saying.title = I.sayingLine(said.keys[0], I.sayingPoints(said.event), true);
  }
}

/** The hand's last play on the felt, in words and cards (the card played, then what it took), drawn in
 * the strip's line; and the bubble checked against the view's newest moment (`sync`). */
export function renderLastPlay(v) {
  const box = $("#last-play");
  const line = $("#last-play-line");
  sync(v);
  const play = [...(v.history || [])].reverse().find((e) => e.kind === "play");
  box.hidden = !play;
  if (!play) {
    line.replaceChildren();
    delete box.dataset.move;
    delete box.dataset.seat;
    return;
  }
  const minis = el("span", { class: "mini-cards", "aria-hidden": "true" });
  for (const [i, c] of [play.card, ...play.taken].entries()) {
    if (i === 1) minis.append(el("span", { class: "last-play-arrow" }));
    minis.append(cardElement(c, { tag: "span", className: "card mini" }));
  }
  box.dataset.move = play.move;
  box.dataset.seat = String(play.seat);
  line.replaceChildren(
    el("span", { class: "last-play-label", text: `${t("page.last_play")}: ` }),
    minis,
    el("span", { class: "last-play-text", text: I.describeEvent(play, names()) }),
  );
}
