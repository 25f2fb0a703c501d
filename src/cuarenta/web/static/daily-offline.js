// The deal of the day on the device (docs/web.md "The deal of the day", "Playing on the device"): the
// online deal's seed never leaves the server, so the device plays the day's **offline** deal, another seed a
// server hands out a week ahead (`GET api/daily/offline`), and sends its result later (`POST
// api/daily/offline`), to be ranked among that day's offline results. Both are asked of the server itself
// (api.js `serverRequest`), never of the device's worker.
//
//   await fetchOfflineDays();   // on the device with a server: the next days' offline seeds, kept here
//   todaysDeal();               // {day, seed} of today (UTC) if kept, else null
//   await mesaOver(session);    // a finished offline deal's mesa: its record into the outbox, then sent
//   await sendOutbox();         // what waits is sent when a server answers (at load, on `online`)
//   onDailyChange(hook);        // hook() after the kept days, the outbox or the sent results changed
//   resultWords(resultOf(room)) // where a finished offline deal's result stands, in the page's words
//   showResultNote(session);    // the result panel's line for it (and the mesa into the outbox)
//
// localStorage: `cuarenta.daily.offline` {days: [{day, seed}], rules, level}; `cuarenta.daily.outbox`
// [{day, room, record, name}]; `cuarenta.daily.sent` [{day, room, entry, place, beats, count, result, score}
// or {day, room, refused, code}]. Nothing here is the online deal's.

import * as I from "./i18n.js";
import { authorized, request, serverApi, serverRequest } from "./api.js";
import { onDevice, where } from "./device.js";
import { $ } from "./dom.js";
import { KEYS, load, store } from "./storage.js";

const { t } = I;

/** How long the page waits for the server's offline deals (milliseconds): a weak signal holds nothing. */
const FETCH_MS = 10_000;
/** How many sent results are kept (the newest). */
const SENT_KEPT = 30;

const hooks = [];
let sending = null;

/** Today's day of the deal of the day: the date in UTC ("2026-12-05"), as the server's `today()`. */
export function utcToday() {
  return new Date().toISOString().slice(0, 10);
}

/** Call `hook()` whenever the kept days, the outbox or the sent results change. */
export function onDailyChange(hook) {
  hooks.push(hook);
}

/** Whether a server may answer now: the page came from one, and the browser does not know itself offline
 * (then nothing is asked: it would only fail). */
function reachable() {
  return where.server && navigator.onLine !== false;
}

function changed() {
  for (const hook of hooks) hook();
}

/** The kept offline days, past days dropped: {days, rules, level} or null. */
export function offlineDays() {
  const kept = load(KEYS.dailyOffline);
  if (!kept || !Array.isArray(kept.days)) return null;
  const today = utcToday();
  return { ...kept, days: kept.days.filter((d) => typeof d?.day === "string" && d.day >= today) };
}

/** Today's offline deal, `{day, seed}`, when this device keeps it; else null. */
export function todaysDeal() {
  const today = utcToday();
  return offlineDays()?.days.find((d) => d.day === today && typeof d.seed === "string") ?? null;
}

/** Ask the server for the offline deals of today and the next days and keep them (past days dropped).
 * Quietly nothing when no server answers (offline, a static site): what was kept stays. */
export async function fetchOfflineDays() {
  if (!reachable()) return false;
  let answer;
  try {
    answer = await serverApi("api/daily/offline", { signal: AbortSignal.timeout(FETCH_MS) });
  } catch {
    return false;
  }
  if (!answer || !Array.isArray(answer.days)) return false;
  const today = utcToday();
  const days = answer.days.filter((d) => typeof d?.day === "string" && typeof d.seed === "string" && d.day >= today);
  store(KEYS.dailyOffline, { days: days.map((d) => ({ day: d.day, seed: d.seed })), rules: answer.rules, level: answer.level });
  changed();
  return true;
}

/** What waits to be sent: [{day, room, record, name}]. */
export function outbox() {
  const kept = load(KEYS.dailyOutbox);
  return Array.isArray(kept) ? kept.filter((item) => item && typeof item.record === "string") : [];
}

/** The results sent (or refused), newest first. */
export function sentResults() {
  const kept = load(KEYS.dailySent);
  return Array.isArray(kept) ? kept.filter((item) => item && typeof item.day === "string") : [];
}

/** Where the result of the offline deal played in `room` stands: {state: "pending"} (in the outbox),
 * {state: "sent", ...the server's answer}, {state: "refused", refused, code}, or null (not finished here). */
