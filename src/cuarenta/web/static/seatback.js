// Taking a seat back (docs/tables.md "Taking a seat back", docs/web.md): the person's seat code in the
// table's menu (the seat code with a copy button), the creator's "give their seat
// to someone else" for each person who is away, and the form of the join page that takes a seat back with
// the code from any browser. The code is the session's (kept in localStorage with the token, never in a
// URL); it is sent in a POST body only (api.js). The menu item goes into `#table-menu-items` when the page
// has that menu, else beside the `leave-table` button.

import * as I from "./i18n.js";
import { errorDetail, handOverSeat, newSeatCode, reclaimSeat, tableFacts } from "./api.js";
import { hideError, showError } from "./errors.js";
import { $, el } from "./dom.js";
import { isTable, spectating } from "./presence.js";
import { rememberGame } from "./saved.js";
import { app, subscribe } from "./store.js";
import { KEYS, load, store } from "./storage.js";

const { t } = I;

/** The words of a refusal of these requests, by the server's `code` (or the HTTP status). */
function refusal(answer, status) {
  const code = answer?.code ?? (status === 429 ? "too_many" : "");
  const key = `page.reclaim.err.${code}`;
  if (code && I.hasKey(key)) return t(key);
  if (status === 429) return t("page.reclaim.err.too_many");
  return t("page.reclaim.err.generic", { message: errorDetail(answer) || `HTTP ${status}` });
}

// -- the menu item --------------------------------------------------------------------------------------------
let later = null;
/** The seat this creator gave away last ({room, name, link}): said in the menu, also once the table's next
 * message has drawn the menu again (it would otherwise wipe the line). */
let handedOver = null;
/** Draw the item once the table's own rendering is done (the leave button is made with the table). */
function soon() {
  clearTimeout(later);
  later = setTimeout(render, 0);
}
subscribe(["tableInfo", "msg", "session", "screen"], soon);

function place(item) {
  const menu = document.getElementById("table-menu-items");
  if (menu) {
    if (item.parentElement !== menu) menu.append(item);
    return true;
  }
  const leave = document.getElementById("leave-table");
  if (!leave) return false;
  if (item.previousElementSibling !== leave) leave.after(item);
  return true;
}

/** The table menu's item: the code (or a button that asks for one) and, for the creator, the handovers. */
export function render() {
  const session = app.session;
  let item = document.getElementById("seat-back");
  const show = Boolean(session?.token) && isTable() && !spectating() && app.screen === "table";
  if (!show) {
    if (item) item.hidden = true;
    return;
  }
  if (!item) item = el("div", { id: "seat-back", class: "seat-back", "data-testid": "seat-back" });
  if (!place(item)) return;
  item.hidden = false;
  const key = JSON.stringify([I.getLang(), session.room, session.code ?? null, handoverKey()]);
  if (item.dataset.key === key) return;
  item.dataset.key = key;
  const parts = [el("span", { class: "seat-back-label", id: "seat-code-label", text: t("page.reclaim.code_label") })];
  if (session.code) {
    parts.push(
      el("code", { class: "seat-code", "data-testid": "seat-code", "aria-labelledby": "seat-code-label", text: session.code }),
      el("button", { type: "button", class: "btn btn-secondary", "data-testid": "seat-code-copy", text: t("page.reclaim.copy"), onclick: copyCode }),
      el("span", { class: "seat-code-copied", id: "seat-code-copied", role: "status", "aria-live": "polite" }),
      el("p", { class: "hint-text seat-back-help", text: t("page.reclaim.code_help") }),
    );
  } else {
    parts.push(el("button", { type: "button", class: "btn btn-secondary", "data-testid": "seat-code-new", text: t("page.reclaim.get_code"), onclick: askCode }));
  }
  for (const s of awaySeats()) {
    parts.push(
      el("button", {
        type: "button",
        class: "btn btn-secondary handover",
        "data-testid": `handover-${s.seat}`,
        "data-seat": s.seat,
        text: t("page.reclaim.handover", { name: s.name ?? "" }),
        onclick: () => handOver(s),
      }),
    );
  }
  const done = el("p", { class: "hint-text", id: "handover-done", "data-testid": "handover-done", role: "status", hidden: true });
  sayHandedOver(done);
  parts.push(done);
  item.replaceChildren(...parts);
}

function sayHandedOver(done) {
  if (!handedOver || handedOver.room !== app.session?.room) return;
  done.replaceChildren(
    el("span", { text: t("page.reclaim.handover_done", { name: handedOver.name }) }),
    handedOver.link ? el("a", { href: handedOver.link, "data-testid": "handover-invite", text: handedOver.link }) : "",
  );
  done.hidden = false;
}

/** The person seats, not this one, that no socket holds (the creator may give them away). */
function awaySeats() {
  const info = app.tableInfo;
  const me = app.session?.seat;
  if (!info?.table || me === undefined || info.table.creator !== me || info.status === "waiting" || info.table.rated) return [];
  return (info.seats || []).filter((s) => s.kind === "person" && s.seat !== me && !s.connected);
}

function handoverKey() {
  return awaySeats()
    .map((s) => `${s.seat}:${s.name}`)
    .join(",");
}

