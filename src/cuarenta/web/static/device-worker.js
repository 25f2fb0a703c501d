// The game on the device (docs/web.md "Playing on the device"): a Web Worker that runs the project's own
// Python — the engine, the computer players and the table authority — under Pyodide, and answers the page
// as the server would (device.js is the page's side). It loads the offline pack (device/pack.json: Pyodide,
// its standard library and the wheel built from the same tree as the server, each module compiled), keeps
// each room's stored data in IndexedDB, and holds back every frame for the page until the writes before it
// are stored: a move the page sees is a move that survives closing the tab.

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
/** Where each wheel is put in Pyodide's file system: a zip on sys.path, imported as it is (zipimport; its
 * modules' bytecode is in it, cuarenta.offline.compile.WHEEL_HOME). */
const WHEEL_HOME = "/lib/wheels";

async function boot(base, stored) {
  const started = performance.now();
  const ms = {};
  let last = started;
  const lap = (name) => {
    const now = performance.now();
    ms[name] = Math.round(now - last);
    last = now;
  };
  const at = (path) => new URL(path, base).href;
  // the pack stored on the device, as the page read it from Cache Storage: no network asked (a weak
  // signal must not hold the start); else the site's
  let pack = stored;
  if (!pack) {
    const packRes = await fetch(at("device/pack.json"));
    if (!packRes.ok) throw Object.assign(new Error(`device/pack.json: HTTP ${packRes.status}`), { code: "no_pack" });
    pack = await packRes.json();
  }
  // the wheels and the saved rooms are read while Pyodide starts
  const wheels = Promise.all(
    pack.wheels.map(async (wheel) => {
      const res = await fetch(at(`device/wheels/${wheel}`));
      if (!res.ok) throw Object.assign(new Error(`${wheel}: HTTP ${res.status}`), { code: "no_pack" });
      return [wheel, new Uint8Array(await res.arrayBuffer())];
    }),
  );
  const saved = openDb().then((opened) => {
    db = opened;
    return savedRooms();
  });
  lap("pack");
  post({ type: "progress", stage: "python" });
  const { loadPyodide } = await import(at("device/pyodide/pyodide.mjs"));
  const pyodide = await loadPyodide({
    indexURL: at("device/pyodide/"),
    // the pack's standard library: its modules the game uses are compiled already (docs/web.md)
    stdLibURL: pack.stdlib ? at(`device/${pack.stdlib}`) : undefined,
    stdout: () => {},
    stderr: (t) => console.warn(t),
  });
  lap("pyodide");
  pyodide.FS.mkdirTree(WHEEL_HOME);
  const paths = [];
  for (const [wheel, bytes] of await wheels) {
    pyodide.FS.writeFile(`${WHEEL_HOME}/${wheel}`, bytes);
    paths.push(`${WHEEL_HOME}/${wheel}`);
  }
  pyodide.globals.set("WHEELS", pyodide.toPy(paths));
  pyodide.runPython("import sys\nsys.path[0:0] = WHEELS\ndel WHEELS");
  lap("wheels");
  post({ type: "progress", stage: "saved" });
  const rooms = await saved;
  lap("saved");
  pyodide.runPython("from cuarenta.device import DeviceHost");
  lap("imports");
  pyodide.globals.set("SAVED", pyodide.toPy(rooms));
  pyodide.globals.set("SEND", send);
  pyodide.globals.set("PERSIST", persist);
  pyodide.runPython("host = DeviceHost(saved=SAVED, send=SEND, persist=PERSIST)\ndel SAVED");
  host = pyodide.globals.get("host");
  lap("start");
  const total = Math.round(performance.now() - started);
  post({
    type: "ready",
    pyodide: pack.pyodide,
    rooms: Object.keys(rooms).length,
    // python: to Pyodide started; host: from there to the host ready (docs/performance.md)
    ms: { ...ms, python: ms.pack + ms.pyodide, host: total - ms.pack - ms.pyodide, total },
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
    boot(m.base, m.pack || null).catch((err) => post({ type: "failed", code: err?.code || "boot_failed", message: String(err?.message || err) }));
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
