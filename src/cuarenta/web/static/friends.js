// Tables with friends (docs/tables.md), the page's side before the cards: creating a table (the form's
// fields are in form.js), the waiting room (seats, the invite link with copy, share and a QR code of it, the
// creator's "computer" and "start"), the join page of an invite link (`#join=ROOM.INVITE`) and the lobby
// of public tables. Once a table plays, the usual table screen shows it. Names are shown as text, never
// as markup; the seat's token travels in an Authorization header or the socket's join, never in a URL.

import { ownProfile, saveOwnProfile } from "./ratings.js";
import * as I from "./i18n.js";
import { authorized, errorDetail, postJSON, request } from "./api.js";
import { addMessageHook, openSession } from "./session.js";
import { hideError, showError } from "./errors.js";
import { $, el } from "./dom.js";
import { drawQrInto } from "./qr.js";
import { rememberGame } from "./saved.js";
import { hideReclaim, renderReclaim } from "./seatback.js";
import { showScreen } from "./screens.js";
import { app, presetOf } from "./state.js";
import { KEYS, load, store } from "./storage.js";

const { t, pick } = I;

/** What the page knows of the table of its session: GET api/tables (info), and the last seats and
 * table facts of an `update` (wire.js) or a `table` message. */
const table = { room: null, info: null, seats: null, facts: null, status: null, qrFor: null };

// -- links ------------------------------------------------------------------------------------------------
function pageBase() {
  return location.origin + location.pathname.replace(/[^/]*$/, "");
}
export function inviteLink(room, invite) {
  return `${pageBase()}#join=${room}.${invite}`;
}
function watchHref(room) {
  return `#watch=${encodeURIComponent(room)}`;
}

// -- texts about a table ----------------------------------------------------------------------------------
function rulesText(rules, players) {
  const name = rules?.preset;
  const preset = app.options && name && name !== "custom" ? presetOf(name) : null;
  const quick = app.options ? presetOf(app.options.quick_preset) : null;
  let label;
  if (preset) label = pick(preset.label, name);
  else if (quick && rules && Object.entries(quick.options ?? {}).every(([k, v]) => rules[k] === v)) label = t("page.quick_game");
  else label = pick(app.options?.custom?.label, "custom");
  return `${t(`option.players.${players === 4 ? 4 : 2}`)} · ${t("page.friends.rules", { rules: label })}`;
}

function hostName(seats, creator) {
  return seats?.find((s) => s.seat === (creator ?? 0))?.name ?? "";
}

/** Where seat `s` is from the reader's seat `me` (docs/web.md): "tú", "tu compañero", "rival"; for
 * someone with no seat yet (the join page) or a spectator, its pair at 4 ("pareja 1"/"pareja 2"). */
function seatRole(s, me, players) {
  if (me === null || me === undefined) return players === 4 ? t("page.seat_rel.pair", { n: (s.seat % 2) + 1 }) : "";
  if (s.seat === me) return t("page.seat_rel.you");
  if (players === 4 && s.seat % 2 === me % 2) return t("page.seat_rel.partner");
  return t("page.seat_rel.rival");
}

/** The seats of a table as a list: each seat's name (a person's, the computer's), where it is from the
 * reader's side, and connected / open / which computer. */
function seatItems(seats, me, players) {
  return (seats || []).map((s) => {
    let main;
    let sub = "";
    const level = pick(app.options?.level_labels?.[s.level]?.label, s.level ?? "");
    if (s.kind === "open") main = t("page.friends.seat_open");
    else if (s.kind === "computer" && !s.left) {
      main = s.name || t("page.friends.seat_computer", { level });
      if (s.vacant) sub = t("page.reclaim.seat_free", { name: s.name ?? "" }); // handed over: someone new may take it
      else if (s.name) sub = t("page.seat_computer_level", { level });
    } else {
      main = s.name ?? "";
      sub = s.left ? "" : s.connected ? t("page.friends.connected") : t("page.friends.not_connected");
    }
    const role = seatRole(s, me, players);
    return el(
      "li",
      { class: "table-seat", "data-testid": "table-seat", "data-seat": s.seat, "data-kind": s.kind, "data-connected": s.kind === "person" ? String(Boolean(s.connected)) : null, "data-vacant": s.vacant ? "true" : null },
      el("span", { class: "ts-number", text: t("page.friends.seat_n", { n: s.seat + 1 }) }),
      el("span", { class: "ts-name", "data-testid": "table-seat-name", text: main }),
      role ? el("span", { class: "ts-role", "data-testid": "table-seat-role", text: role }) : null,
      sub ? el("span", { class: "ts-state", text: sub }) : null,
    );
  });
}

