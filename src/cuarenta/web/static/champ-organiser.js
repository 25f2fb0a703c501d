// The organiser's side of a championship (docs/web.md "Championships"): the creation form (name, rules,
// format, rounds, clock, venue, duplicate deals, rated, wait), then the organiser's screen `#champ=ID.TOKEN`: the
// links to share (registration, judge, public standings, each with copy and QR), the pairs (add, withdraw,
// replace a player, seed), Start, the rounds with their tables and the judges' decisions with Review.
// The judge's token and the registration code come once, in the creation's answer: this browser keeps
// them under that championship's own key (storage.js), beside nothing of another championship.

import * as I from "./i18n.js";
import { championship } from "./api.js";
import { act, champLink, champScreen, choice, decisionLine, field, keepingTyped, linkBox, pairName, partidaTitle, poll, reasonWords, resultText, showFailure } from "./champ-common.js";
import { $, el } from "./dom.js";
import { app } from "./store.js";
import { champKey, load, store } from "./storage.js";

const { t, pick } = I;

const keyOf = champKey;

// -- the creation form ------------------------------------------------------------------------------------
/** The creation form, drawn again in place when the page's words or the server's options come or the
 * language changes: what the organiser has typed and chosen stays. */
export function showChampForm() {
  const again = app.champ?.view === "new";
  app.champ = { view: "new" };
  keepingTyped($("#champ-view"), drawChampForm, again);
}

function drawChampForm() {
  const root = champScreen("champ-form", t("page.champ.new_title"));
  const presets = (app.options?.presets ?? []).filter((p) => (p.players ?? [4]).includes(4));
  const presetChoices = presets.map((p) => [p.name, pick(p.label, p.name)]);
  if (!presetChoices.some(([name]) => name === "campeonato")) presetChoices.unshift(["campeonato", "campeonato"]);
  const form = el(
    "form",
    { class: "new-form champ-form", novalidate: true, "data-testid": "champ-create-form" },
    field("champ-name", t("page.champ.name"), { "data-testid": "champ-name", maxlength: "40", required: true }),
    choice("champ-preset", t("page.rules"), presetChoices, { "data-testid": "champ-preset" }),
    choice("champ-format", t("page.champ.format"), ["swiss", "knockout", "groups"].map((f) => [f, t(`page.champ.format.${f}`)]), { "data-testid": "champ-format" }),
    field("champ-rounds", t("page.champ.rounds"), { type: "number", min: "1", max: "30", inputmode: "numeric", "data-testid": "champ-swiss-rounds", placeholder: t("page.champ.rounds_auto") }),
    choice("champ-clock", t("page.friends.clock"), [["", t("page.friends.clock_off")], ...[30, 60, 120].map((n) => [String(n), t("page.friends.clock_on", { n })])], { "data-testid": "champ-clock" }),
    choice("champ-venue", t("page.champ.venue"), [["online", t("page.champ.venue.online")], ["hall", t("page.champ.venue.hall")]], { "data-testid": "champ-venue" }),
    el("label", { class: "field check-row" }, el("input", { type: "checkbox", id: "champ-duplicate", "data-testid": "champ-duplicate" }), el("span", { text: t("page.champ.duplicate") })),
    el("label", { class: "field check-row" }, el("input", { type: "checkbox", id: "champ-rated", "data-testid": "champ-rated" }), el("span", { text: t("page.champ.rated") })),
    field("champ-wait", t("page.champ.wait"), { type: "number", min: "0", max: "240", value: "10", inputmode: "numeric", "data-testid": "champ-wait" }),
    el("div", { class: "start-bar" }, el("button", { type: "submit", class: "btn btn-primary", "data-testid": "champ-create", text: t("page.champ.create") })),
  );
  form.addEventListener("submit", createChampionship);
  root.append(form);
  $("#champ-preset").value = "campeonato";
}

