// A championship's public standings `#standings=ID` (docs/web.md "Championships"): polled every few
// seconds, the ranking (the final one once the championship is finished, with its champion), each round's
// partidas with their chicas, a "Mirar" link to watch a table that is playing (`#watch=ROOM`), a
// "Repetir" button for each finished partida the server replays to anyone (`replays`: once nothing of it
// can still be played; the replay screen of replay.js), and the standings as CSV and JSON files. A
// finished partida's record needs a seat's token (`api/games/{room}/record`), so this public page links none.
//
// The ranking shows the figures that decide it (docs/championships.md "Tie-breaks": place, pair, partidas
// won, chicas and points differences, Buchholz in a Swiss, the knockout rounds reached after a knockout);
// the others (played, lost, byes, chicas and points for and against) are behind "Más columnas" (a toggle
// with `aria-expanded`; a line the table is described by says how many columns show; shown, the table
// scrolls sideways in its region). On a phone the deciding columns wear short headings (their full names
// stay for screen readers).

import * as I from "./i18n.js";
import { championship, standingsFile } from "./api.js";
import { champScreen, pairName, partidaTitle, poll, refusalText, showFailure } from "./champ-common.js";
import { roundsSection } from "./champ-organiser.js";
import { $, el } from "./dom.js";
import { showReplayOfPartida } from "./replay.js";
import { app } from "./store.js";

const { t } = I;

/** The columns that decide the ranking (always shown), in the order of the tie-breaks. */
function deciding(data) {
  const last = data.settings?.format === "swiss" ? "buchholz" : data.knockout_from ? "reached" : null;
  return ["rank", "pair", "won", "chicas_diff", "points_diff", ...(last ? [last] : [])];
}
/** The columns behind "Más columnas". */
const MORE = ["played", "lost", "byes", "chicas_for", "chicas_against", "points_for", "points_against"];

/** A standing's value in column `col` (a difference, as the server counts it, with its sign: "+4", "-2"). */
function cellValue(s, col) {
  const signed = (n) => (typeof n === "number" && n > 0 ? `+${n}` : String(n ?? ""));
  if (col === "chicas_diff") return signed(s.chicas_difference);
  if (col === "points_diff") return signed(s.points_difference);
  return s[col] ?? "";
}

/** A column's heading: its full name, and on a phone a short one (the full one stays for screen readers). */
function heading(col) {
  const full = t(`page.champ.col.${col}`);
  if (!I.hasKey(`page.champ.col_short.${col}`)) return el("th", { scope: "col", text: full });
  return el("th", { scope: "col", title: full }, el("span", { class: "col-full", text: full }), el("span", { class: "col-short", "aria-hidden": "true", text: t(`page.champ.col_short.${col}`) }));
}

export function showStandings(id) {
  app.champ = { view: "standings", id, data: null };
  champScreen("champ-standings", t("page.champ.standings_title"));
  poll(() => refresh(id));
}

async function refresh(id) {
  try {
    const data = await championship(id);
    if (app.champ?.view !== "standings" || app.champ.id !== id) return;
    // nothing new since the last poll: the screen stays as it is, so that a reader keeps their place (a
    // screen reader's, a selection, an element a test holds) instead of getting the same table drawn anew
    if (app.champ.data && JSON.stringify(app.champ.data) === JSON.stringify(data)) return;
    app.champ = { ...app.champ, data };
    renderStandings();
  } catch (err) {
    showFailure(err);
  }
}

/** "Repetir" for a finished partida the server replays to anyone now (`replays`), else nothing. */
function replayButton(data, partida) {
  if (!(data.replays ?? []).includes(partida.id)) return null;
  const id = app.champ.id;
  return el(
    "span",
    { class: "champ-actions" },
    el("button", {
      type: "button",
      class: "btn btn-secondary",
      "data-testid": "standings-replay",
      "data-partida": partida.id,
      "aria-label": t("page.champ.replay_label", { partida: partidaTitle(data, partida) }),
      text: t("page.champ.replay"),
      onclick: () => showReplayOfPartida(id, partida.id, { back: () => showStandings(id), refused: refusalText }),
    }),
  );
}

/** The room of a partida that is playing now, if the server names it (`live` or `tables`). */
function liveRoom(data, partida) {
  if (partida.status !== "running" && partida.status !== "paused") return null;
  return data.live?.[partida.id]?.room ?? data.tables?.[partida.id] ?? null;
}