// -- creating and entering a table ------------------------------------------------------------------------
/** The browser's anonymous profile ({id, key}, kept as ratings.js keeps it), made now if it has none:
 * a rated table needs one (docs/tables.md). */
export async function ensureProfile(name) {
  const own = ownProfile();
  if (own) return { id: own.id, key: own.key };
  const res = await postJSON("api/profiles", { name });
  const answer = await res.json().catch(() => null);
  if (!res.ok) throw new Error(errorDetail(answer) || `HTTP ${res.status}`);
  saveOwnProfile({ id: answer.id, key: answer.key, name: answer.name });
  return { id: answer.id, key: answer.key };
}

/** POST api/tables, then the waiting room. */
export async function createTable(body) {
  try {
    if (body.rated) body.profile = await ensureProfile(body.name);
    const res = await postJSON("api/tables", body);
    const answer = await res.json().catch(() => null);
    if (!res.ok) throw new Error(errorDetail(answer) || `HTTP ${res.status}`);
    const session = { room: answer.room, token: answer.token, seat: answer.seat ?? 0, table: true, code: answer.code ?? undefined };
    rememberGame(session, { players: body.players, level: body.level });
    enterTable(session);
  } catch (err) {
    showError(err instanceof TypeError ? t("page.err.network") : t("page.friends.err_create", { message: err.message }));
  }
}

/** The socket joins at once; the waiting room shows until the table plays. */
export function enterTable(session) {
  store(KEYS.session, session);
  table.room = session.room;
  table.info = null;
  table.seats = null;
  table.facts = null;
  table.status = "waiting";
  openSession(session);
  showScreen("wait");
  renderWaiting();
  loadInfo();
}

async function loadInfo() {
  const session = app.session;
  if (!session) return;
  try {
    // a spectator (a championship's partida followed to its new table, still waiting) has no token
    const res = await request(`api/tables/${encodeURIComponent(session.room)}`, session.token ? authorized(session.token) : {});
    if (!res.ok) return;
    const info = await res.json();
    if (app.session !== session) return;
    table.info = info;
    if (!table.seats) table.seats = info.seats;
    if (!table.status) table.status = info.status;
    renderWaiting();
  } catch {
    /* the socket's messages still fill the seats */
  }
}

/** The socket's messages of a table (connection.js calls this first): a waiting table is the waiting
 * room's, not the table screen's. Returns true when the message is used up here. */
function onMessage(msg) {
  if (!app.session || !msg || msg.room !== app.session.room) return false;
  const ofTable = msg.type === "table" || (msg.type === "update" && msg.table);
  if (!ofTable) return false;
  if (table.room !== msg.room) {
    table.room = msg.room;
    table.info = null;
  }
  table.seats = msg.seats ?? table.seats;
  table.facts = msg.table ?? table.facts;
  table.status = msg.status ?? table.status;
  if (msg.status === "waiting") {
    if (app.screen === "table") showScreen("wait");
    if (!table.info) loadInfo();
    renderWaiting();
    return msg.type === "update";
  }
  if (msg.type === "update" && app.screen === "wait") showScreen("table");
  return false;
}

/** Whether the session's table still waits (the navigation shows the waiting room for it). */
export function waiting() {
  return Boolean(app.session && table.room === app.session.room && table.status === "waiting");
}

