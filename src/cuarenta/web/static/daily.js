// The deal of the day (issue 29, docs/web.md "The deal of the day"): the same cards for everyone today,
// one chica against Difícil, and the day's ranking by each result compared with everyone else's.
// GET api/daily?room=R (docs/protocol.md "The deal of the day") shows the day's ranking and this browser's
// own result; "Jugar la mano del día" asks POST api/daily and plays it as any game against the computer.
// The day's room is remembered here (`cuarenta.daily`: {day, room}) to show its result and to go back to
// it. On the device the day's **offline** deal is played instead, from the seed a server handed out ahead
// (daily-offline.js): its result is sent when a server answers and ranked among the offline results.
//
//   showDaily()   // opens the screen

import * as I from "./i18n.js";
import { api, postJSON } from "./api.js";
import { offlineDays, offlineRanking, resultOf, resultWords, standingWords, todaysDeal } from "./daily-offline.js";
import { onDevice } from "./device.js";
import { $, el } from "./dom.js";
import { showError } from "./errors.js";
import { rememberGame } from "./saved.js";
import { showScreen } from "./screens.js";
import { openSession } from "./session.js";
import { app } from "./store.js";
import { KEYS, load, store } from "./storage.js";

const { t } = I;

/** The room this browser plays today's deal in, if any: {day, room, token}. */
function mine(day) {
  const kept = load(KEYS.daily);
  return kept && kept.day === day ? kept : null;
}

let shown = 0; // which showing of the screen is the latest (a late ranking is not put into a newer one)

/** Open the deal of the day's screen: the day, the ranking, this browser's result or the way to play. */
export async function showDaily() {
  showScreen("daily");
  shown += 1;
  if (onDevice()) {
    await showOffline(shown);
    return;
  }
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
  const parts = [...heading(data.day, data.level)];
  if (data.mine) {
    const m = data.mine;
    parts.push(
      el("p", {
        class: "daily-mine",
        "data-testid": "daily-mine",
        "data-result": String(m.result),
        text: t("page.daily.mine", { you: m.score[0], rival: m.score[1], place: m.place, count: data.count, standing: standingWords(data.count, m.beats) }),
      }),
    );
  } else if (played) {
    parts.push(resumeButton(played));
  } else {
    parts.push(playButton(start));
  }
  parts.push(...ranking(data, "page.daily.ranking"));
  $("#daily-body").replaceChildren(...parts);
}

/** The day and what is played. */
function heading(day, level) {
  return [
    el("p", { "data-testid": "daily-day", "data-day": day, text: t("page.daily.day", { day }) }),
    el("p", { class: "hint-text", text: t("page.daily.about", { level: t(`level.${level}`) }) }),
  ];
}

function resumeButton(played) {
  return el("button", { type: "button", class: "btn", "data-testid": "daily-resume", text: t("page.daily.resume"), onclick: () => play(played) });
}

function playButton(onclick) {
  return el("button", { type: "button", id: "daily-play", class: "btn", "data-testid": "daily-play", text: t("page.daily.play"), onclick });
}

/** The day's ranking (its title under `title`), the best first, the person's own row marked. */
function ranking(data, title, offline = false) {
  const parts = [el("h2", { "data-testid": offline ? "daily-offline-title" : null, text: t(title, { count: data.count }) })];
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
    const table = el("table", { class: "daily-table", "data-testid": "daily-ranking", "data-offline": offline ? "1" : null }, el("thead", {}, head), el("tbody", {}, rows));
    parts.push(el("div", { class: "daily-ranking-box" }, table));
  }
  return parts;
}

/** The device's screen: today's offline deal when this device keeps it (else why not), the way to play
 * it, where its result stands (to be sent, or its place among the offline results), and the day's offline
 * ranking when a server answers. */
async function showOffline(showing) {
  const deal = todaysDeal();
  if (!deal) {
    $("#daily-body").replaceChildren(el("p", { "data-testid": "daily-error", text: t("page.device.daily_need_connection") }));
    return;
  }
  const level = offlineDays()?.level ?? "dificil";
  const played = mine(deal.day);
  const result = played ? resultOf(played.room) : null;
  const parts = [...heading(deal.day, level), el("p", { class: "hint-text", "data-testid": "daily-offline", text: t("page.daily.offline_about") })];
  const line = result ? offlineLine(result) : null;
  if (line) parts.push(line);
  else if (played) parts.push(resumeButton(played));
  else parts.push(playButton(() => startOffline(deal)));
  $("#daily-body").replaceChildren(...parts);
  const data = await offlineRanking(deal.day, result?.entry);
  if (!data || showing !== shown || app.screen !== "daily") return;
  if (data.mine && line && result.state === "sent") {
    // the place as it stands now (more may have sent theirs since)
    const now = { state: "sent", score: data.mine.score, place: data.mine.place, beats: data.mine.beats, count: data.count };
    line.textContent = resultWords(now);
    line.dataset.place = String(now.place);
    line.dataset.count = String(now.count);
  }
  $("#daily-body").append(...ranking(data, "page.daily.offline_ranking", true));
}

/** Where the device's result stands: "will be sent", its place among the offline results, or the refusal. */
function offlineLine(result) {
  const testid = { pending: "daily-pending", sent: "daily-offline-mine", refused: "daily-refused" }[result.state];
  const kind = { pending: "hint-text", sent: "daily-mine", refused: "hint-text daily-refused" }[result.state];
  const line = el("p", { class: kind, "data-testid": testid, text: resultWords(result) });
  if (result.state === "sent") {
    line.dataset.result = String(result.result);
    line.dataset.place = String(result.place);
    line.dataset.count = String(result.count);
  }
  return line;
}

/** Play today's deal: a new room of its cards (the server keeps the seed), kept as today's. */
function start() {
  return begin({});
}

/** Play today's offline deal on the device: a room of the worker's, dealt from the seed kept here. */
function startOffline(deal) {
  return begin({ seed: deal.seed });
}

async function begin(extra) {
  const button = $("#daily-play");
  if (button) button.disabled = true;
  const name = load(KEYS.name, false) ?? "";
  try {
    const res = await postJSON("api/daily", { ...extra, name });
    const body = await res.json().catch(() => null);
    if (!res.ok) throw new Error(body?.detail || `HTTP ${res.status}`);
    const session = { room: body.room, token: body.token, seat: body.seat ?? 0 };
    store(KEYS.daily, { day: body.day, ...session, name });
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
