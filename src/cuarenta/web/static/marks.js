// Score marks (a perro is drawn red, a tanto white) for points the server sent with their marks:
// `score_marks` of a view or of an end of hand, `[perros, tantos]`.

import { scoreMarkSVG } from "./cards.js";
import * as I from "./i18n.js";
import { el } from "./dom.js";

/** `points` drawn as their `marks` ([perros, tantos], as the server counted them), with their words. */
export function marksFor(points, marks) {
  const [perros, tantos] = Array.isArray(marks) ? marks : [0, 0];
  const wrap = el("span", { class: "marks", role: "img", "aria-label": I.pointsWords(points, marks) });
  wrap.innerHTML = scoreMarkSVG("perro").repeat(perros) + scoreMarkSVG("tanto").repeat(tantos);
  return wrap;
}
