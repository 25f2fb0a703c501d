// The page's screens (new game, table, history and a mesa's replay, a table's waiting room and join page) and the
// navigation that shows which one is open.

import { $ } from "./dom.js";
import { app, subscribe } from "./store.js";

export function showScreen(name) {
  app.screen = name;
  for (const [id, screen] of [
    ["#screen-new", "new"],
    ["#screen-table", "table"],
    ["#screen-history", "history"],
    ["#screen-wait", "wait"],
    ["#screen-join", "join"],
    ["#screen-champ", "champ"],
    ["#screen-replay", "replay"],
    ["#screen-puzzles", "puzzles"],
    ["#screen-daily", "daily"],
  ]) {
    $(id).hidden = screen !== name;
  }
  updateNav();
}

/** The navigation: the table's link while a game is saved, which screen is open. */
export function updateNav() {
  $("#nav-table").hidden = !app.session;
  for (const [id, screen] of [["#nav-table", "table"], ["#nav-new", "new"], ["#nav-history", "history"]]) {
    const here = app.screen === screen || (screen === "table" && app.screen === "wait") || (screen === "history" && app.screen === "replay" && app.replayFrom !== "standings");
    if (here) $(id).setAttribute("aria-current", "page");
    else $(id).removeAttribute("aria-current");
  }
  $("#resume-game").hidden = !app.session || app.screen !== "new";
}

subscribe("session", updateNav); // a game saved or forgotten (saved.js)
