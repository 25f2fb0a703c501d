// The Cuarenta page: new game form, the table, dialogs, history. It speaks protocol version 1
// (docs/protocol.md): the server holds the game and the rules; this page only shows what its seat
// may see and sends the moves the server listed as legal. The server also says what each legal move
// does (caída, limpia), which sayings fit each event, and offers the rule options with their labels;
// every text comes from the catalogue it serves (i18n.js). localStorage keeps the language, the
// Ayudas switch, the player's name and {room, token, seat} of the games — never a card. Tokens travel
// in an Authorization header or a request body, never in a URL.

import { cardBackSVG, cardElement, cardFaceSVG, cardText, scoreMarkSVG } from "./cards.js";
import * as I from "./i18n.js";
import * as Settings from "./settings.js";
import * as S from "./sequence.js";
import { showHistory } from "./history.js";
import * as Bubble from "./announce.js";

const { t, pick } = I;
const PROTOCOL = 1;
const KEYS = {
  session: "cuarenta.session",
  games: "cuarenta.games",
  ayudas: "cuarenta.ayudas",
  name: "cuarenta.name",
  form: "cuarenta.form",
};
const ANNOUNCED = new Set([
  "ronda", "four_of_a_kind", "caida", "limpia", "caida_limpia", "caida_ronda", "claim",
  "chica_won", "zapatero", "mesa_won",
]);

const $ = (sel, root = document) => root.querySelector(sel);
const el = (tag, props = {}, ...children) => {
  const node = document.createElement(tag);
  for (const [k, v] of Object.entries(props)) {
    if (v === undefined || v === null || v === false) continue;
    if (k === "class") node.className = v;
    else if (k === "text") node.textContent = v;
    else if (k === "html") node.innerHTML = v;
    else if (k.startsWith("on")) node.addEventListener(k.slice(2), v);
    else if (k === "dataset") Object.assign(node.dataset, v);
    else node.setAttribute(k, v === true ? "" : v);
  }
  for (const c of children.flat()) if (c !== null && c !== undefined && c !== false) node.append(c);
  return node;
};
const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));
const reducedMotion = window.matchMedia("(prefers-reduced-motion: reduce)");

function store(key, value) {
  try {
    if (value === null || value === undefined) localStorage.removeItem(key);
    else localStorage.setItem(key, typeof value === "string" ? value : JSON.stringify(value));
  } catch {
    /* storage full or disabled: the page still works for this visit */
  }
}
function load(key, parse = true) {
  try {
    const raw = localStorage.getItem(key);
    if (raw === null) return null;
    return parse ? JSON.parse(raw) : raw;
  } catch {
    return null;
  }
}

// -- the page's state ---------------------------------------------------------------------------
const app = {
  options: null, // GET api/options, as the server sent it
  screen: "new",
  session: load(KEYS.session), // {room, token, seat}
  conn: null,
  connected: false,
  msg: null, // the last `state` message shown
  queue: [], // `state` messages not yet shown
  busy: false,
  joinPending: true, // the next state is the answer to a join: show it without animations
  pending: false, // a move was sent and no answer came yet
  ayudas: load(KEYS.ayudas, false) === "1",
  focusIndex: 0,
  announceQueue: [],
  announcing: false,
  drawShownFor: null,
};

// -- options for the new-game form (all of it from GET api/options) ----------------------------
function presetOf(name) {
  return app.options.presets.find((p) => p.name === name) ?? null;
}

/** Every option's value for a preset (its own values over the defaults). */
function presetValues(preset) {
  const values = {};
  for (const o of app.options.options) values[o.name] = o.default;
  if (preset) Object.assign(values, preset.options);
  return values;
}

/** The label of one value of an option: the server's label of that choice, or the option's label of other values. */
function choiceLabel(option, value) {
  const i = option.choices.findIndex((c) => c === value);
  if (i >= 0) return pick(option.choice_labels)?.[i] ?? String(value);
  const other = pick(option.other_label);
  return other && typeof value === "number" ? I.fill(other, { n: value }) : String(value);
}

const form = {
  players: () => Number(document.querySelector('input[name="players"]:checked')?.value ?? 2),
  level: () => document.querySelector('input[name="level"]:checked')?.value ?? "facil",
  preset: () => $("#preset").value,
};

function buildLevelChoices() {
  const box = $("#level-choices");
  const chosen = box.querySelector("input:checked")?.value ?? load(KEYS.form)?.level ?? app.options.default_level;
  const labels = app.options.level_labels ?? {};
  box.replaceChildren(
    ...app.options.levels.map((level) =>
      el(
        "label",
        { class: "choice" },
        el("input", {
          type: "radio",
          name: "level",
          value: level,
          "data-testid": `level-${level}`,
          checked: level === chosen || undefined,
        }),
        el("span", { class: "choice-main", text: pick(labels[level]?.label, level) }),
        labels[level]?.about ? el("span", { class: "choice-sub", text: pick(labels[level].about) }) : null,
      ),
    ),
  );
  if (!box.querySelector("input:checked")) box.querySelector("input")?.setAttribute("checked", "");
  const first = box.querySelector("input:checked") ?? box.querySelector("input");
  if (first) first.checked = true;
}

function buildPresetSelect() {
  const select = $("#preset");
  const players = form.players();
  const quick = presetOf(app.options.quick_preset);
  const newcomer = quick && quick.players.includes(players) ? quick.name : app.options.default_preset;
  const previous = select.value || load(KEYS.form)?.preset || newcomer;
  const opts = app.options.presets.map((p) => {
    const allowed = p.players.includes(players);
    let label = pick(p.label, p.name);
    if (!allowed) label += ` (${t(p.players.includes(2) ? "preset.only_2" : "preset.only_4")})`;
    return el("option", { value: p.name, disabled: !allowed || undefined, text: label });
  });
  opts.push(el("option", { value: "custom", text: pick(app.options.custom?.label, "custom") }));
  select.replaceChildren(...opts);
  const wanted = presetOf(previous);
  if (previous === "custom") select.value = "custom";
  else if (wanted && wanted.players.includes(players)) select.value = previous;
  else select.value = app.options.presets.find((p) => p.players.includes(players))?.name ?? "custom";
  updatePresetDescription();
}

/** The first choice of the form: a quick game (the server's `quick_preset`) or the full rules (its
 * `default_preset`); both only set the preset, which stays the one source of the rules. */
function buildModeChoices() {
  const box = $("#mode-choices");
  const quick = presetOf(app.options.quick_preset);
  const full = presetOf(app.options.default_preset);
  $("#mode-field").hidden = !quick || !full;
  if (!quick || !full) return box.replaceChildren();
  const players = form.players();
  const only = (p) => (p.players.includes(players) ? "" : ` (${t(p.players.includes(2) ? "preset.only_2" : "preset.only_4")})`);
  const choice = (mode, preset, main, sub) =>
    el(
      "label",
      { class: "choice" },
      el("input", {
        type: "radio",
        name: "mode",
        value: preset.name,
        "data-testid": `mode-${mode}`,
        disabled: !preset.players.includes(players) || undefined,
      }),
      el("span", { class: "choice-main", text: main }),
      el("span", { class: "choice-sub", text: sub + only(preset) }),
    );
  box.replaceChildren(
    choice("quick", quick, t("page.quick_game"), t("page.quick_game_sub")),
    choice("full", full, t("page.full_rules"), pick(full.label, full.name)),
  );
  updateMode();
}

/** Check the first choice that matches the preset (none when another preset is chosen). */
function updateMode() {
  const preset = $("#preset").value;
  for (const input of document.querySelectorAll('input[name="mode"]')) input.checked = input.value === preset;
}

function onModeChanged(event) {
  const select = $("#preset");
  if (!event.target.checked || select.value === event.target.value) return;
  select.value = event.target.value;
  onPresetChanged();
}

function updatePresetDescription() {
  const name = $("#preset").value;
  updateMode();
  const about = name === "custom" ? app.options.custom?.about : presetOf(name)?.about;
  $("#preset-desc").textContent = pick(about);
}

function buildOptionsTable(values) {
  const table = $("#options-table");
  const current = values ?? readOptionsTable();
  table.replaceChildren(
    ...app.options.options.map((o) => {
      const id = `opt-${o.name}`;
      const choices = [...o.choices];
      if (current && o.name in current && !choices.some((c) => c === current[o.name])) choices.push(current[o.name]);
      const select = el(
        "select",
        { id, name: o.name, "data-testid": id, "data-option": o.name },
        choices.map((c) => el("option", { value: JSON.stringify(c), text: choiceLabel(o, c) })),
      );
      const value = current && o.name in current ? current[o.name] : o.default;
      select.value = JSON.stringify(value ?? null);
      return el("div", { class: "option-row" }, el("label", { for: id, text: pick(o.label, o.name) }), select);
    }),
  );
}