async function createChampionship(event) {
  event.preventDefault();
  const name = $("#champ-name").value.trim();
  if (!name) {
    showFailure(new Error(t("page.champ.name_needed")));
    $("#champ-name").focus();
    return;
  }
  const body = {
    name,
    rules: { preset: $("#champ-preset").value },
    format: $("#champ-format").value,
    venue: $("#champ-venue").value,
    duplicate: $("#champ-duplicate").checked,
    rated: $("#champ-rated").checked,
    wait_minutes: Number($("#champ-wait").value || 0),
  };
  if ($("#champ-rounds").value) body.rounds = Number($("#champ-rounds").value);
  if ($("#champ-clock").value) body.clock = Number($("#champ-clock").value);
  const made = await act($('[data-testid="champ-create"]'), () => championship(null, "", { body }));
  if (!made) return;
  store(keyOf(made.championship), { organiser: made.organiser, judge: made.judge, register: made.register });
  location.hash = `#champ=${encodeURIComponent(made.championship)}.${encodeURIComponent(made.organiser)}`;
}

// -- the organiser's screen -------------------------------------------------------------------------------
export function showOrganiser(id, token) {
  const kept = load(keyOf(id));
  const secrets = kept && kept.organiser === token ? kept : { organiser: token };
  app.champ = { view: "organiser", id, token, secrets, data: null };
  champScreen("champ-organiser", t("page.champ.organiser_title"));
  poll(() => refresh(id));
}

async function refresh(id) {
  try {
    const data = await championship(id, "", { token: app.champ?.token });
    if (app.champ?.view !== "organiser" || app.champ.id !== id) return;
    app.champ = { ...app.champ, data };
    renderOrganiser();
  } catch (err) {
    showFailure(err);
  }
}

/** Do `path` as the organiser (POST with the organiser's token), then draw the answer's championship. */
async function organiserAction(button, path, body = {}) {
  const { id, token } = app.champ;
  const done = await act(button, () => championship(id, path, { body, token }));
  if (done !== undefined) await refresh(id);
  return done;
}

export function renderOrganiser() {
  const c = app.champ;
  if (c?.view !== "organiser") return;
  const root = $("#champ-view");
  // a field being typed in stays as it is: the poll draws nothing meanwhile; what was typed in the pair's
  // form and left (a phone's keyboard closed) stays when it does
  const typing = root.contains(document.activeElement) && document.activeElement.matches("input, select, textarea");
  if (typing && root.querySelector("[data-testid=champ-pairs]")) return;
  keepingTyped(root, () => drawOrganiser(c, root));
}

function drawOrganiser(c, root) {
  const data = c.data;
  root.replaceChildren(el("h1", { id: "champ-title", text: data ? data.settings.name : t("page.champ.organiser_title") }));
  if (!data) return;
  root.append(
    el("p", { class: "tagline", "data-testid": "champ-status", "data-status": data.status, text: t(`page.champ.champ_status.${data.status}`) }),
    linksSection(c),
    pairsSection(data),
    roundsSection(data),
    decisionsSection(data),
  );
}

function linksSection(c) {
  const { id, secrets } = c;
  const boxes = [];
  if (secrets.register) boxes.push(linkBox("link-register", t("page.champ.link_register"), champLink("register", id, secrets.register)));
  if (secrets.judge) boxes.push(linkBox("link-judge", t("page.champ.link_judge"), champLink("judge", id, secrets.judge), false));
  boxes.push(linkBox("link-standings", t("page.champ.link_standings"), champLink("standings", id)));
  boxes.push(linkBox("link-organiser", t("page.champ.link_organiser"), champLink("champ", id, secrets.organiser), false));
  return el(
    "section",
    { class: "champ-section", "data-testid": "champ-links", "aria-labelledby": "champ-links-title" },
    el("h2", { id: "champ-links-title", text: t("page.champ.links") }),
    secrets.judge ? null : el("p", { class: "hint-text", text: t("page.champ.links_lost") }),
    el("div", { class: "champ-links" }, boxes),
  );
}

