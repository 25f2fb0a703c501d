// The judge's board `#judge=ID.TOKEN` (docs/web.md "Championships"): every table of the round with its
// score as the server tells it (tantos y perros), chicas, paused, alerts; a reason, then walkover, pause,
// resume, restart or a note. At a hall championship each table also has its score sheet (hall-sheet.js).

import * as I from "./i18n.js";
import { championship } from "./api.js";
import { act, champScreen, pairName, partidaWords, keepingTyped, poll, showFailure } from "./champ-common.js";
import { $, el } from "./dom.js";
import { renderSheet } from "./hall-sheet.js";
import { app } from "./store.js";

const { t } = I;

export function showJudge(id, token) {
  app.champ = { view: "judge", id, token, data: null, board: null, sheets: {}, sheetErrors: {} };
  champScreen("champ-judge", t("page.champ.judge_title"));
  poll(() => refresh(id, token));
}

async function refresh(id, token) {
  try {
    const [data, board] = await Promise.all([championship(id), championship(id, "/board", { token })]);
    if (app.champ?.view !== "judge" || app.champ.id !== id) return;
    const sheets = { ...app.champ.sheets };
    if (data.settings?.venue === "hall") {
      await Promise.all(
        (board.tables ?? []).map(async (tb) => {
          try {
            sheets[tb.partida] = await championship(id, `/partidas/${encodeURIComponent(tb.partida)}/hall`, { token });
          } catch {
            /* the table shows without its sheet this time */
          }
        }),
      );
    }
    app.champ = { ...app.champ, data, board, sheets };
    renderJudge();
  } catch (err) {
    showFailure(err);
  }
}

/** POST `path` of a partida as the judge, then the board again. */
export async function judgeAction(button, partida, path, body) {
  const { id, token } = app.champ;
  const done = await act(button, () => championship(id, `/partidas/${encodeURIComponent(partida)}${path}`, { body, token }));
  if (done !== undefined) {
    // the reason was this decision's: the table's next decision is given its own
    const reason = document.getElementById(`reason-${partida}`);
    if (reason) reason.value = "";
    await refresh(id, token);
  }
  return done;
}

/** A score the server sent as tantos y perros (`{perros, tantos}`), in words: "1 perro y 1 tanto". */
function scoreInWords(value) {
  if (value === null || value === undefined) return "";
  const [perros, tantos] = Array.isArray(value) ? value : [value.perros, value.tantos];
  return I.marksWords(perros ?? 0, tantos ?? 0);
}

/** An alert of the board (`away`, `clock`, `walkover_due`) in words. */
function alertWords(alert) {
  const kind = typeof alert === "string" ? alert : alert?.kind;
  return kind && I.hasKey(`page.champ.alert.${kind}`) ? t(`page.champ.alert.${kind}`) : String(kind ?? "");
}

export function renderJudge() {
  const c = app.champ;
  if (c?.view !== "judge") return;
  const root = $("#champ-view");
  const active = document.activeElement;
  if (root.contains(active) && active.matches("input, select, textarea")) return; // a reason or a count being typed
  // a reason typed, a sheet's seat or count chosen, then left: they outlive the poll's drawing
  keepingTyped(root, () => drawJudge(c, root));
}

function drawJudge(c, root) {
  root.replaceChildren(el("h1", { id: "champ-title", text: c.data ? `${t("page.champ.judge_title")} · ${c.data.settings.name}` : t("page.champ.judge_title") }));
  if (!c.board) return;
  const tables = c.board.tables ?? [];
  if (!tables.length) root.append(el("p", { class: "hint-text", "data-testid": "judge-empty", text: t("page.champ.judge_empty") }));
  root.append(el("div", { class: "judge-tables" }, tables.map((tb) => tableCard(c, tb))));
}

function tableCard(c, tb) {
  const data = c.data;
  const partida = (data?.rounds ?? []).flat().find((p) => p.id === tb.partida);
  const pairs = partida?.pairs ?? [];
  const title = partida ? t("page.champ.partida_title", { table: partida.table, a: pairName(data, pairs[0]), b: pairName(data, pairs[1]) }) : partidaWords(data, tb.partida);
  const scores = (tb.tantos_perros ?? []).map((tp, i) => `${pairName(data, pairs[i])}: ${scoreInWords(tp)}`);
  const reasonId = `reason-${tb.partida}`;
  const reason = el("input", { id: reasonId, type: "text", maxlength: "200", "data-testid": "judge-reason" });
  const needReason = () => {
    const text = reason.value.trim();
    if (!text) {
      showFailure(new Error(t("page.champ.reason_needed")));
      reason.focus();
    }
    return text;
  };
  const decide = (decision) => {
    const button = el("button", { type: "button", class: "btn btn-secondary", "data-testid": `judge-${decision}`, text: t(`page.champ.kind.${decision}`) });
    button.addEventListener("click", () => {
      const text = needReason();
      if (text) judgeAction(button, tb.partida, "/decisions", { decision, reason: text });
    });
    return button;
  };
  const winner = el(
    "select",
    { id: `winner-${tb.partida}`, "aria-label": t("page.champ.walkover_winner"), "data-testid": "walkover-winner" },
    pairs.filter((p) => p !== null).map((p) => el("option", { value: p, text: pairName(data, p) })),
  );
  const walkover = el("button", { type: "button", class: "btn btn-secondary", "data-testid": "judge-walkover", text: t("page.champ.walkover_give") });
  walkover.addEventListener("click", () => {
    const text = needReason();
    if (text) judgeAction(walkover, tb.partida, "/walkover", { winner: winner.value, reason: text });
  });
  const card = el(
    "section",
    { class: "judge-table", "data-testid": "judge-table", "data-partida": tb.partida, "data-status": tb.status, "data-paused": tb.paused ? "true" : "false", "aria-label": title },
    el("h2", { text: title }),
    el("p", { class: "choice-sub", "data-testid": "judge-status", text: `${t(`page.champ.status.${tb.status}`)}${tb.paused ? ` · ${t("page.champ.paused")}` : ""}` }),
    scores.length ? el("p", { class: "choice-main", "data-testid": "judge-score", text: scores.join(" — ") }) : null,
    tb.chicas ? el("p", { class: "choice-sub", "data-testid": "judge-chicas", text: t("page.champ.chicas", { a: tb.chicas[0] ?? 0, b: tb.chicas[1] ?? 0 }) }) : null,
    tb.clock !== null && tb.clock !== undefined ? el("p", { class: "choice-sub", text: t("page.champ.clock", { n: typeof tb.clock === "object" ? tb.clock.left ?? "" : tb.clock }) }) : null,
    (tb.alerts ?? []).length ? el("ul", { class: "judge-alerts", "data-testid": "judge-alerts" }, tb.alerts.map((a) => el("li", { "data-alert": typeof a === "string" ? a : a?.kind ?? "", text: alertWords(a) }))) : null,
  );
  if (tb.status !== "finished") {
    card.append(
      el("div", { class: "field" }, el("label", { for: reasonId, text: t("page.champ.reason") }), reason),
      el("div", { class: "champ-actions" }, winner, walkover),
      el("div", { class: "champ-actions" }, decide(tb.paused ? "resume" : "pause"), decide("restart"), decide("note")),
    );
  }
  if (data?.settings?.venue === "hall") card.append(renderSheet(tb.partida, c.sheets[tb.partida]));
  return card;
}
