// Dialogs: the choice of a capture when a card can be played several ways, the summary at the end of a
// hand or chica, the mesa's result. Each shows what the server sent: what each legal move takes and
// gives up (`moves`), the end-of-hand view of a `hand_end` (`end`: cards, cartón, scores and their marks).

import { cardElement, cardText } from "./cards.js";
import * as I from "./i18n.js";
import { $, el, reducedMotion } from "./dom.js";
import { marksFor } from "./marks.js";
import { sendMove } from "./moves.js";
import { narrate } from "./narration.js";
import { decidingDeal } from "./sequence.js";
import { isTable, renderRematch } from "./presence.js";
import { advisedMove, app, names, own, players, scoreLine, teamName, watching, youSeat } from "./state.js";
import { subscribe } from "./store.js";
import { dailyRoom } from "./storage.js";
import { showResultNote } from "./daily-offline.js";
import { onDevice } from "./device.js";

const { t } = I;

const NOTHING = { card: "", base: [], run: [], taken: [], caida: false, limpia: false, forgets: false, leaves: [] };

/** What the server says of a legal move (`moves` of the seat's private part): the card, what it takes (`base`,
 * `run`, `taken`), what it scores (`caida`, `limpia`) and what it gives up (`forgets`, `leaves`). */
function moveInfo(move) {
  return { ...NOTHING, ...(own(app.msg).moves.find((m) => m.move === move) ?? {}) };
}

/** A legal move in words (as the capture choice lists it): `{text, tags, taken}`. */
export function describeOption(move) {
  return describeInfo(moveInfo(move));
}

/** `describeOption` of a move's description as the server sends it (an entry of `moves`: `card`, `base`,
 * `run`, `taken`, `caida`, `limpia`, `forgets`, `leaves`), wherever it comes from (puzzles.js too). */
export function describeInfo(m) {
  const tags = [];
  let text;
  if (!m.base.length) {
    text = t("move.drop", { card: cardText(m.card) });
    if (m.forgets) tags.push(t("move.forgets"));
  } else {
    const base = m.base.map(cardText).join(" + ");
    text = m.run.length ? t("move.take_run", { base, run: I.cardsText(m.run) }) : t("move.take", { base });
    if (m.caida) tags.push(t("move.caida"));
    if (m.limpia) tags.push(t("move.limpia"));
    // a shorter escalera than the card and base could take (manual capture): what it leaves
    if (m.leaves.length) tags.push(t("move.short", { cards: I.cardsText(m.leaves) }));
  }
  return { text: I.capitalize(text), tags, taken: m.taken };
}

/** A way to play in words, from its description as the server sends it (a puzzle's, the analysis's):
 * "7♥: llevar 3♣ + 4♦ · caída", or a claim's "reclamar …". */
export function wayText(info) {
  if (Array.isArray(info.claim)) return t("claim.take", { cards: I.cardsText(info.claim) });
  const d = describeInfo({ base: [], run: [], taken: [], leaves: [], ...info });
  return [`${cardText(info.card)}: ${d.text}`, ...d.tags].join(" · ");
}

/** The options of a card in the dialog's order: captures first, by base as the server listed them, the
 * longest escalera first; then taking nothing. */
export function orderOptions(moves) {
  const infos = moves.map((move, i) => ({ move, i, m: moveInfo(move) }));
  const bases = [...new Set(infos.filter((x) => x.m.base.length).map((x) => x.m.base.join("+")))];
  const rank = (x) => (x.m.base.length ? bases.indexOf(x.m.base.join("+")) : bases.length);
  infos.sort((a, b) => rank(a) - rank(b) || b.m.run.length - a.m.run.length || a.i - b.i);
  return infos.map((x) => x.move);
}

export function openChoice(code, moves) {
  const dialog = $("#choice-dialog");
  $("#choice-title").textContent = t("move.choose", { card: cardText(code) });
  const list = $("#choice-list");
  list.replaceChildren(
    ...moves.map((move) => {
      const d = describeOption(move);
      const minis = el("span", { class: "mini-cards", "aria-hidden": "true" });
      for (const c of d.taken.length ? d.taken : [code]) minis.append(cardElement(c, { tag: "span", className: "card mini" }));
      const advised = app.ayudas && advisedMove() === move; // the way the expert advised (advice.js)
      const tags = advised ? [...d.tags, t("page.advice.badge")] : d.tags;
      const label = tags.length ? `${d.text} (${tags.join(", ")})` : d.text;
      return el(
        "button",
        {
          type: "button",
          class: advised ? "choice-option advised" : "choice-option",
          "data-testid": "capture-option",
          "data-move": move,
          "data-advised": advised ? "1" : null,
          "aria-label": label,
          onclick: () => sendMove(move),
        },
        minis,
        el(
          "span",
          { class: "choice-words" },
          el("span", { class: "choice-text", text: d.text }),
          tags.length ? el("span", { class: "choice-tags", text: tags.join(" · ") }) : null,
        ),
      );
    }),
  );
  dialog.showModal();
  list.querySelector("button")?.focus();
}

