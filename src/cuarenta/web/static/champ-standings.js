// A championship's public standings `#standings=ID` (docs/web.md "Championships"): polled every few
// seconds, the ranking (the final one once the championship is finished, with its champion), each round's
// partidas with their chicas, a "Mirar" link to watch a table that is playing (`#watch=ROOM`), and the
// standings as CSV and JSON files. A finished partida's record needs a seat's token
// (`api/games/{room}/record`), so this public page links none.

import * as I from "./i18n.js";
import { championship, standingsFile } from "./api.js";
import { champScreen, pairName, poll, showFailure } from "./champ-common.js";
import { roundsSection } from "./champ-organiser.js";
import { $, el } from "./dom.js";
import { app } from "./store.js";

const { t } = I;

const COLUMNS = ["rank", "pair", "played", "won", "lost", "byes", "chicas_for", "chicas_against", "points_for", "points_against", "buchholz"];

export function showStandings(id) {
  app.champ = { view: "standings", id, data: null };
  champScreen("champ-standings", t("page.champ.standings_title"));
  poll(() => refresh(id));
}

async function refresh(id) {
  try {
    const data = await championship(id);
    if (app.champ?.view !== "standings" || app.champ.id !== id) return;
    app.champ = { ...app.champ, data };
    renderStandings();
  } catch (err) {
    showFailure(err);
  }
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
  root.replaceChildren(el("h1", { id: "champ-title", text: data ? data.settings.name : t("page.champ.standings_title") }));
  if (!data) return;
  const finished = data.status === "finished";
  root.append(el("p", { class: "tagline", "data-testid": "standings-status", "data-status": data.status, text: t(`page.champ.champ_status.${data.status}`) }));
  if (data.champion) root.append(el("p", { class: "champ-champion", "data-testid": "standings-champion", text: t("page.champ.champion", { name: pairName(data, data.champion) }) }));
  const head = el("tr", {}, COLUMNS.map((col) => el("th", { scope: "col", text: t(`page.champ.col.${col}`) })));
  const rows = (data.standings ?? []).map((s) =>
    el(
      "tr",
      { "data-testid": "standings-row", "data-pair": s.pair },
      COLUMNS.map((col) => (col === "pair" ? el("th", { scope: "row", text: pairName(data, s.pair) }) : el("td", { text: s[col] ?? "" }))),
    ),
  );
  root.append(
    el(
      "section",
      { class: "champ-section", "aria-labelledby": "standings-table-title" },
      el("h2", { id: "standings-table-title", text: t(finished ? "page.champ.final_ranking" : "page.champ.ranking") }),
      el(
        "div",
        { class: "table-scroll", tabindex: "0", role: "region", "aria-labelledby": "standings-table-title" },
        el("table", { class: "champ-table", "data-testid": "standings-table" }, el("thead", {}, head), el("tbody", {}, rows)),
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
      if (!room) return null;
      const live = data.live?.[p.id];
      return el(
        "span",
        { class: "champ-actions" },
        Array.isArray(live?.chicas) ? el("span", { class: "choice-sub", "data-testid": "standings-live", text: t("page.champ.live", { chicas: t("page.champ.chicas", { a: live.chicas[0], b: live.chicas[1] }), a: live.scores?.[0] ?? 0, b: live.scores?.[1] ?? 0 }) }) : null,
        el("a", { class: "btn btn-secondary", href: `#watch=${encodeURIComponent(room)}`, "data-testid": "standings-watch", text: t("page.champ.watch") }),
      );
    }),
  );
}
