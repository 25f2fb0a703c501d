// A pair's screen `#pair=ID.TOKEN` (docs/web.md "Championships"): its partida now (the table, the
// opponents, who sits where) and a "Sentarme" button per player: `POST .../sit` answers as a table's join
// does, and the page then plays that table exactly as a friend who joined one (friends.js enterTable).
// The seat keeps the pair's link (`champ` of the session), so that a table replaced by the judge's
// restart sits the player again at the partida's new one (champ-table.js).

import * as I from "./i18n.js";
import { championship } from "./api.js";
import { act, champScreen, pairName, poll, showFailure } from "./champ-common.js";
import { $, el } from "./dom.js";
import { ensureProfile, enterTable } from "./friends.js";
import { rememberGame } from "./saved.js";
import { app } from "./store.js";

const { t } = I;

export function showPair(id, token) {
  app.champ = { view: "pair", id, token, data: null, mine: null };
  champScreen("champ-pair", t("page.champ.pair_title"));
  poll(() => refresh(id, token));
}

async function refresh(id, token) {
  try {
    const [data, mine] = await Promise.all([championship(id), championship(id, "/pair", { token })]);
    if (app.champ?.view !== "pair" || app.champ.id !== id) return;
    app.champ = { ...app.champ, data, mine };
    renderPair();
  } catch (err) {
    showFailure(err);
  }
}

function pairId(c) {
  return c.mine?.pair && typeof c.mine.pair === "object" ? c.mine.pair.id : c.mine?.pair;
}

export function renderPair() {
  const c = app.champ;
  if (c?.view !== "pair") return;
  const root = $("#champ-view");
  const { data, mine } = c;
  const pair = mine?.pair && typeof mine.pair === "object" ? mine.pair : data?.pairs?.find((p) => p.id === mine?.pair);
  root.replaceChildren(el("h1", { id: "champ-title", text: pair ? pair.name : t("page.champ.pair_title") }));
  if (!data || !mine) return;
  root.append(el("p", { class: "tagline", text: `${data.settings.name} · ${t(`page.champ.champ_status.${data.status}`)}` }));
  if (pair) root.append(el("p", { class: "hint-text", "data-testid": "pair-players", text: pair.players.join(" · ") }));
  if (data.settings?.rated) root.append(el("p", { class: "hint-text", "data-testid": "pair-rated", text: t("page.champ.rated_note") }));
  const partida = mine.partida;
  if (!partida) {
    root.append(el("p", { class: "status", role: "status", "data-testid": "pair-no-partida", text: t(data.status === "finished" ? "page.champ.pair_done" : "page.champ.pair_wait") }));
    return;
  }
  const rival = (partida.pairs ?? []).find((p) => p !== pair?.id);
  root.append(
    el(
      "section",
      { class: "champ-section", "data-testid": "pair-partida", "data-partida": partida.id, "aria-labelledby": "pair-partida-title" },
      el("h2", { id: "pair-partida-title", text: t("page.champ.partida_now", { round: partida.round, table: partida.table }) }),
      el("p", { class: "choice-main", "data-testid": "pair-rival", text: t("page.champ.against", { name: pairName(data, rival) }) }),
      el("p", { class: "choice-sub", text: t(`page.champ.status.${partida.status}`) }),
    ),
  );
  if (!mine.room || partida.status === "finished" || partida.status === "bye") return;
  const buttons = (pair?.players ?? ["1", "2"]).map((name, player) => {
    const button = el("button", { type: "button", class: "btn btn-primary", "data-testid": "champ-sit", "data-player": player, text: t("page.champ.sit", { name }) });
    button.addEventListener("click", () => sit(player, button));
    return button;
  });
  root.append(el("div", { class: "champ-actions champ-sit" }, buttons));
}

async function sit(player, button) {
  const c = app.champ;
  const name = c.data?.pairs?.find((p) => p.id === pairId(c))?.players?.[player] ?? "";
  const champ = { id: c.id, pair: c.token, player, name, rated: Boolean(c.data?.settings?.rated) };
  await act(button, () => sitAtPartida(champ));
}

/**
 * Sit player `champ.player` of a pair at its partida's table and play there (`champ`: `{id, pair: the
 * pair's token, player, name, rated}`; a rated championship: with this browser's own profile, made on the
 * spot if it has none). The session keeps `champ`. Throws the server's refusal (`no_partida` while the
 * partida has no table yet).
 */
export async function sitAtPartida(champ) {
  const body = { player: champ.player };
  if (champ.rated) body.profile = await ensureProfile(champ.name || "Jugador");
  const answer = await championship(champ.id, "/sit", { body, token: champ.pair });
  const session = { room: answer.room, token: answer.token, seat: answer.seat, table: true, code: answer.code ?? undefined, champ };
  rememberGame(session, { players: 4, championship: champ.id });
  if (location.hash.startsWith("#pair=")) history.replaceState(null, "", location.pathname + location.search);
  enterTable(session);
  return session;
}
