// Drawing the table from the seat's view: scoreboard, the other seats, the table cards and the last
// play, my hand (with the Ayudas hints), claim buttons, the log, the status line; and a tap on a card.

import { cardBackSVG, cardElement, cardFaceSVG } from "./cards.js";
import * as I from "./i18n.js";
import * as Bubble from "./announce.js";
import { adviceLine, adviceWords, advisedInfo, advisedMove, askAdvice, renderAdvice } from "./advice.js";
import * as Presence from "./presence.js";
import * as Reactions from "./reactions.js";
import * as Settings from "./settings.js";
import { openChoice, orderOptions } from "./dialogs.js";
import { $, el, reducedMotion } from "./dom.js";
import { marksFor } from "./marks.js";
import { sendMove } from "./moves.js";
import { narrate } from "./narration.js";
import { updateNav } from "./screens.js";
import {
  app,
  isMyTurn,
  levelName,
  mySeat,
  own,
  pileKeeper,
  position,
  seatInfo,
  seatName,
  seatRelation,
  teamName,
  teamRelation,
  view,
} from "./state.js";
import { subscribe } from "./store.js";

const { t } = I;

export function clearTable() {
  for (const id of ["#table-cards", "#hand", "#teams", "#slot-top", "#slot-left", "#slot-right", "#my-info", "#log"]) {
    $(id).replaceChildren();
  }
  $("#meta").textContent = "";
  $("#claims").hidden = true;
  $("#rondas").hidden = true;
  $("#table-empty").hidden = true;
  $("#last-play").hidden = true;
}

export function renderAll(opts = {}) {
  if (!app.msg) return;
  renderScoreboard();
  renderSeats();
  renderTable();
  renderHand(opts);
  renderClaims();
  renderLog();
  updateStatus();
  updateNav();
  Presence.refresh();
  Reactions.render();
  $("#ayudas-toggle").hidden = Presence.spectating();
  // a spectator has no hand: its empty room goes (issue 25: the table menu stays in a landscape screen)
  $("#screen-table").toggleAttribute("data-watching", Presence.spectating());
  Settings.ayudasIntro(!Presence.spectating());
}

function renderScoreboard() {
  const v = view();
  const need = v.rules?.chicas ?? 2;
  const teams = [0, 1].map((team) => {
    const chicas = v.chicas[team] ?? 0;
    const dots = el(
      "span",
      { class: "chica-dots", "aria-hidden": "true" },
      Array.from({ length: Math.max(need, chicas) }, (_, i) => el("span", { class: i < chicas ? "dot on" : "dot" })),
    );
    return el(
      "div",
      { class: `team${team === v.team ? " mine" : ""}`, "data-team": team, "data-testid": `team-${team}` },
      el("div", { class: "team-name", title: teamRelation(team), text: teamName(team) }),
      el(
        "div",
        { class: "score-line" },
        el("span", { class: "score-num", "data-testid": `score-${team}`, "aria-label": t("page.score_aria", { team: teamName(team), points: I.pointsWords(v.scores[team], v.score_marks?.[team]) }), text: String(v.scores[team]) }),
        marksFor(v.scores[team], v.score_marks?.[team]),
      ),
      el(
        "div",
        { class: "team-chicas" },
        el("span", { text: `${t("page.chicas_label")}: ` }),
        el("span", { class: "chica-count", "data-testid": `chicas-${team}`, text: String(chicas) }),
        dots,
      ),
    );
  });
  $("#teams").replaceChildren(...teams);
  const deals = v.deals; // the deals of a hand, as the server counts them (R5)
  $("#meta").replaceChildren(
    ...[
    app.msg.mesa > 1 ? el("span", { "data-testid": "mesa-number", text: t("page.mesa_label", { n: app.msg.mesa }) }) : null,
    el("span", { "data-testid": "hand-number", text: t("page.hand_label", { hand: v.hand_number + 1 }) }),
    el("span", { text: t("page.deal_label", { deal: Math.min(v.deal_number + 1, deals), deals }) }),
    el("span", { "data-testid": "stock-size", text: t("page.stock_label", { n: v.stock_size }) }),
    el("span", { text: t("page.target_label", { n: v.rules?.target ?? 40 }) }),
    ].filter(Boolean),
  );
}

