// The Cuarenta page: new game form, the table, dialogs, history. It speaks protocol version 1
// (docs/protocol.md): the server holds the game and the rules; this page only shows what its seat
// may see and sends the moves the server listed as legal. The server also says what each legal move
// does (caída, limpia), which sayings fit each event, and offers the rule options with their labels;
// every text comes from the catalogue it serves (i18n.js). localStorage keeps the language, the
// Ayudas switch, the player's name and {room, token, seat} of the games — never a card. Tokens travel
// in an Authorization header or a request body, never in a URL.
//
// This module is the entry (index.html loads it): it wires the page's controls, the keyboard and the
// language switch, and starts the page (main). The rest is in modules by concern (docs/web.md "Files"):
// store.js (the state), state.js, connection.js (the socket), session.js, moves.js (what is sent),
// api.js (every HTTP call), queue.js, table.js, animate.js, dialogs.js, narration.js, screens.js, ….

import * as I from "./i18n.js";
import * as Settings from "./settings.js";
import { showHistory, wireRecordFiles } from "./history.js";
import { relabelReplay, showReplay } from "./replay.js";
import { showDaily } from "./daily.js";
import { relabelPuzzles, showPuzzles } from "./puzzles.js";
import { showDraw } from "./animate.js";
import { downloadRecord } from "./download.js";
import { openSession, resume } from "./session.js";
import { showResult } from "./dialogs.js";
import { hideError, showError } from "./errors.js";
import * as Moves from "./moves.js";
import { $, el, sleep } from "./dom.js";
import {
  buildForm,
  createGame,
  loadOptions,
  matchPreset,
  onAgainstChanged,
  onModeChanged,
  onPlayersChanged,
  onPresetChanged,
  restoreForm,
  startGame,
} from "./form.js";
import { isTable, renderRematch } from "./presence.js";
import { loadLobby, relabelFriends, routeHash, waiting, wireFriends } from "./friends.js";
import { relabelChamp, routeChamp, wireChamp } from "./champ-route.js";
import { wireChampTable } from "./champ-table.js";
import { isFresh } from "./queue.js";
import { watchFromHash } from "./spectator.js";
import { showScreen } from "./screens.js";
import { app } from "./store.js";
import { KEYS, load, store, useDeviceKeys } from "./storage.js";
import { renderAll, renderHand } from "./table.js";
import { chooseTransport, onDevice, readSite, startDevice } from "./device.js";
import { fetchOfflineDays, onDailyChange, sendOutbox, showResultNote } from "./daily-offline.js";
import { renderDeviceBox, wireDeviceBox } from "./devicebox.js";
import { cachePack, packState, registerServiceWorker, storedPack } from "./offline.js";

const { t } = I;

// -- language, keyboard, wiring, start --------------------------------------------------------------
/** The page's own words in place: every labelled element, the language switch, the device's box. They
 * come with the page (the catalogue, cached with it by the service worker), so this runs before the game
 * on the device has started (docs/web.md "Playing on the device"). */
function applyWords() {
  const lang = I.getLang();
  document.documentElement.lang = lang;
  I.applyStatic();
  const sw = $("#lang-switch");
  sw.replaceChildren(el("span", { class: "long", text: t("page.lang_switch") }), el("span", { class: "short", text: t("page.lang_switch_short") }));
  sw.setAttribute("lang", lang === "es" ? "en" : "es");
  sw.setAttribute("aria-label", t("page.lang_switch_aria"));
  $("#nav-rules").href = t("page.rules_href");
  document.title = app.screen === "table" ? `${t("page.table_title")} · Cuarenta` : "Cuarenta";
  renderDeviceBox();
  document.body.dataset.words = "ready";
}

