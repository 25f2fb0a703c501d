// The page's settings (docs/web.md, "Settings: the computer's pace and sounds"): the computer's pace
// (slow / normal / fast) and sounds (off by default), each remembered per browser in localStorage and
// applied at once. The pace lives on the server: it is the pause before each computer move in the room
// (docs/protocol.md), sent with `join` and in a `pace` message when it changes; the server answers with
// the pace in effect and its delay. The sounds are made by sounds.js, which is loaded only once sound
// is switched on. This module holds no text: the controls' labels are data-i18n keys of index.html.
// It also shows the Ayudas' one-line explanation (#ayudas-intro) the first time a table is shown.

import { KEYS as STORED, load as loadStored, store as storeStored } from "./storage.js";

export const PACES = ["slow", "normal", "fast"];
const KEYS = { pace: "cuarenta.pace", sound: "cuarenta.sound", notify: "cuarenta.notify" };

const $ = (sel) => document.querySelector(sel);

function load(key) {
  try {
    return localStorage.getItem(key);
  } catch {
    return null;
  }
}
function store(key, value) {
  try {
    localStorage.setItem(key, value);
  } catch {
    /* storage full or disabled: the setting lasts for this visit */
  }
}

const state = {
  pace: PACES.includes(load(KEYS.pace)) ? load(KEYS.pace) : "normal",
  sound: load(KEYS.sound) === "1",
  notify: load(KEYS.notify) === "1", // "tell me when it is my turn" (a table with friends): off by default
  send: null, // sends a message on the game's socket (set by app.js); false when not connected
  sounds: null, // the sounds.js module, once sound has been switched on
};

/** The computer's pace this browser chose: "slow", "normal" or "fast". */
export function pace() {
  return state.pace;
}

/** Whether sounds are on. */
export function soundOn() {
  return state.sound;
}

/** Whether "tell me when it is my turn" is on (vibration and a sound, presence.js). */
export function notifyOn() {
  return state.notify;
}

/** The "your turn" sound (presence.js), even with the game's sounds off: the switch asked for it. */
export function turnSound() {
  loadSounds()
    .then((sounds) => sounds?.turn())
    .catch(() => {});
}

/** `send(message)` sends on the game's socket; a new pace is sent with it at once. */
export function connect(send) {
  state.send = send;
}

/** A `pace` message of the server: the pace in effect in the room and its delay in seconds. */
export function onServerPace(msg) {
  const box = $("#settings");
  if (!box || !PACES.includes(msg?.pace)) return;
  box.dataset.serverPace = msg.pace;
  box.dataset.serverDelay = String(Number(msg.delay) || 0);
}

/** The events of an `update` being shown (never those replayed after a join): their sounds. */
export function onEvents(events) {
  if (!state.sound || !Array.isArray(events) || !events.length) return;
  loadSounds()
    .then((sounds) => sounds?.onEvents(events))
    .catch(() => {});
}

function loadSounds() {
  if (!state.sounds) state.sounds = import("./sounds.js").then((m) => (m.init($("#settings")), m));
  return state.sounds;
}

function setPace(value) {
  if (!PACES.includes(value)) return;
  state.pace = value;
  store(KEYS.pace, value);
  render();
  if (state.send) state.send({ type: "pace", pace: value });
}

function setSound(on) {
  state.sound = on;
  store(KEYS.sound, on ? "1" : "0");
  render();
  // switched on by a click or a key: the audio may start now (browsers allow it after a gesture)
  if (on) loadSounds().then((sounds) => sounds?.unlock()).catch(() => {});
}

function setNotify(on) {
  state.notify = on;
  store(KEYS.notify, on ? "1" : "0");
  render();
  if (on) loadSounds().then((sounds) => sounds?.unlock()).catch(() => {});
}

function render() {
  const box = $("#settings");
  if (!box) return;
  box.dataset.pace = state.pace;
  box.dataset.sound = state.sound ? "on" : "off";
  for (const input of box.querySelectorAll('input[name="pace"]')) input.checked = input.value === state.pace;
  $("#sound-toggle")?.setAttribute("aria-pressed", String(state.sound));
  box.dataset.notify = state.notify ? "on" : "off";
  $("#notify-toggle")?.setAttribute("aria-pressed", String(state.notify));
}

// -- the Ayudas' explanation, once (issue 17) -------------------------------------------------------
let intro = null; // null: not decided yet this visit; true: shown this visit (until dismissed); false: not

/** At a table (`atTable`: a seat's, not a spectator's): the line that says what the Ayudas do, the first
 * time only: once shown it is remembered (cuarenta.ayudas_intro) and not shown on a later visit. */
export function ayudasIntro(atTable) {
  const box = $("#ayudas-intro");
  if (!box) return;
  if (intro === null && atTable) {
    intro = loadStored(STORED.ayudasIntro, false) !== "1";
    if (intro) storeStored(STORED.ayudasIntro, "1");
  }
  box.hidden = !(intro && atTable);
}

function dismissIntro() {
  intro = false;
  const box = $("#ayudas-intro");
  const hadFocus = box?.contains(document.activeElement);
  if (box) box.hidden = true;
  if (hadFocus) $("#ayudas-toggle")?.focus();
}

function close(focus) {
  const box = $("#settings");
  if (!box?.open) return;
  box.open = false;
  if (focus) box.querySelector("summary")?.focus();
}

function wire() {
  const box = $("#settings");
  if (!box) return;
  for (const input of box.querySelectorAll('input[name="pace"]')) {
    input.addEventListener("change", () => input.checked && setPace(input.value));
  }
  $("#sound-toggle")?.addEventListener("click", () => setSound(!state.sound));
  $("#notify-toggle")?.addEventListener("click", () => setNotify(!state.notify));
  $("#ayudas-intro-close")?.addEventListener("click", dismissIntro);
  box.addEventListener("keydown", (e) => {
    if (e.key === "Escape" && box.open) {
      close(true);
      e.stopPropagation();
    }
  });
  // a click elsewhere closes the panel
  document.addEventListener("pointerdown", (e) => {
    if (box.open && !box.contains(e.target)) close(false);
  });
  // with sound on since an earlier visit, the audio starts at the person's first gesture
  const unlock = () => {
    if (state.sound || state.notify) loadSounds().then((sounds) => sounds?.unlock()).catch(() => {});
  };
  document.addEventListener("pointerdown", unlock, { once: true, capture: true });
  document.addEventListener("keydown", unlock, { once: true, capture: true });
  render();
}

wire();