function pileStack(team) {
  const n = view().pile_sizes[team] ?? 0;
  const stack = el("div", {
    class: "pile",
    "data-testid": `pile-${team}`,
    "data-team": team,
    "data-count": n,
    role: "img",
    "aria-label": `${t("page.pile_count", { n })} · ${t("page.pile_aria", { n })}`,
  });
  const layers = Math.min(4, Math.ceil(n / 6));
  const cards = el("span", { class: "pile-stack", "aria-hidden": "true" });
  for (let i = 0; i < Math.max(1, layers); i += 1) {
    const c = el("span", { class: n ? "pile-card" : "pile-card empty", html: n ? cardBackSVG() : "" });
    c.style.setProperty("--i", String(i));
    cards.append(c);
  }
  stack.append(cards);
  stack.append(el("span", { class: "pile-count", text: t("page.pile_count", { n }) }));
  return stack;
}

function renderSeats() {
  const v = view();
  const n = v.players;
  $("#board").dataset.players = String(n);
  const slots = { top: $("#slot-top"), left: $("#slot-left"), right: $("#slot-right") };
  for (const s of Object.values(slots)) s.replaceChildren();
  for (let seat = 0; seat < n; seat += 1) {
    if (seat === mySeat()) continue;
    const pos = position(seat);
    const info = seatInfo(seat);
    const count = v.hand_sizes[seat] ?? 0;
    const backs = el("div", {
      class: "backs",
      "data-testid": "seat-hand",
      "data-count": count,
      role: "img",
      "aria-label": count === 1 ? t("page.hand_count_1") : t("page.hand_count", { n: count }),
    });
    for (let i = 0; i < count; i += 1) backs.append(el("span", { class: "back", html: cardBackSVG() }));
    const partner = n === 4 && seat === (mySeat() + 2) % 4;
    // secondary text: where the seat is from the reader's side, then what plays it
    const kind = info && info.kind === "computer" ? t("page.seat_computer_level", { level: levelName(info.level) }) : info?.kind === "person" ? t("page.seat_person") : "";
    const rel = seatRelation(seat);
    const panel = el(
      "div",
      {
        class: `seat seat-${pos}${v.turn === seat ? " is-turn" : ""}${partner ? " partner" : ""}`,
        "data-testid": `seat-${seat}`,
        "data-seat": seat,
      },
      el(
        "div",
        { class: "seat-head" },
        v.turn === seat ? turnMark() : null,
        el("span", { class: "seat-name", text: seatName(seat) }),
        v.dealer === seat ? el("span", { class: "chip dealer", title: t("page.dealer_aria"), text: t("page.dealer_tag") }) : null,
      ),
      rel || kind
        ? el(
            "div",
            { class: "seat-sub" },
            rel ? el("span", { class: "seat-rel", "data-testid": "seat-relation", text: rel }) : null,
            rel && kind ? el("span", { class: "seat-kind", text: ` · ${kind}` }) : kind ? el("span", { class: "seat-kind", text: kind }) : null,
          )
        : null,
      el("div", { class: "seat-cards" }, backs, pileKeeper(seat % 2) === seat ? pileStack(seat % 2) : null),
    );
    Presence.decorateSeat(panel, seat);
    slots[pos].append(panel);
  }
  // my own corner: name, dealer, my team's pile (a spectator: the seat at the bottom, its hand face down)
  const me = mySeat();
  const watching = Presence.spectating();
  const count = v.hand_sizes[me] ?? 0;
  const mine = el(
    "div",
    { class: `seat seat-bottom${v.turn === me ? " is-turn" : ""}`, "data-testid": `seat-${me}`, "data-seat": me },
    el(
      "div",
      { class: "seat-head" },
      v.turn === me ? turnMark() : null,
      el("span", { class: "seat-name", text: watching ? seatName(me) : seatInfo(me)?.name || t("page.you") }),
      watching ? null : el("span", { class: "chip you", "data-testid": "seat-relation", text: t("page.seat_you_tag") }),
      v.dealer === me ? el("span", { class: "chip dealer", title: t("page.dealer_aria"), text: t("page.dealer_tag") }) : null,
    ),
    // a spectator's bottom seat: its pair (nobody is "you")
    watching && seatRelation(me) ? el("div", { class: "seat-sub" }, el("span", { class: "seat-rel", "data-testid": "seat-relation", text: seatRelation(me) })) : null,
    watching
      ? el("div", {
          class: "backs",
          "data-testid": "seat-hand",
          "data-count": count,
          role: "img",
          "aria-label": count === 1 ? t("page.hand_count_1") : t("page.hand_count", { n: count }),
        }, Array.from({ length: count }, () => el("span", { class: "back", html: cardBackSVG() })))
      : null,
    pileStack(me % 2),
  );
  Presence.decorateSeat(mine, me);
  $("#my-info").replaceChildren(mine);
}

