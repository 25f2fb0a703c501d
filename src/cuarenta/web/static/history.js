// History and statistics of this browser's games (docs/web.md "The new-game form, history and
// statistics"): POST api/history and POST api/stats with the tokens this browser holds (in the body, never
// in an address): the unfinished games, each with a button that resumes it, the finished mesas with their
// record, and this browser's figures per level and in all. Only presentation: the server counts.

import * as I from "./i18n.js";
import { postJSON } from "./api.js";
import { downloadRecord } from "./download.js";
import { showReplay, showReplayOfRecord } from "./replay.js";
import { resumeGame } from "./session.js";
import { $, el } from "./dom.js";
import { showError } from "./errors.js";
import { showScreen } from "./screens.js";
import { app, levelName, presetOf } from "./state.js";
import { KEYS, load } from "./storage.js";

const { t, pick } = I;

// -- history and statistics ---------------------------------------------------------------------
export async function showHistory() {
  showScreen("history");
  const list = $("#history-list");
  const stats = $("#stats");
  list.replaceChildren(el("p", { text: t("page.loading") }));
  stats.replaceChildren(el("p", { text: t("page.loading") }));
  const games = load(KEYS.games) ?? [];
  const tokens = games.map((g) => g.token).filter(Boolean);
  const byRoom = new Map(games.map((g) => [g.room, g]));
  // the tokens travel in a body; the statistics are those of this browser's rooms only
  const post = (path) => postJSON(path, { tokens });
  const unfinished = $("#history-unfinished");
  try {
    const res = tokens.length ? await post("api/history") : null;
    const data = res && res.ok ? await res.json() : [];
    const items = Array.isArray(data) ? data : data.games ?? [];
    const playing = Array.isArray(data?.playing) ? data.playing.filter((g) => byRoom.has(g.room)) : [];
    unfinished.hidden = !playing.length;
    $("#unfinished-list").replaceChildren(playing.length ? unfinishedTable(playing, byRoom) : "");
    list.replaceChildren(items.length ? historyTable(items, byRoom) : el("p", { "data-testid": "history-empty", text: t("page.history_empty") }));
  } catch {
    unfinished.hidden = true;
    list.replaceChildren(el("p", { text: t("page.err.network") }));
  }
  try {
    const res = await post("api/stats");
    const data = res.ok ? await res.json() : null;
    stats.replaceChildren(statsTable(data));
  } catch {
    stats.replaceChildren(el("p", { text: t("page.err.network") }));
  }
}

/** The rules' label of a history entry: its preset's, or "custom". */
function rulesLabel(item) {
  const preset = typeof item.rules === "string" ? item.rules : item.rules?.preset ?? "";
  const label = preset === "custom" ? app.options?.custom?.label : presetOf(preset)?.label;
  return pick(label, String(preset));
}

/** This browser's games whose mesa is in play, each with a button that resumes it. */
function unfinishedTable(items, byRoom) {
  const head = ["page.col.last_move", "page.col.level", "option.players", "page.rules", "page.col.record"];
  const rows = items.map((item) => {
    const n = item.players;
    const current = item.room === app.session?.room;
    return el(
      "tr",
      { "data-testid": "history-unfinished", "data-room": item.room, "data-current": current ? "1" : undefined },
      el("td", { "data-label": t("page.col.last_move"), text: formatDate(item.updated ?? item.started) }),
      el("td", { "data-label": t("page.col.level"), text: levelName(item.level ?? byRoom.get(item.room)?.level) }),
      el("td", { "data-label": t("option.players"), text: n === 4 || n === 2 ? t(`option.players.${n}`) : String(n ?? "") }),
      el("td", { "data-label": t("page.rules"), text: rulesLabel(item) }),
      el(
        "td",
        { "data-label": t("page.col.record") },
        el("button", {
          type: "button",
          class: "btn btn-secondary btn-small",
          "data-testid": "history-resume",
          // the game this browser has open says so: going on with it is going back to it
          text: t(current ? "page.confirm_new_back" : "page.unfinished_resume"),
          onclick: () => resumeGame(item.room),
        }),
      ),
    );
  });
  return el(
    "div",
    { class: "table-scroll" },
    el("table", { class: "data-table history-table" }, el("thead", {}, el("tr", {}, head.map((k) => el("th", { scope: "col", text: t(k) })))), el("tbody", {}, rows)),
  );
}

function formatDate(value) {
  if (!value) return "";
  const d = typeof value === "number" ? new Date(value < 1e12 ? value * 1000 : value) : new Date(value);
  if (Number.isNaN(d.getTime())) return String(value);
  return d.toLocaleString(I.getLang() === "es" ? "es-EC" : "en-GB", { dateStyle: "medium", timeStyle: "short" });
}

function resultText(item, mine) {
  const team = typeof item.person_team === "number" ? item.person_team : (item.seat ?? mine?.seat ?? 0) % 2;
  let won = item.won;
  if (typeof won !== "boolean" && typeof item.winner === "number") won = item.winner === team;
  if (typeof won !== "boolean") return "";
  const chicas = item.chicas;
  const score = Array.isArray(chicas) ? ` ${chicas[team]}–${chicas[1 - team]}` : "";
  return `${t(won ? "page.res_won" : "page.res_lost")}${score}`;
}

