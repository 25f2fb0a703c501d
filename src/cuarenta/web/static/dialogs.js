// Dialogs and messages: the choice of a capture when a card can be played several ways, the summary at
// the end of a hand or chica, the mesa's result, and the error line.

import { cardElement, cardText } from "./cards.js";
import * as I from "./i18n.js";
import { sendMove } from "./connection.js";
import { $, el, reducedMotion } from "./dom.js";
import { narrate } from "./narration.js";
import { isTable, renderRematch } from "./presence.js";
import { app, names, teamName, watching } from "./state.js";
import { marksFor } from "./table.js";

const { t } = I;

/** What a legal move does, as the server said (`moves` of the state message): {caida, limpia}. */
function moveInfo(move) {
  return (app.msg?.moves || []).find((m) => m.move === move) ?? { caida: false, limpia: false };
}

function describeOption(move, all) {
  const m = I.parseMove(move);
  const info = moveInfo(move);
  const tags = [];
  let text;
  if (!m.base.length) {
    text = t("move.drop", { card: cardText(m.card) });
    if (all.some((o) => I.parseMove(o).base.length)) tags.push(t("move.forgets"));
  } else {
    const base = m.base.map(cardText).join(" + ");
    text = m.run.length ? t("move.take_run", { base, run: I.cardsText(m.run) }) : t("move.take", { base });
    if (info.caida) tags.push(t("move.caida"));
    if (info.limpia) tags.push(t("move.limpia"));
    // a shorter escalera than another option with the same base (manual capture)
    const sameBase = all.map(I.parseMove).filter((o) => o.base.join("+") === m.base.join("+"));
    const longest = sameBase.reduce((a, b) => (b.run.length > a.run.length ? b : a), m);
    if (longest.run.length > m.run.length) tags.push(t("move.short", { cards: I.cardsText(longest.run.slice(m.run.length)) }));
  }
  return { text: I.capitalize(text), tags, taken: [...m.base, ...m.run] };
}

export function orderOptions(moves) {
  const parsed = moves.map((m, i) => ({ m, i, p: I.parseMove(m) }));
  const bases = [...new Set(parsed.filter((x) => x.p.base.length).map((x) => x.p.base.join("+")))];
  const rank = (x) => (x.p.base.length ? bases.indexOf(x.p.base.join("+")) : bases.length);
  parsed.sort((a, b) => rank(a) - rank(b) || b.p.run.length - a.p.run.length || a.i - b.i);
  return parsed.map((x) => x.m);
}