async function copyCode() {
  const code = app.session?.code;
  const box = document.getElementById("seat-code-copied");
  try {
    await navigator.clipboard.writeText(code);
    if (box) box.textContent = t("page.reclaim.copied");
  } catch {
    const node = document.querySelector('[data-testid="seat-code"]');
    if (node) {
      const range = document.createRange();
      range.selectNodeContents(node);
      const selection = window.getSelection();
      selection.removeAllRanges();
      selection.addRange(range);
    }
    if (box) box.textContent = t("page.reclaim.copy_select");
  }
}

/** Keep a new code with the session (and this browser's list of games). */
function keepCode(code) {
  const session = app.session;
  if (!session || !code) return;
  const next = { ...session, code };
  store(KEYS.session, next);
  const games = (load(KEYS.games) ?? []).map((g) => (g.room === next.room && g.token === next.token ? { ...g, code } : g));
  store(KEYS.games, games);
  app.session = next;
}

async function askCode() {
  const session = app.session;
  if (!session?.token) return;
  try {
    const res = await newSeatCode(session.room, session.token);
    const answer = await res.json().catch(() => null);
    if (!res.ok) throw Object.assign(new Error(refusal(answer, res.status)), { shown: true });
    if (app.session === session) keepCode(answer.code);
  } catch (err) {
    showError(err instanceof TypeError ? t("page.err.network") : err.message);
  }
}

async function handOver(seat) {
  const session = app.session;
  if (!session?.token || !window.confirm(t("page.reclaim.handover_confirm", { name: seat.name ?? "" }))) return;
  hideError();
  try {
    const res = await handOverSeat(session.room, session.token, seat.seat);
    const answer = await res.json().catch(() => null);
    if (!res.ok) throw new Error(refusal(answer, res.status));
    let invite = answer?.invite ?? null;
    if (!invite) {
      const facts = await tableFacts(session.room, session.token);
      invite = facts.ok ? (await facts.json()).invite : null;
    }
    const link = invite ? `${location.origin}${location.pathname.replace(/[^/]*$/, "")}#join=${session.room}.${invite}` : "";
    handedOver = { room: session.room, name: seat.name ?? "", link };
    const done = document.getElementById("handover-done");
    if (done) sayHandedOver(done);
  } catch (err) {
    showError(err instanceof TypeError ? t("page.err.network") : err.message);
  }
}

// -- the join page: take a seat back with the code ----------------------------------------------------------
/**
 * The join page's form for a table that has started or is full: "¿Ya tenías asiento …? Escribe tu código",
 * at the top of `container` (the join page's actions, before the seats: in the first screen of a phone).
 * `joining` is the join page's {room, invite, info}; `enter(session)` goes to the table as that seat.
 */
export function renderReclaim(container, joining, enter) {
  let form = document.getElementById("reclaim-form");
  if (!form) {
    form = el(
      "form",
      { id: "reclaim-form", class: "new-form reclaim-form", "data-testid": "reclaim-form", novalidate: true },
      el("label", { for: "reclaim-code", id: "reclaim-label" }),
      el("div", { class: "reclaim-row" },
        el("input", { id: "reclaim-code", type: "text", autocomplete: "off", autocapitalize: "characters", spellcheck: "false", maxlength: "20", "data-testid": "reclaim-code" }),
        el("button", { type: "submit", id: "reclaim-submit", class: "btn btn-primary", "data-testid": "reclaim-submit" }),
      ),
      el("p", { id: "reclaim-problem", class: "options-error", "data-testid": "reclaim-problem", role: "alert", hidden: true }),
    );
    form.addEventListener("submit", (event) => {
      event.preventDefault();
      submitReclaim(form, enter);
    });
    container.prepend(form); // the way back first, before what reads as a refusal (issue 25, item 14)
  }
  form.dataset.room = joining.room ?? "";
  form.dataset.invite = joining.invite ?? "";
  form.querySelector("#reclaim-label").textContent = t("page.reclaim.ask");
  form.querySelector("#reclaim-code").placeholder = "K7QX-2M9D";
  form.querySelector("#reclaim-submit").textContent = t("page.reclaim.submit");
  form.hidden = false;
  return form;
}

/** Hide the join page's reclaim form (a table that waits for people). */
export function hideReclaim() {
  const form = document.getElementById("reclaim-form");
  if (form) form.hidden = true;
}

function reclaimProblem(form, text) {
  const p = form.querySelector("#reclaim-problem");
  p.textContent = text;
  p.hidden = !text;
}

async function submitReclaim(form, enter) {
  const room = form.dataset.room;
  const invite = form.dataset.invite;
  const input = form.querySelector("#reclaim-code");
  const code = input.value.trim();
  if (!room || !invite) return;
  if (!code) {
    reclaimProblem(form, t("page.reclaim.err.bad_code"));
    input.focus();
    return;
  }
  const button = form.querySelector("#reclaim-submit");
  button.disabled = true;
  reclaimProblem(form, "");
  try {
    const res = await reclaimSeat(room, invite, code);
    const answer = await res.json().catch(() => null);
    if (!res.ok) {
      reclaimProblem(form, refusal(answer, res.status));
      return;
    }
    input.value = "";
    const session = { room: answer.room, token: answer.token, seat: answer.seat, table: true, code: answer.code };
    rememberGame(session, {});
    enter(session);
  } catch {
    reclaimProblem(form, t("page.err.network"));
  } finally {
    button.disabled = false;
  }
}
