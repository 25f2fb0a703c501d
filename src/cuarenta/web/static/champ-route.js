// The championship links (docs/web.md "Championships"): `#champ=ID.TOKEN` (the organiser), `#judge=`,
// `#pair=`, `#register=ID.CODE` and `#standings=ID`, each to its screen; the home screen's "Campeonato"
// button to the creation form; a language change draws the screen shown again.

import * as I from "./i18n.js";
import { champScreen, parseChampHash, stopPoll } from "./champ-common.js";
import { showJudge, renderJudge } from "./champ-judge.js";
import { renderOrganiser, showChampForm, showOrganiser } from "./champ-organiser.js";
import { renderPair, showPair } from "./champ-pair.js";
import { renderRegister, showRegister } from "./champ-register.js";
import { renderStandings, showStandings } from "./champ-standings.js";
import { onDevice } from "./device.js";
import { $, el } from "./dom.js";
import { app } from "./store.js";

/** Open the championship screen of the fragment; false when the fragment is not a championship link. */
export function routeChamp() {
  const link = parseChampHash();
  if (!link) return false;
  if (onDevice()) {
    // a championship is the server's: on the device (a static site, or offline) the link says so
    app.champ = { view: "device" };
    champScreen("champ-device", I.t("page.champ.entry")).append(
      el("p", { class: "device-sub", "data-testid": "champ-device-only", text: I.t("page.device.champ_need_server") }),
    );
    return true;
  }
  const { kind, id, secret } = link;
  if (kind === "champ") showOrganiser(id, secret);
  else if (kind === "judge") showJudge(id, secret);
  else if (kind === "pair") showPair(id, secret);
  else if (kind === "register") showRegister(id, secret);
  else showStandings(id);
  return true;
}

/** After the language changed: the championship screen shown, in the new words. */
export function relabelChamp() {
  if (app.screen !== "champ") return;
  const view = app.champ?.view;
  if (view === "new") showChampForm();
  else if (view === "organiser") renderOrganiser();
  else if (view === "judge") renderJudge();
  else if (view === "pair") renderPair();
  else if (view === "register") renderRegister();
  else if (view === "standings") renderStandings();
  else if (view === "device") routeChamp();
}

export function wireChamp() {
  $("#champ-new").addEventListener("click", showChampForm);
  window.addEventListener("hashchange", () => {
    if (!routeChamp() && app.screen === "champ") stopPoll();
  });
}