function readOptionsTable() {
  const selects = document.querySelectorAll("#options-table select");
  if (!selects.length) return null;
  const out = {};
  for (const s of selects) out[s.dataset.option] = JSON.parse(s.value);
  return out;
}

function sameValues(a, b) {
  return Object.keys(a).every((k) => a[k] === b[k]);
}

/** After an option changed by hand: the preset these values equal, else "custom". */
function matchPreset() {
  const values = readOptionsTable();
  const players = form.players();
  const found = app.options.presets.find((p) => p.players.includes(players) && sameValues(values, presetValues(p)));
  $("#preset").value = found ? found.name : "custom";
  updatePresetDescription();
}

function onPresetChanged() {
  const name = form.preset();
  if (name !== "custom") buildOptionsTable(presetValues(presetOf(name)));
  updatePresetDescription();
}

function onPlayersChanged() {
  if (!app.options) return;
  const before = form.preset();
  buildPresetSelect();
  buildModeChoices();
  if (form.preset() !== before) onPresetChanged();
}

function buildForm() {
  const ready = Boolean(app.options);
  $("#options-error").hidden = ready;
  $("#start-game").disabled = !ready;
  $("#form-fields").hidden = !ready;
  if (!ready) {
    $("#mode-field").hidden = true;
    return;
  }
  // the name's length limit is the server's
  if (Number.isInteger(app.options.name_max_chars)) $("#player-name").maxLength = app.options.name_max_chars;
  buildLevelChoices();
  buildPresetSelect();
  buildModeChoices();
  const name = form.preset();
  buildOptionsTable(
    name === "custom" ? readOptionsTable() ?? load(KEYS.form)?.rules ?? presetValues(null) : presetValues(presetOf(name)),
  );
}

/** GET api/options; without it the form cannot be offered (the page keeps no copy of the rules). */
async function loadOptions() {
  try {
    const res = await fetch("api/options");
    if (!res.ok) throw new Error(String(res.status));
    const data = await res.json();
    if (!Array.isArray(data.options) || !Array.isArray(data.presets) || !data.presets.length) {
      throw new Error("the options are not in the expected form");
    }
    app.options = data;
  } catch {
    app.options = null;
  }
  buildForm();
}

function restoreForm() {
  const saved = load(KEYS.form);
  const name = load(KEYS.name, false);
  if (name) $("#player-name").value = name;
  if (saved && (saved.players === 2 || saved.players === 4)) {
    const input = document.querySelector(`input[name="players"][value="${saved.players}"]`);
    if (input) input.checked = true;
  }
}

/** Whether this browser has a game whose mesa is not finished (not known yet counts as unfinished). */
function gameUnfinished() {
  if (!app.session) return false;
  const msg = app.msg;
  return !(msg && msg.room === app.session.room && msg.status === "finished");
}

function startGame(event) {
  event.preventDefault();
  if (!app.options) return;
  if (gameUnfinished()) {
    $("#confirm-new").showModal();
    return;
  }
  createGame();
}

async function createGame() {
  const button = $("#start-game");
  const players = form.players();
  const level = form.level();
  const preset = form.preset();
  const typed = $("#player-name").value.trim();
  // an empty name stays empty: the page shows the catalogue's default name in its current language
  const name = typed;
  const rules = preset === "custom" ? { preset: "custom", players, ...readOptionsTable() } : { preset, players };
  store(KEYS.name, typed || null);
  store(KEYS.form, { players, level, preset, rules: preset === "custom" ? readOptionsTable() : null });
  button.disabled = true;
  button.setAttribute("aria-busy", "true");
  hideError();
  try {
    const res = await fetch("api/rooms", {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify({ players, level, rules, name }),
    });
    const body = await res.json().catch(() => null);
    if (!res.ok) throw new Error(errorDetail(body) || `HTTP ${res.status}`);
    const session = { room: body.room, token: body.token, seat: body.seat ?? 0 };
    rememberGame(session, { players, level });
    openSession(session);
  } catch (err) {
    showError(err instanceof TypeError ? t("page.err.network") : t("page.err.create", { message: err.message }));
  } finally {
    button.disabled = false;
    button.removeAttribute("aria-busy");
  }
}

function errorDetail(body) {
  if (!body) return "";
  const d = body.detail ?? body.message ?? body.error;
  if (typeof d === "string") return d;
  if (Array.isArray(d)) return d.map((x) => x.msg ?? JSON.stringify(x)).join("; ");
  return d ? JSON.stringify(d) : "";
}

function rememberGame(session, extra) {
  store(KEYS.session, session);
  app.session = session;
  const games = (load(KEYS.games) ?? []).filter((g) => g.room !== session.room);
  games.unshift({ ...session, ...extra, started: new Date().toISOString() });
  store(KEYS.games, games.slice(0, 100));
}

/** Go on with one of this browser's games (from History): it becomes the saved session. */
function resumeGame(room) {
  const game = (load(KEYS.games) ?? []).find((g) => g.room === room && g.token);
  if (!game) return;
  if (app.session && app.session.room === room && app.conn) {
    showScreen("table");
    return;
  }
  const session = { room: game.room, token: game.token, seat: game.seat ?? 0 };
  store(KEYS.session, session);
  openSession(session);
}

function forgetSession() {
  store(KEYS.session, null);
  app.session = null;
  if (app.conn) app.conn.close();
  app.conn = null;
  app.msg = null;
  app.queue = [];
  updateNav();
}

// -- the connection -----------------------------------------------------------------------------
class Connection {
  constructor(session, onMessage, onState) {
    this.session = session;
    this.onMessage = onMessage;
    this.onState = onState;
    this.closed = false;
    this.retry = 0;
    this.ws = null;
    this.timer = null;
    this.pinger = null;
    this.connect();
  }

  connect() {
    const scheme = location.protocol === "https:" ? "wss" : "ws";
    const base = location.pathname.replace(/[^/]*$/, "");
    let ws;
    try {
      ws = new WebSocket(`${scheme}://${location.host}${base}ws`);
    } catch {
      this.scheduleReconnect();
      return;
    }
    this.ws = ws;
    ws.addEventListener("open", () => {
      this.retry = 0;
      this.onState("open");
      this.send({ type: "join", room: this.session.room, token: this.session.token, pace: Settings.pace() });
      this.pinger = setInterval(() => this.send({ type: "ping" }), 25000);
    });
    ws.addEventListener("message", (ev) => {
      let msg;
      try {
        msg = JSON.parse(ev.data);
      } catch {
        return;
      }
      this.onMessage(msg);
    });
    ws.addEventListener("close", () => {
      clearInterval(this.pinger);
      if (this.ws !== ws) return;
      this.ws = null;
      if (!this.closed) {
        this.scheduleReconnect();
        this.onState("lost");
      }
    });
  }

  scheduleReconnect() {
    if (this.closed) return;
    const delay = Math.min(10000, 500 * 2 ** this.retry);
    this.retry += 1;
    clearTimeout(this.timer);
    this.timer = setTimeout(() => this.connect(), delay);
  }

  send(obj) {
    if (!this.ws || this.ws.readyState !== WebSocket.OPEN) return false;
    if (obj.type === "join") app.joinPending = true;
    this.ws.send(JSON.stringify({ v: PROTOCOL, ...obj }));
    return true;
  }

  close() {
    this.closed = true;
    clearTimeout(this.timer);
    clearInterval(this.pinger);
    if (this.ws) this.ws.close();
    this.ws = null;
  }
}

function openSession(session) {
  if (app.conn) app.conn.close();
  app.session = session;
  app.msg = null;
  app.queue = [];
  app.pending = false;
  app.connected = false;
  app.drawShownFor = null;
  $("#result").hidden = true;
  $("#draw-panel").hidden = true;
  Bubble.hide();
  clearTable();
  showScreen("table");
  updateStatus();
  app.conn = new Connection(session, onMessage, (what) => {
    app.connected = what === "open";
    updateStatus();
    renderHand(); // the cards are disabled while the socket is down
  });
}

function onMessage(msg) {
  if (!msg || typeof msg !== "object") return;
  if (msg.type === "state") {
    app.queue.push(msg);
    pump();
  } else if (msg.type === "error") {
    onServerError(msg);
  } else if (msg.type === "pace") {
    Settings.onServerPace(msg);
  }
}