function renderWaiting() {
  const session = app.session;
  if (!session || table.room !== session.room) return;
  const info = table.info;
  const seats = table.seats ?? info?.seats ?? [];
  const creator = table.facts?.creator ?? info?.creator ?? 0;
  const me = session.seat ?? null;
  const players = info?.players ?? seats.length;
  const host = hostName(seats, creator);
  $("#wait-host").textContent = host ? t("page.friends.host", { name: host }) : "";
  $("#wait-rules").textContent = info ? rulesText(info.rules, players) : "";
  const items = seatItems(seats, me, players);
  if (me === creator) {
    const levels = app.options?.levels ?? ["normal"];
    for (const item of items) {
      if (item.dataset.kind !== "open") continue;
      const seat = Number(item.dataset.seat);
      const select = el(
        "select",
        { "data-testid": `seat-level-${seat}`, "aria-label": t("page.level") },
        levels.map((level) => el("option", { value: level, text: pick(app.options?.level_labels?.[level]?.label, level) })),
      );
      select.value = info?.level && levels.includes(info.level) ? info.level : levels.includes("normal") ? "normal" : levels[0];
      const button = el("button", { type: "button", class: "btn btn-secondary", "data-testid": `seat-computer-${seat}`, text: t("page.friends.put_computer") });
      button.addEventListener("click", () => creatorAction(`seats/${seat}`, { level: select.value }, button));
      item.append(el("span", { class: "ts-actions" }, select, button));
    }
  }
  $("#wait-seats").replaceChildren(...items);
  $("#wait-creator").hidden = me !== creator;
  $("#wait-others").hidden = me === creator;
  $("#wait-others").textContent = me === creator ? "" : t("page.friends.waiting_for", { name: host });
  const invite = info?.invite;
  $("#wait-invite").hidden = !invite;
  if (invite) {
    const link = inviteLink(session.room, invite);
    const a = $("#invite-link");
    if (a.getAttribute("href") !== link) {
      a.href = link;
      a.textContent = link;
      $("#invite-copied").textContent = "";
    }
    $("#invite-share").hidden = typeof navigator.share !== "function";
    if (table.qrFor !== link) drawQr(link);
  }
}

/** The invite link as a QR code (qr.js). */
async function drawQr(link) {
  table.qrFor = link;
  const drawn = await drawQrInto($("#invite-qr"), link, () => table.qrFor === link);
  if (!drawn && table.qrFor === link) table.qrFor = null; // the link itself is still there
}

async function creatorAction(path, body, button) {
  const session = app.session;
  if (!session) return;
  if (button) button.disabled = true;
  hideError();
  try {
    const res = await postJSON(`api/tables/${encodeURIComponent(session.room)}/${path}`, body ?? {}, session.token);
    const answer = await res.json().catch(() => null);
    if (!res.ok) throw new Error(errorDetail(answer) || `HTTP ${res.status}`);
    if (answer && answer.room === session.room) {
      table.info = { ...table.info, ...answer, invite: answer.invite ?? table.info?.invite };
      if (answer.status === "waiting") table.seats = answer.seats;
    }
    renderWaiting();
  } catch (err) {
    showError(err instanceof TypeError ? t("page.err.network") : t("page.friends.err_action", { message: err.message }));
  } finally {
    if (button) button.disabled = false;
  }
}

async function copyInvite() {
  const a = $("#invite-link");
  const link = a.getAttribute("href");
  try {
    await navigator.clipboard.writeText(link);
    $("#invite-copied").textContent = t("page.friends.copied");
  } catch {
    const range = document.createRange();
    range.selectNodeContents(a);
    const selection = window.getSelection();
    selection.removeAllRanges();
    selection.addRange(range);
    $("#invite-copied").textContent = t("page.friends.copy_select");
  }
}

function shareInvite() {
  const link = $("#invite-link").getAttribute("href");
  navigator.share?.({ title: "Cuarenta", text: t("page.friends.share_text"), url: link }).catch(() => {});
}

// -- the join page -----------------------------------------------------------------------------------------
const joining = { room: null, invite: null, info: null };

/** `#join=ROOM.INVITE` → the join page; returns whether the fragment was one. */
export function routeHash() {
  const hash = location.hash;
  if (!hash.startsWith("#join=")) return false;
  const code = decodeURIComponent(hash.slice("#join=".length));
  const dot = code.lastIndexOf(".");
  showJoin(dot > 0 ? code.slice(0, dot) : code, dot > 0 ? code.slice(dot + 1) : "");
  return true;
}

