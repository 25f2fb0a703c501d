// Animations of the moves on the felt (a snapshot of where the cards were, ghosts that fly to their
// places and to the team's pile) and the dealer draw shown on a new mesa.

import { cardElement } from "./cards.js";
import * as I from "./i18n.js";
import * as S from "./sequence.js";
import { $, el, reducedMotion } from "./dom.js";
import { mySeat, seatName, youSeat } from "./state.js";
import { app, subscribe } from "./store.js";

const { t } = I;

export function snapshot() {
  const rects = { table: new Map(), hand: new Map(), seats: new Map(), piles: new Map() };
  for (const node of document.querySelectorAll("#table-cards .table-card")) rects.table.set(node.dataset.card, node.getBoundingClientRect());
  for (const node of document.querySelectorAll("#hand .hand-card")) rects.hand.set(node.dataset.card, node.getBoundingClientRect());
  for (const node of document.querySelectorAll(".seat[data-seat]")) {
    const backs = node.querySelector(".backs") ?? node;
    rects.seats.set(Number(node.dataset.seat), backs.getBoundingClientRect());
  }
  rects.felt = $("#felt").getBoundingClientRect();
  rects.handBox = $("#hand").getBoundingClientRect();
  return rects;
}

function visible(rect) {
  return rect && rect.width > 0 && rect.height > 0;
}

function ghost(code, rect, faceDown = false) {
  const g = cardElement(code, { className: "card ghost", faceDown });
  g.setAttribute("aria-hidden", "true");
  Object.assign(g.style, { left: `${rect.left}px`, top: `${rect.top}px`, width: `${rect.width}px`, height: `${rect.height}px` });
  document.body.append(g);
  g.getBoundingClientRect(); // start the transition from here
  return g;
}

function moveTo(node, from, to, scale = 1, extra = {}) {
  const dx = to.left + to.width / 2 - (from.left + from.width / 2);
  const dy = to.top + to.height / 2 - (from.top + from.height / 2);
  node.style.transform = `translate(${dx}px, ${dy}px) scale(${scale})`;
  Object.assign(node.style, extra);
}

export async function animate(msg, prev, rects) {
  if (reducedMotion.matches) return;
  const events = msg.events || [];
  const plays = events.filter((e) => e.kind === "play" || e.kind === "claim");
  if (!plays.length) return;
  const pileRect = (team) => {
    const node = document.querySelector(`.pile[data-team="${team}"]`);
    return node ? node.getBoundingClientRect() : rects.felt;
  };
  // cards that stayed on the table slide to their new places
  for (const node of document.querySelectorAll("#table-cards .table-card")) {
    const before = rects.table.get(node.dataset.card);
    if (!before) continue;
    const after = node.getBoundingClientRect();
    if (Math.abs(before.left - after.left) < 1 && Math.abs(before.top - after.top) < 1) continue;
    node.style.transition = "none";
    node.style.transform = `translate(${before.left - after.left}px, ${before.top - after.top}px)`;
    node.getBoundingClientRect();
    node.style.transition = "";
    node.style.transform = "";
  }
  for (const e of plays) {
    const team = e.team;
    if (e.kind === "claim") {
      const ghosts = (e.cards || []).filter((c) => rects.table.has(c)).map((c) => [ghost(c, rects.table.get(c)), rects.table.get(c)]);
      if (!ghosts.length) continue;
      await S.pause(30);
      const to = pileRect(team);
      for (const [g, from] of ghosts) moveTo(g, from, to, 0.45, { opacity: "0.2" });
      await S.pause(520);
      for (const [g] of ghosts) g.remove();
      continue;
    }
    let origin = e.seat === mySeat() ? rects.hand.get(e.card) : rects.seats.get(e.seat);
    if (!visible(origin)) origin = rects.felt;
    const taken = e.taken; // what the play took, as the server describes it
    if (!taken.length) {
      const target = [...document.querySelectorAll("#table-cards .table-card")].find((n) => n.dataset.card === e.card);
      if (!target) continue;
      const to = target.getBoundingClientRect();
      target.style.transition = "none";
      const s = origin.width / (to.width || 1);
      target.style.transform = `translate(${origin.left - to.left + (origin.width - to.width) / 2}px, ${origin.top - to.top + (origin.height - to.height) / 2}px) scale(${s})`;
      target.getBoundingClientRect();
      target.style.transition = "";
      target.style.transform = "";
      await S.pause(420);
      continue;
    }
    // the played card flies onto what it takes, then all of them go to the team's pile
    const firstRect = rects.table.get(taken[0]) ?? rects.felt;
    const size = rects.table.values().next().value ?? firstRect;
    const startRect = { left: origin.left, top: origin.top, width: size.width, height: size.height };
    const played = ghost(e.card, startRect);
    const others = taken.filter((c) => rects.table.has(c)).map((c) => [ghost(c, rects.table.get(c)), rects.table.get(c)]);
    for (const [g] of others) g.classList.add("taking"); // what it takes, outlined until it goes
    played.classList.add("flying");
    await S.pause(20);
    moveTo(played, startRect, { ...firstRect, left: firstRect.left + 10, top: firstRect.top - 8 });
    await S.pause(340);
    await S.pause(180); // the played card on what it takes, for a moment
    const to = pileRect(team);
    const here = played.getBoundingClientRect();
    played.style.transform = "";
    Object.assign(played.style, { left: `${here.left}px`, top: `${here.top}px`, transition: "none" });
    played.getBoundingClientRect();
    played.style.transition = "";
    for (const [g, from] of [[played, here], ...others]) moveTo(g, from, to, 0.45, { opacity: "0.25" });
    await S.pause(480);
    played.remove();
    for (const [g] of others) g.remove();
  }
}

