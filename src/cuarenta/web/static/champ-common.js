// What the championship screens share (docs/web.md "Championships"): their links (the token or code in
// the fragment only: `#champ=ID.TOKEN`, `#judge=`, `#pair=`, `#register=ID.CODE`, `#standings=ID`), the
// screen they draw into, the poll that keeps a screen live, a link box (copy and QR code), pair names,
// partidas and decisions in words, a form drawn again with what was typed in it, and the error banner: a
// refusal in the page's language, from its code.

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

/** Run `draw` (which draws the screen's fields again: the page's words came, the language changed, the
 * championship's data arrived or was polled) keeping what the person typed and chose in the fields of
 * `root` before it, matched by their ids, and the field in focus. A choice the new field no longer offers
 * stays at its default; with `keep` false, `draw` runs alone. */
export function keepingTyped(root, draw, keep = true) {
  const fields = keep ? [...root.querySelectorAll("input[id], select[id], textarea[id]")] : [];
  const values = fields.map((n) => [n.id, n.type === "checkbox" ? n.checked : n.value]);
  const focused = keep && root.contains(document.activeElement) ? document.activeElement.id : "";
  draw();
  for (const [id, value] of values) {
    const n = root.querySelector(`#${CSS.escape(id)}`);
    if (!n) continue;
    if (n.type === "checkbox") n.checked = value;
    else if (n.tagName !== "SELECT" || [...n.options].some((o) => o.value === value)) n.value = value;
  }
  if (focused) root.querySelector(`#${CSS.escape(focused)}`)?.focus();
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

/** The numbers of a hall refusal's words that name a seat or a team: 0-based on the server, 1-based on the
 * sheet ("Puesto 1", "Pareja 1"). */
const SEAT_OR_TEAM = ["seat", "victim", "dealer", "first", "last", "team", "dealer_team"];

/** A refused request (an Error of api.js `championship`) in the page's language: the catalogue's
 * `error.<code>` with its params (the library's and the hall sheet's refusals), else the page's
 * `page.champ.err.<code>`, else the server's English `detail`; a lost answer says so. */
export function refusalText(err) {
  if (err instanceof TypeError) return t("page.err.network");
  const code = err?.code ?? "";
  const params = { ...(err?.params ?? {}) };
  if (code.startsWith("hall_") && code !== "hall_seat" && code !== "hall_team") {
    for (const key of SEAT_OR_TEAM) if (Number.isInteger(params[key])) params[key] += 1;
  }
  const words = code ? I.errorText({ code, params }) : null;
  if (words) return I.capitalize(words);
  if (code && I.hasKey(`page.champ.err.${code}`)) return t(`page.champ.err.${code}`, { ...params, message: err.message });
  return err?.message || t("page.champ.err.generic");
}

/** An answer refused or lost: in the banner, in the page's language (refusalText). */
export function showFailure(err) {
  showError(refusalText(err), err?.code ?? "");
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

/** The name of pair `id` in the championship `data` (no pair: "descansa"). */
export function pairName(data, id) {
  if (id === null || id === undefined) return t("page.champ.bye");
  return data?.pairs?.find((p) => p.id === id)?.name ?? String(id);
}

/** A partida's line: "Mesa 2: Los Tigres contra Las Águilas"; a bye "Descansa: Las Sotas". */
export function partidaTitle(data, partida) {
  const [a, b] = partida.pairs ?? [];
  if (b === null || b === undefined) return t("page.champ.bye_title", { name: pairName(data, a) });
  return t("page.champ.partida_title", { table: partida.table, a: pairName(data, a), b: pairName(data, b) });
}

/** A partida by its id in words: "Ronda 1, mesa 2" (the id `r1t2` read when `data` does not list it). */
export function partidaWords(data, id) {
  const partida = (data?.rounds ?? []).flat().find((p) => p.id === id);
  const m = /^r(\d+)t(\d+)$/.exec(String(id ?? ""));
  const round = partida?.round ?? (m ? Number(m[1]) : null);
  const table = partida?.table ?? (m ? Number(m[2]) : null);
  if (round === null || table === null) return id ?? "—";
  return t("page.champ.partida_now", { round, table });
}

/** Who made a decision, in words (the judge, the server on its own, the committee; another name as is). */
export function byWords(by) {
  return by && I.hasKey(`page.champ.by.${by}`) ? t(`page.champ.by.${by}`) : String(by ?? "");
}

/** A decision's reason: one the server wrote is a code, said in the page's language; a person's is kept
 * as typed. */
export function reasonWords(decision) {
  const reason = decision?.reason ?? "";
  if (decision?.by === "server" && I.hasKey(`page.champ.server_reason.${reason}`)) return t(`page.champ.server_reason.${reason}`);
  return reason;
}

/** A decision's line: its kind, its partida in words, who made it ("Walkover · Round 1, table 2 · the
 * judge's decision"). */
export function decisionLine(data, decision) {
  const partida = decision.partida === null || decision.partida === undefined ? "—" : partidaWords(data, decision.partida);
  return t("page.champ.decision_line", { kind: t(`page.champ.kind.${decision.kind}`), partida, by: byWords(decision.by) });
}

/** What a partida's result says: its chicas, a walkover, a bye, or its status. */
export function resultText(data, partida) {
  const r = partida.result;
  if (r?.by === "bye" || partida.status === "bye") return t("page.champ.bye_result");
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