function forgetHash() {
  history.replaceState(null, "", location.pathname + location.search);
}

function joinProblem(text, watchRoom) {
  const p = $("#join-problem");
  p.textContent = text;
  p.hidden = !text;
  const watch = $("#join-watch");
  watch.hidden = !watchRoom;
  if (watchRoom) watch.href = watchHref(watchRoom);
  if (text) $("#join-form").hidden = true;
}

async function showJoin(room, invite) {
  hideError();
  if (app.session && app.session.room === room && app.session.token) {
    // this browser already holds a seat at that table
    forgetHash();
    if (waiting() || app.conn) showScreen(waiting() ? "wait" : "table");
    else enterTable({ ...app.session, table: true });
    return;
  }
  joining.room = room;
  joining.invite = invite;
  joining.info = null;
  hideReclaim();
  showScreen("join");
  $("#join-host").textContent = "";
  $("#join-rules").textContent = "";
  $("#join-seats").replaceChildren();
  $("#join-form").hidden = true;
  joinProblem("", null);
  if (!room || !invite) {
    joinProblem(t("page.friends.bad_invite"), null);
    return;
  }
  let info;
  try {
    const res = await request(`api/tables/${encodeURIComponent(room)}`);
    if (res.status === 404 || res.status === 400) {
      joinProblem(t("page.friends.unknown"), null);
      return;
    }
    if (!res.ok) throw new Error(String(res.status));
    info = await res.json();
  } catch {
    joinProblem(t("page.err.network"), null);
    return;
  }
  if (joining.room !== room) return;
  joining.info = info;
  renderJoin();
}

function renderJoin() {
  const info = joining.info;
  if (!info) return;
  const host = hostName(info.seats, info.creator);
  $("#join-host").textContent = host ? t("page.friends.host", { name: host }) : "";
  $("#join-rules").textContent = rulesText(info.rules, info.players);
  $("#join-seats").replaceChildren(...seatItems(info.seats, null, info.players));
  const open = info.seats.filter((s) => s.kind === "open");
  const vacant = info.status === "waiting" ? [] : info.seats.filter((s) => s.vacant);
  $("#join-vacant")?.remove();
  if (info.status !== "waiting" || !open.length) {
    // started or full: a person who had a seat takes it back with their code (seatback.js) ...
    renderReclaim($("#join-actions"), joining, (session) => {
      forgetHash();
      joining.room = null;
      enterTable(session);
    });
    if (!vacant.length) {
      joinProblem(t("page.reclaim.otherwise"), info.room); // after the way back: for someone new
      return;
    }
    // ... and someone new takes a seat the creator handed over, by its former holder's name
    joinProblem("", null);
    const before = document.querySelector('input[name="join-vacant"]:checked')?.value;
    $("#join-team-field").hidden = true;
    $("#join-teams").replaceChildren();
    $("#join-team-field").before(
      el(
        "fieldset",
        { class: "field choices", id: "join-vacant" },
        el("legend", { text: t("page.reclaim.vacant_title") }),
        el(
          "div",
          { class: "choice-row" },
          vacant.map((s, i) =>
            el(
              "label",
              { class: "choice" },
              el("input", { type: "radio", name: "join-vacant", value: String(s.seat), "data-testid": `join-vacant-${s.seat}`, checked: (before ? before === String(s.seat) : i === 0) || undefined }),
              el("span", { class: "choice-main", text: t("page.reclaim.vacant_seat", { name: s.name ?? "" }) }),
            ),
          ),
        ),
      ),
    );
    const name = $("#join-name");
    if (!name.value) name.value = load(KEYS.name, false) ?? "";
    $("#join-form").hidden = false;
    return;
  }
  hideReclaim();
  const name = $("#join-name");
  if (!name.value) name.value = load(KEYS.name, false) ?? "";
  if (Number.isInteger(app.options?.name_max_chars)) name.maxLength = app.options.name_max_chars;
  const teams = [0, 1].filter((team) => open.some((s) => s.team === team));
  const field = $("#join-team-field");
  field.hidden = info.players !== 4 || teams.length < 2;
  const before = document.querySelector('input[name="join-team"]:checked')?.value;
  $("#join-teams").replaceChildren(
    ...(field.hidden
      ? []
      : teams.map((team) =>
          el(
            "label",
            { class: "choice" },
            el("input", { type: "radio", name: "join-team", value: String(team), "data-testid": `join-team-${team}`, checked: (before ? before === String(team) : team === teams[0]) || undefined }),
            el("span", { class: "choice-main", text: team === 0 ? t("page.friends.team_host", { name: host }) : t("page.friends.team_other") }),
          ),
        )),
  );
  $("#join-form").hidden = false;
}

