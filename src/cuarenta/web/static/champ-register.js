// A championship's registration screen `#register=ID.CODE` (docs/web.md "Championships"): a pair's name
// and its two players → `POST api/championships/ID/pairs` with the code → the pair's own link
// `#pair=ID.TOKEN`, to keep (it is the pair's only key).

import * as I from "./i18n.js";
import { championship } from "./api.js";
import { act, champLink, champScreen, field, keepingTyped, linkBox, showFailure } from "./champ-common.js";
import { $, el } from "./dom.js";
import { app } from "./store.js";

const { t } = I;

export async function showRegister(id, code) {
  app.champ = { view: "register", id, code, data: null, registered: null };
  champScreen("champ-register", t("page.champ.register_title"));
  renderRegister();
  try {
    const data = await championship(id);
    if (app.champ?.view === "register" && app.champ.id === id) app.champ = { ...app.champ, data };
  } catch (err) {
    showFailure(err);
  }
  renderRegister();
}

/** The registration screen, drawn again (the championship's data came, the language changed) with what
 * was typed in its form. */
export function renderRegister() {
  const c = app.champ;
  if (c?.view !== "register") return;
  keepingTyped($("#champ-view"), () => drawRegister(c));
}

function drawRegister(c) {
  const root = $("#champ-view");
  root.replaceChildren(el("h1", { id: "champ-title", text: t("page.champ.register_title") }));
  if (c.data) root.append(el("p", { class: "tagline", "data-testid": "register-champ-name", text: c.data.settings.name }));
  if (c.registered) {
    const link = champLink("pair", c.id, c.registered.token);
    root.append(
      el("p", { class: "status", role: "status", "data-testid": "register-done", text: t("page.champ.registered", { name: c.registered.name }) }),
      el("p", { class: "hint-text", text: t("page.champ.keep_link") }),
      linkBox("link-pair", t("page.champ.link_pair"), link),
      el("a", { class: "btn btn-primary", href: link, "data-testid": "register-open-pair", text: t("page.champ.open_pair") }),
    );
    const another = el("button", { type: "button", class: "btn btn-secondary", "data-testid": "register-another", text: t("page.champ.register_another") });
    another.addEventListener("click", () => {
      app.champ = { ...app.champ, registered: null };
      renderRegister();
    });
    root.append(el("p", { class: "champ-actions" }, another));
    return;
  }
  if (c.data && c.data.status !== "registering") {
    root.append(el("p", { class: "options-error", role: "alert", text: t("page.champ.register_closed") }));
    return;
  }
  const form = el(
    "form",
    { class: "new-form", novalidate: true, "data-testid": "register-form" },
    field("reg-name", t("page.champ.pair_name"), { "data-testid": "register-name", maxlength: "40", required: true }),
    field("reg-a", t("page.champ.player_n", { n: 1 }), { "data-testid": "register-a", maxlength: "40", required: true, autocomplete: "nickname" }),
    field("reg-b", t("page.champ.player_n", { n: 2 }), { "data-testid": "register-b", maxlength: "40", required: true }),
    el("div", { class: "start-bar" }, el("button", { type: "submit", class: "btn btn-primary", "data-testid": "register-submit", text: t("page.champ.register") })),
  );
  form.addEventListener("submit", async (event) => {
    event.preventDefault();
    const name = $("#reg-name").value.trim();
    const players = [$("#reg-a").value.trim(), $("#reg-b").value.trim()];
    if (!name || players.some((p) => !p)) return showFailure(new Error(t("page.champ.pair_needed")));
    const answer = await act(form.querySelector("button"), () => championship(c.id, "/pairs", { body: { name, players, code: c.code } }));
    if (!answer || app.champ !== c) return;
    app.champ = { ...c, registered: { name, token: answer.token, pair: answer.pair } };
    renderRegister();
  });
  root.append(form);
}