function onServerError(msg) {
  app.pending = false;
  const code = msg.code ?? "";
  const message = msg.message ?? "";
  if (code === "unknown_room" || code === "bad_token" || code === "corrupt_room") {
    forgetSession();
    showScreen("new");
    showError(t(`page.err.${code}`, { message }));
    return;
  }
  if (code === "not_joined" && app.conn) {
    app.conn.send({ type: "join", room: app.session.room, token: app.session.token, pace: Settings.pace() });
  }
  let text;
  if (code === "illegal_move") text = t("move.illegal", { reason: I.errorText(msg.reason) ?? message });
  else if (I.hasKey(`page.err.${code}`)) text = t(`page.err.${code}`, { message });
  else text = t("page.err.generic", { message: message || code });
  showError(text, code);
  updateStatus();
  renderHand();
}

// -- showing state messages one by one ----------------------------------------------------------
async function pump() {
  if (app.busy) return;
  app.busy = true;
  updateReady();
  try {
    while (app.queue.length) {
      const msg = app.queue.shift();
      try {
        await showState(msg);
      } catch (err) {
        console.error(err); // a drawing problem must not stop the game
        app.msg = msg;
        renderAll();
      }
    }
  } finally {
    app.busy = false;
    updateReady();
  }
}

function isFresh(view) {
  return (
    view.hand_number === 0 &&
    view.deal_number === 0 &&
    !(view.history || []).some((e) => e.kind === "play") &&
    !(view.chica_results || []).length &&
    view.scores.every((s) => s === 0)
  );
}

async function showState(msg) {
  const prev = app.msg;
  const first = app.joinPending || !prev || prev.room !== msg.room;
  app.joinPending = false;
  const newMesa =
    prev && ((msg.mesa !== undefined && msg.mesa !== prev.mesa) || (prev.status === "finished" && msg.status === "playing"));
  if (!first && !newMesa) {
    // a hand or a chica ends in this message: its end first (over its own table), then the next deal
    const all = msg.events || [];
    const cut = S.endCut(all);
    if (cut >= 0 && !all.slice(0, cut).some((e) => e.kind === "deal")) {
      await showEnding(msg, prev, all.slice(0, cut));
      if (msg.status !== "finished") await showState({ ...msg, events: all.slice(cut) });
      return;
    }
  }
  const rects = first || newMesa ? null : snapshot();
  if (!first && !newMesa) hideError(["stale", "illegal_move", "not_your_turn"]);
  app.msg = msg;
  app.pending = false;
  const events = msg.events || [];
  let narrated;
  if (!(first || newMesa)) narrated = narrate(events);
  else if (isFresh(msg.view)) {
    // a new mesa: announce its first rondas (the draw is shown on the felt)
    narrated = narrate(events).filter((l) => ["ronda", "four_of_a_kind"].includes(l.event.kind));
  } else narrated = [];
  renderAll({ dealt: events.some((e) => e.kind === "deal") && !first });
  if (msg.status !== "finished") $("#result").hidden = true;
  if ((first || newMesa) && isFresh(msg.view)) showDraw(msg, events);
  else if (msg.view.hand_number > 0 || msg.view.deal_number > 0) $("#draw-panel").hidden = true;
  if (rects) {
    S.beginSkippable();
    await animate(msg, prev, rects);
    S.endSkip();
  }
  if (!(first || newMesa)) Settings.onEvents(events);
  for (const line of narrated) if (ANNOUNCED.has(line.event.kind) || line.sayings.length) announce(line);
  const handEnd = events.find((e) => e.kind === "hand_end");
  const chicaWon = events.find((e) => e.kind === "chica_won");
  if (!first && msg.status !== "finished" && (handEnd || chicaWon)) await showSummary(events, prev, msg);
  if (msg.status === "finished") {
    app.lastHandView = first ? null : prev?.view ?? null;
    app.finalEvents = first ? null : events;
    showResult(msg, first);
  }
}

/**
 * The end of a hand or of a chica (`head`: the message's events up to it): the last move on the table
 * as it left it, its announcement, then the summary (or the mesa's result) over that final table.
 * The next deal (the rest of the message) is drawn by the caller only after the summary is closed.
 */
async function showEnding(msg, prev, head) {
  const rects = snapshot();
  hideError(["stale", "illegal_move", "not_your_turn"]);
  const finished = msg.status === "finished";
  const ended = S.endView(prev.view, head);
  if (head.some((e) => e.kind === "chica_won")) {
    ended.chicas = msg.view.chicas;
    ended.chica_results = msg.view.chica_results;
  }
  // the mesa's last message keeps its own view (the result reads it), with the table it ended on
  const shown = finished
    ? { ...msg, events: head, view: { ...msg.view, table: ended.table, last_drop: ended.last_drop, pile_sizes: ended.pile_sizes } }
    : { ...msg, events: head, view: ended, legal: [], moves: [], hints: [], status: "playing" };
  app.msg = shown;
  app.pending = false;
  app.announceQueue.length = 0; // older announcements give way to the end
  Bubble.hide();
  renderAll();
  if (!finished) $("#result").hidden = true;
  $("#draw-panel").hidden = true;
  S.beginSkippable();
  await animate(shown, prev, rects);
  Settings.onEvents(head);
  const lines = narrate(head).filter(
    (l) => !S.ENDING_KINDS.has(l.event.kind) && (ANNOUNCED.has(l.event.kind) || l.sayings.length),
  );
  for (const line of lines) announce(line);
  // time to see the last move and read its announcement; a click or a key goes on at once
  await S.until(() => !app.announceQueue.length, 5000);
  await S.pause(lines.length ? 1400 : 700);
  S.endSkip();
  app.announceQueue.length = 0;
  Bubble.hide();
  if (finished) {
    app.lastHandView = prev.view;
    app.finalEvents = msg.events || [];
    showResult(shown, false);
  } else await showSummary(head, prev, shown);
}

// -- names --------------------------------------------------------------------------------------
function view() {
  return app.msg?.view;
}
function mySeat() {
  return app.msg?.seat ?? app.msg?.view?.seat ?? app.session?.seat ?? 0;
}
function players() {
  return view()?.players ?? 2;
}
function seatInfo(seat) {
  return (app.msg?.seats || []).find((s) => s.seat === seat) ?? null;
}
function seatName(seat) {
  const info = seatInfo(seat);
  const n = players();
  if (info && info.kind === "person" && info.name) return info.name;
  if (info && info.kind === "person" && seat === mySeat()) return t("page.name_placeholder");
  if (seat === mySeat()) return t("page.you");
  if (info && info.kind === "person") return t("name.seat", { n: seat + 1 });
  if (n === 2) return t("page.computer");
  const rel = (seat - mySeat() + 4) % 4;
  return t(["page.you", "page.rival_right", "page.partner", "page.rival_left"][rel]);
}

function teamName(team) {
  if (players() === 2) return seatName(team);
  return team === mySeat() % 2 ? t("page.team_yours") : t("page.team_rivals");
}

function names() {
  return { seat: seatName, team: teamName, players: players() };
}
function levelName(level) {
  return pick(app.options?.level_labels?.[level]?.label, String(level ?? ""));
}

function position(seat) {
  const n = players();
  const rel = (seat - mySeat() + n) % n;
  if (n === 2) return rel === 0 ? "bottom" : "top";
  return ["bottom", "right", "top", "left"][rel];
}
/** The seat whose panel shows a team's pile: mine for my team, the next seat for the other. */
function pileKeeper(team) {
  const me = mySeat();
  return team === me % 2 ? me : (me + 1) % players();
}
function isMyTurn() {
  const msg = app.msg;
  return Boolean(msg && msg.status !== "finished" && msg.view.turn === mySeat() && (msg.legal || []).length);
}

// -- narration (the sayings' keys come with every event, chosen by the server) ------------------------
/** Events as lines: [{event, text, sayings (in words), keys}]. */
function narrate(events) {
  return events.map((e) => {
    const keys = Array.isArray(e.sayings) ? e.sayings : [];
    const sayings = keys.map((k) => I.sayingLine(k, I.sayingPoints(e))).filter(Boolean);
    return { event: e, text: I.describeEvent(e, names()), sayings, keys };
  });
}

/** Lines of the state message being shown, gathered: the best of them replaces the bubble (announce.js). */
function announce(line) {
  app.announceQueue.push({ ...line, state: app.msg?.state });
  if (!app.announcing) {
    app.announcing = true;
    queueMicrotask(runAnnouncements);
  }
}

function runAnnouncements() {
  app.announcing = false;
  Bubble.offer(app.announceQueue.splice(0), isMyTurn());
}

// -- drawing the table --------------------------------------------------------------------------
function clearTable() {
  for (const id of ["#table-cards", "#hand", "#teams", "#slot-top", "#slot-left", "#slot-right", "#my-info", "#log"]) {
    $(id).replaceChildren();
  }
  $("#meta").textContent = "";
  $("#claims").hidden = true;
  $("#rondas").hidden = true;
  $("#table-empty").hidden = true;
  $("#last-play").hidden = true;
}

