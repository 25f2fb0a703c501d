// The page's transport to the game on the device (docs/web.md "Playing on the device"): the Web Worker of
// device-worker.js runs the project's Python under Pyodide and answers the page's HTTP requests and
// socket messages as the server does, so every screen works the same. This module chooses the transport
// at start (the server's socket, or the worker), starts the worker, and gives the page a `fetch`-like
// door and a Connection-like socket to it. No rule of the game is here.

import { PROTOCOL } from "./connection.js";
import { KEYS, load, store } from "./storage.js";

/** What the page runs on: `mode` "server" or "device"; `server` whether a Cuarenta server answers this
 * page (false on a static site, or offline); `pack` whether the server has the offline pack, `packStatus`
 * where it stands ("ready", "preparing": the server is making it, "failed": it could not, "absent") and
 * `packBytes` what downloading it costs this browser (site.json). */
export const where = { mode: "server", server: true, pack: false, packStatus: "absent", packBytes: 0, booted: null };

/** Read `site.json` (the server's or the static site's) into `where`; null when nothing answers. */
export async function readSite() {
  let site = null;
  try {
    const res = await fetch("site.json", { cache: "no-store" });
    if (res.ok) site = await res.json();
  } catch {
    site = null; // offline, or no server: the service worker's copy, if any, answered nothing
  }
  where.server = Boolean(site?.server);
  where.pack = site ? site.pack !== false : true;
  where.packStatus = site?.pack_status ?? (where.pack ? "ready" : "absent");
  where.packBytes = Number(site?.pack_bytes) || 0;
  return site;
}

let worker = null;
let nextId = 1;
const waiting = new Map(); // request id → {resolve, reject}
const sockets = new Map(); // connection id → DeviceConnection
let readyPromise = null;
const progressHooks = [];

/** Call `hook(stage)` while the device game starts ("pack", "python", "saved", "ready"). */
export function onProgress(hook) {
  progressHooks.push(hook);
}

/** Read `site.json` (the server's or the static site's) and the person's choice: the transport of this
 * visit. A page with no answer at all (offline) plays on the device when its pack is cached. */
export async function chooseTransport() {
  await readSite();
  const chosen = load(KEYS.device, false) === "1";
  where.mode = !where.server || chosen ? "device" : "server";
  document.body.dataset.transport = where.mode;
  return where.mode;
}

/** Whether the page plays on the device this visit. */
export function onDevice() {
  return where.mode === "device";
}

/** Choose the device (true) or the server (false) for the next visits; the page reloads to switch. */
export function preferDevice(yes) {
  store(KEYS.device, yes ? "1" : null);
}

/** Start the worker (once) and wait until its Python host is ready: `{pyodide, rooms, ms}`. `pack` is the
 * pack.json of the pack stored on the device (the worker then asks no network for it), or null. */
export function startDevice(pack = null) {
  if (readyPromise) return readyPromise;
  readyPromise = new Promise((resolve, reject) => {
    try {
      worker = new Worker(new URL("./device-worker.js", import.meta.url), { type: "module" });
    } catch (err) {
      reject(Object.assign(new Error(String(err?.message || err)), { code: "no_worker" }));
      return;
    }
    for (const hook of progressHooks) hook("pack");
    worker.addEventListener("message", (event) => {
      const m = event.data || {};
      if (m.type === "ready") {
        where.booted = m;
        for (const hook of progressHooks) hook("ready");
        resolve(m);
      } else if (m.type === "failed") {
        reject(Object.assign(new Error(m.message), { code: m.code }));
      } else if (m.type === "progress") {
        for (const hook of progressHooks) hook(m.stage);
      } else if (m.type === "answer") {
        const w = waiting.get(m.id);
        waiting.delete(m.id);
        if (w) (m.ok ? w.resolve : w.reject)(m.ok ? m.value : new Error(m.error));
      } else if (m.type === "frame") {
        sockets.get(m.conn)?.deliver(m.text);
      } else if (m.type === "storage" && !m.ok) {
        document.body.dataset.deviceStorage = "refused";
        document.dispatchEvent(new CustomEvent("device-storage-refused", { detail: m.reason }));
      }
    });
    worker.addEventListener("error", (event) => {
      reject(Object.assign(new Error(event.message || "the device game could not start"), { code: "boot_failed" }));
    });
    worker.postMessage({ type: "boot", base: new URL(".", location.href).href, pack });
  });
  return readyPromise;
}

function ask(message) {
  return startDevice().then(
    () =>
      new Promise((resolve, reject) => {
        const id = nextId++;
        waiting.set(id, { resolve, reject });
        worker.postMessage({ ...message, id });
      }),
  );
}

function headerToken(init) {
  const auth = init?.headers?.Authorization ?? init?.headers?.authorization;
  return typeof auth === "string" && auth.startsWith("Bearer ") ? auth.slice(7) : null;
}

/** `fetch(path, init)` answered by the device host: a real Response, so callers read it as the server's. */
export async function deviceFetch(path, init = {}) {
  const reply = JSON.parse(
    await ask({
      type: "http",
      method: (init.method || "GET").toUpperCase(),
      path: String(path),
      body: typeof init.body === "string" ? init.body : null,
      token: headerToken(init),
    }),
  );
  if (typeof reply.text === "string") {
    const headers = { "Content-Type": reply.type || "application/octet-stream" };
    if (reply.filename) headers["Content-Disposition"] = `attachment; filename="${reply.filename}"`;
    return new Response(reply.text, { status: reply.status, headers });
  }
  return new Response(JSON.stringify(reply.body ?? null), {
    status: reply.status,
    headers: { "Content-Type": "application/json" },
  });
}

/** The socket of the device: the same interface as connection.js's Connection. */
export class DeviceConnection {
  constructor(room, on) {
    this.room = room;
    this.on = on;
    this.closed = false;
    this.id = null;
    ask({ type: "open" }).then(
      (id) => {
        if (this.closed) {
          ask({ type: "close", conn: id }).catch(() => {});
          return;
        }
        this.id = id;
        sockets.set(id, this);
        this.on.state("open");
        this.on.open();
      },
      () => this.on.state("lost"),
    );
  }

  deliver(text) {
    let msg;
    try {
      msg = JSON.parse(text);
    } catch {
      return;
    }
    if (msg && typeof msg === "object" && !this.closed) this.on.message(msg);
  }

  /** Send `obj` (with `v`); false before the worker's connection is open. */
  send(obj) {
    if (this.closed || this.id === null) return false;
    ask({ type: "send", conn: this.id, text: JSON.stringify({ v: PROTOCOL, ...obj }) }).catch(() => {});
    return true;
  }

  close() {
    this.closed = true;
    if (this.id !== null) {
      sockets.delete(this.id);
      ask({ type: "close", conn: this.id }).catch(() => {});
    }
  }
}
