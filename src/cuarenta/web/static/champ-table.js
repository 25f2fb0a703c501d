// A championship's table as its people and spectators see it (docs/web.md "Championships"): what its
// judge did to it, as every `update` (wire.js) and `table` message says in its `table` field (`paused`,
// `pause_reason`, `replaced`; docs/championships.md "Running a championship").
//
// - Paused: a banner says that the judge paused the table, and why when the judge said; the server offers
//   no move meanwhile (table.js's status says the table waits). Resumed: the banner says so until the
//   next move.
// - Replaced by the judge's restart: the page goes on at the partida's new table. A pair's player sits
//   there again (the seat keeps the pair's link: champ-pair.js `sitAtPartida`), or, when the new table
//   is not open yet after a while, the pair's screen shows it (`#pair=ID.TOKEN`); a spectator watches
//   the new table (`#watch=NEW`). A seat without the pair's link is told to open it again.

import * as I from "./i18n.js";
import { championship } from "./api.js";
import { sitAtPartida } from "./champ-pair.js";
import { showError } from "./errors.js";
import { $, el, sleep } from "./dom.js";
import { forgetSession, forgetWatch } from "./saved.js";
import { showScreen } from "./screens.js";
import { addMessageHook, openSession } from "./session.js";
import { app } from "./store.js";

const { t } = I;

/** The new table is asked for every RETRY_MS, TRIES times at most (a restart opens it at once; a server
 * that could not may open it a moment later). */
const RETRY_MS = 2000;
const TRIES = 15;

/** What the banner shows: of which room, whether the table is paused, and a note that stays until the
 * table's next move (`resume`, or `moved` at the new table) with the state it was shown at. */
const shown = { room: null, paused: false, note: null, at: null };
/** The room this page is leaving for its partida's new table, and the partida it goes on with. */
let leaving = null;
let arrived = null;

function banner() {
  let box = $("#champ-halt");
  if (!box) {
    box = el("p", { id: "champ-halt", class: "champ-halt", role: "status", "data-testid": "table-halt", hidden: true });
    $("#status").before(box);
  }
  return box;
}

function draw(state, text) {
  const box = banner();
  box.dataset.state = state ?? "";
  box.textContent = text ?? "";
  box.hidden = !state;
}

/** The socket's messages (session.js calls this first): never used up here. */
function onMessage(msg) {
  if ((msg.type !== "update" && msg.type !== "table") || !app.session || msg.room !== app.session.room) return false;
  const facts = msg.table;
  if (!facts?.championship) {
    if (shown.room !== null) Object.assign(shown, { room: null, paused: false, note: null, at: null });
    draw(null);
    return false;
  }
  if (shown.room !== msg.room) {
    const moved = arrived && arrived.partida === facts.partida && arrived.championship === facts.championship;
    Object.assign(shown, { room: msg.room, paused: false, note: moved ? "moved" : null, at: msg.version ?? null });
    arrived = null;
  }
  if (facts.replaced) {
    leave(msg.room, facts);
    return false;
  }
  if (facts.paused) {
    Object.assign(shown, { paused: true, note: null });
    draw("paused", facts.pause_reason ? t("champ_table.paused_reason", { reason: facts.pause_reason }) : t("champ_table.paused"));
    return false;
  }
  if (shown.paused) Object.assign(shown, { paused: false, note: "resume", at: msg.version ?? null });
  else if (shown.note && msg.type === "update" && shown.at !== null && msg.version > shown.at) shown.note = null;
  else if (shown.note && shown.at === null && msg.type === "update") shown.at = msg.version;
  if (shown.note === "resume") draw("resume", t("champ_table.resumed"));
  else if (shown.note === "moved") draw("moved", t("champ_table.moved"));
  else draw(null);
  return false;
}

/** The judge's restart replaced the table of this page: go on at the partida's new one. */
async function leave(room, facts) {
  const session = app.session;
  if (leaving === room || !session) return;
  leaving = room;
  draw("replaced", t(session.watch ? "champ_table.replaced_watch" : "champ_table.replaced"));
  const still = () => app.session === session;
  try {
    for (let i = 0; i < TRIES && still(); i += 1) {
      try {
        if (session.watch) {
          const next = (await championship(facts.championship)).tables?.[facts.partida];
          if (next && next !== room && still()) {
            arrived = facts;
            history.replaceState(null, "", `${location.pathname}${location.search}#watch=${encodeURIComponent(next)}`);
            openSession({ room: next, watch: true });
            return;
          }
        } else if (session.champ) {
          arrived = facts;
          await sitAtPartida(session.champ); // the new table, as the pair's screen sits there
          return;
        } else break;
      } catch {
        arrived = null; // not open yet (no_partida), or the network: ask again
      }
      await sleep(RETRY_MS);
    }
    if (!still()) return;
    if (session.champ) {
      // the pair's screen shows the partida's table once it is open, with its "Sentarme"
      location.hash = `#pair=${encodeURIComponent(session.champ.id)}.${encodeURIComponent(session.champ.pair)}`;
      return;
    }
    if (session.watch) forgetWatch();
    else forgetSession();
    showScreen("new");
    showError(t(session.watch ? "champ_table.replaced_gone" : "champ_table.replaced_no_link"), "table_replaced");
  } finally {
    leaving = null;
  }
}

export function wireChampTable() {
  addMessageHook(onMessage);
}