/** Whose turn it is, beside the seat's gold outline: an arrow, and words for screen readers (issue 17:
 * colour is never the only signal). */
function turnMark() {
  return el(
    "span",
    { class: "turn-mark", "data-testid": "turn-mark" },
    el("span", { class: "turn-icon", "aria-hidden": "true", text: "\u25B6" }),
    el("span", { class: "visually-hidden", text: t("page.a11y.turn") }),
  );
}

function renderTable() {
  const v = view();
  const box = $("#table-cards");
  const claimable = new Set((v.claimable || []).flat());
  box.replaceChildren(
    ...v.table.map((code) => {
      const last = code === v.last_drop;
      const node = cardElement(code, { className: `card table-card${last ? " last-drop" : ""}${claimable.has(code) ? " claimable" : ""}` });
      node.setAttribute("role", "listitem");
      node.setAttribute("data-testid", "table-card");
      node.setAttribute("aria-label", last ? `${I.cardLabel(code)}, ${t("page.last_drop_aria")}` : I.cardLabel(code));
      if (last) {
        node.dataset.lastDrop = "1";
        node.append(el("span", { class: "badge badge-last", "aria-hidden": "true", text: t("page.last_drop_badge") }));
      }
      return node;
    }),
  );
  box.dataset.count = String(v.table.length);
  $("#table-empty").hidden = v.table.length > 0;
  Bubble.renderLastPlay(v); // the "what just happened" strip and its bubble (announce.js)
  const rondas = v.rondas || [];
  $("#rondas").hidden = !rondas.length;
  $("#rondas").textContent = rondas.length
    ? t("page.rondas_label", { list: rondas.map((r) => `${seatName(r.seat)} (${I.rankPlural(r.rank)})`).join(", ") })
    : "";
}

/** The legal moves of a hand card (`moves` of the seat's private part, each with its `card`). */
function movesForCard(code) {
  return own(app.msg).moves.filter((m) => m.card === code).map((m) => m.move);
}

/** What the server says the card's moves do (`moves` of the seat's private part): some way makes a caída y
 * limpia, a caída, a limpia. */
function cardDoes(code) {
  const infos = own(app.msg).moves.filter((m) => m.card === code);
  return {
    caidaLimpia: infos.some((m) => m.caida && m.limpia),
    caida: infos.some((m) => m.caida),
    limpia: infos.some((m) => m.limpia),
  };
}

