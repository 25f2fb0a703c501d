// The announcement bubble over the felt (issue 8): the lines of one `state` message are offered together,
// and the heaviest (the newest of equals) replaces the bubble at once — no queue. A plain play's saying
// that comes just after a scoring bubble waits for it (HOLD_MS), unless the turn is the person's.
import * as I from "./i18n.js";

/** How much an event weighs: what scores or ends something outranks a plain play's saying (1). */
const SCORING = {
  mesa_won: 5, chica_won: 5, zapatero: 5, caida_limpia: 4, caida_ronda: 4, caida: 3, limpia: 3,
  carton: 2, claim: 2, ronda: 2, four_of_a_kind: 2,
};
const weight = (line) => SCORING[line.event.kind] ?? 1;
const HOLD_MS = 1200;

let shown = null; // the line on screen, with `at`
let next = null; // a line waiting for the hold to end
let timer = null;

/** Lines ({event, text, sayings, keys, state}) announced together; `myTurn`: the turn is the person's. */
export function offer(batch, myTurn) {
  let best = null;
  for (const line of batch) if (!best || weight(line) >= weight(best)) best = line;
  if (!best) return;
  const wait = shown ? shown.at + HOLD_MS - Date.now() : 0;
  if (shown && weight(shown) > weight(best) && wait > 0 && !myTurn) {
    next = best;
    clearTimeout(timer);
    timer = setTimeout(() => show(next), wait);
    return;
  }
  show(best);
}

/** The turn came back to the person: a waiting line is shown at once. */
export function flush() {
  if (next) show(next);
}

function show(line) {
  clearTimeout(timer);
  next = null;
  if (!line) return;
  shown = { ...line, at: Date.now() };
  const box = document.querySelector("#announce");
  const bubble = document.createElement("div");
  bubble.className = `bubble kind-${line.event.kind}`;
  bubble.dataset.testid = "saying";
  Object.assign(bubble.dataset, { kind: line.event.kind, sayings: line.keys.join(" "), state: line.state ?? "" });
  const saying = line.sayings[0];
  if (saying) {
    const p = document.createElement("p");
    p.className = "bubble-saying";
    p.title = I.sayingLine(line.keys[0], I.sayingPoints(line.event), true);
    p.textContent = saying;
    bubble.append(p);
  }
  const text = document.createElement("p");
  text.className = "bubble-text";
  text.textContent = line.text;
  bubble.append(text);
  box.replaceChildren(bubble);
  box.classList.add("show");
  timer = setTimeout(hide, saying ? 2600 : 2000);
}

export function hide() {
  clearTimeout(timer);
  shown = null;
  next = null;
  document.querySelector("#announce").classList.remove("show");
}