// -- the draw, the end of a hand, the result ----------------------------------------------------
export function showDraw(msg, events) {
  const v = msg.view;
  const key = `${msg.room}:${(v.chica_results || []).length}:${v.hand_number}`;
  if (app.drawShownFor === key) return;
  app.drawShownFor = key;
  const draw = [...events, ...(v.history || [])].find((e) => e.kind === "dealer_draw");
  const rounds = $("#draw-rounds");
  rounds.replaceChildren();
  if (draw && Array.isArray(draw.draws)) {
    draw.draws.forEach((round, i) => {
      if (i > 0) rounds.append(el("p", { class: "draw-again", text: t("page.draw_again") }));
      rounds.append(
        el(
          "div",
          { class: "draw-round" },
          round.map(([seat, code]) => {
            const card = cardElement(code, { className: "card draw-card" });
            card.setAttribute("role", "img");
            card.setAttribute("aria-label", I.cardLabel(code));
            return el("figure", { class: `draw-seat${seat === draw.dealer && i === draw.draws.length - 1 ? " winner" : ""}` }, card, el("figcaption", { text: seatName(seat) }));
          }),
        ),
      );
    });
    // the reader with no name deals: "Repartes tú" (issue 25)
    $("#draw-dealer").textContent = t(draw.dealer === youSeat() ? "page.you.draw_dealer" : "page.draw_dealer", { name: seatName(draw.dealer) });
  } else {
    $("#draw-dealer").textContent = t(v.dealer === youSeat() ? "page.you.draw_note" : "page.draw_note", { name: seatName(v.dealer) });
  }
  $("#draw-panel").hidden = false;
  // it leaves the felt by itself after a moment, or at the first click or key
  clearTimeout(drawTimer);
  drawTimer = setTimeout(hideDraw, DRAW_MS);
  document.addEventListener("click", hideDraw, { capture: true, once: true });
  document.addEventListener("keydown", hideDraw, { capture: true, once: true });
}

/** How long the dealer draw stays on the felt unless a click or a key sends it away first. */
const DRAW_MS = 3500;
let drawTimer = null;
function hideDraw() {
  clearTimeout(drawTimer);
  document.removeEventListener("click", hideDraw, { capture: true });
  document.removeEventListener("keydown", hideDraw, { capture: true });
  $("#draw-panel").hidden = true;
}

// a move was sent: the dealer draw leaves the felt
subscribe("pending", (pending) => {
  if (pending) $("#draw-panel").hidden = true;
});