export function resultOf(room) {
  if (!room) return null;
  if (outbox().some((item) => item.room === room)) return { state: "pending" };
  const sent = sentResults().find((item) => item.room === room);
  if (!sent) return null;
  return { state: sent.refused ? "refused" : "sent", ...sent };
}

/** The device's offline deal of the day in `session`'s room is over: its record (the worker's: the mesa is
 * over, so it shows nothing the seat may not see) goes into the outbox, once, and is sent when it can be. */
export async function mesaOver(session) {
  const kept = load(KEYS.daily);
  if (!onDevice() || !session || !kept || kept.room !== session.room || resultOf(session.room)) return;
  let record;
  try {
    const res = await request(`api/games/${encodeURIComponent(session.room)}/record?mesa=1`, authorized(session.token));
    if (!res.ok) return;
    record = await res.text();
  } catch {
    return;
  }
  if (resultOf(session.room)) return; // queued meanwhile (the result shown again)
  store(KEYS.dailyOutbox, [...outbox(), { day: kept.day, room: session.room, record, name: kept.name ?? "" }]);
  changed();
  await sendOutbox();
}

/** Send what waits in the outbox to the server: a 200 moves it to the sent results, a refusal (4xx) too
 * with its detail; with no network, or a server that fails, it waits for the next time. */
export function sendOutbox() {
  if (!sending) sending = sendAll().finally(() => (sending = null));
  return sending;
}

async function sendAll() {
  if (!reachable() || !outbox().length) return;
  for (const item of outbox()) {
    let res;
    let body = null;
    try {
      const init = { method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify({ record: item.record, name: item.name ?? "" }) };
      res = await serverRequest("api/daily/offline", init);
      body = await res.json().catch(() => null);
    } catch {
      return; // no network: everything waits
    }
    if (res.status >= 500 || res.status === 429 || (res.ok && !body)) return; // the server cannot now: later
    const done = res.ok
      ? { day: body.day ?? item.day, room: item.room, entry: body.entry, place: body.place, beats: body.beats, count: body.count, result: body.result, score: body.score }
      : { day: item.day, room: item.room, refused: typeof body?.detail === "string" ? body.detail : `HTTP ${res.status}`, code: body?.code ?? "" };
    store(KEYS.dailyOutbox, outbox().filter((other) => other.room !== item.room || other.record !== item.record));
    store(KEYS.dailySent, [done, ...sentResults().filter((other) => other.room !== item.room)].slice(0, SENT_KEPT));
    changed();
  }
}

/** The day's offline ranking from the server (`GET api/daily?day&offline=true[&entry]`); null when no
 * server answers. */
export async function offlineRanking(day, entry) {
  if (!reachable()) return null;
  const query = `day=${encodeURIComponent(day)}&offline=true${entry ? `&entry=${encodeURIComponent(entry)}` : ""}`;
  try {
    return await serverApi(`api/daily?${query}`);
  } catch {
    return null;
  }
}

/** Where a result stands among `count` results of which it beats the share `beats`, in the page's words:
 * alone, the day's first result (beating "100 % of the others" when there are none says nothing). */
export function standingWords(count, beats) {
  return count > 1 ? t("page.daily.beats", { beats: Math.round(100 * (beats ?? 0)) }) : t("page.daily.first");
}

/** Where a result of `resultOf` stands, in the page's words: to be sent, its place among the offline
 * results, or why the server refused it. */
export function resultWords(result) {
  if (!result) return "";
  if (result.state === "pending") return t("page.daily.will_send");
  if (result.state === "refused") return t("page.daily.refused", { detail: result.refused });
  const [you, rival] = Array.isArray(result.score) ? result.score : ["?", "?"];
  return t("page.daily.offline_mine", { you, rival, place: result.place, count: result.count, standing: standingWords(result.count, result.beats) });
}

/** The result panel of the device's offline deal of the day (`session`'s room): its mesa goes into the
 * outbox, and the line under the result says it will be sent, or where it stands once sent. Hidden for
 * any other game. */
export function showResultNote(session) {
  const note = $("#result-daily-note");
  if (!note) return;
  const kept = load(KEYS.daily);
  const ours = onDevice() && Boolean(session) && kept?.room === session.room;
  if (ours) mesaOver(session);
  const result = ours ? resultOf(session.room) : null;
  note.hidden = !result;
  note.dataset.state = result?.state ?? "";
  note.textContent = resultWords(result);
}