export function renderHand(opts = {}) {
  const v = view();
  if (!v) return;
  const hand = $("#hand");
  const online = app.connected;
  const myTurn = isMyTurn() && !app.pending && online;
  const { hand: cards, hints: told } = own(app.msg);
  const hints = new Map(told.map((h) => [h.card, h]));
  const advised = app.ayudas ? advisedInfo() : null; // the expert's advice (advice.js): its card, or a claim
  if (app.focusIndex >= cards.length) app.focusIndex = Math.max(0, cards.length - 1);
  const hadFocus = hand.contains(document.activeElement);
  const buttons = cards.map((code, i) => {
    const playable = myTurn && movesForCard(code).length > 0;
    const b = el("button", {
      type: "button",
      class: online ? "card hand-card" : "card hand-card card-disabled",
      "data-testid": "hand-card",
      "data-card": code,
      "data-index": i + 1,
      tabindex: i === app.focusIndex ? "0" : "-1",
      "aria-disabled": playable ? "false" : "true",
    });
    b.innerHTML = cardFaceSVG(code);
    b.append(el("span", { class: "key-hint", "aria-hidden": "true", text: String(i + 1) }));
    const label = [I.cardLabel(code)];
    const h = hints.get(code);
    if (app.ayudas && h) {
      if (h.takes) {
        b.classList.add("hint-takes");
        b.dataset.hintTakes = "1";
        label.push(t("page.hint.takes_aria"));
      }
      const does = cardDoes(code);
      if (does.caidaLimpia) {
        // one way of playing it is caída y limpia (the server's `moves`): both, 4 points
        b.classList.add("hint-caida");
        b.dataset.hintCaida = "1";
        b.dataset.hintCaidaLimpia = "1";
        b.append(el("span", { class: "badge badge-caida", "aria-hidden": "true", text: t("page.hint.caida") }));
        b.append(el("span", { class: "badge badge-takes badge-also", "aria-hidden": "true", text: t("page.hint.caida_limpia") }));
        label.push(t("page.hint.caida_limpia_aria"));
      } else if (h.caida) {
        b.classList.add("hint-caida");
        b.dataset.hintCaida = "1";
        b.append(el("span", { class: "badge badge-caida", "aria-hidden": "true", text: t("page.hint.caida") }));
        label.push(t("page.hint.caida_aria"));
        // a caída one way and a limpia another way
        if (h.limpia) b.append(el("span", { class: "badge badge-takes badge-also", "aria-hidden": "true", text: t("page.hint.limpia") }));
      } else if (h.takes) {
        b.append(el("span", { class: "badge badge-takes", "aria-hidden": "true", text: h.limpia ? t("page.hint.limpia") : t("page.hint.takes") }));
      }
      if (h.limpia) {
        b.dataset.hintLimpia = "1";
        if (!does.caidaLimpia) label.push(t("page.hint.limpia_aria"));
      }
      if (h.warning) {
        b.classList.add("hint-warn");
        b.dataset.hintWarning = h.warning;
        const key = h.warning === "limpia" ? "limpia" : "caida";
        b.append(el("span", { class: "badge badge-warn", "aria-hidden": "true", text: t(`page.hint.warn_${key}`) }));
        label.push(t(`page.hint.warn_${key}_aria`));
      }
    }
    if (advised && !advised.claim && advised.card === code) {
      // the computer's advice (advice.js): the card experto would play
      b.classList.add("advised");
      b.dataset.advised = "1";
      b.append(el("span", { class: "badge badge-advice", "aria-hidden": "true", text: t("page.advice.badge") }));
      label.push(t("page.advice.card_aria", { what: adviceWords(advised.move) }));
    }
    b.setAttribute("aria-label", label.join(". "));
    if (opts.dealt && !reducedMotion.matches) {
      b.classList.add("dealt");
      b.style.setProperty("--i", String(i));
    }
    b.addEventListener("click", () => onCardClick(code));
    b.addEventListener("focus", () => {
      app.focusIndex = i;
      for (const other of hand.children) other.tabIndex = other === b ? 0 : -1;
    });
    return b;
  });
  hand.replaceChildren(...buttons);
  hand.classList.toggle("my-turn", myTurn);
  hand.classList.toggle("offline", !online);
  if (hadFocus && buttons[app.focusIndex]) buttons[app.focusIndex].focus({ preventScroll: true });
  $("#ayudas-toggle").setAttribute("aria-pressed", String(app.ayudas));
  renderAdvice();
}

// the computer's advice came (or its question ended): the hand, a claim and the status line show it
subscribe("advice", () => {
  renderHand();
  renderClaims();
  updateStatus();
});
$("#advice-ask")?.addEventListener("click", askAdvice);

export function renderClaims() {
  const box = $("#claims");
  const claims = own(app.msg).moves.filter((m) => m.claim);
  if (!claims.length || !isMyTurn()) {
    box.hidden = true;
    box.replaceChildren();
    return;
  }
  const victim = claims[0].victim; // the seat that forgot them, as the server says
  box.hidden = false;
  box.replaceChildren(
    el("p", { class: "claims-title", text: t("claim.header", { victim: seatName(victim) }) }),
    el(
      "div",
      { class: "claims-buttons" },
      claims.map(({ move, claim: cards }) => {
        const advised = app.ayudas && advisedMove() === move; // the expert's advice (advice.js)
        return el("button", {
          type: "button",
          class: advised ? "btn btn-claim advised" : "btn btn-claim",
          "data-testid": "claim-option",
          "data-move": move,
          "data-advised": advised ? "1" : null,
          text: I.capitalize(t("claim.take", { cards: I.cardsText(cards) })),
          "aria-label": t("claim.take", { cards: cards.map(I.cardLabel).join(", ") }),
          onclick: () => sendMove(move),
        });
      }),
    ),
  );
}

