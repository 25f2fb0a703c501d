// The new-game form, all of it from GET api/options: versus the computer or with friends, mode (quick
// game or full rules), level, preset and every rule option, and a table's seats and options; the form
// remembered in localStorage; POST api/rooms to start a game (a table with friends: friends.js).

import * as I from "./i18n.js";
import { errorDetail, postJSON, request } from "./api.js";
import { openSession } from "./session.js";
import { hideError, showError } from "./errors.js";
import { createTable } from "./friends.js";
import { $, el } from "./dom.js";
import { rememberGame } from "./saved.js";
import { app, presetOf } from "./state.js";
import { KEYS, load, store } from "./storage.js";

const { t, pick } = I;

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
  against: () => document.querySelector('input[name="against"]:checked')?.value ?? "computer",
};

/** The table options offered with friends (docs/tables.md): grace in seconds, the turn clock. */
const GRACES = [30, 60, 120, 300];
const CLOCKS = [null, 30, 60];

/** The quick game: the server's `quick_preset`; in 2 vs 2 (which the preset does not allow) its options
 * for 4 players as a custom table. */
function quickPreset() {
  return presetOf(app.options?.quick_preset);
}
function isQuickCustom() {
  const quick = quickPreset();
  const values = readOptionsTable();
  return Boolean(quick && values && form.preset() === "custom" && sameValues(values, presetValues(quick)));
}
function applyQuick() {
  const quick = quickPreset();
  if (!quick) return;
  if (quick.players.includes(form.players())) {
    $("#preset").value = quick.name;
    onPresetChanged();
  } else {
    $("#preset").value = "custom";
    buildOptionsTable(presetValues(quick));
    updatePresetDescription();
  }
}

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
  const only = (p) =>
    p.players.includes(players) || p === quick ? "" : ` (${t(p.players.includes(2) ? "preset.only_2" : "preset.only_4")})`;
  const choice = (mode, preset, main, sub) =>
    el(
      "label",
      { class: "choice" },
      el("input", {
        type: "radio",
        name: "mode",
        value: preset.name,
        "data-testid": `mode-${mode}`,
        disabled: (preset !== quick && !preset.players.includes(players)) || undefined,
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
  const quick = isQuickCustom() ? quickPreset()?.name : null;
  for (const input of document.querySelectorAll('input[name="mode"]')) input.checked = input.value === preset || input.value === quick;
}

export function onModeChanged(event) {
  const select = $("#preset");
  if (!event.target.checked || select.value === event.target.value) return;
  if (event.target.value === quickPreset()?.name) {
    applyQuick();
    return;
  }
  select.value = event.target.value;
  onPresetChanged();
}

function updatePresetDescription() {
  const name = $("#preset").value;
  updateMode();
  const about = isQuickCustom() ? quickPreset().about : name === "custom" ? app.options.custom?.about : presetOf(name)?.about;
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
export function matchPreset() {
  const values = readOptionsTable();
  const players = form.players();
  const found = app.options.presets.find((p) => p.players.includes(players) && sameValues(values, presetValues(p)));
  $("#preset").value = found ? found.name : "custom";
  updatePresetDescription();
}

export function onPresetChanged() {
  const name = form.preset();
  if (name !== "custom") buildOptionsTable(presetValues(presetOf(name)));
  updatePresetDescription();
}

export function onPlayersChanged() {
  if (!app.options) return;
  const before = form.preset();
  const wasQuick = before === quickPreset()?.name || isQuickCustom();
  buildPresetSelect();
  buildModeChoices();
  if (wasQuick) applyQuick();
  else if (form.preset() !== before) onPresetChanged();
  buildSeatChoices();
}

/** Versus the computer or with friends: the friends' fields and the start button's words follow. */
export function onAgainstChanged() {
  const friends = form.against() === "friends";
  $("#friends-fields").hidden = !friends || !app.options;
  $('#start-game [data-testid="start-game"]').hidden = friends;
  $('#start-game [data-testid="create-table"]').hidden = !friends;
  buildSeatChoices();
}

/** One select per other seat: a friend, or the computer at a level; in 2 vs 2 seat 2 is the partner. */
function buildSeatChoices() {
  const box = $("#seat-choices");
  if (!app.options) return box.replaceChildren();
  const players = form.players();
  const before = [...box.querySelectorAll("select")].map((s) => s.value);
  const saved = load(KEYS.form)?.seats ?? [];
  const labels = app.options.level_labels ?? {};
  const rows = [];
  for (let seat = 1; seat < players; seat += 1) {
    const id = `seat-${seat}`;
    const label = players === 4 && seat === 2 ? t("page.friends.seat_partner", { n: seat + 1 }) : t("page.friends.seat_opponent", { n: seat + 1 });
    const select = el(
      "select",
      { id, "data-testid": `friend-${id}`, "data-seat": seat },
      el("option", { value: "friend", text: t("page.friends.seat_friend") }),
      app.options.levels.map((level) =>
        el("option", { value: level, text: t("page.friends.seat_computer", { level: pick(labels[level]?.label, level) }) }),
      ),
    );
    const wanted = before[seat - 1] ?? saved[seat - 1] ?? "friend";
    select.value = [...select.options].some((o) => o.value === wanted) ? wanted : "friend";
    rows.push(el("div", { class: "option-row" }, el("label", { for: id, text: label }), select));
  }
  box.replaceChildren(...rows);
}

function buildTableOptions() {
  const saved = load(KEYS.form) ?? {};
  const grace = $("#table-grace");
  const keepGrace = grace.value || String(saved.grace ?? 60);
  grace.replaceChildren(
    ...GRACES.map((n) => el("option", { value: String(n), text: n < 120 ? t("page.friends.seconds", { n }) : t("page.friends.minutes", { n: n / 60 }) })),
  );
  grace.value = GRACES.map(String).includes(keepGrace) ? keepGrace : "60";
  const clock = $("#table-clock");
  const keepClock = clock.value || JSON.stringify(saved.clock ?? null);
  clock.replaceChildren(
    ...CLOCKS.map((n) => el("option", { value: JSON.stringify(n), text: n === null ? t("page.friends.clock_off") : t("page.friends.clock_on", { n }) })),
  );
  clock.value = CLOCKS.map((n) => JSON.stringify(n)).includes(keepClock) ? keepClock : "null";
}

export function buildForm() {
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
  updateMode();
  buildTableOptions();
  onAgainstChanged();
}

/** GET api/options; without it the form cannot be offered (the page keeps no copy of the rules). */
export async function loadOptions() {
  try {
    const res = await request("api/options");
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

export function restoreForm() {
  const saved = load(KEYS.form);
  const name = load(KEYS.name, false);
  if (name) $("#player-name").value = name;
  if (saved && (saved.players === 2 || saved.players === 4)) {
    const input = document.querySelector(`input[name="players"][value="${saved.players}"]`);
    if (input) input.checked = true;
  }
  if (saved?.against === "friends") $('input[name="against"][value="friends"]').checked = true;
  if (saved && typeof saved.lobby === "boolean") $("#table-lobby").checked = saved.lobby;
}

/** Whether this browser has a game whose mesa is not finished (not known yet counts as unfinished). */
function gameUnfinished() {
  if (!app.session) return false;
  const msg = app.msg;
  return !(msg && msg.room === app.session.room && msg.status === "finished");
}

export function startGame(event) {
  event.preventDefault();
  if (!app.options) return;
  if (gameUnfinished()) {
    $("#confirm-new").showModal();
    return;
  }
  createGame();
}

export async function createGame() {
  const button = $("#start-game");
  const players = form.players();
  const level = form.level();
  const preset = form.preset();
  const typed = $("#player-name").value.trim();
  // an empty name stays empty: the page shows the catalogue's default name in its current language
  const name = typed;
  const rules = preset === "custom" ? { preset: "custom", players, ...readOptionsTable() } : { preset, players };
  const against = form.against();
  const seats = [...document.querySelectorAll("#seat-choices select")].map((s) => s.value);
  const table = {
    grace: Number($("#table-grace").value),
    clock: JSON.parse($("#table-clock").value),
    lobby: $("#table-lobby").checked,
    rated: $("#table-rated").checked,
  };
  store(KEYS.name, typed || null);
  store(KEYS.form, { players, level, preset, rules: preset === "custom" ? readOptionsTable() : null, against, seats, ...table });
  if (against === "friends") {
    if (!typed) {
      showError(t("page.friends.name_needed"));
      $("#player-name").focus();
      return;
    }
    button.disabled = true;
    button.setAttribute("aria-busy", "true");
    hideError();
    try {
      await createTable({ players, rules, name, seats, level, ...table });
    } finally {
      button.disabled = false;
      button.removeAttribute("aria-busy");
    }
    return;
  }
  button.disabled = true;
  button.setAttribute("aria-busy", "true");
  hideError();
  try {
    const res = await postJSON("api/rooms", { players, level, rules, name });
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
