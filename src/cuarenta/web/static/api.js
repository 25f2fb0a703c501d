// Every HTTP call of the page goes through here (docs/web.md): tokens in an Authorization header, never
// in an address; a JSON body; the detail of an error answer. No DOM and no page state: the callers decide
// what to show. When the page plays on the device (device.js), the same calls go to the worker's host.

import { deviceFetch, onDevice } from "./device.js";

/** `init` with the seat's token in an Authorization header. */
export function authorized(token, init = {}) {
  return { ...init, headers: { ...(init.headers ?? {}), Authorization: `Bearer ${token}` } };
}

/** `fetch(path, init)`: the one door of the page to the server's HTTP API (or to the device's host). */
export function request(path, init = {}) {
  if (onDevice() && String(path).startsWith("api/")) return deviceFetch(path, init);
  return fetch(path, init);
}

/** POST `body` as JSON (with a token in a header when `token` is given). */
export function postJSON(path, body, token = null) {
  const init = { method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify(body ?? {}) };
  return request(path, token ? authorized(token, init) : init);
}

/** `fetch(path, init)` to the server itself, even when the page plays on the device: what only a server
 * has and the device needs ahead or sends later (the offline deal of the day: daily-offline.js). Rejects
 * (a TypeError) when the network is off. */
export function serverRequest(path, init = {}) {
  return fetch(path, init);
}

/** A JSON answer of the API (the rating pages); an Error with the server's `detail` otherwise. */
export async function api(path, options = {}) {
  return answerOf(await request(path, { cache: "no-store", ...options }));
}

/** A JSON answer of the server itself (`serverRequest`), as `api` reads one. */
export async function serverApi(path, options = {}) {
  return answerOf(await serverRequest(path, { cache: "no-store", ...options }));
}

/** The JSON body of an answer; an Error with the answer's `detail`, `status` and `code` when it is not ok. */
async function answerOf(res) {
  let body = null;
  try {
    body = await res.json();
  } catch {
    body = null;
  }
  if (!res.ok) {
    const error = new Error(typeof body?.detail === "string" ? body.detail : `HTTP ${res.status}`);
    error.status = res.status;
    error.code = body?.code ?? "";
    throw error;
  }
  return body;
}

/** The catalogue of texts of `lang` (`GET api/texts/{lang}`, revalidated with its ETag). Never from the
 * device's host: the page needs its words before that has started, and a static site and the service
 * worker hold them as files. */
export async function texts(lang) {
  const res = await fetch(`api/texts/${encodeURIComponent(lang)}`, { cache: "no-cache" });
  if (!res.ok) throw new Error(`HTTP ${res.status}`);
  return (await res.json()).texts;
}

/** The record of a finished mesa as a Blob, fetched with the seat's token in a header. */
export async function record(room, token, mesa) {
  const query = mesa ? `?mesa=${encodeURIComponent(mesa)}` : "";
  const res = await request(`api/games/${encodeURIComponent(room)}/record${query}`, authorized(token));
  if (!res.ok) {
    const body = await res.json().catch(() => null);
    throw new Error(errorDetail(body) || `HTTP ${res.status}`);
  }
  return res.blob();
}

export function errorDetail(body) {
  if (!body) return "";
  const d = body.detail ?? body.message ?? body.error;
  if (typeof d === "string") return d;
  if (Array.isArray(d)) return d.map((x) => x.msg ?? JSON.stringify(x)).join("; ");
  return d ? JSON.stringify(d) : "";
}

// -- taking a seat back (docs/tables.md "Taking a seat back"): the code in a POST body, never in a URL ----
/** Take a seat back with the table's invite and the person's seat code: `{room, seat, token, code}`. */
export function reclaimSeat(room, invite, code) {
  return postJSON(`api/tables/${encodeURIComponent(room)}/reclaim`, { invite, code });
}

/** A new seat code for the token's seat (the old one stops working): `{room, seat, code}`. */
export function newSeatCode(room, token) {
  return postJSON(`api/tables/${encodeURIComponent(room)}/code`, {}, token);
}

/** The creator gives an away person's seat to someone new (the table's facts come back). */
export function handOverSeat(room, token, seat) {
  return postJSON(`api/tables/${encodeURIComponent(room)}/seats/${encodeURIComponent(seat)}/handover`, {}, token);
}

/** The table's facts for a seat's holder (its invite among them). */
export function tableFacts(room, token) {
  return request(`api/tables/${encodeURIComponent(room)}`, { cache: "no-store", ...authorized(token) });
}

// -- championships (docs/web.md "Championships"): a link's token goes in a header, never in an address ----
/** `GET`/`POST api/championships[/ID]PATH` as JSON (`body` given: a POST), with `token` (the organiser's,
 * the judge's or a pair's) in an Authorization header; an Error with the server's `detail`, `code` and
 * `params` (the values of the refusal's words, when it has some). */
export async function championship(id, path = "", { body, token } = {}) {
  const url = `api/championships${id ? `/${encodeURIComponent(id)}` : ""}${path}`;
  let init = body === undefined ? {} : { method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify(body) };
  if (token) init = authorized(token, init);
  const res = await request(url, { cache: "no-store", ...init });
  const answer = await res.json().catch(() => null);
  if (!res.ok) {
    const error = new Error(errorDetail(answer) || `HTTP ${res.status}`);
    error.status = res.status;
    error.code = answer?.code ?? "";
    error.params = answer?.params ?? {};
    throw error;
  }
  return answer;
}

/** The address of a championship's standings as a file (`csv` or `json`): public, no token. */
export function standingsFile(id, kind) {
  return `api/championships/${encodeURIComponent(id)}/standings.${kind}`;
}

/** A text as a QR code: the SVG markup `POST api/qr` answers, or null. */
export async function qrMarkup(text) {
  const res = await postJSON("api/qr", { text });
  return res.ok ? res.text() : null;
}
