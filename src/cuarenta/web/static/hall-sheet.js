// A hall championship's score sheet of one table, on the judge's board (docs/championships.md "At the hall"):
// big buttons for what happened at the table (caída, limpia, caída y limpia, ronda, caída a la ronda,
// cuatro iguales, cuatro caídas, cartón with the two counts and the sobrantes, mal repartidas, error de
// procedimiento, nueva repartida, deshacer; before any of them, who deals first), each sent as an entry; the
// sheet's score as the server tells it, and a refusal in the page's language from its code (the catalogue's
// `error.hall_*`, champ-common.js refusalText). The page works out nothing of the score.

import * as I from "./i18n.js";
import { championship } from "./api.js";
import { keepingTyped, refusalText } from "./champ-common.js";
import { el } from "./dom.js";
import { app } from "./store.js";

const { t } = I;

/** Send one entry (or the undo) of `partida`'s sheet; its answer (or its refusal, in the sheet) shown. */
async function tap(partida, button, entry) {
  const { id, token } = app.champ;
  const path = `/partidas/${encodeURIComponent(partida)}/hall${entry ? "" : "/undo"}`;
  // the refusal is kept as the server said it (its code and params), and worded when drawn: in the page's
  // language of that moment
  const said = (problem) => ({ ...app.champ.sheetErrors, [partida]: problem });
  button.disabled = true;
  try {
    const sheet = await championship(id, path, { body: entry ? { entry } : {}, token });
    app.champ = { ...app.champ, sheets: { ...app.champ.sheets, [partida]: sheet }, sheetErrors: said(null) };
  } catch (err) {
    app.champ = { ...app.champ, sheetErrors: said({ code: err.code ?? "", params: err.params ?? {}, message: err.message, network: err instanceof TypeError }) };
  } finally {
    button.disabled = false;
  }
  // the sheet drawn again (the board's poll keeps its last refusal too: app.champ.sheetErrors): what the
  // judge chose stays chosen, a field they went on typing in while the answer came keeps the focus (both
  // keepingTyped, champ-common.js); else the button tapped has it
  const now = document.querySelector(`[data-testid=hall-sheet][data-partida="${CSS.escape(partida)}"]`);
  if (!now) return;
  const card = now.parentElement;
  const typing = now.contains(document.activeElement) && document.activeElement.matches("input, select");
  let fresh = null;
  keepingTyped(card, () => {
    fresh = renderSheet(partida, app.champ.sheets[partida]);
    now.replaceWith(fresh);
  });
  if (!typing) fresh.querySelector(`[data-testid="${button.dataset.testid}"]`)?.focus();
}

/** What the sheet tells: each team's score and chicas, if the server sent them. */
function sheetSummary(sheet) {
  if (!sheet) return "";
  const scores = sheet.scores ?? sheet.points;
  const chicas = sheet.chicas;
  const parts = [];
  if (Array.isArray(scores)) parts.push(t("page.champ.hall_score", { a: scores[0], b: scores[1] }));
  if (Array.isArray(chicas)) parts.push(t("page.champ.chicas", { a: chicas[0], b: chicas[1] }));
  if (Number.isInteger(sheet.dealer)) parts.push(t("page.champ.hall_dealer", { n: sheet.dealer + 1 }));
  return parts.join(" · ");
}

/** A refusal kept by `tap`, in the page's language now ("" for none). */
function refusedText(refused) {
  if (!refused) return "";
  return refused.network ? t("page.err.network") : refusalText(Object.assign(new Error(refused.message), refused));
}

export function renderSheet(partida, sheet) {
  const refused = app.champ?.sheetErrors?.[partida] ?? null;
  const uid = `sheet-${partida}`;
  const box = el("div", { class: "hall-sheet", "data-testid": "hall-sheet", "data-partida": partida, role: "group", "aria-labelledby": `${uid}-title` });
  const seat = el("select", { id: `${uid}-seat`, "data-testid": "hall-seat" }, [0, 1, 2, 3].map((s) => el("option", { value: String(s), text: t("page.friends.seat_n", { n: s + 1 }) })));
  const team = el("select", { id: `${uid}-team`, "data-testid": "hall-team" }, [0, 1].map((n) => el("option", { value: String(n), text: t("page.champ.team_n", { n: n + 1 }) })));
  const a = el("input", { id: `${uid}-a`, type: "number", min: "0", max: "40", inputmode: "numeric", class: "champ-seed", "data-testid": "hall-carton-a" });
  const b = el("input", { id: `${uid}-b`, type: "number", min: "0", max: "40", inputmode: "numeric", class: "champ-seed", "data-testid": "hall-carton-b" });
  const left = el("input", { id: `${uid}-left`, type: "number", min: "0", max: "40", inputmode: "numeric", class: "champ-seed", value: "0", "data-testid": "hall-carton-left" });
  const limpia = el("input", { id: `${uid}-limpia`, type: "checkbox", "data-testid": "hall-with-limpia" });
  const S = () => Number(seat.value);
  const T = () => Number(team.value);
  const entries = [
    ["caida", () => ({ kind: "caida", seat: S() })],
    ["limpia", () => ({ kind: "limpia", team: T() })],
    ["caida_limpia", () => ({ kind: "caida_limpia", seat: S() })],
    ["ronda", () => ({ kind: "ronda", seat: S() })],
    ["caida_ronda", () => ({ kind: "caida_ronda", seat: S(), limpia: limpia.checked })],
    ["four_of_a_kind", () => ({ kind: "four_of_a_kind", seat: S() })],
    ["cuatro_caidas", () => ({ kind: "cuatro_caidas", team: T() })],
    ["carton", () => ({ kind: "carton", cards: [Number(a.value || 0), Number(b.value || 0)], leftovers: Number(left.value || 0) })],
    ["misdeal", () => ({ kind: "misdeal", team: T() })],
    ["procedure", () => ({ kind: "procedure", team: T() })],
    ["new_deal", () => ({ kind: "new_deal" })],
  ];
  // the draw's dealer (002 §2.4): the sheet's first entry only
  if (!sheet || !sheet.entries) entries.unshift(["first_dealer", () => ({ kind: "first_dealer", seat: S() })]);
  const buttons = entries.map(([kind, make]) => {
    const button = el("button", { type: "button", class: "btn btn-primary hall-btn", "data-testid": `hall-${kind}`, text: t(`page.champ.hall.${kind}`) });
    button.addEventListener("click", () => tap(partida, button, make()));
    return button;
  });
  const undo = el("button", { type: "button", class: "btn btn-secondary hall-btn", "data-testid": "hall-undo", text: t("page.champ.hall.undo") });
  undo.addEventListener("click", () => tap(partida, undo, null));
  const label = (input, text) => el("label", { for: input.id, text });
  box.append(
    el("h3", { id: `${uid}-title`, text: t("page.champ.hall_title") }),
    el("p", { class: "choice-main", "data-testid": "hall-summary", text: sheetSummary(sheet) }),
    el("div", { class: "hall-who" }, label(seat, t("page.champ.hall_seat")), seat, label(team, t("page.champ.hall_team")), team),
    el("div", { class: "hall-who" }, label(a, t("page.champ.hall_cards", { n: 1 })), a, label(b, t("page.champ.hall_cards", { n: 2 })), b, label(left, t("page.champ.hall_left")), left, el("label", { class: "check-row" }, limpia, el("span", { text: t("page.champ.hall_with_limpia") }))),
    el("div", { class: "hall-buttons" }, buttons, undo),
    el("p", { class: "options-error", role: "alert", "data-testid": "hall-error", "data-code": refused?.code || null, text: refusedText(refused) }),
  );
  return box;
}
