// The rules pages ("Cómo se juega" / "How to play"): draw the example cards and the score marks, name
// them and list the sayings from the text catalogue (the same texts the game says, never a copy), and
// remember the language when the reader switches page.

import { cardFaceSVG, scoreMarkSVG } from "./cards.js";
import * as I from "./i18n.js";

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

/** The sayings, in the catalogue's order: the Spanish words and what they mean in the page's language. */
function sayingsList(texts) {
  const keys = Object.keys(texts)
    .map((key) => /^saying\.([a-z_]+)$/.exec(key)?.[1])
    .filter(Boolean);
  return keys.flatMap((key) => {
    const dt = document.createElement("dt");
    dt.textContent = I.sayingWords(key);
    dt.lang = "es";
    const dd = document.createElement("dd");
    dd.textContent = I.capitalize(I.sayingGloss(key));
    return [dt, dd];
  });
}

async function fillFromCatalogue() {
  const lang = document.documentElement.lang; // the page's own language, whatever the game's
  I.setLang(lang, false);
  let texts;
  for (let attempt = 0; !texts; attempt += 1) {
    try {
      texts = await I.loadTexts(lang);
    } catch {
      await new Promise((resolve) => setTimeout(resolve, Math.min(8000, 250 * 2 ** attempt)));
    }
  }
  for (const node of document.querySelectorAll("[data-card]")) node.setAttribute("aria-label", I.cardLabel(node.dataset.card));
  for (const node of document.querySelectorAll("[data-marks]")) {
    node.setAttribute("aria-label", I.pointsWords(Number(node.dataset.points), node.dataset.marks.split(",").map(Number)));
  }
  for (const list of document.querySelectorAll("[data-sayings]")) list.replaceChildren(...sayingsList(texts));
  document.body.dataset.texts = "ready";
}

fillFromCatalogue();