function renderAll(opts = {}) {
  if (!app.msg) return;
  renderScoreboard();
  renderSeats();
  renderTable();
  renderHand(opts);
  renderClaims();
  renderLog();
  updateStatus();
  updateNav();
}

function marksFor(points) {
  const [perros, tantos] = I.tantosPerros(points);
  const wrap = el("span", { class: "marks", role: "img", "aria-label": I.pointsWords(points) });
  wrap.innerHTML = scoreMarkSVG("perro").repeat(perros) + scoreMarkSVG("tanto").repeat(tantos);
  return wrap;
}

function renderScoreboard() {
  const v = view();
  const need = v.rules?.chicas ?? 2;
  const teams = [0, 1].map((team) => {
    const chicas = v.chicas[team] ?? 0;
    const dots = el(
      "span",
      { class: "chica-dots", "aria-hidden": "true" },
      Array.from({ length: Math.max(need, chicas) }, (_, i) => el("span", { class: i < chicas ? "dot on" : "dot" })),
    );
    return el(
      "div",
      { class: `team${team === v.team ? " mine" : ""}`, "data-team": team, "data-testid": `team-${team}` },
      el("div", { class: "team-name", text: teamName(team) }),
      el(
        "div",
        { class: "score-line" },
        el("span", { class: "score-num", "data-testid": `score-${team}`, "aria-label": t("page.score_aria", { team: teamName(team), points: I.pointsWords(v.scores[team]) }), text: String(v.scores[team]) }),
        marksFor(v.scores[team]),
      ),
      el(
        "div",
        { class: "team-chicas" },
        el("span", { text: `${t("page.chicas_label")}: ` }),
        el("span", { class: "chica-count", "data-testid": `chicas-${team}`, text: String(chicas) }),
        dots,
      ),
    );
  });
  $("#teams").replaceChildren(...teams);
  const deals = 40 / (5 * v.players);
  $("#meta").replaceChildren(
    ...[
    app.msg.mesa > 1 ? el("span", { "data-testid": "mesa-number", text: t("page.mesa_label", { n: app.msg.mesa }) }) : null,
    el("span", { "data-testid": "hand-number", text: t("page.hand_label", { hand: v.hand_number + 1 }) }),
    el("span", { text: t("page.deal_label", { deal: Math.min(v.deal_number + 1, deals), deals }) }),
    el("span", { "data-testid": "stock-size", text: t("page.stock_label", { n: v.stock_size }) }),
    el("span", { text: t("page.target_label", { n: v.rules?.target ?? 40 }) }),
    ].filter(Boolean),
  );
}

function pileStack(team) {
  const n = view().pile_sizes[team] ?? 0;
  const stack = el("div", {
    class: "pile",
    "data-testid": `pile-${team}`,
    "data-team": team,
    "data-count": n,
    role: "img",
    "aria-label": `${t("page.pile_count", { n })} · ${t("page.pile_aria", { n })}`,
  });
  const layers = Math.min(4, Math.ceil(n / 6));
  const cards = el("span", { class: "pile-stack", "aria-hidden": "true" });
  for (let i = 0; i < Math.max(1, layers); i += 1) {
    const c = el("span", { class: n ? "pile-card" : "pile-card empty", html: n ? cardBackSVG() : "" });
    c.style.setProperty("--i", String(i));
    cards.append(c);
  }
  stack.append(cards);
  stack.append(el("span", { class: "pile-count", text: t("page.pile_count", { n }) }));
  return stack;
}

function renderSeats() {
  const v = view();
  const n = v.players;
  $("#board").dataset.players = String(n);
  const slots = { top: $("#slot-top"), left: $("#slot-left"), right: $("#slot-right") };
  for (const s of Object.values(slots)) s.replaceChildren();
  for (let seat = 0; seat < n; seat += 1) {
    if (seat === mySeat()) continue;
    const pos = position(seat);
    const info = seatInfo(seat);
    const count = v.hand_sizes[seat] ?? 0;
    const backs = el("div", {
      class: "backs",
      "data-testid": "seat-hand",
      "data-count": count,
      role: "img",
      "aria-label": count === 1 ? t("page.hand_count_1") : t("page.hand_count", { n: count }),
    });
    for (let i = 0; i < count; i += 1) backs.append(el("span", { class: "back", html: cardBackSVG() }));
    const partner = n === 4 && seat === (mySeat() + 2) % 4;
    const sub = info && info.kind === "computer" ? t("page.seat_computer_level", { level: levelName(info.level) }) : info?.kind === "person" ? t("page.seat_person") : "";
    const panel = el(
      "div",
      {
        class: `seat seat-${pos}${v.turn === seat ? " is-turn" : ""}${partner ? " partner" : ""}`,
        "data-testid": `seat-${seat}`,
        "data-seat": seat,
      },
      el(
        "div",
        { class: "seat-head" },
        el("span", { class: "seat-name", text: seatName(seat) }),
        v.dealer === seat ? el("span", { class: "chip dealer", title: t("page.dealer_aria"), text: t("page.dealer_tag") }) : null,
      ),
      sub ? el("div", { class: "seat-sub", text: partner ? `${t("page.seat_partner_tag")} · ${sub}` : sub }) : null,
      el("div", { class: "seat-cards" }, backs, pileKeeper(seat % 2) === seat ? pileStack(seat % 2) : null),
    );
    slots[pos].append(panel);
  }
  // my own corner: name, dealer, my team's pile
  const me = mySeat();
  $("#my-info").replaceChildren(
    el(
      "div",
      { class: `seat seat-bottom${v.turn === me ? " is-turn" : ""}`, "data-testid": `seat-${me}`, "data-seat": me },
      el(
        "div",
        { class: "seat-head" },
        el("span", { class: "seat-name", text: seatInfo(me)?.name || t("page.you") }),
        el("span", { class: "chip you", text: t("page.seat_you_tag") }),
        v.dealer === me ? el("span", { class: "chip dealer", title: t("page.dealer_aria"), text: t("page.dealer_tag") }) : null,
      ),
      pileStack(me % 2),
    ),
  );
}

function renderTable() {
  const v = view();
  const box = $("#table-cards");
  const claimable = new Set((v.claimable || []).flat());
  box.replaceChildren(
    ...v.table.map((code) => {
      const last = code === v.last_drop;
      const node = cardElement(code, { className: `card table-card${last ? " last-drop" : ""}${claimable.has(code) ? " claimable" : ""}` });
      node.setAttribute("role", "listitem");
      node.setAttribute("data-testid", "table-card");
      node.setAttribute("aria-label", last ? `${I.cardLabel(code)}, ${t("page.last_drop_aria")}` : I.cardLabel(code));
      if (last) {
        node.dataset.lastDrop = "1";
        node.append(el("span", { class: "badge badge-last", "aria-hidden": "true", text: t("page.last_drop_badge") }));
      }
      return node;
    }),
  );
  box.dataset.count = String(v.table.length);
  $("#table-empty").hidden = v.table.length > 0;
  renderLastPlay(v);
  const rondas = v.rondas || [];
  $("#rondas").hidden = !rondas.length;
  $("#rondas").textContent = rondas.length
    ? t("page.rondas_label", { list: rondas.map((r) => `${seatName(r.seat)} (${I.rankPlural(r.rank)})`).join(", ") })
    : "";
}

/** The hand's last play on the felt, in words and cards: the card played, then what it took. */
function renderLastPlay(v) {
  const box = $("#last-play");
  const play = [...(v.history || [])].reverse().find((e) => e.kind === "play");
  box.hidden = !play;
  if (!play) {
    box.replaceChildren();
    delete box.dataset.move;
    return;
  }
  const m = I.parseMove(play.move);
  const minis = el("span", { class: "mini-cards", "aria-hidden": "true" });
  for (const [i, c] of [m.card, ...m.base, ...m.run].entries()) {
    if (i === 1) minis.append(el("span", { class: "last-play-arrow" }));
    minis.append(cardElement(c, { tag: "span", className: "card mini" }));
  }
  box.dataset.move = play.move;
  box.dataset.seat = String(play.seat);
  box.replaceChildren(
    el("span", { class: "last-play-label", text: `${t("page.last_play")}: ` }),
    minis,
    el("span", { class: "last-play-text", text: I.describeEvent(play, names()) }),
  );
}

function movesForCard(code) {
  return (app.msg?.legal || []).filter((m) => !m.startsWith("claim") && I.parseMove(m).card === code);
}

/** What the server says the card's moves do (`moves` of the state message): some way makes a caída y
 * limpia, a caída, a limpia. */
function cardDoes(code) {
  const infos = (app.msg?.moves || []).filter((m) => !m.move.startsWith("claim") && I.parseMove(m.move).card === code);
  return {
    caidaLimpia: infos.some((m) => m.caida && m.limpia),
    caida: infos.some((m) => m.caida),
    limpia: infos.some((m) => m.limpia),
  };
}

