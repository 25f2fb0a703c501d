// The deal of the day (issue 29, docs/web.md "The deal of the day"): the same cards for everyone today,
// one chica against Difícil, and the day's ranking by each result compared with everyone else's.
// GET api/daily?room=R (docs/protocol.md "The deal of the day") shows the day's ranking and this browser's
// own result; "Jugar la mano del día" asks POST api/daily and plays it as any game against the computer.
// The day's room is remembered here (`cuarenta.daily`: {day, room}) to show its result and to go back to
// it. Only a server has a deal of the day: on the device the entry is disabled and says so (devicebox.js).
//
//   showDaily()   // opens the screen

import * as I from "./i18n.js";
import { api, postJSON } from "./api.js";
import { $, el } from "./dom.js";
import { showError } from "./errors.js";
import { rememberGame } from "./saved.js";
import { showScreen } from "./screens.js";
import { openSession } from "./session.js";
import { KEYS, load, store } from "./storage.js";

const { t } = I;

/** The room this browser plays today's deal in, if any: {day, room, token}. */
function mine(day) {
  const kept = load(KEYS.daily);
  return kept && kept.day === day ? kept : null;
}

/** Open the deal of the day's screen: the day, the ranking, this browser's result or the way to play. */
export async function showDaily() {
  showScreen("daily");
  $("#daily-body").replaceChildren(el("p", { text: t("page.loading") }));
  const kept = load(KEYS.daily);
  let data;
  try {
    data = await api(`api/daily${kept?.room ? `?room=${encodeURIComponent(kept.room)}` : ""}`);
  } catch (err) {
    $("#daily-body").replaceChildren(el("p", { "data-testid": "daily-error", text: t("page.daily.failed") }));
    showError(err instanceof TypeError ? t("page.err.network") : err.message);
    return;
  }
  render(data);
}

function render(data) {
  const played = mine(data.day);
  const parts = [
    el("p", { "data-testid": "daily-day", "data-day": data.day, text: t("page.daily.day", { day: data.day }) }),
    el("p", { class: "hint-text", text: t("page.daily.about", { level: t(`level.${data.level}`) }) }),
  ];
  if (data.mine) {
    const m = data.mine;
    parts.push(
      el("p", {
        class: "daily-mine",
        "data-testid": "daily-mine",
        "data-result": String(m.result),
        text: t("page.daily.mine", { you: m.score[0], rival: m.score[1], place: m.place, count: data.count, beats: Math.round(100 * m.beats) }),
      }),
    );
  } else if (played) {
    parts.push(el("button", { type: "button", class: "btn", "data-testid": "daily-resume", text: t("page.daily.resume"), onclick: () => play(played) }));
  } else {
    parts.push(el("button", { type: "button", id: "daily-play", class: "btn", "data-testid": "daily-play", text: t("page.daily.play"), onclick: start }));
  }
  parts.push(el("h2", { text: t("page.daily.ranking", { count: data.count }) }));
  if (!data.ranking.length) parts.push(el("p", { "data-testid": "daily-empty", text: t("page.daily.empty") }));
  else {
    const head = el("tr", {}, ["rating.rank", "rating.player", "page.score_title", "rating.result"].map((k) => el("th", { scope: "col", text: t(k) })));
    const rows = data.ranking.map((e) =>
      el(
        "tr",
        { "data-testid": "daily-row", "data-result": String(e.result), class: e.you ? "daily-you" : "" },
        el("td", { text: String(e.place) }),
        el("td", { text: e.name || t("page.name_placeholder") }),
        el("td", { text: `${e.score[0]}–${e.score[1]}` }),
        el("td", { text: e.result > 0 ? `+${e.result}` : String(e.result) }),
      ),
    );
    const table = el("table", { class: "daily-table", "data-testid": "daily-ranking" }, el("thead", {}, head), el("tbody", {}, rows));
    parts.push(el("div", { class: "daily-ranking-box" }, table));
  }
  $("#daily-body").replaceChildren(...parts);
}

/** Play today's deal: a new room of its cards (the server keeps the seed), kept as today's. */
async function start() {
  const button = $("#daily-play");
  if (button) button.disabled = true;
  try {
    const res = await postJSON("api/daily", { name: load(KEYS.name, false) ?? "" });
    const body = await res.json().catch(() => null);
    if (!res.ok) throw new Error(body?.detail || `HTTP ${res.status}`);
    const session = { room: body.room, token: body.token, seat: body.seat ?? 0 };
    store(KEYS.daily, { day: body.day, ...session });
    play(session);
  } catch (err) {
    showError(err instanceof TypeError ? t("page.err.network") : t("page.err.create", { message: err.message }));
    if (button) button.disabled = false;
  }
}

function play(kept) {
  const session = { room: kept.room, token: kept.token, seat: kept.seat ?? 0 };
  rememberGame(session, { players: 2, level: "dificil", daily: true });
  openSession(session);
}