function pairsSection(data) {
  const open = data.status === "registering";
  const items = data.pairs.map((p) => {
    const li = el(
      "li",
      { class: "champ-pair", "data-testid": "champ-pair-row", "data-pair": p.id, "data-withdrawn": p.withdrawn ? "true" : null },
      el("span", { class: "choice-main", text: p.name }),
      el("span", { class: "choice-sub", text: p.players.join(" · ") }),
      p.seed !== null && p.seed !== undefined ? el("span", { class: "choice-sub", text: t("page.champ.seed_n", { n: p.seed }) }) : null,
      p.withdrawn ? el("span", { class: "choice-sub", text: t("page.champ.withdrawn") }) : null,
    );
    if (!p.withdrawn && data.status !== "finished") {
      const withdraw = el("button", { type: "button", class: "btn btn-secondary", "data-testid": "pair-withdraw", text: t("page.champ.withdraw") });
      withdraw.addEventListener("click", () => organiserAction(withdraw, `/pairs/${encodeURIComponent(p.id)}/withdraw`));
      const who = el("select", { "aria-label": t("page.champ.replace_who", { pair: p.name }), "data-testid": "pair-replace-index" }, p.players.map((name, i) => el("option", { value: String(i), text: name })));
      const newName = el("input", { type: "text", "aria-label": t("page.champ.replace_name", { pair: p.name }), "data-testid": "pair-replace-name", maxlength: "40" });
      const replace = el("button", { type: "button", class: "btn btn-secondary", "data-testid": "pair-replace", text: t("page.champ.replace") });
      replace.addEventListener("click", () => newName.value.trim() && organiserAction(replace, `/pairs/${encodeURIComponent(p.id)}/replace`, { index: Number(who.value), player: newName.value.trim() }));
      const actions = el("div", { class: "champ-actions" }, withdraw, who, newName, replace);
      if (open) {
        const seed = el("input", { type: "number", min: "1", inputmode: "numeric", class: "champ-seed", "aria-label": t("page.champ.seed_of", { pair: p.name }), "data-testid": "pair-seed-value", value: p.seed ?? "" });
        const set = el("button", { type: "button", class: "btn btn-secondary", "data-testid": "pair-seed", text: t("page.champ.seed") });
        set.addEventListener("click", () => seed.value && organiserAction(set, `/pairs/${encodeURIComponent(p.id)}/seed`, { seed: Number(seed.value) }));
        actions.append(seed, set);
      }
      li.append(actions);
    }
    return li;
  });
  const section = el(
    "section",
    { class: "champ-section", "data-testid": "champ-pairs", "aria-labelledby": "champ-pairs-title" },
    el("h2", { id: "champ-pairs-title", text: t("page.champ.pairs_n", { n: data.pairs.length }) }),
    items.length ? el("ul", { class: "champ-list" }, items) : el("p", { class: "hint-text", text: t("page.champ.no_pairs") }),
  );
  if (open) {
    const form = el(
      "form",
      { class: "champ-add", "data-testid": "champ-add-pair", novalidate: true },
      el("h3", { text: t("page.champ.add_pair") }),
      field("add-pair-name", t("page.champ.pair_name"), { "data-testid": "add-pair-name", maxlength: "40" }),
      field("add-pair-a", t("page.champ.player_n", { n: 1 }), { "data-testid": "add-pair-a", maxlength: "40" }),
      field("add-pair-b", t("page.champ.player_n", { n: 2 }), { "data-testid": "add-pair-b", maxlength: "40" }),
      choice("add-pair-who", t("page.champ.who_plays"), [["", t("page.champ.people")], ...(app.options?.levels ?? []).map((level) => [level, t("page.friends.seat_computer", { level: pick(app.options?.level_labels?.[level]?.label, level) })])], { "data-testid": "add-pair-computer" }),
      el("button", { type: "submit", class: "btn btn-secondary", "data-testid": "add-pair-submit", text: t("page.champ.add") }),
    );
    form.addEventListener("submit", async (event) => {
      event.preventDefault();
      const name = $("#add-pair-name").value.trim();
      const players = [$("#add-pair-a").value.trim(), $("#add-pair-b").value.trim()];
      if (!name || players.some((p) => !p)) return showFailure(new Error(t("page.champ.pair_needed")));
      const button = form.querySelector("button");
      document.activeElement?.blur();
      const body = { name, players };
      if ($("#add-pair-who").value) body.computer = $("#add-pair-who").value;
      // the pair is in: the form drawn again with the championship is emptied for the next one
      if (await organiserAction(button, "/pairs", body)) $('[data-testid="champ-add-pair"]')?.reset();
    });
    const start = el("button", { type: "button", class: "btn btn-primary", "data-testid": "champ-start", text: t("page.champ.start") });
    start.addEventListener("click", () => organiserAction(start, "/start"));
    section.append(form, el("div", { class: "start-bar" }, start));
  }
  return section;
}