function renderHand(opts = {}) {
  const v = view();
  if (!v) return;
  const hand = $("#hand");
  const online = app.connected;
  const myTurn = isMyTurn() && !app.pending && online;
  const hints = new Map((app.msg.hints || []).map((h) => [h.card, h]));
  if (app.focusIndex >= v.hand.length) app.focusIndex = Math.max(0, v.hand.length - 1);
  const hadFocus = hand.contains(document.activeElement);
  const buttons = v.hand.map((code, i) => {
    const playable = myTurn && movesForCard(code).length > 0;
    const b = el("button", {
      type: "button",
      class: online ? "card hand-card" : "card hand-card card-disabled",
      "data-testid": "hand-card",
      "data-card": code,
      "data-index": i + 1,
      tabindex: i === app.focusIndex ? "0" : "-1",
      "aria-disabled": playable ? "false" : "true",
    });
    b.innerHTML = cardFaceSVG(code);
    b.append(el("span", { class: "key-hint", "aria-hidden": "true", text: String(i + 1) }));
    const label = [I.cardLabel(code)];
    const h = hints.get(code);
    if (app.ayudas && h) {
      if (h.takes) {
        b.classList.add("hint-takes");
        b.dataset.hintTakes = "1";
        label.push(t("page.hint.takes_aria"));
      }
      const does = cardDoes(code);
      if (does.caidaLimpia) {
        // one way of playing it is caída y limpia (the server's `moves`): both, 4 points
        b.classList.add("hint-caida");
        b.dataset.hintCaida = "1";
        b.dataset.hintCaidaLimpia = "1";
        b.append(el("span", { class: "badge badge-caida", "aria-hidden": "true", text: t("page.hint.caida") }));
        b.append(el("span", { class: "badge badge-takes badge-also", "aria-hidden": "true", text: t("page.hint.caida_limpia") }));
        label.push(t("page.hint.caida_limpia_aria"));
      } else if (h.caida) {
        b.classList.add("hint-caida");
        b.dataset.hintCaida = "1";
        b.append(el("span", { class: "badge badge-caida", "aria-hidden": "true", text: t("page.hint.caida") }));
        label.push(t("page.hint.caida_aria"));
        // a caída one way and a limpia another way
        if (h.limpia) b.append(el("span", { class: "badge badge-takes badge-also", "aria-hidden": "true", text: t("page.hint.limpia") }));
      } else if (h.takes) {
        b.append(el("span", { class: "badge badge-takes", "aria-hidden": "true", text: h.limpia ? t("page.hint.limpia") : t("page.hint.takes") }));
      }
      if (h.limpia) {
        b.dataset.hintLimpia = "1";
        if (!does.caidaLimpia) label.push(t("page.hint.limpia_aria"));
      }
      if (h.warning) {
        b.classList.add("hint-warn");
        b.dataset.hintWarning = h.warning;
        const key = h.warning === "limpia" ? "limpia" : "caida";
        b.append(el("span", { class: "badge badge-warn", "aria-hidden": "true", text: t(`page.hint.warn_${key}`) }));
        label.push(t(`page.hint.warn_${key}_aria`));
      }
    }
    b.setAttribute("aria-label", label.join(". "));
    if (opts.dealt && !reducedMotion.matches) {
      b.classList.add("dealt");
      b.style.setProperty("--i", String(i));
    }
    b.addEventListener("click", () => onCardClick(code));
    b.addEventListener("focus", () => {
      app.focusIndex = i;
      for (const other of hand.children) other.tabIndex = other === b ? 0 : -1;
    });
    return b;
  });
  hand.replaceChildren(...buttons);
  hand.classList.toggle("my-turn", myTurn);
  hand.classList.toggle("offline", !online);
  if (hadFocus && buttons[app.focusIndex]) buttons[app.focusIndex].focus({ preventScroll: true });
  $("#ayudas-toggle").setAttribute("aria-pressed", String(app.ayudas));
}

function renderClaims() {
  const box = $("#claims");
  const claims = (app.msg?.legal || []).filter((m) => m.startsWith("claim"));
  if (!claims.length || !isMyTurn()) {
    box.hidden = true;
    box.replaceChildren();
    return;
  }
  const victim = (mySeat() + players() - 1) % players();
  box.hidden = false;
  box.replaceChildren(
    el("p", { class: "claims-title", text: t("claim.header", { victim: seatName(victim) }) }),
    el(
      "div",
      { class: "claims-buttons" },
      claims.map((m) => {
        const cards = I.parseMove(m).claim;
        return el("button", {
          type: "button",
          class: "btn btn-claim",
          "data-testid": "claim-option",
          "data-move": m,
          text: I.capitalize(t("claim.take", { cards: I.cardsText(cards) })),
          "aria-label": t("claim.take", { cards: cards.map(I.cardLabel).join(", ") }),
          onclick: () => sendMove(m),
        });
      }),
    ),
  );
}

function renderLog() {
  const v = view();
  const lines = narrate(v.history || []);
  const list = $("#log");
  list.replaceChildren(
    ...lines.map((l) =>
      el(
        "li",
        { class: `log-${l.event.kind}` },
        el("span", { class: "log-text", text: l.text }),
        l.sayings.length ? el("span", { class: "log-saying", text: ` ${l.sayings.join(" ")}` }) : null,
      ),
    ),
  );
  list.scrollTop = list.scrollHeight;
}

function updateStatus() {
  const status = $("#status");
  let text;
  if (!app.session) text = t("page.status.no_game");
  else if (!app.msg) text = app.connected ? t("page.status.connecting") : app.conn?.retry ? t("page.status.reconnecting") : t("page.status.connecting");
  else if (!app.connected && app.conn && app.conn.retry) text = t("page.status.reconnecting");
  else if (app.msg.status === "finished") text = t("page.status.finished");
  else if (app.pending) text = t("page.status.sending");
  else if (isMyTurn()) {
    const claims = (app.msg.legal || []).some((m) => m.startsWith("claim"));
    const keys = window.matchMedia("(hover: hover) and (min-width: 600px)").matches;
    text = claims ? t("page.status.your_turn_claim") : keys ? t("page.status.your_turn_keys") : t("page.status.your_turn");
  } else if (app.msg.view.turn !== null && app.msg.view.turn !== undefined) {
    text = t("page.status.turn_of", { name: seatName(app.msg.view.turn) });
  } else text = "";
  status.textContent = text;
  const lost = Boolean(app.session && app.conn && !app.connected && app.conn.retry);
  $("#reconnecting").hidden = !lost;
  $("#felt").classList.toggle("is-offline", lost);
  updateReady();
}

/** data-turn / data-ready on the table screen: what end-to-end tests wait for. */
function updateReady() {
  const screen = $("#screen-table");
  const msg = app.msg;
  let turn = "none";
  if (msg) turn = msg.status === "finished" ? "over" : isMyTurn() ? "me" : "other";
  screen.dataset.turn = turn;
  screen.dataset.state = msg ? String(msg.state) : "";
  screen.dataset.connection = app.connected ? "open" : "lost";
  const ready = Boolean(msg) && app.connected && !app.busy && !app.queue.length && !app.pending && turn === "me";
  screen.dataset.ready = ready ? "1" : "0";
  // the turn is back with the person: the newest announcement, at once
  if (turn === "me") Bubble.flush();
}

function updateNav() {
  $("#nav-table").hidden = !app.session;
  for (const [id, screen] of [["#nav-table", "table"], ["#nav-new", "new"], ["#nav-history", "history"]]) {
    if (app.screen === screen) $(id).setAttribute("aria-current", "page");
    else $(id).removeAttribute("aria-current");
  }
  $("#resume-game").hidden = !app.session || app.screen !== "new";
}

// -- playing ------------------------------------------------------------------------------------
function onCardClick(code) {
  if (!app.msg) return;
  if (app.pending) return;
  if (!app.connected) {
    flash(t("page.status.reconnecting"));
    return;
  }
  if (!isMyTurn()) {
    flash(t("page.err.not_your_turn"));
    return;
  }
  const moves = movesForCard(code);
  if (!moves.length) {
    flash(t("page.card_no_move"));
    return;
  }
  if (moves.length === 1) sendMove(moves[0]);
  else openChoice(code, orderOptions(moves));
}

function sendMove(move) {
  if (!app.conn || !app.msg) return;
  hideError();
  const ok = app.conn.send({ type: "move", move, state: app.msg.state });
  if (!ok) {
    showError(t("page.status.reconnecting"));
    return;
  }
  app.pending = true;
  $("#draw-panel").hidden = true;
  const dialog = $("#choice-dialog");
  if (dialog.open) dialog.close();
  renderHand();
  renderClaims();
  updateStatus();
}

