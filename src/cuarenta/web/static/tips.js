// The tips dialog ("Algunos consejos", from the start screen and the table) and the marks in the
// scoreboard's legend. Texts come from the catalogue through data-i18n (i18n.js applyStatic).
import { scoreMarkSVG } from "./cards.js";

const dialog = document.querySelector("#tips-dialog");
for (const button of document.querySelectorAll("[data-tips-open]")) {
  button.addEventListener("click", () => {
    if (!dialog.open) dialog.showModal();
    dialog.querySelector("#tips-close").focus();
  });
}
document.querySelector("#tips-close").addEventListener("click", () => dialog.close());

// the legend's marks: one tanto, one perro, and 14 points (1 perro and 2 tantos) as the scoreboard draws them
const marks = { tanto: ["tanto"], perro: ["perro"], example: ["perro", "tanto", "tanto"] };
for (const node of document.querySelectorAll(".legend-mark[data-mark]")) {
  node.innerHTML = (marks[node.dataset.mark] ?? []).map((kind) => scoreMarkSVG(kind)).join("");
}