/** The rounds, each a list of its partidas (the table, the pairs, the result or what it is doing). */
export function roundsSection(data, extra = () => null) {
  const rounds = data.rounds ?? [];
  return el(
    "section",
    { class: "champ-section", "data-testid": "champ-rounds", "aria-labelledby": "champ-rounds-title" },
    el("h2", { id: "champ-rounds-title", text: t("page.champ.rounds_title") }),
    rounds.length
      ? rounds.map((round, i) =>
          el(
            "div",
            { class: "champ-round", "data-testid": "champ-round", "data-round": i + 1 },
            el("h3", { text: t("page.champ.round_n", { n: i + 1 }) }),
            el(
              "ul",
              { class: "champ-list" },
              round.map((p) =>
                el(
                  "li",
                  { class: "champ-partida", "data-testid": "champ-partida", "data-partida": p.id, "data-status": p.status },
                  el("span", { class: "choice-main", text: partidaTitle(data, p) }),
                  el("span", { class: "choice-sub", "data-testid": "partida-result", text: resultText(data, p) }),
                  extra(p),
                ),
              ),
            ),
          ),
        )
      : el("p", { class: "hint-text", text: t("page.champ.no_rounds") }),
  );
}

function decisionsSection(data) {
  const decisions = data.decisions ?? [];
  return el(
    "section",
    { class: "champ-section", "data-testid": "champ-decisions", "aria-labelledby": "champ-decisions-title" },
    el("h2", { id: "champ-decisions-title", text: t("page.champ.decisions") }),
    decisions.length
      ? el(
          "ul",
          { class: "champ-list" },
          decisions.map((d) => {
            const li = el(
              "li",
              { class: "champ-decision", "data-testid": "champ-decision", "data-index": d.index },
              el("span", { class: "choice-main", "data-testid": "decision-line", text: decisionLine(data, d) }),
              el("span", { class: "choice-sub", "data-testid": "decision-reason", text: reasonWords(d) }),
              d.reversed_by !== null && d.reversed_by !== undefined
                ? el("span", { class: "choice-sub", text: t("page.champ.reversed", { reason: d.review_reason ?? "" }) })
                : null,
              d.winner ? el("span", { class: "choice-sub", text: t("page.champ.won_by", { name: pairName(data, d.winner) }) }) : null,
            );
            if (d.reviewed_by === null || d.reviewed_by === undefined) {
              const reason = el("input", { type: "text", "aria-label": t("page.champ.review_reason"), "data-testid": "review-reason", maxlength: "200" });
              const reverse = el("input", { type: "checkbox", "data-testid": "review-reverse" });
              const review = el("button", { type: "button", class: "btn btn-secondary", "data-testid": "review", text: t("page.champ.review") });
              review.addEventListener("click", () => reason.value.trim() && organiserAction(review, `/decisions/${d.index}/review`, { reverse: reverse.checked, reason: reason.value.trim() }));
              li.append(el("div", { class: "champ-actions" }, reason, el("label", { class: "check-row" }, reverse, el("span", { text: t("page.champ.reverse") })), review));
            }
            return li;
          }),
        )
      : el("p", { class: "hint-text", text: t("page.champ.no_decisions") }),
  );
}
