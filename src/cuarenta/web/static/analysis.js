// The computer's analysis of a seat's moves in a finished mesa (issue 29, docs/web.md "Analysis"), shown
// beside its replay: GET api/games/{room}/analysis?mesa=M&seat=S with the seat's token (docs/protocol.md
// "Analysis"). Asking starts it where the computer players think (the server's workers, or on the device
// the page's worker); the page asks again every second, showing how far it has got, until the analysis
// comes: a summary and, for each move that cost something, what was played, what was best, what it cost
// in the chance of winning the chica, its grade and why, with a button to see the position in the replay.
//
//   startAnalysis({room, token, mesa, seat})  // ask (again) and follow it
//   analysisPanel(goTo, names)                // the panel for the replay's screen (replay.js draws it)
//   stopAnalysis()                            // stop following (the replay closed or changed mesa)

import * as I from "./i18n.js";
import { api, authorized } from "./api.js";
import { wayText } from "./dialogs.js";
import { el } from "./dom.js";

const { t } = I;

/** How often the page asks how far the analysis has got (ms). */
const POLL_MS = 1000;

/** The analysis followed: what was asked, the last answer, the error, the timer, the redraw. */
const followed = { asked: null, answer: null, error: null, timer: null, redraw: null };

/** Ask for the analysis of `seat` in `mesa` of `room` and follow it; `redraw` draws the panel anew. */
export function startAnalysis(asked, redraw) {
  stopAnalysis();
  Object.assign(followed, { asked, answer: null, error: null, redraw });
  poll();
}

/** Stop following the analysis (its answer is forgotten). */
export function stopAnalysis() {
  clearTimeout(followed.timer);
  Object.assign(followed, { asked: null, answer: null, error: null, timer: null });
}

/** Whether an analysis of `seat` is asked for (and so shown). */
export function analysing(seat) {
  return followed.asked !== null && followed.asked.seat === seat;
}

async function poll() {
  const asked = followed.asked;
  if (!asked) return;
  // room= routes every poll of a cluster to one node (its proxy hashes on it: docs/scaling.md), which keeps
  // the analysis; a single server ignores it
  const query = new URLSearchParams({ seat: String(asked.seat), room: asked.room });
  if (asked.mesa) query.set("mesa", String(asked.mesa));
  let answer = null;
  try {
    answer = await api(`api/games/${encodeURIComponent(asked.room)}/analysis?${query}`, authorized(asked.token));
  } catch (err) {
    if (followed.asked !== asked) return;
    followed.error = err instanceof TypeError ? t("page.err.network") : err.message;
    followed.redraw?.();
    return;
  }
  if (followed.asked !== asked) return; // another analysis was asked meanwhile
  followed.answer = answer;
  if (answer.status === "failed") followed.error = answer.detail;
  else if (answer.status === "running") followed.timer = setTimeout(poll, POLL_MS);
  followed.redraw?.();
}

/** A decision's line: where, what was played, what was best, what it cost and its grade; why. */
function decisionLine(d, goTo) {
  const where = { hand: d.hand + 1, deal: d.deal + 1, ply: d.ply + 1 };
  const played = wayText(d.played_info);
  const text =
    d.best === d.played
      ? t("analysis.line_best", { ...where, played })
      : t("analysis.line", {
          ...where,
          played,
          best: wayText(d.best_info),
          loss: (100 * d.loss).toFixed(1),
          points: d.points.toFixed(1),
          grade: d.grade ? t(`analysis.grade.${d.grade}`) : "—",
        });
  const why = d.motifs.length ? t("analysis.why", { motifs: d.motifs.map((m) => t(`analysis.motif.${m}`)).join(t("word.list_sep")) }) : "";
  return el(
    "li",
    { class: "analysis-line", "data-testid": "analysis-line", "data-ply": String(d.ply), "data-grade": d.grade ?? "" },
    el("span", { text }),
    why ? el("span", { class: "analysis-why", text: ` ${why}` }) : "",
    " ",
    el("button", { type: "button", class: "link-button", "data-testid": "analysis-show", text: t("page.analysis.show"), onclick: () => goTo(d.ply) }),
  );
}

/** The analysis's panel for the replay's screen: how far it has got, or the analysis; `goTo(ply)` shows a
 * position in the replay; `names.seat(i)` names a seat. */
export function analysisPanel(goTo, names) {
  const { asked, answer, error } = followed;
  if (!asked) return "";
  const box = el("section", { class: "analysis", "data-testid": "analysis", "aria-live": "polite", "data-status": answer?.status ?? "asking" });
  if (error) {
    box.append(el("p", { "data-testid": "analysis-error", text: t("page.analysis.failed", { message: error }) }));
    return box;
  }
  if (!answer || answer.status === "running") {
    box.append(el("p", { "data-testid": "analysis-progress", text: t("analysis.thinking", { done: answer?.done ?? 0, total: answer?.total ?? "…" }) }));
    return box;
  }
  const review = answer.review;
  box.append(el("h2", { text: t("analysis.title", { seat: names.seat(answer.seat), level: t(`level.${review.level}`), seed: review.seed }) }));
  const costly = review.decisions.filter((d) => d.grade);
  if (costly.length) box.append(el("ol", { class: "analysis-lines" }, costly.map((d) => decisionLine(d, goTo))));
  else box.append(el("p", { text: t("analysis.clean", { threshold: String(Number((100 * answer.thresholds.imprecision).toFixed(1))) }) }));
  const s = review.summary;
  box.append(
    el("p", {
      class: "analysis-summary",
      "data-testid": "analysis-summary",
      text: t("analysis.summary", {
        decisions: review.decisions.length,
        forced: review.forced,
        imprecision: s.counts.imprecision,
        error: s.counts.error,
        grave: s.counts.grave,
        loss: (100 * s.loss).toFixed(1),
        points: s.points.toFixed(1),
      }),
    }),
  );
  return box;
}
