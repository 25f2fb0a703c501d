// The choice "play on this device" on the new-game screen (docs/web.md "Playing on the device"): the
// note of where the game runs, the download of the offline pack with its progress, and the switch back to
// the server; while the server makes the pack, that it is being made (asked again until it is there), and
// when it could not, that it cannot. What needs a server ("Con amigos", "Campeonato", the lobby, the
// leaderboard) is off on the device, with why. device.js is the transport; offline.js caches the pack and
// registers the service worker.

import * as I from "./i18n.js";
import { $ } from "./dom.js";
import { showError } from "./errors.js";
import { onDevice, preferDevice, readSite, where } from "./device.js";
import { cachePack, packState } from "./offline.js";
import { fetchOfflineDays, todaysDeal } from "./daily-offline.js";

const { t } = I;

/** How often the page asks the server again while it makes the pack (milliseconds). */
const PREPARING_POLL_MS = 5000;

let downloading = false;
let message = null; // the key of the box's last line when it is not the default one
let polling = null;

/** The catalogue's line for each way cachePack fails. */
const FAILURES = {
  storage_refused: "page.device.storage_refused",
  offline: "page.device.offline",
  unavailable: "page.device.unavailable",
  corrupt: "page.device.corrupt",
};

function percent(done, total) {
  return total > 0 ? Math.floor((100 * done) / total) : 0;
}

/** The pack's size on the wire for this browser, in MB with one decimal in the page's language. */
function megabytes() {
  const mb = Math.max(0.1, where.packBytes / 1e6);
  return mb.toLocaleString(I.getLang(), { maximumFractionDigits: 1, minimumFractionDigits: 1 });
}

/** While the server makes the pack: ask site.json again until it is there (or could not be made). */
function pollWhilePreparing() {
  if (polling || where.packStatus !== "preparing") return;
  polling = setTimeout(async () => {
    polling = null;
    await readSite();
    renderDeviceBox();
  }, PREPARING_POLL_MS);
}

/** What needs a server is off on the device, each with why. */
function renderServerOnly(device) {
  const friends = document.querySelector('input[name="against"][value="friends"]');
  if (friends) {
    friends.disabled = device;
    if (device && friends.checked) {
      friends.checked = false;
      document.querySelector('input[name="against"][value="computer"]').checked = true;
    }
  }
  const why = $("#device-friends");
  why.hidden = !device;
  why.textContent = device ? t("page.device.friends_need_server") : "";
  serverOnly("#champ-new", "#device-champ", "page.device.champ_need_server", device);
  // the deal of the day: on the device, today's offline deal when a server handed it out ahead
  // (daily-offline.js); from a server's page without it, open the game once with a connection
  const deal = device && todaysDeal();
  serverOnly("#open-daily", "#device-daily", where.server ? "page.device.daily_need_connection" : "page.device.daily_need_server", device && !deal);
  // the public lobby and the leaderboard are the server's
  $("#lobby").hidden = device;
  $("#nav-leaderboard").hidden = device;
}

/** An entry only a server has (a championship, the deal of the day): on the device, disabled and the
 * line under it says why. */
function serverOnly(entry, line, key, device) {
  const button = $(entry);
  if (button) button.disabled = device;
  const why = $(line);
  if (why) {
    why.hidden = !device;
    why.textContent = device ? t(key) : "";
  }
}

/** Show the box as the transport and the pack stand (again after a language switch). */
export function renderDeviceBox() {
  const box = $("#device-box");
  if (!box) return;
  const device = onDevice();
  const status = where.packStatus;
  const offer = !device && where.server && where.pack;
  const told = !device && where.server && !where.pack && (status === "preparing" || status === "failed");
  box.hidden = !device && !offer && !told;
  box.dataset.mode = device ? "device" : "server";
  box.dataset.pack = status;
  const note = $("#device-note");
  const toggle = $("#device-toggle");
  const sub = $("#device-sub");
  if (!downloading) {
    if (message) note.textContent = t(message);
    else if (device) note.textContent = t("page.device.on");
    else if (told) note.textContent = t(status === "preparing" ? "page.device.preparing" : "page.device.pack_failed");
    else note.textContent = "";
  }
  note.hidden = !note.textContent;
  sub.hidden = device || !offer;
  sub.textContent = offer ? t("page.device.offer_sub", { mb: megabytes() }) : "";
  toggle.hidden = (device && !where.server) || told;
  toggle.textContent = device ? t("page.device.use_server") : t("page.device.offer");
  toggle.disabled = downloading;
  renderServerOnly(device);
  if (told) pollWhilePreparing();
}

async function switchTransport() {
  if (onDevice()) {
    preferDevice(false);
    location.reload();
    return;
  }
  const progress = $("#device-progress");
  const note = $("#device-note");
  downloading = true;
  message = null;
  progress.hidden = false;
  progress.value = 0;
  renderDeviceBox();
  note.hidden = false;
  note.textContent = t("page.device.downloading", { percent: 0 });
  try {
    await cachePack((done, total) => {
      progress.max = Math.max(1, total);
      progress.value = done;
      note.textContent = t("page.device.downloading", { percent: percent(done, total) });
    });
    preferDevice(true);
    await fetchOfflineDays(); // the next days' offline deals, while the server is there
    location.reload();
  } catch (err) {
    downloading = false;
    progress.hidden = true;
    message = FAILURES[err?.code] ?? "page.device.unavailable";
    if (!FAILURES[err?.code]) console.warn("offline pack", err);
    $("#device-box").dataset.failed = err?.code || "unknown";
    renderDeviceBox();
  }
}

/** Wire the box's button, and cache the pack when the page is installed as an app. */
export function wireDeviceBox() {
  $("#device-toggle")?.addEventListener("click", switchTransport);
  window.addEventListener("appinstalled", () => {
    if (!where.pack || onDevice()) return;
    packState()
      .then((state) => (state.cached ? null : cachePack(() => {})))
      .catch(() => {});
  });
  document.addEventListener("device-storage-refused", () => showError(t("page.device.saved_refused")));
}