function flash(text) {
  const status = $("#status");
  status.textContent = text;
  status.classList.remove("flash");
  void status.offsetWidth;
  status.classList.add("flash");
  setTimeout(updateStatus, 1800);
}

/** What a legal move does, as the server said (`moves` of the state message): {caida, limpia}. */
function moveInfo(move) {
  return (app.msg?.moves || []).find((m) => m.move === move) ?? { caida: false, limpia: false };
}

function describeOption(move, all) {
  const m = I.parseMove(move);
  const info = moveInfo(move);
  const tags = [];
  let text;
  if (!m.base.length) {
    text = t("move.drop", { card: cardText(m.card) });
    if (all.some((o) => I.parseMove(o).base.length)) tags.push(t("move.forgets"));
  } else {
    const base = m.base.map(cardText).join(" + ");
    text = m.run.length ? t("move.take_run", { base, run: I.cardsText(m.run) }) : t("move.take", { base });
    if (info.caida) tags.push(t("move.caida"));
    if (info.limpia) tags.push(t("move.limpia"));
    // a shorter escalera than another option with the same base (manual capture)
    const sameBase = all.map(I.parseMove).filter((o) => o.base.join("+") === m.base.join("+"));
    const longest = sameBase.reduce((a, b) => (b.run.length > a.run.length ? b : a), m);
    if (longest.run.length > m.run.length) tags.push(t("move.short", { cards: I.cardsText(longest.run.slice(m.run.length)) }));
  }
  return { text: I.capitalize(text), tags, taken: [...m.base, ...m.run] };
}

function orderOptions(moves) {
  const parsed = moves.map((m, i) => ({ m, i, p: I.parseMove(m) }));
  const bases = [...new Set(parsed.filter((x) => x.p.base.length).map((x) => x.p.base.join("+")))];
  const rank = (x) => (x.p.base.length ? bases.indexOf(x.p.base.join("+")) : bases.length);
  parsed.sort((a, b) => rank(a) - rank(b) || b.p.run.length - a.p.run.length || a.i - b.i);
  return parsed.map((x) => x.m);
}

function openChoice(code, moves) {
  const dialog = $("#choice-dialog");
  $("#choice-title").textContent = t("move.choose", { card: cardText(code) });
  const list = $("#choice-list");
  list.replaceChildren(
    ...moves.map((move) => {
      const d = describeOption(move, moves);
      const minis = el("span", { class: "mini-cards", "aria-hidden": "true" });
      for (const c of d.taken.length ? d.taken : [code]) minis.append(cardElement(c, { tag: "span", className: "card mini" }));
      const label = d.tags.length ? `${d.text} (${d.tags.join(", ")})` : d.text;
      return el(
        "button",
        {
          type: "button",
          class: "choice-option",
          "data-testid": "capture-option",
          "data-move": move,
          "aria-label": label,
          onclick: () => sendMove(move),
        },
        minis,
        el(
          "span",
          { class: "choice-words" },
          el("span", { class: "choice-text", text: d.text }),
          d.tags.length ? el("span", { class: "choice-tags", text: d.tags.join(" · ") }) : null,
        ),
      );
    }),
  );
  dialog.showModal();
  list.querySelector("button")?.focus();
}

// -- animations ---------------------------------------------------------------------------------
function snapshot() {
  const rects = { table: new Map(), hand: new Map(), seats: new Map(), piles: new Map() };
  for (const node of document.querySelectorAll("#table-cards .table-card")) rects.table.set(node.dataset.card, node.getBoundingClientRect());
  for (const node of document.querySelectorAll("#hand .hand-card")) rects.hand.set(node.dataset.card, node.getBoundingClientRect());
  for (const node of document.querySelectorAll(".seat[data-seat]")) {
    const backs = node.querySelector(".backs") ?? node;
    rects.seats.set(Number(node.dataset.seat), backs.getBoundingClientRect());
  }
  rects.felt = $("#felt").getBoundingClientRect();
  rects.handBox = $("#hand").getBoundingClientRect();
  return rects;
}

function visible(rect) {
  return rect && rect.width > 0 && rect.height > 0;
}

function ghost(code, rect, faceDown = false) {
  const g = cardElement(code, { className: "card ghost", faceDown });
  g.setAttribute("aria-hidden", "true");
  Object.assign(g.style, { left: `${rect.left}px`, top: `${rect.top}px`, width: `${rect.width}px`, height: `${rect.height}px` });
  document.body.append(g);
  g.getBoundingClientRect(); // start the transition from here
  return g;
}

function moveTo(node, from, to, scale = 1, extra = {}) {
  const dx = to.left + to.width / 2 - (from.left + from.width / 2);
  const dy = to.top + to.height / 2 - (from.top + from.height / 2);
  node.style.transform = `translate(${dx}px, ${dy}px) scale(${scale})`;
  Object.assign(node.style, extra);
}

async function animate(msg, prev, rects) {
  if (reducedMotion.matches) return;
  const events = msg.events || [];
  const plays = events.filter((e) => e.kind === "play" || e.kind === "claim");
  if (!plays.length) return;
  const pileRect = (team) => {
    const node = document.querySelector(`.pile[data-team="${team}"]`);
    return node ? node.getBoundingClientRect() : rects.felt;
  };
  // cards that stayed on the table slide to their new places
  for (const node of document.querySelectorAll("#table-cards .table-card")) {
    const before = rects.table.get(node.dataset.card);
    if (!before) continue;
    const after = node.getBoundingClientRect();
    if (Math.abs(before.left - after.left) < 1 && Math.abs(before.top - after.top) < 1) continue;
    node.style.transition = "none";
    node.style.transform = `translate(${before.left - after.left}px, ${before.top - after.top}px)`;
    node.getBoundingClientRect();
    node.style.transition = "";
    node.style.transform = "";
  }
  for (const e of plays) {
    const team = e.team ?? e.seat % 2;
    if (e.kind === "claim") {
      const ghosts = (e.cards || []).filter((c) => rects.table.has(c)).map((c) => [ghost(c, rects.table.get(c)), rects.table.get(c)]);
      if (!ghosts.length) continue;
      await S.pause(30);
      const to = pileRect(team);
      for (const [g, from] of ghosts) moveTo(g, from, to, 0.45, { opacity: "0.2" });
      await S.pause(520);
      for (const [g] of ghosts) g.remove();
      continue;
    }
    const m = I.parseMove(e.move);
    let origin = e.seat === mySeat() ? rects.hand.get(m.card) : rects.seats.get(e.seat);
    if (!visible(origin)) origin = rects.felt;
    const taken = [...m.base, ...m.run];
    if (!taken.length) {
      const target = [...document.querySelectorAll("#table-cards .table-card")].find((n) => n.dataset.card === m.card);
      if (!target) continue;
      const to = target.getBoundingClientRect();
      target.style.transition = "none";
      const s = origin.width / (to.width || 1);
      target.style.transform = `translate(${origin.left - to.left + (origin.width - to.width) / 2}px, ${origin.top - to.top + (origin.height - to.height) / 2}px) scale(${s})`;
      target.getBoundingClientRect();
      target.style.transition = "";
      target.style.transform = "";
      await S.pause(420);
      continue;
    }
    // the played card flies onto what it takes, then all of them go to the team's pile
    const firstRect = rects.table.get(taken[0]) ?? rects.felt;
    const size = rects.table.values().next().value ?? firstRect;
    const startRect = { left: origin.left, top: origin.top, width: size.width, height: size.height };
    const played = ghost(m.card, startRect);
    const others = taken.filter((c) => rects.table.has(c)).map((c) => [ghost(c, rects.table.get(c)), rects.table.get(c)]);
    for (const [g] of others) g.classList.add("taking"); // what it takes, outlined until it goes
    played.classList.add("flying");
    await S.pause(20);
    moveTo(played, startRect, { ...firstRect, left: firstRect.left + 10, top: firstRect.top - 8 });
    await S.pause(340);
    await S.pause(180); // the played card on what it takes, for a moment
    const to = pileRect(team);
    const here = played.getBoundingClientRect();
    played.style.transform = "";
    Object.assign(played.style, { left: `${here.left}px`, top: `${here.top}px`, transition: "none" });
    played.getBoundingClientRect();
    played.style.transition = "";
    for (const [g, from] of [[played, here], ...others]) moveTo(g, from, to, 0.45, { opacity: "0.25" });
    await S.pause(480);
    played.remove();
    for (const [g] of others) g.remove();
  }
}

