// The game on the device (docs/web.md "Playing on the device"): a Web Worker that runs the project's own
// Python — the engine, the computer players and the table authority — under Pyodide, and answers the page
// as the server would (device.js is the page's side). It loads the offline pack (device/pack.json: Pyodide
// and the wheels built from the same tree as the server), keeps each room's stored data in IndexedDB, and
// holds back every frame for the page until the writes before it are stored: a move the page sees is a
// move that survives closing the tab.

const DB_NAME = "cuarenta-device";
const DB_STORE = "rooms";

let host = null; // the Python DeviceHost, once booted
let db = null;
let writing = 0; // IndexedDB writes not yet committed
let held = []; // frames waiting for those writes

function post(message) {
  self.postMessage(message);
}

// -- IndexedDB: one record per room, its stored data as the host gives it -------------------------------
function openDb() {
  return new Promise((resolve, reject) => {
    const req = indexedDB.open(DB_NAME, 1);
    req.onupgradeneeded = () => req.result.createObjectStore(DB_STORE);
    req.onsuccess = () => resolve(req.result);
    req.onerror = () => reject(req.error);
  });
}

function savedRooms() {
  return new Promise((resolve, reject) => {
    const out = {};
    const tx = db.transaction(DB_STORE, "readonly");
    const req = tx.objectStore(DB_STORE).openCursor();
    req.onsuccess = () => {
      const cursor = req.result;
      if (!cursor) return;
      if (typeof cursor.value === "string") out[String(cursor.key)] = cursor.value;
      cursor.continue();
    };
    tx.oncomplete = () => resolve(out);
    tx.onerror = () => reject(tx.error);
  });
}

function flush() {
  if (writing > 0) return;
  const frames = held;
  held = [];
  for (const frame of frames) post(frame);
}

/** PERSIST(room, text): the host stored a room (text null: deleted). */
function persist(room, text) {
  room = String(room);
  text = text === null || text === undefined ? null : String(text);
  writing += 1;
  const done = (ok, error) => {
    writing -= 1;
    if (!ok) post({ type: "storage", ok: false, reason: String(error?.name || error || "unknown") });
    flush();
  };
  try {
    const tx = db.transaction(DB_STORE, "readwrite");
    const store = tx.objectStore(DB_STORE);
    if (text === null) store.delete(room);
    else store.put(text, room);
    tx.oncomplete = () => done(true);
    tx.onerror = () => done(false, tx.error);
    tx.onabort = () => done(false, tx.error);
  } catch (err) {
    done(false, err);
  }
}

/** SEND(conn, text): a frame for one of the page's connections, once what came before it is stored. */
function send(conn, text) {
  held.push({ type: "frame", conn: Number(conn), text: String(text) });
  flush();
}

// -- boot -------------------------------------------------------------------------------------------------
async function boot(base) {
  const started = performance.now();
  const at = (path) => new URL(path, base).href;
  const packRes = await fetch(at("device/pack.json"));
  if (!packRes.ok) throw Object.assign(new Error(`device/pack.json: HTTP ${packRes.status}`), { code: "no_pack" });
  const pack = await packRes.json();
  post({ type: "progress", stage: "python" });
  const { loadPyodide } = await import(at("device/pyodide/pyodide.mjs"));
  const pyodide = await loadPyodide({ indexURL: at("device/pyodide/"), stdout: () => {}, stderr: (t) => console.warn(t) });
  const loaded = performance.now();
  for (const wheel of pack.wheels) {
    const res = await fetch(at(`device/wheels/${wheel}`));
    if (!res.ok) throw Object.assign(new Error(`${wheel}: HTTP ${res.status}`), { code: "no_pack" });
    pyodide.unpackArchive(await res.arrayBuffer(), "wheel");
  }
  post({ type: "progress", stage: "saved" });
  db = await openDb();
  const saved = await savedRooms();
  pyodide.globals.set("SAVED", pyodide.toPy(saved));
  pyodide.globals.set("SEND", send);
  pyodide.globals.set("PERSIST", persist);
  pyodide.runPython(
    "from cuarenta.device import DeviceHost\nhost = DeviceHost(saved=SAVED, send=SEND, persist=PERSIST)\ndel SAVED",
  );
  host = pyodide.globals.get("host");
  const ready = performance.now();
  post({
    type: "ready",
    pyodide: pack.pyodide,
    rooms: Object.keys(saved).length,
    ms: { python: Math.round(loaded - started), host: Math.round(ready - loaded), total: Math.round(ready - started) },
  });
}

// -- the page's requests ----------------------------------------------------------------------------------
function answer(id, run) {
  try {
    post({ type: "answer", id, ok: true, value: run() });
  } catch (err) {
    post({ type: "answer", id, ok: false, error: String(err?.message || err) });
  }
  flush();
}

self.addEventListener("message", (event) => {
  const m = event.data || {};
  if (m.type === "boot") {
    boot(m.base).catch((err) => post({ type: "failed", code: err?.code || "boot_failed", message: String(err?.message || err) }));
    return;
  }
  if (!host) {
    if (m.id !== undefined) post({ type: "answer", id: m.id, ok: false, error: "the device game is not ready" });
    return;
  }
  if (m.type === "http") answer(m.id, () => host.http(m.method, m.path, m.body ?? null, m.token ?? null));
  else if (m.type === "open") answer(m.id, () => host.open());
  else if (m.type === "send") answer(m.id, () => host.receive(m.conn, m.text));
  else if (m.type === "close") answer(m.id, () => host.close(m.conn));
});
