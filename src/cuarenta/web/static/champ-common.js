// What the championship screens share (docs/web.md "Championships"): their links (the token or code in
// the fragment only: `#champ=ID.TOKEN`, `#judge=`, `#pair=`, `#register=ID.CODE`, `#standings=ID`), the
// screen they draw into, the poll that keeps a screen live, a link box (copy and QR code), pair names and
// the error banner with the server's `detail`.

import * as I from "./i18n.js";
import { showError, hideError } from "./errors.js";
import { $, el } from "./dom.js";
import { drawQrInto } from "./qr.js";
import { showScreen } from "./screens.js";
import { app, subscribe } from "./store.js";

const { t } = I;

/** How often a live screen asks again (milliseconds). */
export const POLL_MS = 3000;

/** The fragment kinds of the championship links. */
export const KINDS = ["champ", "judge", "pair", "register", "standings"];

function pageBase() {
  return location.origin + location.pathname.replace(/[^/]*$/, "");
}

/** The full link of a championship screen: `kind` with `id` and, but for the public standings, a secret. */
export function champLink(kind, id, secret = "") {
  return `${pageBase()}#${kind}=${encodeURIComponent(id)}${secret ? `.${encodeURIComponent(secret)}` : ""}`;
}

/** `{kind, id, secret}` of a championship fragment, or null. */
export function parseChampHash(hash = location.hash) {
  const m = /^#(champ|judge|pair|register|standings)=([^.]+)(?:\.(.+))?$/.exec(hash || "");
  if (!m) return null;
  return { kind: m[1], id: decodeURIComponent(m[2]), secret: m[3] ? decodeURIComponent(m[3]) : "" };
}

/** The championship screen, emptied, with its heading; returns the element a view draws into. */
export function champScreen(testid, title) {
  const root = $("#champ-view");
  root.dataset.testid = testid;
  root.replaceChildren(el("h1", { id: "champ-title", text: title }));
  showScreen("champ");
  return root;
}

// -- the poll of the screen shown: one timer, stopped when the screen changes ----------------------------
let timer = null;
let polled = null;

/** Run `fn` now and every POLL_MS while the championship screen shows (another call replaces it). */
export function poll(fn) {
  stopPoll();
  polled = fn;
  const tick = async () => {
    if (polled !== fn || app.screen !== "champ") return;
    try {
      await fn();
    } finally {
      if (polled === fn && app.screen === "champ") timer = setTimeout(tick, POLL_MS);
    }
  };
  tick();
}
export function stopPoll() {
  clearTimeout(timer);
  timer = null;
  polled = null;
}
subscribe("screen", (screen) => {
  if (screen !== "champ") stopPoll();
});

/** An answer refused or lost: the server's `detail` in the banner (its words, in its language). */
export function showFailure(err) {
  showError(err instanceof TypeError ? t("page.err.network") : err.message, err.code ?? "");
}

/** Run `action` with `button` off meanwhile; the banner says what went wrong. */
export async function act(button, action) {
  if (button) button.disabled = true;
  hideError();
  try {
    return await action();
  } catch (err) {
    showFailure(err);
    return undefined;
  } finally {
    if (button) button.disabled = false;
  }
}

/** The name of pair `id` in the championship `data` (a bye: "descansa"). */
export function pairName(data, id) {
  if (id === null || id === undefined) return t("page.champ.bye");
  return data?.pairs?.find((p) => p.id === id)?.name ?? String(id);
}

/** A partida's line: "Mesa 2 · Los Tigres vs Las Águilas". */
export function partidaTitle(data, partida) {
  const [a, b] = partida.pairs ?? [];
  return t("page.champ.partida_title", { table: partida.table, a: pairName(data, a), b: pairName(data, b) });
}

/** What a partida's result says: its chicas, a walkover, or its status. */
export function resultText(data, partida) {
  const r = partida.result;
  if (!r) return t(`page.champ.status.${partida.status}`);
  const chicas = t("page.champ.chicas", { a: r.chicas?.[0] ?? 0, b: r.chicas?.[1] ?? 0 });
  const who = t("page.champ.won_by", { name: pairName(data, r.winner) });
  return `${chicas} · ${who}${r.walkover ? ` · ${t("page.champ.walkover")}` : ""}`;
}

/** A link to share: its label, the link as text, a copy button and (when `qr`) its QR code. */
export function linkBox(testid, label, link, qr = true) {
  const id = `${testid}-label`;
  const status = el("p", { class: "hint-text", role: "status", "data-testid": `${testid}-copied` });
  const a = el("a", { class: "invite-link", href: link, "data-testid": `${testid}-link`, text: link });
  const copy = el("button", { type: "button", class: "btn btn-secondary", "data-testid": `${testid}-copy`, "aria-describedby": id, text: t("page.champ.copy") });
  copy.addEventListener("click", async () => {
    try {
      await navigator.clipboard.writeText(link);
      status.textContent = t("page.friends.copied");
    } catch {
      const range = document.createRange();
      range.selectNodeContents(a);
      window.getSelection().removeAllRanges();
      window.getSelection().addRange(range);
      status.textContent = t("page.friends.copy_select");
    }
  });
  const box = el(
    "div",
    { class: "champ-link", "data-testid": testid },
    el("h3", { id, text: label }),
    el("p", { class: "invite-line" }, a),
    el("div", { class: "invite-actions" }, copy),
    status,
  );
  if (qr) {
    const code = el("div", { class: "invite-qr champ-qr", role: "img", "aria-label": t("page.champ.qr", { what: label }) });
    box.append(code);
    drawQrInto(code, link);
  }
  return box;
}

/** A labelled input (`type` text by default) for a form built in JS. */
export function field(id, label, props = {}) {
  return el("div", { class: "field" }, el("label", { for: id, text: label }), el("input", { id, type: "text", ...props }));
}

/** A labelled select of `[value, text]` choices. */
export function choice(id, label, choices, props = {}) {
  return el(
    "div",
    { class: "field option-row" },
    el("label", { for: id, text: label }),
    el("select", { id, ...props }, choices.map(([value, text]) => el("option", { value, text }))),
  );
}