function renderLog() {
  const v = view();
  const lines = narrate(v.history || []);
  const list = $("#log");
  list.replaceChildren(
    ...lines.map((l) =>
      el(
        "li",
        { class: `log-${l.event.kind}` },
        el("span", { class: "log-text", text: l.text }),
        l.sayings.length ? el("span", { class: "log-saying", text: ` ${l.sayings.join(" ")}` }) : null,
      ),
    ),
  );
  list.scrollTop = list.scrollHeight;
}

export function updateStatus() {
  const status = $("#status");
  let text;
  if (!app.session) text = t("page.status.no_game");
  else if (!app.msg) text = app.connected ? t("page.status.connecting") : app.conn?.retry ? t("page.status.reconnecting") : t("page.status.connecting");
  else if (!app.connected && app.conn && app.conn.retry) text = t("page.status.reconnecting");
  else if (app.msg.status === "finished") text = t("page.status.finished");
  else if (app.tableInfo?.table?.replaced) text = t("champ_table.status_replaced"); // champ-table.js
  else if (app.tableInfo?.table?.paused) text = t("champ_table.status_paused");
  else if (app.pending) text = t("page.status.sending");
  else if (isMyTurn() && adviceLine()) text = adviceLine(); // the expert's advice for this turn (advice.js)
  else if (isMyTurn()) {
    const claims = own(app.msg).moves.some((m) => m.claim);
    const keys = window.matchMedia("(hover: hover) and (min-width: 600px)").matches;
    text = claims ? t("page.status.your_turn_claim") : keys ? t("page.status.your_turn_keys") : t("page.status.your_turn");
  } else if (app.msg.view.turn !== null && app.msg.view.turn !== undefined) {
    text = t("page.status.turn_of", { name: seatName(app.msg.view.turn) });
  } else text = "";
  status.textContent = text;
  status.dataset.advice = String(Boolean(text && text === adviceLine()));
  const lost = Boolean(app.session && app.conn && !app.connected && app.conn.retry);
  $("#reconnecting").hidden = !lost;
  $("#felt").classList.toggle("is-offline", lost);
  updateReady();
}

/** data-turn / data-ready on the table screen: what end-to-end tests wait for. */
export function updateReady() {
  const screen = $("#screen-table");
  const msg = app.msg;
  let turn = "none";
  if (msg) turn = msg.status === "finished" ? "over" : isMyTurn() ? "me" : "other";
  screen.dataset.turn = turn;
  screen.dataset.state = msg ? String(msg.version) : ""; // the version shown (e2e tests read it)
  screen.dataset.connection = app.connected ? "open" : "lost";
  const ready = Boolean(msg) && app.connected && !app.busy && !app.queue.length && !app.pending && turn === "me";
  screen.dataset.ready = ready ? "1" : "0";
  Presence.onTurn(turn);
}

function onCardClick(code) {
  if (!app.msg) return;
  if (app.pending) return;
  if (!app.connected) {
    flash(t("page.status.reconnecting"));
    return;
  }
  if (app.tableInfo?.table?.paused) {
    flash(t("champ_table.status_paused")); // a championship's table its judge paused offers no move
    return;
  }
  if (!isMyTurn()) {
    flash(t("page.err.not_your_turn"));
    return;
  }
  const moves = movesForCard(code);
  if (!moves.length) {
    flash(t("page.card_no_move"));
    return;
  }
  if (moves.length === 1) sendMove(moves[0]);
  else openChoice(code, orderOptions(moves));
}

// a move was sent: the hand and the claims wait for the answer
subscribe("pending", (pending) => {
  if (!pending) return;
  renderHand();
  renderClaims();
  updateStatus();
});

function flash(text) {
  const status = $("#status");
  status.textContent = text;
  status.classList.remove("flash");
  void status.offsetWidth;
  status.classList.add("flash");
  setTimeout(updateStatus, 1800);
}