async function submitJoin(event) {
  event.preventDefault();
  const { room, invite, info } = joining;
  if (!room || !info) return;
  const name = $("#join-name").value.trim();
  if (!name) {
    showError(t("page.friends.name_needed"));
    $("#join-name").focus();
    return;
  }
  const body = { invite, name };
  const team = document.querySelector('input[name="join-team"]:checked');
  if (team && !$("#join-team-field").hidden) body.team = Number(team.value);
  const vacant = document.querySelector('#join-vacant input[name="join-vacant"]:checked');
  if (vacant) body.seat = Number(vacant.value); // a seat handed over in the middle of the game
  const button = $("#join-submit");
  button.disabled = true;
  hideError();
  try {
    if (info.rated) body.profile = await ensureProfile(name);
    const res = await postJSON(`api/tables/${encodeURIComponent(room)}/join`, body);
    const answer = await res.json().catch(() => null);
    if (res.status === 403) {
      joinProblem(t("page.friends.bad_invite"), null);
      return;
    }
    if (answer?.code === "name_taken") {
      showError(t("page.friends.name_taken")); // a handed-over seat taken mid-game: another name, please
      return;
    }
    if (res.status === 409) {
      joinProblem(t("page.friends.full"), room);
      return;
    }
    if (!res.ok) throw new Error(errorDetail(answer) || `HTTP ${res.status}`);
    store(KEYS.name, name);
    if (!$("#player-name").value) $("#player-name").value = name;
    const session = { room: answer.room, token: answer.token, seat: answer.seat, table: true, code: answer.code ?? undefined };
    rememberGame(session, { players: info.players });
    forgetHash();
    joining.room = null;
    enterTable(session);
  } catch (err) {
    showError(err instanceof TypeError ? t("page.err.network") : t("page.friends.err_join", { message: err.message }));
  } finally {
    button.disabled = false;
  }
}

// -- the lobby ---------------------------------------------------------------------------------------------
export async function loadLobby() {
  let tables = [];
  try {
    const res = await request("api/lobby");
    if (res.ok) tables = (await res.json()).tables ?? [];
  } catch {
    /* no list this time */
  }
  $("#lobby-list").replaceChildren(
    ...tables.map((tb) =>
      el(
        "li",
        { class: "lobby-table", "data-testid": "lobby-table", "data-room": tb.room },
        el("span", { class: "choice-main", text: t("page.friends.host", { name: tb.host ?? "" }) }),
        el("span", { class: "choice-sub", text: rulesText(tb.rules, tb.players) }),
        el("span", { class: "choice-sub", text: t("page.friends.lobby_open", { n: tb.open }) }),
        el("a", { class: "btn btn-secondary", "data-testid": "lobby-sit", href: `#join=${tb.room}.${tb.invite}`, text: t("page.friends.sit") }),
      ),
    ),
  );
  $("#lobby-empty").hidden = tables.length > 0;
}

// -- wiring and language -------------------------------------------------------------------------------------
export function wireFriends() {
  addMessageHook(onMessage);
  $("#invite-copy").addEventListener("click", copyInvite);
  $("#invite-share").addEventListener("click", shareInvite);
  $("#table-start").addEventListener("click", () => creatorAction("start", {}, $("#table-start")));
  $("#join-form").addEventListener("submit", submitJoin);
  $("#lobby-refresh").addEventListener("click", loadLobby);
  window.addEventListener("hashchange", routeHash);
}

/** After the language changed: the texts built here again. */
export function relabelFriends() {
  renderWaiting();
  renderJoin();
  if (app.screen === "new") loadLobby();
}