function historyTable(items, byRoom) {
  const head = ["page.col.date", "page.col.level", "option.players", "page.rules", "page.col.result", "page.col.record"];
  const rows = items.map((item) => {
    const room = item.room;
    const mine = byRoom.get(room);
    const token = mine?.token;
    const preset = typeof item.rules === "string" ? item.rules : item.rules?.preset ?? "";
    const nPlayers = item.players ?? item.rules?.players ?? mine?.players;
    const level = item.level ?? mine?.level;
    const presetLabel = preset === "custom" ? app.options?.custom?.label : app.options?.presets?.find((p) => p.name === preset)?.label;
    const record =
      room && token
        ? [
            el("button", {
              type: "button",
              class: "link-button",
              "data-testid": "history-replay",
              text: t("page.replay.link"),
              onclick: () => showReplay(room, token, item.mesa),
            }),
            " · ",
            el("button", {
              type: "button",
              class: "link-button",
              "data-testid": "history-analysis",
              text: t("page.analysis.link"),
              onclick: () => showReplay(room, token, item.mesa, { analyse: true }),
            }),
            " · ",
            el("button", {
              type: "button",
              class: "link-button",
              "data-testid": "history-record",
              text: t("page.record_link"),
              onclick: () => downloadRecord(room, token, item.mesa),
            }),
          ]
        : "";
    return el(
      "tr",
      { "data-testid": "history-row", "data-room": room ?? "", "data-won": item.won ? "1" : "0" },
      el("td", { "data-label": t("page.col.date"), text: formatDate(item.finished) }),
      el("td", { "data-label": t("page.col.level"), text: levelName(level) }),
      el("td", { "data-label": t("option.players"), text: nPlayers === 4 || nPlayers === 2 ? t(`option.players.${nPlayers}`) : String(nPlayers ?? "") }),
      el("td", { "data-label": t("page.rules"), text: pick(presetLabel, String(preset)) }),
      el("td", { "data-label": t("page.col.result"), "data-testid": "history-result", text: resultText(item, mine) }),
      el("td", { "data-label": t("page.col.record") }, record),
    );
  });
  return el(
    "div",
    { class: "table-scroll" },
    el("table", { class: "data-table history-table" }, el("thead", {}, el("tr", {}, head.map((k) => el("th", { scope: "col", text: t(k) })))), el("tbody", {}, rows)),
  );
}

/** A figure in the page's language: a share as a percentage, a mean with one decimal at most. */
function formatFigure(value, percent = false) {
  if (value === null || !Number.isFinite(value)) return "–";
  const locale = I.getLang() === "es" ? "es-EC" : "en-GB";
  if (percent) return t("page.stat.percent", { n: Math.round(value * 100) });
  return value.toLocaleString(locale, { maximumFractionDigits: 1 });
}

function statsTable(data) {
  if (!data) return el("p", { text: t("page.stats_empty") });
  let entries = [];
  const src = data.levels ?? data.stats ?? data;
  if (Array.isArray(src)) entries = src.map((x) => [x.level ?? x.name, x]);
  else if (src && typeof src === "object") entries = Object.entries(src).filter(([, v]) => v && typeof v === "object");
  if (!entries.length) return el("p", { text: t("page.stats_empty") });
  const order = app.options?.levels ?? [];
  const rank = (level) => (order.includes(level) ? order.indexOf(level) : order.length);
  entries.sort((a, b) => rank(a[0]) - rank(b[0]));
  if (data.all && typeof data.all === "object") entries.push(["all", data.all]);
  const per = (s, key) => (s.played ? (s[key] ?? 0) / s.played : null);
  const cols = [
    ["played", (s) => String(s.played ?? 0)],
    ["won", (s) => String(s.won ?? 0)],
    ["win_rate", (s) => formatFigure(per(s, "won"), true)],
    ["best_streak", (s) => String(s.best_streak ?? 0)],
    ["caidas", (s) => String(s.caidas ?? 0)],
    ["caidas_per_game", (s) => formatFigure(per(s, "caidas"))],
    ["limpias", (s) => String(s.limpias ?? 0)],
    ["limpias_per_game", (s) => formatFigure(per(s, "limpias"))],
  ].filter(([c]) => c !== "best_streak" || entries.some(([, s]) => "best_streak" in s));
  const name = (level) => (level === "all" ? t("page.stats_all") : levelName(level));
  return el(
    "div",
    { class: "table-scroll" },
    el(
      "table",
      { class: "data-table stats-table" },
      el("thead", {}, el("tr", {}, el("th", { scope: "col", text: t("page.col.level") }), cols.map(([c]) => el("th", { scope: "col", text: t(`page.col.${c}`) })))),
      el(
        "tbody",
        {},
        entries.map(([level, s]) =>
          el(
            "tr",
            { "data-testid": `stats-${level}`, class: level === "all" ? "stats-all" : undefined },
            el("th", { scope: "row", text: name(level) }),
            cols.map(([c, show]) => el("td", { "data-stat": c, "data-label": t(`page.col.${c}`), text: show(s) })),
          ),
        ),
      ),
    ),
  );
}

/** A record file chosen or dropped on History: its replay (the server, or the device's host, reads it). The
 * longest record is the server's `record_max_chars` (api/options); a file too big for it even at four bytes
 * a character is not read at all. */
async function openRecordFile(file) {
  if (!file) return;
  const most = app.options?.record_max_chars;
  const tooBig = (size) => Number.isInteger(most) && size > most;
  if (tooBig(file.size / 4)) {
    showError(t("page.replay.too_big"));
    return;
  }
  const text = await file.text();
  if (tooBig(text.length)) {
    showError(t("page.replay.too_big"));
    return;
  }
  await showReplayOfRecord(text);
}

export function wireRecordFiles() {
  const input = $("#history-open-record");
  input.addEventListener("change", () => {
    openRecordFile(input.files?.[0]);
    input.value = "";
  });
  const panel = $("#screen-history");
  panel.addEventListener("dragover", (e) => e.preventDefault());
  panel.addEventListener("drop", (e) => {
    e.preventDefault();
    openRecordFile(e.dataTransfer?.files?.[0]);
  });
}

