// The replay of a finished mesa (issue 29, docs/web.md "Replay"): from History, a mesa step by step — what
// each play did, with its sayings and the end-of-hand summaries as the game said them, the score, the
// table and one seat's hand, or every hand (the mesa is over). GET api/games/{room}/replay with the seat's
// token in a header (api.js; docs/protocol.md "Replay"); the server refuses a mesa in play. Buttons, a
// deal chooser, and the keyboard (← →, Home, End); the same on the device (its host answers the route).
//
//   showReplay(room, token, mesa)   // opens the screen on the mesa's first step
//   showReplay(room, token, mesa, {analyse: true})   // and asks for the analysis of the token's seat
//   showReplayOfRecord(text)        // a record file the person holds (History's "abrir una partida")
//   showReplayOfPartida(id, partida, {back, refused})   // a championship's finished partida (its standings)
//
// "Analizar" asks for the computer's analysis of the seat whose hand is shown (analysis.js); each costly
// move's "ver" steps the replay to the position it was played from.

import * as I from "./i18n.js";
import { analysing, analysisPanel, startAnalysis, stopAnalysis } from "./analysis.js";
import { api, authorized, championship } from "./api.js";
import { cardElement, cardText } from "./cards.js";
import { $, el } from "./dom.js";
import { showError } from "./errors.js";
import { showScreen } from "./screens.js";
import { app } from "./store.js";

const { t } = I;

/** The replay shown: the server's answer, the ply, whose hand is shown, every hand or not, what asked it
 * (the room, the seat's token, the mesa: the analysis is asked with them), and where "back" goes (a
 * championship's standings) if anywhere. */
const shown = { data: null, ply: 0, seat: 0, open: false, asked: null, back: null };

/** Open the replay of `mesa` of `room` (the seat's `token` asks it); with `analyse`, ask for the analysis
 * of the token's seat too. */
export async function showReplay(room, token, mesa, { analyse = false } = {}) {
  const query = mesa ? `?mesa=${encodeURIComponent(mesa)}` : "";
  await open(() => api(`api/games/${encodeURIComponent(room)}/replay${query}`, authorized(token)), (data) => ({ room, token, mesa: data.mesa }), analyse);
}

/** Open the replay of a record's text that the person holds (a file dropped or chosen in History): the
 * server (or the device's host) reads it; it has no room, so no analysis is offered. */
export async function showReplayOfRecord(text) {
  await open(() => api("api/replay", { method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify({ record: text }) }), () => null, false);
}

/** Open the replay of a finished partida of championship `id`, from its public standings: no token (the
 * server gives it once nothing of it can be played), no analysis, every hand shown; `back()` goes back to
 * the standings, `refused(err)` words a refusal in the page's language. */
export async function showReplayOfPartida(id, partida, { back = null, refused = null } = {}) {
  await open(() => championship(id, `/partidas/${encodeURIComponent(partida)}/replay`), () => null, false, { back, refused, open: true });
}

async function open(fetchData, askedOf, analyse, { back = null, refused = null, open = false } = {}) {
  stopAnalysis();
  Object.assign(shown, { data: null, back });
  app.replayFrom = back ? "standings" : null; // History is not where a championship's replay came from
  showScreen("replay");
  $("#replay-body").replaceChildren(el("p", { text: t("page.loading") }));
  try {
    const data = await fetchData();
    Object.assign(shown, { data, ply: 0, seat: data.seat ?? 0, open, asked: askedOf(data) });
  } catch (err) {
    $("#replay-body").replaceChildren(el("p", { "data-testid": "replay-error", text: t("page.replay.failed") }), backButton());
    if (err instanceof TypeError) showError(t("page.err.network"));
    else showError(refused ? refused(err) : t("page.replay.refused", { message: err.message }), err?.code ?? "");
    return;
  }
  if (analyse) askAnalysis(shown.seat);
  render();
  $(analyse ? "#replay-analyse" : "#replay-next")?.focus();
}

/** The button back to a championship's standings, when the replay was opened from them. */
function backButton() {
  if (!shown.back) return "";
  return el("button", { type: "button", id: "replay-back", class: "btn btn-secondary", "data-testid": "replay-back", text: t("page.replay.back_standings"), onclick: shown.back });
}

/** Ask for the analysis of `seat`'s moves in the mesa shown. */
function askAnalysis(seat) {
  startAnalysis({ ...shown.asked, seat }, () => {
    if (app.screen === "replay") render();
  });
}

/** The seats' and teams' names, as the narration wants them (state.js `names` for a table). */
function replayNames() {
  const data = shown.data;
  const n = data.players;
  const seat = (i) => data.names?.[i] || t("name.seat", { n: i + 1 });
  const team = (i) => (n === 2 ? seat(i) : t("page.names.pair", { a: seat(i), b: seat(i + 2) }));
  return { seat, team, players: n, pair: n === 4, you: null };
}

/** Where each deal begins: [{ply, hand, deal}]. */
function marks() {
  const out = [];
  for (const step of shown.data.steps) {
    const last = out[out.length - 1];
    if (!last || last.hand !== step.hand || last.deal !== step.deal) out.push({ ply: step.ply, hand: step.hand, deal: step.deal });
  }
  return out;
}

/** Go to `ply` (kept within the mesa) and draw it. */
export function goTo(ply) {
  if (!shown.data) return;
  shown.ply = Math.max(0, Math.min(shown.data.steps.length - 1, ply));
  render();
}

/**
 * A row of cards (the replay's hands and table, the puzzle's): each named for a screen reader. With
 * `onPick`, each card is a button that calls it with the card's code (`disabled` once that is over).
 */