function summaryTable(events, v, withChica = true) {
  const cartons = events.filter((e) => e.kind === "carton");
  const handEnd = events.find((e) => e.kind === "hand_end");
  const chica = events.find((e) => e.kind === "chica_won");
  const body = [];
  if (handEnd) {
    const end = handEnd.end; // the end-of-hand view, as the server counted it
    const rows = [0, 1].map((team) => {
      const c = cartons.find((x) => x.team === team);
      let cartonText = t("page.summary.no_carton");
      if (c && c.points > 0) {
        const key = `page.carton.${c.reason}`; // most_cards, dos_por_dar, carton_dos_por_dar
        cartonText = I.hasKey(key) ? t(key, { n: c.points }) : `+${c.points}`;
      } else if (c && c.note) cartonText = `0 (${I.noteText(c.note)})`;
      const score = end.scores[team];
      return el(
        "tr",
        { "data-team": team },
        el("th", { scope: "row", text: teamName(team) }),
        el("td", { "data-testid": `summary-cards-${team}`, text: String(end.cards[team]) }),
        el("td", { "data-testid": `summary-carton-${team}`, text: cartonText }),
        el("td", { "data-testid": `summary-score-${team}` }, el("strong", { text: String(score) }), " ", marksFor(score, end.score_marks[team])),
      );
    });
    body.push(
      el(
        "table",
        { class: "summary-table" },
        el("thead", {}, el("tr", {}, ["team", "cards", "carton", "score"].map((k) => el("th", { scope: "col", text: t(`page.summary.${k}`) })))),
        el("tbody", {}, rows),
      ),
    );
    if (end.table.length) {
      const minis = el("div", { class: "mini-cards" });
      for (const c of end.table) {
        const m = cardElement(c, { tag: "span", className: "card mini" });
        m.setAttribute("role", "img");
        m.setAttribute("aria-label", I.cardLabel(c));
        minis.append(m);
      }
      body.push(el("p", { class: "summary-leftovers", text: t("page.summary.leftovers") }), minis);
    } else {
      body.push(el("p", { class: "summary-leftovers", text: t("ev.hand_end.clean") }));
    }
  }
  const deal = decidingDeal(events);
  if (deal.length) body.push(dealLines(deal, withChica ? "summary-deal" : "result-deal"));
  else if (chica && !handEnd) body.push(el("p", { text: t("page.summary.abandoned") }));
  if (chica && withChica) {
    body.push(
      el("p", {
        class: "summary-chica",
        "data-testid": "summary-chica",
        text: I.describeEvent(chica, names()),
      }),
    );
    const won = v.chicas ?? [0, 0];
    body.push(
      el("p", {
        class: "summary-chicas",
        "data-testid": "summary-chicas",
        text: t("page.summary.chicas", { list: scoreLine(won) }), // the leader first, names and numbers
      }),
    );
    const zap = events.find((e) => e.kind === "zapatero");
    if (zap) {
      const [line] = narrate([zap]);
      body.push(
        el(
          "p",
          { class: "summary-zapatero", "data-testid": "summary-zapatero" },
          line.sayings.length ? el("strong", { text: line.sayings[0] }) : null,
          line.sayings.length ? " " : null,
          line.text,
          " ",
          zapateroMeans(zap.platillo),
        ),
      );
    }
  }
  return body;
}

/** The deal that decided the chica (its rondas, with their points: `decidingDeal` of sequence.js), said
 * under the hand's summary or in the result: every point that decided the chica is shown. */
function dealLines(deal, testid) {
  const at = deal.find((e) => e.kind === "deal");
  const lines = narrate(deal).filter((l) => l.event.kind !== "deal");
  return el(
    "div",
    { class: "summary-deal", "data-testid": testid },
    el("p", { text: t("page.summary.decided_at_deal", { hand: (at?.hand ?? 0) + 1, deal: (at?.deal ?? 0) + 1 }) }),
    el(
      "ul",
      {},
      lines.map((l) => el("li", {}, l.sayings.length ? el("strong", { text: `${l.sayings[0]} ` }) : null, l.text)),
    ),
  );
}

/** What zapatero and platillo mean, said plainly (docs/rules.md R25). */
function zapateroMeans(platillo) {
  return t(platillo ? "page.result.platillo_means" : "page.result.zapatero_means");
}

/** A sentence about a team: `one`'s (a player, at 2) or `pair`'s (two names, plural, at 4). */
function byTeam(one, pair, params) {
  return t(players() === 4 ? pair : one, params);
}

