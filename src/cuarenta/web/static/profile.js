// A profile's page (profile.html#id=ID): its name, its ratings in each mode and its rated mesas; a
// rename field when it is the browser's own profile (kept in localStorage, "cuarenta.profile").

import * as I from "./i18n.js";
import { api, dateText, el, ownProfile, saveOwnProfile, signed, startPage } from "./ratings.js";

const MODES = ["1v1", "2v2"];

function profileId() {
  return new URLSearchParams(location.hash.slice(1)).get("id") ?? "";
}

function ratingCard(mode, rating) {
  const card = el("div", null, { class: "rating-card", "data-testid": `rating-${mode}` });
  card.append(
    el("h3", I.t(`rating.mode.${mode}`)),
    el("p", rating.rating, { class: "rating-value" }),
    el("p", I.t("rating.record", { games: rating.games, wins: rating.wins }), { class: "rating-record" }),
  );
  if (rating.provisional) {
    card.append(el("p", I.t("rating.provisional"), { class: "rating-record", "data-testid": `provisional-${mode}` }));
  }
  return card;
}

function gameRow(game) {
  const tr = el("tr", null, { "data-testid": "profile-game" });
  tr.classList.add(game.won ? "won" : "lost");
  // a mesa played unrated (docs/tables.md "What is rated") says why instead of a change of 0
  const change = game.unrated
    ? el("td", I.t(`rating.unrated.${game.unrated}`), { class: "num", "data-testid": "unrated" })
    : el("td", signed(game.change), { class: "num" });
  tr.append(
    el("td", dateText(game.finished)),
    el("td", I.t(`rating.mode.${game.mode}`)),
    el("td", I.t(game.won ? "rating.won" : "rating.lost")),
    el("td", game.team.slice(1).join(I.t("word.list_sep"))),
    el("td", game.opponents.join(I.t("word.list_sep"))),
    change,
  );
  return tr;
}

function show(profile) {
  const mine = ownProfile();
  const own = mine !== null && mine.id === profile.id;
  document.getElementById("profile-name").textContent = profile.name;
  document.getElementById("profile-since").textContent = I.t("rating.since", { date: dateText(profile.created) });
  document.getElementById("profile-yours").hidden = !own;
  document.getElementById("profile-ratings").replaceChildren(...MODES.map((m) => ratingCard(m, profile.ratings[m])));
  document.getElementById("games-table").hidden = profile.games.length === 0;
  document.getElementById("games-empty").hidden = profile.games.length > 0;
  document.querySelector("#games-table tbody").replaceChildren(...profile.games.map(gameRow));
  const form = document.getElementById("rename");
  form.hidden = !own;
  if (own && !form.dataset.filled) {
    document.getElementById("rename-name").value = profile.name;
    form.dataset.filled = "yes";
  }
  document.getElementById("profile-body").hidden = false;
}

// Each render asks for the profile in the hash; a slower answer to an earlier render (the language
// switched, then the hash changed) must not paint over a newer one.
let latest = 0;

async function render() {
  const status = document.getElementById("rating-status");
  const id = profileId();
  const ticket = ++latest;
  status.textContent = I.t("rating.loading");
  let profile;
  try {
    if (!id) throw Object.assign(new Error("no id"), { status: 404 });
    profile = await api(`api/profiles/${encodeURIComponent(id)}`);
  } catch (error) {
    if (ticket !== latest) return;
    document.getElementById("profile-body").hidden = true;
    document.getElementById("profile-name").textContent = I.t("rating.profile");
    status.textContent = error.status === 404 ? I.t("rating.no_profile") : I.t("rating.failed", { detail: error.message });
    return;
  }
  if (ticket !== latest) return;
  show(profile);
  status.textContent = "";
  document.body.dataset.profile = profile.id;
}

document.getElementById("rename").addEventListener("submit", async (event) => {
  event.preventDefault();
  const mine = ownProfile();
  const note = document.getElementById("rename-status");
  const name = document.getElementById("rename-name").value.trim();
  if (!mine || !name) return;
  try {
    const profile = await api(`api/profiles/${encodeURIComponent(mine.id)}`, {
      method: "PATCH",
      headers: { "Content-Type": "application/json", Authorization: `Bearer ${mine.key}` },
      body: JSON.stringify({ name }),
    });
    saveOwnProfile({ ...mine, name: profile.name });
    show(profile);
    note.textContent = I.t("rating.renamed", { name: profile.name });
  } catch (error) {
    note.textContent = I.t("rating.rename_failed", { detail: error.message });
  }
});

window.addEventListener("hashchange", () => {
  delete document.getElementById("rename").dataset.filled;
  document.getElementById("rename-status").textContent = "";
  render();
});

startPage("rating.profile", render);