// -- the draw, the end of a hand, the result ----------------------------------------------------
function showDraw(msg, events) {
  const v = msg.view;
  const key = `${msg.room}:${(v.chica_results || []).length}:${v.hand_number}`;
  if (app.drawShownFor === key) return;
  app.drawShownFor = key;
  const draw = [...events, ...(v.history || [])].find((e) => e.kind === "dealer_draw");
  const rounds = $("#draw-rounds");
  rounds.replaceChildren();
  if (draw && Array.isArray(draw.draws)) {
    draw.draws.forEach((round, i) => {
      if (i > 0) rounds.append(el("p", { class: "draw-again", text: t("page.draw_again") }));
      rounds.append(
        el(
          "div",
          { class: "draw-round" },
          round.map(([seat, code]) => {
            const card = cardElement(code, { className: "card draw-card" });
            card.setAttribute("role", "img");
            card.setAttribute("aria-label", I.cardLabel(code));
            return el("figure", { class: `draw-seat${seat === draw.dealer && i === draw.draws.length - 1 ? " winner" : ""}` }, card, el("figcaption", { text: seatName(seat) }));
          }),
        ),
      );
    });
    $("#draw-dealer").textContent = t("page.draw_dealer", { name: seatName(draw.dealer) });
  } else {
    $("#draw-dealer").textContent = t("page.draw_note", { name: seatName(v.dealer) });
  }
  $("#draw-panel").hidden = false;
  // it leaves the felt by itself after a moment, or at the first click or key
  clearTimeout(drawTimer);
  drawTimer = setTimeout(hideDraw, DRAW_MS);
  document.addEventListener("click", hideDraw, { capture: true, once: true });
  document.addEventListener("keydown", hideDraw, { capture: true, once: true });
}

/** How long the dealer draw stays on the felt unless a click or a key sends it away first. */
const DRAW_MS = 3500;
let drawTimer = null;
function hideDraw() {
  clearTimeout(drawTimer);
  document.removeEventListener("click", hideDraw, { capture: true });
  document.removeEventListener("keydown", hideDraw, { capture: true });
  $("#draw-panel").hidden = true;
}

function summaryTable(events, v, withChica = true) {
  const cartons = events.filter((e) => e.kind === "carton");
  const handEnd = events.find((e) => e.kind === "hand_end");
  const chica = events.find((e) => e.kind === "chica_won");
  const body = [];
  if (handEnd) {
    const rows = [0, 1].map((team) => {
      const c = cartons.find((x) => x.team === team);
      let cartonText = t("page.summary.no_carton");
      if (c && c.points > 0) {
        const key = `page.carton.${c.reason}`; // most_cards, dos_por_dar, carton_dos_por_dar
        cartonText = I.hasKey(key) ? t(key, { n: c.points }) : `+${c.points}`;
      } else if (c && c.note) cartonText = `0 (${I.noteText(c.note)})`;
      const score = chica ? chica.scores[team] : v.scores[team];
      return el(
        "tr",
        { "data-team": team },
        el("th", { scope: "row", text: teamName(team) }),
        el("td", { "data-testid": `summary-cards-${team}`, text: String(handEnd.pile_sizes?.[team] ?? c?.cards ?? "") }),
        el("td", { "data-testid": `summary-carton-${team}`, text: cartonText }),
        el("td", { "data-testid": `summary-score-${team}` }, el("strong", { text: String(score) }), " ", marksFor(score)),
      );
    });
    body.push(
      el(
        "table",
        { class: "summary-table" },
        el("thead", {}, el("tr", {}, ["team", "cards", "carton", "score"].map((k) => el("th", { scope: "col", text: t(`page.summary.${k}`) })))),
        el("tbody", {}, rows),
      ),
    );
    if (handEnd.leftovers && handEnd.leftovers.length) {
      const minis = el("div", { class: "mini-cards" });
      for (const c of handEnd.leftovers) {
        const m = cardElement(c, { tag: "span", className: "card mini" });
        m.setAttribute("role", "img");
        m.setAttribute("aria-label", I.cardLabel(c));
        minis.append(m);
      }
      body.push(el("p", { class: "summary-leftovers", text: t("page.summary.leftovers") }), minis);
    } else {
      body.push(el("p", { class: "summary-leftovers", text: t("ev.hand_end.clean") }));
    }
  } else if (chica) {
    body.push(el("p", { text: t("page.summary.abandoned") }));
  }
  if (chica && withChica) {
    body.push(
      el("p", {
        class: "summary-chica",
        "data-testid": "summary-chica",
        text: I.describeEvent(chica, names()),
      }),
    );
    const won = v.chicas ?? [0, 0];
    body.push(
      el("p", {
        class: "summary-chicas",
        "data-testid": "summary-chicas",
        text: t("page.summary.chicas", { list: [0, 1].map((team) => `${teamName(team)} ${won[team] ?? 0}`).join(" – ") }),
      }),
    );
    const zap = events.find((e) => e.kind === "zapatero");
    if (zap) {
      const [line] = narrate([zap]);
      body.push(
        el(
          "p",
          { class: "summary-zapatero", "data-testid": "summary-zapatero" },
          line.sayings.length ? el("strong", { text: line.sayings[0] }) : null,
          line.sayings.length ? " " : null,
          line.text,
        ),
      );
    }
  }
  return body;
}

function showSummary(events, prev, msg) {
  const handEnd = events.find((e) => e.kind === "hand_end");
  const prevView = prev?.view ?? msg.view;
  const n = (prevView.hand_number ?? 0) + 1;
  const chica = events.find((e) => e.kind === "chica_won");
  // a chica that ends is not the mesa's result (the mesa goes on: that is the result panel's)
  const titles = [];
  if (handEnd) titles.push(t("page.summary.title", { n }));
  if (chica) titles.push(t("page.summary.chica_title", { n: (chica.chica ?? 0) + 1 }));
  $("#summary-title").textContent = titles.join(" · ");
  $("#summary-body").replaceChildren(...summaryTable(events, msg.view));
  const dialog = $("#summary-dialog");
  return new Promise((resolve) => {
    const done = () => {
      dialog.removeEventListener("close", done);
      resolve();
    };
    dialog.addEventListener("close", done);
    dialog.showModal();
    $("#summary-continue").focus();
  });
}

function showResult(msg, quiet) {
  const v = msg.view;
  const outcome = v.outcome;
  const panel = $("#result");
  if (!outcome) return;
  const mine = v.team;
  const won = outcome.winner === mine;
  const key = v.players === 2 ? (won ? "result.you_win" : "result.you_lose") : won ? "result.team_win" : "result.team_lose";
  $("#result-headline").textContent = t(key);
  panel.dataset.winner = String(outcome.winner);
  panel.dataset.won = won ? "1" : "0";
  const chicas = outcome.chicas ?? v.chicas;
  const chicasText = t("result.chicas", { won: chicas[outcome.winner], lost: chicas[1 - outcome.winner] });
  $("#result-chicas").textContent = `${chicasText}${outcome.reason === "zapatero" ? ` · ${t("page.result_by_zapatero")}` : ""}`;
  $("#result-list").replaceChildren(
    ...(v.chica_results || []).map((r, i) => {
      const scores = r.scores.map((s, team) => `${teamName(team)} ${s}`).join(" – ");
      const loser = 1 - r.winner;
      return el(
        "li",
        { "data-testid": "result-chica" },
        t("result.chica", { n: i + 1, scores, team: teamName(r.winner) }),
        r.zapatero
          ? el("span", { class: "result-zapatero" }, ` · ${t(r.platillo ? "result.platillo" : "result.zapatero", { team: teamName(loser) })}`)
          : null,
      );
    }),
  );
  const final = app.finalEvents ?? [];
  if (final.some((e) => e.kind === "hand_end")) {
    const prevView = app.lastHandView ?? v;
    $("#result-hand").replaceChildren(
      el("h3", { text: t("page.summary.title", { n: (prevView.hand_number ?? 0) + 1 }) }),
      ...summaryTable(final, v, false),
    );
  } else $("#result-hand").replaceChildren();
  const button = $("#download-record");
  button.hidden = !app.session;
  if (app.session) {
    button.dataset.room = app.session.room;
    button.dataset.mesa = String(msg.mesa ?? "");
  }
  const wasHidden = panel.hidden;
  panel.hidden = false;
  if (wasHidden && !quiet) {
    panel.scrollIntoView({ behavior: reducedMotion.matches ? "auto" : "smooth", block: "start" });
    panel.focus({ preventScroll: true });
  }
}

// -- errors -------------------------------------------------------------------------------------
let errorTimer = null;
function showError(text, code = "") {
  const box = $("#error");
  $(".error-text", box).textContent = text;
  box.dataset.code = code;
  box.hidden = false;
  clearTimeout(errorTimer);
  if (["stale", "not_your_turn"].includes(code)) errorTimer = setTimeout(() => hideError(), 6000);
}
function hideError(codes = null) {
  const box = $("#error");
  if (box.hidden) return;
  if (codes && !codes.includes(box.dataset.code)) return;
  box.hidden = true;
}

