// The leaderboard page: the best rated profiles of a mode (1 vs 1 or 2 vs 2), from api/leaderboard.

import * as I from "./i18n.js";
import { api, el, ownProfile, startPage } from "./ratings.js";

const MODES = ["1v1", "2v2"];
let mode = MODES.includes(new URLSearchParams(location.hash.slice(1)).get("mode"))
  ? new URLSearchParams(location.hash.slice(1)).get("mode")
  : "1v1";

function row(player, mine) {
  const tr = el("tr", null, { "data-testid": "leaderboard-row" });
  if (mine) tr.classList.add("mine");
  tr.append(el("td", player.rank, { class: "num" }));
  const who = el("td");
  const link = el("a", player.name, { href: `profile.html#id=${encodeURIComponent(player.id)}` });
  who.append(link);
  tr.append(who, el("td", player.rating, { class: "num" }), el("td", player.games, { class: "num" }), el("td", player.wins, { class: "num" }));
  return tr;
}

async function render() {
  for (const tab of document.querySelectorAll("[data-mode]")) {
    const selected = tab.dataset.mode === mode;
    tab.setAttribute("aria-selected", String(selected));
    tab.tabIndex = selected ? 0 : -1;
  }
  const status = document.getElementById("rating-status");
  const body = document.querySelector("#board tbody");
  const empty = document.getElementById("board-empty");
  status.textContent = I.t("rating.loading");
  let board;
  try {
    board = await api(`api/leaderboard?mode=${encodeURIComponent(mode)}&limit=50`);
  } catch (error) {
    status.textContent = I.t("rating.failed", { detail: error.message });
    return;
  }
  if (board.mode !== mode) return; // another tab was chosen meanwhile
  const mine = ownProfile()?.id;
  body.replaceChildren(...board.players.map((p) => row(p, p.id === mine)));
  document.getElementById("board-table").hidden = board.players.length === 0;
  empty.hidden = board.players.length > 0;
  document.getElementById("board-rule").textContent = I.t("rating.rule", {
    games: board.min_games,
    opponents: board.min_opponents,
  });
  status.textContent = "";
  document.body.dataset.board = mode;
}

function choose(next) {
  if (!MODES.includes(next) || next === mode) return;
  mode = next;
  history.replaceState(null, "", `#mode=${mode}`);
  render();
}

for (const tab of document.querySelectorAll("[data-mode]")) {
  tab.addEventListener("click", () => choose(tab.dataset.mode));
  tab.addEventListener("keydown", (event) => {
    if (event.key !== "ArrowLeft" && event.key !== "ArrowRight") return;
    const next = MODES[(MODES.indexOf(mode) + 1) % MODES.length];
    choose(next);
    document.querySelector(`[data-mode="${next}"]`)?.focus();
  });
}

startPage("rating.leaderboard", render);