function applyLanguage() {
  applyWords();
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
  if (app.screen === "replay") relabelReplay();
  if (app.screen === "daily") showDaily();
  relabelPuzzles();
  relabelFriends();
  relabelChamp();
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
  $("#nav-new").addEventListener("click", () => {
    showScreen("new");
    loadLobby();
  });
  $("#nav-table").addEventListener("click", () => {
    if (!app.session) return;
    if (!app.conn) openSession(app.session);
    else showScreen(waiting() ? "wait" : "table");
  });
  $("#resume-game").addEventListener("click", () => {
    if (app.conn) showScreen(waiting() ? "wait" : "table");
    else if (app.session) openSession(app.session);
  });
  $("#nav-history").addEventListener("click", showHistory);
  $("#open-puzzles").addEventListener("click", showPuzzles);
  $("#open-daily").addEventListener("click", showDaily);
  $("#result-daily").addEventListener("click", showDaily);
  $("#result-replay").addEventListener("click", () => {
    const { room, mesa } = $("#download-record").dataset; // the mesa the result panel shows
    if (app.session && room === app.session.room) showReplay(room, app.session.token, mesa);
  });
  wireRecordFiles();
  $("#mode-choices").addEventListener("change", onModeChanged);
  for (const input of document.querySelectorAll('input[name="against"]')) input.addEventListener("change", onAgainstChanged);
  wireFriends();
  wireChamp();
  wireChampTable();
  $("#confirm-new-back").addEventListener("click", () => {
    $("#confirm-new").close();
    if (app.conn) showScreen(waiting() ? "wait" : "table");
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
    if (isTable()) {
      // a table with friends: agree to another mesa; the button stays off until the new mesa comes
      if (Moves.rematch()) {
        $("#play-again").disabled = true;
        renderRematch();
      }
      return;
    }
    if (Moves.next()) $("#play-again").disabled = true;
    setTimeout(() => ($("#play-again").disabled = false), 3000);
  });
  $("#result-new").addEventListener("click", () => showScreen("new"));
  $(".error-close").addEventListener("click", () => hideError());
  $(".draw-close").addEventListener("click", () => ($("#draw-panel").hidden = true));
  document.addEventListener("keydown", onKeyDown);
  // the offline deal of the day (daily-offline.js): what changed is shown; with the network back, the
  // next days' deals are fetched and the results waiting are sent
  onDailyChange(() => {
    renderDeviceBox();
    if (app.screen === "daily") showDaily();
    if (!$("#result").hidden) showResultNote(app.session);
  });
  window.addEventListener("online", async () => {
    await readSite();
    renderDeviceBox();
    reachServer();
  });
  // a spectator (spectator.js) does not set the pace of a table it only watches
  Settings.connect(Moves.settingsMessage);
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

/** Start the game on the device (its worker and Python) before anything asks it: the pack first into
 * the cache when none is stored (a static site's first visit), with its progress; false when it cannot
 * start, and the boot line says why. With a pack stored, the game starts from it at once, whatever the
 * network; a newer pack of the site is stored meanwhile, for the next visit. */
async function bootDevice() {
  useDeviceKeys();
  app.session = load(KEYS.session);
  const boot = $("#device-boot");
  const line = $("#device-boot-text");
  boot.hidden = false;
  line.textContent = t("page.device.booting");
  try {
    let stored = await storedPack().catch(() => null);
    if (!stored && navigator.onLine) {
      const progress = $("#device-boot-progress");
      progress.hidden = false;
      await cachePack((done, total) => {
        progress.max = Math.max(1, total);
        progress.value = done;
        line.textContent = t("page.device.downloading", { percent: total ? Math.floor((100 * done) / total) : 0 });
      }).catch((err) => {
        // stored or not, the game can start from the network this visit; a refusal is said once it has
        if (err?.code === "storage_refused") showError(t("page.device.not_stored"));
      });
      progress.hidden = true;
      line.textContent = t("page.device.booting");
      stored = await storedPack().catch(() => null);
    } else if (stored && navigator.onLine) {
      packState()
        .then((state) => (state.cached ? null : cachePack(() => {})))
        .catch(() => {}); // the next visit's pack, quietly: this one plays on the stored pack
    }
    await startDevice(stored);
    boot.hidden = true;
    return true;
  } catch (err) {
    const offline = err?.code === "no_pack" || !navigator.onLine;
    line.textContent = offline ? t("page.device.offline") : t("page.device.failed", { message: err?.message ?? String(err) });
    boot.dataset.failed = err?.code || "boot_failed";
    return false;
  }
}

/** With a server there: on the device, its offline deals of the next days; anywhere, the results of
 * offline deals waiting to be sent (daily-offline.js). Nothing when no server answers. */
function reachServer() {
  const days = onDevice() ? fetchOfflineDays() : Promise.resolve();
  days.finally(() => sendOutbox());
}

async function main() {
  I.setLang(I.getLang(), false);
  if (window.matchMedia("(min-width: 900px)").matches) $("#log-box").open = true;
  wire();
  wireDeviceBox();
  registerServiceWorker();
  const transport = chooseTransport();
  restoreForm();
  await textsOf(I.getLang());
  await transport;
  applyWords(); // the start screen reads at once, before the game on the device has started
  if (onDevice() && !(await bootDevice())) return;
  document.body.dataset.texts = "ready";
  applyLanguage();
  await loadOptions();
  relabelChamp(); // a championship form opened while the page loaded: now with the server's presets
  loadLobby();
  reachServer();
  if (watchFromHash()) {
    /* a watch link (spectator.js): the table, read-only */
  } else if (routeHash()) {
    /* an invite link (friends.js): the join page */
  } else if (routeChamp()) {
    /* a championship link (champ-route.js): the organiser, judge, pair, registration or standings */
  } else if (app.screen !== "new") {
    /* the person went to another screen while the page loaded (a button is live from the start) */
  } else if (app.session && app.session.room && app.session.token) {
    await resume(app.session);
  } else {
    app.session = null;
    showScreen("new");
  }
}

main();
