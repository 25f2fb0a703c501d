// What the leaderboard and profile pages share: the page's language (the game's choice, kept in the
// browser), its texts from the catalogue, the language switch, the browser's own profile and the API.

import * as I from "./i18n.js";
import { api } from "./api.js";

export { api };

/** Where the browser keeps its anonymous profile: {"id", "key", "name"} (the key never leaves but in a header). */
export const PROFILE_KEY = "cuarenta.profile";

/** The browser's own profile, or null. */
export function ownProfile() {
  try {
    const found = JSON.parse(localStorage.getItem(PROFILE_KEY) ?? "null");
    return found && typeof found.id === "string" && typeof found.key === "string" ? found : null;
  } catch {
    return null;
  }
}

export function saveOwnProfile(profile) {
  try {
    localStorage.setItem(PROFILE_KEY, JSON.stringify(profile));
  } catch {
    /* storage disabled: the new name is shown for this page only */
  }
}


/** A stored time (`2026-12-01T10:00:00Z`) as a date of the page's language. */
export function dateText(iso) {
  const when = new Date(iso);
  if (Number.isNaN(when.getTime())) return String(iso);
  return when.toLocaleDateString(I.getLang(), { year: "numeric", month: "short", day: "numeric" });
}

/** A change of rating with its sign: +12, −8, ±0. */
export function signed(n) {
  if (n > 0) return `+${n}`;
  if (n < 0) return `\u2212${-n}`;
  return "\u00b10";
}

/** An element with its text (never markup: names are people's plain text). */
export function el(tag, text = null, attrs = {}) {
  const node = document.createElement(tag);
  if (text !== null) node.textContent = String(text);
  for (const [name, value] of Object.entries(attrs)) node.setAttribute(name, value);
  return node;
}

async function loadTexts(lang) {
  for (let attempt = 0; ; attempt += 1) {
    try {
      return await I.loadTexts(lang);
    } catch {
      await new Promise((resolve) => setTimeout(resolve, Math.min(8000, 250 * 2 ** attempt)));
    }
  }
}

function fillLangSwitch() {
  const button = document.getElementById("lang-switch");
  if (!button) return;
  const other = I.getLang() === "es" ? "en" : "es";
  button.lang = other;
  button.setAttribute("aria-label", I.t("page.lang_switch_aria"));
  button.replaceChildren(el("span", I.t("page.lang_switch"), { class: "long" }), el("span", I.t("page.lang_switch_short"), { class: "short" }));
}

/**
 * Start a page: load its language's texts, fill the static elements and the title (`titleKey`), then
 * `render()`; the language switch loads the other language and renders again.
 */
export async function startPage(titleKey, render) {
  const lang = I.getLang();
  I.setLang(lang, false);
  await loadTexts(lang);
  const apply = () => {
    I.applyStatic();
    document.title = `${I.t(titleKey)} · Cuarenta`;
    fillLangSwitch();
  };
  apply();
  document.getElementById("lang-switch")?.addEventListener("click", async () => {
    const other = I.getLang() === "es" ? "en" : "es";
    await loadTexts(other);
    I.setLang(other);
    apply();
    await render();
  });
  await render();
  document.body.dataset.texts = "ready";
}
