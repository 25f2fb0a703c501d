// The choice "play on this device" on the new-game screen (docs/web.md "Playing on the device"): the
// note of where the game runs, the download of the offline pack with its progress, and the switch back to
// the server. device.js is the transport; offline.js caches the pack and registers the service worker.

import * as I from "./i18n.js";
import { $ } from "./dom.js";
import { showError } from "./errors.js";
import { onDevice, preferDevice, where } from "./device.js";
import { cachePack, packState } from "./offline.js";

const { t } = I;

let downloading = false;
let message = null; // the key of the box's last line when it is not the default one

function percent(done, total) {
  return total > 0 ? Math.floor((100 * done) / total) : 0;
}

/** Show the box as the transport and the pack stand (again after a language switch). */
export function renderDeviceBox() {
  const box = $("#device-box");
  if (!box) return;
  const device = onDevice();
  const offer = !device && where.server && where.pack;
  box.hidden = !device && !offer;
  box.dataset.mode = device ? "device" : "server";
  const note = $("#device-note");
  const toggle = $("#device-toggle");
  const sub = $("#device-sub");
  if (!downloading) note.textContent = message ? t(message) : device ? t("page.device.on") : "";
  note.hidden = !note.textContent;
  sub.hidden = device;
  sub.textContent = device ? "" : t("page.device.offer_sub");
  toggle.hidden = device && !where.server;
  toggle.textContent = device ? t("page.device.use_server") : t("page.device.offer");
  toggle.disabled = downloading;
  // with friends needs a server: on the device the choice is off, and says why
  const friends = document.querySelector('input[name="against"][value="friends"]');
  if (friends) {
    friends.disabled = device;
    if (device && friends.checked) {
      friends.checked = false;
      document.querySelector('input[name="against"][value="computer"]').checked = true;
    }
  }
  // the public lobby and the leaderboard are the server's
  $("#lobby").hidden = device;
  $("#nav-leaderboard").hidden = device;
  const why = $("#device-friends");
  why.hidden = !device;
  why.textContent = device ? t("page.device.friends_need_server") : "";
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
    location.reload();
  } catch (err) {
    downloading = false;
    progress.hidden = true;
    message = err?.code === "offline" ? "page.device.offline" : "page.device.storage_refused";
    if (err?.code !== "storage_refused" && err?.code !== "offline") console.warn("offline pack", err);
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