export function cardRow(codes, testid, { onPick = null, disabled = false } = {}) {
  const box = el("div", { class: "replay-cards", "data-testid": testid });
  if (!codes.length) box.append(el("span", { class: "hint-text", text: t("page.replay.none") }));
  for (const code of codes) {
    const card = cardElement(code, { tag: onPick ? "button" : "div", className: "card replay-card" });
    card.setAttribute("aria-label", cardText(code));
    card.dataset.card = code;
    if (onPick) {
      card.type = "button";
      card.disabled = disabled;
      card.addEventListener("click", () => onPick(code));
    } else card.setAttribute("role", "img"); // a card shown, named by its aria-label (a div may carry none)
    box.append(card);
  }
  return box;
}

function render() {
  const data = shown.data;
  if (!data) return;
  const names = replayNames();
  const steps = data.steps;
  const step = steps[shown.ply];
  const before = shown.ply ? steps[shown.ply - 1].events : 0;
  const events = data.events.slice(before, step.events);
  const last = steps.length - 1;
  const where = t("replay.where", { ply: shown.ply, plies: last, hand: step.hand + 1, deal: step.deal + 1 });
  const lines = events.map((e) =>
    el(
      "li",
      { "data-kind": e.kind },
      I.describeEvent(e, names),
      ...(Array.isArray(e.sayings) ? e.sayings : []).map((k) => el("span", { class: "saying", text: ` «${I.sayingLine(k, I.sayingPoints(e))}»` })),
    ),
  );
  const score = [0, 1].map((team) => t("page.names.score", { name: names.team(team), n: step.scores[team] ?? 0 })).join(" – ");
  const hands = shown.open ? data.steps[0].hands.map((_, s) => s) : [shown.seat];
  const dealChoice = el(
    "select",
    { id: "replay-deal", "data-testid": "replay-deal", "aria-label": t("page.replay.deal_label") },
    marks().map((m) => el("option", { value: String(m.ply), text: t("page.replay.deal_option", { hand: m.hand + 1, deal: m.deal + 1 }) })),
  );
  const current = [...marks()].reverse().find((m) => m.ply <= shown.ply);
  if (current) dealChoice.value = String(current.ply);
  dealChoice.addEventListener("change", () => goTo(Number(dealChoice.value)));
  const seatChoice = el(
    "select",
    { id: "replay-seat", "data-testid": "replay-seat", "aria-label": t("page.replay.seat_label") },
    data.steps[0].hands.map((_, s) => el("option", { value: String(s), text: names.seat(s) })),
  );
  seatChoice.value = String(shown.seat);
  seatChoice.addEventListener("change", () => {
    shown.seat = Number(seatChoice.value);
    if (!analysing(shown.seat)) stopAnalysis(); // the analysis shown is the shown seat's
    render();
  });
  const open = el("input", { type: "checkbox", id: "replay-open", "data-testid": "replay-open" });
  open.checked = shown.open;
  open.addEventListener("change", () => {
    shown.open = open.checked;
    render();
  });
  const button = (id, key, target, disabled) =>
    el("button", { type: "button", id, class: "btn", "data-testid": id, text: t(key), disabled, onclick: () => goTo(target) });
  const focused = document.activeElement?.id;
  $("#replay-body").replaceChildren(
    backButton(),
    el("p", { class: "replay-where", "data-testid": "replay-where", "data-ply": String(shown.ply), text: where }),
    el(
      "div",
      { class: "replay-controls", role: "group", "aria-label": t("page.replay.controls") },
      button("replay-first", "page.replay.first", 0, shown.ply === 0),
      button("replay-prev", "page.replay.prev", shown.ply - 1, shown.ply === 0),
      button("replay-next", "page.replay.next", shown.ply + 1, shown.ply === last),
      button("replay-last", "page.replay.last", last, shown.ply === last),
    ),
    el("div", { class: "replay-choices" }, dealChoice, seatChoice, el("label", { for: "replay-open" }, open, ` ${t("page.replay.open")}`)),
    el("ul", { class: "replay-events", "data-testid": "replay-events", "aria-live": "polite" }, lines),
    el("p", { class: "replay-score", "data-testid": "replay-score", text: score }),
    el("h2", { text: t("page.replay.table") }),
    cardRow(step.table, "replay-table"),
    ...hands.flatMap((s) => [el("h2", { text: t("page.replay.hand_of", { name: names.seat(s) }) }), cardRow(step.hands[s], `replay-hand-${s}`)]),
    !shown.asked
      ? "" // a record the person holds: no room to analyse it in (cuarenta analyze reads the file)
      : analysing(shown.seat)
      ? analysisPanel(goTo, names)
      : el("button", {
          type: "button",
          id: "replay-analyse",
          class: "btn",
          "data-testid": "replay-analyse",
          text: t("page.analysis.button", { name: names.seat(shown.seat) }),
          onclick: () => askAnalysis(shown.seat),
        }),
  );
  if (focused) document.getElementById(focused)?.focus();
}

/** The page's language changed: the replay's words again, at the same step. */
export function relabelReplay() {
  render();
}

/** The keyboard on the replay's screen: ← and → step, Home and End go to the ends. */
export function onReplayKey(e) {
  if (app.screen !== "replay" || !shown.data || e.target?.closest?.("select, input")) return false;
  const moves = { ArrowLeft: shown.ply - 1, ArrowRight: shown.ply + 1, Home: 0, End: shown.data.steps.length - 1 };
  if (!(e.key in moves)) return false;
  e.preventDefault();
  goTo(moves[e.key]);
  return true;
}

document.addEventListener("keydown", (e) => {
  if (!(e.altKey || e.ctrlKey || e.metaKey)) onReplayKey(e);
});