export function renderStandings() {
  const c = app.champ;
  if (c?.view !== "standings") return;
  const root = $("#champ-view");
  const data = c.data;
  // the poll draws the screen again: a control in focus keeps it (the toggle, a download link)
  const focused = root.contains(document.activeElement) ? document.activeElement.dataset?.testid : null;
  root.replaceChildren(el("h1", { id: "champ-title", text: data ? data.settings.name : t("page.champ.standings_title") }));
  if (!data) return;
  const finished = data.status === "finished";
  root.append(el("p", { class: "tagline", "data-testid": "standings-status", "data-status": data.status, text: t(`page.champ.champ_status.${data.status}`) }));
  if (data.champion) root.append(el("p", { class: "champ-champion", "data-testid": "standings-champion", text: t("page.champ.champion", { name: pairName(data, data.champion) }) }));
  const shown = deciding(data);
  const columns = [...shown, ...MORE];
  const more = Boolean(c.moreColumns);
  const behind = (col) => MORE.includes(col);
  const head = el(
    "tr",
    {},
    columns.map((col) => {
      const th = heading(col);
      if (behind(col)) th.dataset.more = "true";
      th.hidden = behind(col) && !more;
      return th;
    }),
  );
  const rows = (data.standings ?? []).map((s) =>
    el(
      "tr",
      { "data-testid": "standings-row", "data-pair": s.pair },
      columns.map((col) =>
        col === "pair"
          ? el("th", { scope: "row", text: pairName(data, s.pair) })
          : el("td", { "data-col": col, "data-more": behind(col) ? "true" : null, hidden: behind(col) && !more, text: cellValue(s, col) }),
      ),
    ),
  );
  const hint = el("p", {
    id: "standings-columns",
    class: "hint-text",
    "data-testid": "standings-columns",
    text: more ? t("page.champ.columns_all", { all: columns.length }) : t("page.champ.columns_hint", { shown: shown.length, all: columns.length }),
  });
  const toggle = el("button", {
    type: "button",
    class: "btn btn-secondary",
    "data-testid": "standings-more",
    "aria-expanded": more ? "true" : "false",
    "aria-controls": "standings-table",
    text: t(more ? "page.champ.fewer_columns" : "page.champ.more_columns"),
  });
  toggle.addEventListener("click", () => {
    app.champ = { ...app.champ, moreColumns: !more };
    renderStandings();
  });
  root.append(
    el(
      "section",
      { class: "champ-section", "aria-labelledby": "standings-table-title" },
      el("h2", { id: "standings-table-title", text: t(finished ? "page.champ.final_ranking" : "page.champ.ranking") }),
      el("div", { class: "champ-columns" }, hint, toggle),
      el(
        "div",
        { class: "table-scroll", tabindex: "0", role: "region", "aria-labelledby": "standings-table-title" },
        el(
          "table",
          { id: "standings-table", class: "champ-table", "data-testid": "standings-table", "data-more": more ? "true" : "false", "aria-describedby": "standings-columns" },
          el("thead", {}, head),
          el("tbody", {}, rows),
        ),
      ),
      el(
        "p",
        { class: "champ-actions" },
        el("a", { class: "btn btn-secondary", href: standingsFile(c.id, "csv"), download: "", "data-testid": "standings-csv", text: t("page.champ.download_csv") }),
        el("a", { class: "btn btn-secondary", href: standingsFile(c.id, "json"), download: "", "data-testid": "standings-json", text: t("page.champ.download_json") }),
      ),
    ),
    roundsSection(data, (p) => {
      const room = liveRoom(data, p);
      if (!room) return replayButton(data, p);
      const live = data.live?.[p.id];
      return el(
        "span",
        { class: "champ-actions" },
        Array.isArray(live?.chicas) ? el("span", { class: "choice-sub", "data-testid": "standings-live", text: t("page.champ.live", { chicas: t("page.champ.chicas", { a: live.chicas[0], b: live.chicas[1] }), a: live.scores?.[0] ?? 0, b: live.scores?.[1] ?? 0 }) }) : null,
        el("a", { class: "btn btn-secondary", href: `#watch=${encodeURIComponent(room)}`, "data-testid": "standings-watch", text: t("page.champ.watch") }),
      );
    }),
  );
  if (focused) root.querySelector(`[data-testid="${CSS.escape(focused)}"]`)?.focus();
}