export function showSummary(events, msg) {
  const handEnd = events.find((e) => e.kind === "hand_end");
  const n = handEnd?.end.hand;
  const chica = events.find((e) => e.kind === "chica_won");
  // a chica that ends is not the mesa's result (the mesa goes on: that is the result panel's)
  const titles = [];
  if (handEnd) titles.push(t("page.summary.title", { n }));
  if (chica) titles.push(t("page.summary.chica_title", { n: (chica.chica ?? 0) + 1 }));
  $("#summary-title").textContent = titles.join(" · ");
  $("#summary-body").replaceChildren(...summaryTable(events, msg.view));
  const dialog = $("#summary-dialog");
  return new Promise((resolve) => {
    const done = () => {
      dialog.removeEventListener("close", done);
      resolve();
    };
    dialog.addEventListener("close", done);
    dialog.showModal();
    $("#summary-continue").focus();
  });
}

export function showResult(msg, quiet) {
  const v = msg.view;
  const outcome = v.outcome;
  const panel = $("#result");
  if (!outcome) return;
  const mine = v.team;
  const won = outcome.winner === mine;
  const key = v.players === 2 ? (won ? "result.you_win" : "result.you_lose") : won ? "result.team_win" : "result.team_lose";
  // the verdict, then the chicas in names and numbers, the winner first (the same line for every reader)
  const chicas = outcome.chicas ?? v.chicas;
  const verdict = watching() ? byTeam("page.result.winner", "page.result.winner_pair", { team: teamName(outcome.winner) }) : t(key);
  $("#result-headline").textContent = `${verdict} ${t("page.result.chicas", { score: scoreLine(chicas, outcome.winner) })}`;
  panel.dataset.winner = String(outcome.winner);
  // a spectator neither won nor lost: no `data-won`, the headline in the neutral colour (issue 25)
  if (watching()) delete panel.dataset.won;
  else panel.dataset.won = won ? "1" : "0";
  $("#result-chicas").textContent = outcome.reason === "zapatero" ? t("page.result.by_zapatero") : "";
  $("#result-list").replaceChildren(
    ...(v.chica_results || []).map((r, i) => {
      const loser = 1 - r.winner;
      const you = youSeat(); // the reader with no name, at 2: "Te quedaste zapatero" (issue 25)
      const [one, pair] = r.platillo
        ? [you !== null && you % 2 === loser ? "page.you.result.platillo" : "page.result.platillo", "page.result.platillo_pair"]
        : [you !== null && you % 2 === loser ? "page.you.result.zapatero" : "page.result.zapatero", "page.result.zapatero_pair"];
      return el(
        "li",
        { "data-testid": "result-chica" },
        t("page.result.chica", { n: i + 1, score: scoreLine(r.scores, r.winner) }),
        r.zapatero ? el("span", { class: "result-zapatero" }, ` ${byTeam(one, pair, { team: teamName(loser) })}`) : null,
      );
    }),
  );
  const final = app.finalEvents ?? [];
  const lastHand = final.find((e) => e.kind === "hand_end");
  const deal = decidingDeal(final);
  if (lastHand || deal.length) {
    // the last hand and, when a deal's rondas decided the chica after it, those points
    $("#result-hand").replaceChildren(
      lastHand ? el("h3", { text: t("page.summary.title", { n: lastHand.end.hand }) }) : "",
      ...summaryTable(final, v, false),
    );
  } else $("#result-hand").replaceChildren();
  // at a table with friends the main button is "Otra mesa" (`rematch`; app.js), never `next`
  const again = $("#play-again");
  const table = isTable();
  again.setAttribute("data-testid", table ? "continue" : "play-again");
  again.querySelector("span").textContent = table ? t("at_table.rematch") : t("page.play_again");
  again.hidden = watching();
  again.disabled = Boolean(table && app.rematchSent === msg.mesa);
  renderRematch();
  // the deal of the day's record names its seed: it is given once the day is over (docs/daily.md), so its
  // result offers the day's ranking instead; the device's offline deal's record is given at once (its seed
  // was handed out ahead), and the line under the result says where its result stands
  const daily = Boolean(app.session) && dailyRoom() === app.session.room;
  $("#result-daily").hidden = !daily;
  showResultNote(watching() ? null : app.session);
  $("#result-replay").hidden = !app.session || watching();
  const button = $("#download-record");
  button.hidden = !app.session || watching() || (daily && !onDevice());
  if (app.session) {
    button.dataset.room = app.session.room;
    button.dataset.mesa = String(msg.mesa ?? "");
  }
  const wasHidden = panel.hidden;
  panel.hidden = false;
  if (wasHidden && !quiet) {
    panel.scrollIntoView({ behavior: reducedMotion.matches ? "auto" : "smooth", block: "start" });
    panel.focus({ preventScroll: true });
  }
}

// a move was sent: the choice is made
subscribe("pending", (pending) => {
  const dialog = $("#choice-dialog");
  if (pending && dialog.open) dialog.close();
});
