// Install and offline (docs/web.md "Install and offline"): the service worker and the offline pack in
// Cache Storage.
//
//   (a page module imports registerServiceWorker, packState and cachePack of this module)
//   await registerServiceWorker();                  // null where there is no service worker
//   const { cached, bytes } = await packState();    // is the pack stored? how big is it?
//   const pack = await storedPack();                  // the stored pack's pack.json (no network), or null
//   await cachePack((done, total) => show(done / total));  // rejects with error.code "storage_refused",
//                                                            // "offline", "unavailable" or "corrupt"
//
// The pack is device/pack.json and every file it lists, kept in one cache per pack ("cuarenta-pack-"
// and the pack's id); pack.json is stored last, so a cache with pack.json is whole. Once a new pack is
// whole, the caches of older packs are deleted.

export const PACK_PREFIX = "cuarenta-pack-";
const PACK_JSON = "device/pack.json";

function failure(code, message) {
  const error = new Error(message);
  error.code = code;
  return error;
}

function url(path) {
  return new URL(path, document.baseURI).href;
}

/** Register sw.js (scope: the page's base). Never throws: null when it cannot. */
export async function registerServiceWorker() {
  try {
    if (!("serviceWorker" in navigator)) return null;
    return await navigator.serviceWorker.register(url("sw.js"), { scope: url("./") });
  } catch (error) {
    console.warn("service worker not registered:", error);
    return null;
  }
}

function packBytes(pack) {
  return Object.values(pack.files).reduce((sum, file) => sum + file.bytes, 0);
}

/** The pack.json of every whole pack in Cache Storage, newest last. */
async function cachedPacks() {
  if (!("caches" in self)) return [];
  const packs = [];
  for (const name of await caches.keys()) {
    if (!name.startsWith(PACK_PREFIX)) continue;
    const stored = await (await caches.open(name)).match(url(PACK_JSON));
    if (stored) packs.push({ name, pack: await stored.json() });
  }
  return packs;
}

/** The pack.json of the newest whole pack in Cache Storage, or null; asks no network. */
export async function storedPack() {
  const stored = await cachedPacks();
  return stored.length ? stored[stored.length - 1].pack : null;
}

/** The server's (or static site's) pack.json past any cache: {pack} or {pack: null, offline}. */
async function currentPack() {
  try {
    const answer = await fetch(url(PACK_JSON) + "?fetch", { cache: "no-store" });
    return { pack: answer.ok ? await answer.json() : null, offline: false };
  } catch {
    return { pack: null, offline: true };
  }
}

/** Whether the pack is in Cache Storage (the current one, or any whole one when offline), and its size. */
export async function packState() {
  const [{ pack: current }, stored] = await Promise.all([currentPack(), cachedPacks()]);
  if (current) {
    const cached = stored.some((s) => s.pack.id === current.id);
    return { cached, bytes: packBytes(current) };
  }
  const last = stored[stored.length - 1];
  return last ? { cached: true, bytes: packBytes(last.pack) } : { cached: false, bytes: 0 };
}

async function hex(buffer) {
  const digest = await crypto.subtle.digest("SHA-256", buffer);
  return Array.from(new Uint8Array(digest), (b) => b.toString(16).padStart(2, "0")).join("");
}

function refused(error) {
  return error && (error.name === "QuotaExceededError" || error.code === 22);
}

/** Read one file of the pack with byte progress; checks its size and SHA-256 against pack.json. */
async function download(path, expected, onBytes) {
  let answer;
  try {
    answer = await fetch(url("device/" + path) + "?fetch", { cache: "no-store" });
  } catch {
    throw failure("offline", `device/${path}: the network is off`);
  }
  if (!answer.ok) throw failure("unavailable", `device/${path}: ${answer.status}`);
  const parts = [];
  const reader = answer.body.getReader();
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      parts.push(value);
      onBytes(value.byteLength);
    }
  } catch {
    throw failure("offline", `device/${path}: the network went off during the download`);
  }
  const body = await new Blob(parts).arrayBuffer();
  if (body.byteLength !== expected.bytes || (await hex(body)) !== expected.sha256) {
    throw failure("corrupt", `device/${path} is not the file pack.json describes`);
  }
  const type = answer.headers.get("content-type") || "application/octet-stream";
  return new Response(body, { headers: { "content-type": type, "content-length": String(body.byteLength) } });
}

async function checkRoom(needed) {
  if (!navigator.storage) return;
  if (navigator.storage.persist) {
    try {
      await navigator.storage.persist(); // asked for; a "no" still lets the pack be stored (evictable)
    } catch {
      /* not allowed here: the pack may still be stored */
    }
  }
  if (navigator.storage.estimate) {
    const { quota, usage } = await navigator.storage.estimate();
    if (typeof quota === "number" && quota - (usage || 0) < needed) {
      throw failure("storage_refused", `the browser gives ${quota - (usage || 0)} bytes; the pack needs ${needed}`);
    }
  }
}

/**
 * Fetch device/pack.json and every file it lists into the pack's cache, calling onProgress(done, total)
 * in bytes. Rejects with an Error whose code is "storage_refused" (no room, or the browser refused to
 * store), "offline" (no network and no pack stored, or the network went off during the download),
 * "unavailable" (the site has no pack, or lost it) or "corrupt" (a file is not what pack.json says).
 * After a refusal, "unavailable" or "corrupt", the half-made cache is deleted (the next try starts afresh:
 * error.deleted is true); after "offline" it is kept, and the next try fetches only what is missing.
 */
export async function cachePack(onProgress = () => {}) {
  if (!("caches" in self)) throw failure("storage_refused", "this browser has no Cache Storage here");
  const { pack, offline } = await currentPack();
  if (!pack) {
    if ((await cachedPacks()).length) return; // a pack is kept: nothing to do until the site answers
    if (offline) throw failure("offline", "the pack cannot be fetched: the network is off");
    throw failure("unavailable", "this site has no offline pack");
  }
  const name = PACK_PREFIX + pack.id;
  const entries = Object.entries(pack.files);
  const total = packBytes(pack);
  let done = 0;
  // a cache is opened (made) only once there is room for what it will hold: a refusal leaves none behind
  const begun = (await caches.has(name)) ? await caches.open(name) : null;
  if (!begun || !(await begun.match(url(PACK_JSON)))) {
    const missing = [];
    for (const [path, file] of entries) {
      if (begun && (await begun.match(url("device/" + path)))) done += file.bytes;
      else missing.push([path, file]);
    }
    onProgress(done, total);
    try {
      await checkRoom(missing.reduce((sum, [, file]) => sum + file.bytes, 0));
      const cache = begun || (await caches.open(name));
      for (const [path, file] of missing) {
        const start = done;
        const answer = await download(path, file, (n) => {
          done = Math.min(start + file.bytes, done + n);
          onProgress(done, total);
        });
        await cache.put(url("device/" + path), answer);
        done = start + file.bytes;
      }
      const text = JSON.stringify(pack);
      await cache.put(url(PACK_JSON), new Response(text, { headers: { "content-type": "application/json" } }));
    } catch (error) {
      const coded = refused(error)
        ? failure("storage_refused", `the browser refused to store the pack: ${error.message}`)
        : error;
      if (coded.code !== "offline") {
        // half a pack is no use, and holds the person's storage: start afresh next time
        await caches.delete(name).catch(() => false);
        coded.deleted = true;
      }
      throw coded;
    }
  }
  onProgress(total, total);
  for (const other of await caches.keys()) {
    if (other.startsWith(PACK_PREFIX) && other !== name) await caches.delete(other);
  }
}
