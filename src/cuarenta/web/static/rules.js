// The rules pages ("Cómo se juega" / "How to play"): draw the example cards and the score marks,
// and remember the language when the reader switches page.

import { cardFaceSVG, scoreMarkSVG } from "./cards.js";

for (const node of document.querySelectorAll("[data-card]")) {
  node.classList.add("card");
  node.innerHTML = cardFaceSVG(node.dataset.card);
}

for (const node of document.querySelectorAll("[data-marks]")) {
  const [perros, tantos] = node.dataset.marks.split(",").map(Number);
  node.classList.add("marks-demo");
  node.innerHTML = scoreMarkSVG("perro").repeat(perros) + scoreMarkSVG("tanto").repeat(tantos);
}

for (const link of document.querySelectorAll("[data-set-lang]")) {
  link.addEventListener("click", () => {
    try {
      localStorage.setItem("cuarenta.lang", link.dataset.setLang);
    } catch {
      /* storage disabled: the link still works */
    }
  });
}