// -- tokens stay out of URLs: a header for reading, a body for the history ------------------------
function authorized(token, init = {}) {
  return { ...init, headers: { ...(init.headers ?? {}), Authorization: `Bearer ${token}` } };
}

/** The record of a finished mesa, fetched with the seat's token in a header and offered as a file. */
async function downloadRecord(room, token, mesa) {
  const query = mesa ? `?mesa=${encodeURIComponent(mesa)}` : "";
  try {
    const res = await fetch(`api/games/${encodeURIComponent(room)}/record${query}`, authorized(token));
    if (!res.ok) {
      const body = await res.json().catch(() => null);
      throw new Error(errorDetail(body) || `HTTP ${res.status}`);
    }
    const url = URL.createObjectURL(await res.blob());
    const link = el("a", { href: url, download: `cuarenta-${room}${mesa ? `-mesa${mesa}` : ""}.cuarenta`, hidden: true });
    document.body.append(link);
    link.click();
    link.remove();
    setTimeout(() => URL.revokeObjectURL(url), 10000);
  } catch (err) {
    showError(err instanceof TypeError ? t("page.err.network") : t("page.err.download", { message: err.message }));
  }
}

// -- screens, language, keyboard ----------------------------------------------------------------
function showScreen(name) {
  app.screen = name;
  for (const [id, screen] of [["#screen-new", "new"], ["#screen-table", "table"], ["#screen-history", "history"]]) {
    $(id).hidden = screen !== name;
  }
  updateNav();
}

function applyLanguage() {
  const lang = I.getLang();
  document.documentElement.lang = lang;
  I.applyStatic();
  const sw = $("#lang-switch");
  sw.replaceChildren(el("span", { class: "long", text: t("page.lang_switch") }), el("span", { class: "short", text: t("page.lang_switch_short") }));
  sw.setAttribute("lang", lang === "es" ? "en" : "es");
  sw.setAttribute("aria-label", t("page.lang_switch_aria"));
  $("#nav-rules").href = t("page.rules_href");
  document.title = app.screen === "table" ? `${t("page.table_title")} · Cuarenta` : "Cuarenta";
  buildForm();
  if (app.msg) {
    renderAll();
    if (app.msg.status === "finished") showResult(app.msg, true);
    if (!$("#draw-panel").hidden && isFresh(app.msg.view)) {
      app.drawShownFor = null;
      showDraw(app.msg, app.msg.events || []);
    }
  }
  const choice = $("#choice-dialog");
  if (choice.open) choice.close();
  if (app.screen === "history") showHistory();
}

function onKeyDown(e) {
  if (e.altKey || e.ctrlKey || e.metaKey) return;
  const openDialog = document.querySelector("dialog[open]");
  if (openDialog) {
    if (e.key === "ArrowDown" || e.key === "ArrowUp") {
      const buttons = [...openDialog.querySelectorAll("button")];
      const i = buttons.indexOf(document.activeElement);
      const next = buttons[(i + (e.key === "ArrowDown" ? 1 : -1) + buttons.length) % buttons.length];
      next?.focus();
      e.preventDefault();
    }
    return;
  }
  if (e.key === "Escape") {
    hideError();
    $("#draw-panel").hidden = true;
    return;
  }
  if (app.screen !== "table" || !app.msg) return;
  if (e.target instanceof HTMLElement && e.target.matches("input, select, textarea")) return;
  const cards = [...document.querySelectorAll("#hand .hand-card")];
  if (!cards.length) return;
  if (/^[1-9]$/.test(e.key)) {
    const i = Number(e.key) - 1;
    if (i < cards.length) {
      cards[i].focus();
      e.preventDefault();
    }
    return;
  }
  const inHand = $("#hand").contains(document.activeElement);
  if (e.key === "ArrowLeft" || e.key === "ArrowRight" || e.key === "Home" || e.key === "End") {
    if (!inHand && document.activeElement !== document.body && document.activeElement !== $("#main")) return;
    let i = inHand ? cards.indexOf(document.activeElement) : app.focusIndex;
    if (e.key === "ArrowLeft") i = inHand ? (i - 1 + cards.length) % cards.length : i;
    else if (e.key === "ArrowRight") i = inHand ? (i + 1) % cards.length : i;
    else if (e.key === "Home") i = 0;
    else i = cards.length - 1;
    cards[Math.max(0, Math.min(cards.length - 1, i))].focus();
    e.preventDefault();
  }
}

function wire() {
  $("#new-game-form").addEventListener("submit", startGame);
  for (const input of document.querySelectorAll('input[name="players"]')) input.addEventListener("change", onPlayersChanged);
  $("#preset").addEventListener("change", onPresetChanged);
  $("#options-table").addEventListener("change", matchPreset);
  $("#lang-switch").addEventListener("click", switchLanguage);
  $("#options-retry").addEventListener("click", loadOptions);
  $("#download-record").addEventListener("click", () => {
    const { room, mesa } = $("#download-record").dataset;
    if (app.session && room === app.session.room) downloadRecord(room, app.session.token, mesa);
  });
  $("#nav-new").addEventListener("click", () => showScreen("new"));
  $("#nav-table").addEventListener("click", () => {
    if (!app.session) return;
    if (!app.conn) openSession(app.session);
    else showScreen("table");
  });
  $("#resume-game").addEventListener("click", () => {
    if (app.conn) showScreen("table");
    else if (app.session) openSession(app.session);
  });
  $("#nav-history").addEventListener("click", showHistory);
  $("#mode-choices").addEventListener("change", onModeChanged);
  $("#confirm-new-back").addEventListener("click", () => {
    $("#confirm-new").close();
    if (app.conn) showScreen("table");
    else if (app.session) openSession(app.session);
  });
  $("#confirm-new-start").addEventListener("click", () => {
    $("#confirm-new").close();
    createGame();
  });
  $("#ayudas-toggle").addEventListener("click", () => {
    app.ayudas = !app.ayudas;
    store(KEYS.ayudas, app.ayudas ? "1" : "0");
    renderHand();
  });
  $("#choice-cancel").addEventListener("click", () => $("#choice-dialog").close());
  $("#summary-continue").addEventListener("click", () => $("#summary-dialog").close());
  $("#play-again").addEventListener("click", () => {
    if (app.conn && app.conn.send({ type: "next" })) $("#play-again").disabled = true;
    setTimeout(() => ($("#play-again").disabled = false), 3000);
  });
  $("#result-new").addEventListener("click", () => showScreen("new"));
  $(".error-close").addEventListener("click", () => hideError());
  $(".draw-close").addEventListener("click", () => ($("#draw-panel").hidden = true));
  document.addEventListener("keydown", onKeyDown);
  Settings.connect((message) => Boolean(app.conn && app.conn.send(message)));
}

async function resume(session) {
  // ask first whether the saved room still exists (404 unknown, 403 wrong token)
  try {
    const res = await fetch(`api/rooms/${encodeURIComponent(session.room)}`, authorized(session.token));
    if (res.status === 404 || res.status === 403) {
      forgetSession();
      showScreen("new");
      showError(t(res.status === 404 ? "page.err.unknown_room" : "page.err.bad_token"));
      return;
    }
    if (res.ok) {
      const info = await res.json().catch(() => null);
      if (info && typeof info.seat === "number") session.seat = info.seat;
    }
  } catch {
    /* the server may be starting: the WebSocket retries */
  }
  openSession(session);
}

/** The catalogue of `lang`, asked again (with growing pauses) until the server answers: without it the
 * page has no words to show, not even to say that something is wrong. */
async function textsOf(lang) {
  for (let attempt = 0; ; attempt += 1) {
    try {
      return await I.loadTexts(lang);
    } catch {
      document.body.dataset.texts = "retrying";
      await sleep(Math.min(8000, 250 * 2 ** attempt));
    }
  }
}

async function switchLanguage() {
  const next = I.getLang() === "es" ? "en" : "es";
  try {
    await I.loadTexts(next);
  } catch {
    showError(t("page.err.network"));
    return;
  }
  I.setLang(next);
  applyLanguage();
}

async function main() {
  I.setLang(I.getLang(), false);
  if (window.matchMedia("(min-width: 900px)").matches) $("#log-box").open = true;
  wire();
  restoreForm();
  await textsOf(I.getLang());
  document.body.dataset.texts = "ready";
  applyLanguage();
  await loadOptions();
  if (app.session && app.session.room && app.session.token) {
    await resume(app.session);
  } else {
    app.session = null;
    showScreen("new");
  }
}

main();

// what history.js uses (an ES module cycle: it only calls these after this module has run)
export { $, el, app, KEYS, load, levelName, presetOf, downloadRecord, resumeGame, showScreen };