export function openChoice(code, moves) {
  const dialog = $("#choice-dialog");
  $("#choice-title").textContent = t("move.choose", { card: cardText(code) });
  const list = $("#choice-list");
  list.replaceChildren(
    ...moves.map((move) => {
      const d = describeOption(move, moves);
      const minis = el("span", { class: "mini-cards", "aria-hidden": "true" });
      for (const c of d.taken.length ? d.taken : [code]) minis.append(cardElement(c, { tag: "span", className: "card mini" }));
      const label = d.tags.length ? `${d.text} (${d.tags.join(", ")})` : d.text;
      return el(
        "button",
        {
          type: "button",
          class: "choice-option",
          "data-testid": "capture-option",
          "data-move": move,
          "aria-label": label,
          onclick: () => sendMove(move),
        },
        minis,
        el(
          "span",
          { class: "choice-words" },
          el("span", { class: "choice-text", text: d.text }),
          d.tags.length ? el("span", { class: "choice-tags", text: d.tags.join(" · ") }) : null,
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
    const rows = [0, 1].map((team) => {
      const c = cartons.find((x) => x.team === team);
      let cartonText = t("page.summary.no_carton");
      if (c && c.points > 0) {
        const key = `page.carton.${c.reason}`; // most_cards, dos_por_dar, carton_dos_por_dar
        cartonText = I.hasKey(key) ? t(key, { n: c.points }) : `+${c.points}`;
      } else if (c && c.note) cartonText = `0 (${I.noteText(c.note)})`;
      const score = chica ? chica.scores[team] : v.scores[team];
      return el(
        "tr",
        { "data-team": team },
        el("th", { scope: "row", text: teamName(team) }),
        el("td", { "data-testid": `summary-cards-${team}`, text: String(handEnd.pile_sizes?.[team] ?? c?.cards ?? "") }),
        el("td", { "data-testid": `summary-carton-${team}`, text: cartonText }),
        el("td", { "data-testid": `summary-score-${team}` }, el("strong", { text: String(score) }), " ", marksFor(score)),
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
    if (handEnd.leftovers && handEnd.leftovers.length) {
      const minis = el("div", { class: "mini-cards" });
      for (const c of handEnd.leftovers) {
        const m = cardElement(c, { tag: "span", className: "card mini" });
        m.setAttribute("role", "img");
        m.setAttribute("aria-label", I.cardLabel(c));
        minis.append(m);
      }
      body.push(el("p", { class: "summary-leftovers", text: t("page.summary.leftovers") }), minis);
    } else {
      body.push(el("p", { class: "summary-leftovers", text: t("ev.hand_end.clean") }));
    }
  } else if (chica) {
    body.push(el("p", { text: t("page.summary.abandoned") }));
  }
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
        text: t("page.summary.chicas", { list: [0, 1].map((team) => `${teamName(team)} ${won[team] ?? 0}`).join(" – ") }),
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
        ),
      );
    }
  }
  return body;
}

export function showSummary(events, prev, msg) {
  const handEnd = events.find((e) => e.kind === "hand_end");
  const prevView = prev?.view ?? msg.view;
  const n = (prevView.hand_number ?? 0) + 1;
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
  $("#result-headline").textContent = watching() ? t("at_table.winner", { team: teamName(outcome.winner) }) : t(key);
  panel.dataset.winner = String(outcome.winner);
  panel.dataset.won = won ? "1" : "0";
  const chicas = outcome.chicas ?? v.chicas;
  const chicasText = t("result.chicas", { won: chicas[outcome.winner], lost: chicas[1 - outcome.winner] });
  $("#result-chicas").textContent = `${chicasText}${outcome.reason === "zapatero" ? ` · ${t("page.result_by_zapatero")}` : ""}`;
  $("#result-list").replaceChildren(
    ...(v.chica_results || []).map((r, i) => {
      const scores = r.scores.map((s, team) => `${teamName(team)} ${s}`).join(" – ");
      const loser = 1 - r.winner;
      return el(
        "li",
        { "data-testid": "result-chica" },
        t("result.chica", { n: i + 1, scores, team: teamName(r.winner) }),
        r.zapatero
          ? el("span", { class: "result-zapatero" }, ` · ${t(r.platillo ? "result.platillo" : "result.zapatero", { team: teamName(loser) })}`)
          : null,
      );
    }),
  );
  const final = app.finalEvents ?? [];
  if (final.some((e) => e.kind === "hand_end")) {
    const prevView = app.lastHandView ?? v;
    $("#result-hand").replaceChildren(
      el("h3", { text: t("page.summary.title", { n: (prevView.hand_number ?? 0) + 1 }) }),
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
  const button = $("#download-record");
  button.hidden = !app.session || watching();
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

let errorTimer = null;
export function showError(text, code = "") {
  const box = $("#error");
  $(".error-text", box).textContent = text;
  box.dataset.code = code;
  box.hidden = false;
  clearTimeout(errorTimer);
  if (["stale", "not_your_turn"].includes(code)) errorTimer = setTimeout(() => hideError(), 6000);
}
export function hideError(codes = null) {
  const box = $("#error");
  if (box.hidden) return;
  if (codes && !codes.includes(box.dataset.code)) return;
  box.hidden = true;
}
