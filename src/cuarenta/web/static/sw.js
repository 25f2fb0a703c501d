// The service worker (docs/web.md "Install and offline"), at the page's base so its scope is the page.
//
// - install: precache the page shell (the list of device/shell.json: the page, its modules, styles,
//   rules pages, icons, site.json, the page's words api/texts/LANG) in the cache "cuarenta-shell-ID". The big pack (Pyodide, the wheel)
//   is NOT precached here: offline.js's cachePack() stores it, in "cuarenta-pack-ID".
// - fetch: the page shell stale-while-revalidate; device/pack.json and device/shell.json network first
//   (the cached copy offline); the pack's other files cache first; api/texts/ as the shell; the rest of
//   api/ and anything not of this origin never cached (network only; the WebSocket does not pass here). A device/ request with "?fetch" in its
//   address goes to the network (cachePack fetches a new pack so, past an older pack's cache).
// - activate: the shell caches of older versions are deleted (older packs are deleted by cachePack once
//   a new pack is whole, so an installed game never loses its pack to an update half done).
"use strict";

const SHELL_PREFIX = "cuarenta-shell-";
const PACK_PREFIX = "cuarenta-pack-";
const META = "cuarenta-meta";
const BASE = new URL("./", self.location.href);

let shellName = null;

async function currentShell() {
  if (shellName) return shellName;
  const meta = await caches.open(META);
  const stored = await meta.match(new URL("current-shell", BASE));
  shellName = stored ? await stored.text() : SHELL_PREFIX + "0";
  return shellName;
}

self.addEventListener("install", (event) => {
  event.waitUntil(
    (async () => {
      const answer = await fetch(new URL("device/shell.json", BASE), { cache: "no-cache" });
      if (!answer.ok) throw new Error(`device/shell.json: ${answer.status}`);
      const shell = await answer.json();
      const name = SHELL_PREFIX + (shell.id || "0");
      const cache = await caches.open(name);
      await cache.addAll(shell.files.map((file) => new Request(new URL(file, BASE), { cache: "no-cache" })));
      await cache.put(new URL("device/shell.json", BASE), new Response(JSON.stringify(shell)));
      const meta = await caches.open(META);
      await meta.put(new URL("current-shell", BASE), new Response(name));
      shellName = name;
      await self.skipWaiting();
    })(),
  );
});

self.addEventListener("activate", (event) => {
  event.waitUntil(
    (async () => {
      const keep = await currentShell();
      for (const name of await caches.keys()) {
        if (name.startsWith(SHELL_PREFIX) && name !== keep) await caches.delete(name);
      }
      await self.clients.claim();
    })(),
  );
});

function kind(url) {
  if (url.origin !== BASE.origin || !url.href.startsWith(BASE.href)) return "network";
  const path = url.href.slice(BASE.href.length).split(/[?#]/)[0];
  // the page's words are part of the shell (device/shell.json lists them): needed offline, before the
  // game on the device has started
  if (path.startsWith("api/texts/")) return "shell";
  if (path.startsWith("api/") || path === "ws" || path.startsWith("ws/")) return "network";
  if (path.startsWith("device/")) {
    if (url.searchParams.has("fetch")) return "network";
    return path === "device/pack.json" || path === "device/shell.json" ? "network-first" : "pack";
  }
  return "shell";
}

async function networkFirst(request) {
  try {
    const answer = await fetch(request);
    if (answer.ok) return answer;
    const cached = await caches.match(request, { ignoreSearch: true });
    return cached || answer;
  } catch (error) {
    const cached = await caches.match(request, { ignoreSearch: true });
    if (cached) return cached;
    throw error;
  }
}

async function packFile(request) {
  const cached = await caches.match(request, { ignoreSearch: true });
  return cached || fetch(request);
}

async function staleWhileRevalidate(event) {
  const request = event.request;
  const cache = await caches.open(await currentShell());
  const cached = await cache.match(request, { ignoreSearch: request.mode === "navigate" });
  const fresh = fetch(request)
    .then(async (answer) => {
      if (answer.ok && answer.type === "basic") await cache.put(request, answer.clone());
      return answer;
    })
    .catch(() => null);
  if (cached) {
    event.waitUntil(fresh);
    return cached;
  }
  const answer = await fresh;
  if (answer) return answer;
  if (request.mode === "navigate") {
    const page = await cache.match(new URL("./", BASE));
    if (page) return page;
  }
  return Response.error();
}

self.addEventListener("fetch", (event) => {
  const request = event.request;
  if (request.method !== "GET") return;
  const url = new URL(request.url);
  const how = kind(url);
  if (how === "network") return; // not answered here: the browser's own fetch, never cached
  if (how === "network-first") event.respondWith(networkFirst(request));
  else if (how === "pack") event.respondWith(packFile(request));
  else event.respondWith(staleWhileRevalidate(event));
});
