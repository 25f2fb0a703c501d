// The page's words. Every text comes from the one text catalogue of the project (src/cuarenta/locale),
// which the server serves at api/texts/{lang} — the terminal says the same words. This module holds no
// text: it loads the catalogue, fills its {placeholders}, and puts cards, points, events and the sayings
// the server chose (their keys come with every event) into words, as src/cuarenta/i18n.py does.

import { texts } from "./api.js";
import { cardText, parseCard } from "./cards.js";

export const LANGS = ["es", "en"];
export const DEFAULT_LANG = "es";
/** The sayings are Spanish (their words, catalogue's common file, are the same in every language): said as
 * they are in Spanish, with a gloss in any other language. */
const SAYINGS_LANG = "es";
const LANG_KEY = "cuarenta.lang";

const catalogues = {}; // lang → {key: template}
const loading = {}; // lang → Promise of its catalogue
let current = null;

/** The first of the browser's preferred languages (`navigator.languages`) that the page speaks: "es" for
 * es, es-EC, es-419…, "en" for en, en-US…; null when none is (then the page speaks Spanish). */
export function browserLang(languages = typeof navigator === "undefined" ? [] : navigator.languages ?? [navigator.language]) {
  for (const tag of languages ?? []) {
    const base = String(tag ?? "").toLowerCase().split(/[-_]/)[0];
    if (LANGS.includes(base)) return base;
  }
  return null;
}

/** The page's language: the choice stored when the person switched, else the browser's preferred
 * language (browserLang), else Spanish. The rules pages, written in one language each, set theirs. */
export function getLang() {
  if (current) return current;
  let stored = null;
  try {
    stored = localStorage.getItem(LANG_KEY);
  } catch {
    stored = null;
  }
  current = LANGS.includes(stored) ? stored : browserLang() ?? DEFAULT_LANG;
  return current;
}

export function setLang(lang, remember = true) {
  if (!LANGS.includes(lang)) return;
  current = lang;
  if (remember) {
    try {
      localStorage.setItem(LANG_KEY, lang);
    } catch {
      /* private mode: the choice lasts for this page only */
    }
  }
  if (typeof document !== "undefined") document.documentElement.lang = lang;
}

/** Use an already loaded catalogue (the tests do; the page loads it with loadTexts). */
export function useTexts(lang, texts) {
  catalogues[lang] = texts;
}

/** Load the catalogue of `lang` once (the server answers 304 while the browser's copy is current). */
export function loadTexts(lang = getLang()) {
  if (catalogues[lang]) return Promise.resolve(catalogues[lang]);
  if (!loading[lang]) {
    loading[lang] = texts(lang)
      .then((catalogue) => {
        catalogues[lang] = catalogue;
        return catalogue;
      })
      .finally(() => {
        delete loading[lang];
      });
  }
  return loading[lang];
}

export function hasKey(key, lang = getLang()) {
  return Boolean(catalogues[lang]) && key in catalogues[lang];
}

/** Fill a template's {name} fields (the catalogue uses no other kind of field). */
export function fill(template, params = {}) {
  return String(template).replace(/\{(\w+)\}/g, (m, name) => (name in params ? String(params[name]) : m));
}

/** The catalogue's message `key` in the page's language (or `lang`), with {placeholders} filled. */
export function t(key, params = {}, lang = getLang()) {
  const template = catalogues[lang]?.[key];
  return template === undefined ? key : fill(template, params);
}

/** The text with its first letter in capitals, for a text that starts a line or a button. */
export function capitalize(text) {
  const s = String(text);
  return s.slice(0, 1).toLocaleUpperCase(getLang()) + s.slice(1);
}

/** A label given in every language (`{"es": …, "en": …}`, as api/options sends them), in the page's. */
export function pick(labels, fallback = "") {
  if (!labels || typeof labels !== "object") return fallback;
  return labels[getLang()] ?? labels[DEFAULT_LANG] ?? fallback;
}

/** Fill every element marked data-i18n (text), data-i18n-aria, data-i18n-title, data-i18n-placeholder. */
export function applyStatic(root = document) {
  for (const el of root.querySelectorAll("[data-i18n]")) el.textContent = t(el.dataset.i18n);
  for (const el of root.querySelectorAll("[data-i18n-aria]")) el.setAttribute("aria-label", t(el.dataset.i18nAria));
  for (const el of root.querySelectorAll("[data-i18n-title]")) el.title = t(el.dataset.i18nTitle);
  for (const el of root.querySelectorAll("[data-i18n-placeholder]")) el.placeholder = t(el.dataset.i18nPlaceholder);
}

/** An engine error (`{code, params}`, as an illegal_move's `reason`) in the page's language. */
export function errorText(reason) {
  if (!reason || typeof reason.code !== "string" || !hasKey(`error.${reason.code}`)) return null;
  const params = {};
  for (const [name, value] of Object.entries(reason.params ?? {})) {
    params[name] = value && typeof value === "object" && "code" in value ? errorText(value) ?? "" : value;
  }
  return t(`error.${reason.code}`, params);
}

// -- cards and points ---------------------------------------------------------------------------

/** The card in words, for accessible names: "siete de corazón rojo", "queen of hearts". */
export function cardLabel(code) {
  const c = parseCard(code);
  if (!c) return String(code);
  return t("card.name", { rank: t(`rank.${c.rank}`), suit: t(`suit.${c.suit}`) });
}

export function rankPlural(rank) {
  return hasKey(`rank.${rank}.plural`) ? t(`rank.${rank}.plural`) : String(rank);
}

export function cardsText(cards) {
  return cards.map(cardText).join(" ");
}

/** `n` with the word of `key` in the singular or the plural (`key.one`, `key.other`): "1 tanto", "3 perros". */
export function plural(key, n) {
  return t(n === 1 ? `${key}.one` : `${key}.other`, { n });
}

/** Points as the judge hands them out, in words: "1 perro y 1 tanto", "1 tanto", "0 tantos". */
export function marksWords(perros, tantos) {
  const words = [];
  if (perros) words.push(plural("points.perros", perros));
  if (tantos || !perros) words.push(plural("points.tantos", tantos));
  return words.join(` ${t("word.and")} `);
}

/** "14 = 1 perro y 2 tantos" (points_text in i18n.py): the points and their `marks`, [perros, tantos],
 * as the server sends them with every score (`score_marks`) and every event's points (`marks`). */
export function pointsWords(points, marks) {
  const [perros, tantos] = Array.isArray(marks) ? marks : [0, 0];
  const words = [];
  if (perros) words.push(plural("points.perros", perros));
  if (tantos) words.push(plural("points.tantos", tantos));
  if (!words.length) return String(points);
  return t("points.equal", { points, words: words.join(` ${t("word.and")} `) });
}

// -- event sentences (describe_event in i18n.py) -------------------------------------------------

export function noteText(note, caida = false) {
  if (note === "treinta_y_ocho" || note === "ronda_limit") return t(caida ? `note.${note}.caida` : `note.${note}`);
  return t("note.generic", { note });
}

function awardText(points, team, note, caida = false) {
  let text = points ? t("points.for", { points, team }) : t("points.none");
  if (note) text += ` (${noteText(note, caida)})`;
  return text;
}

/** Names joined as the language joins a list: "Ana y Beto", "Ana, Beto y Carla"; "Ana and Beto"
 * (`Intl.ListFormat`; where a browser has none, the catalogue's separator). */
export function listText(items) {
  try {
    return new Intl.ListFormat(getLang(), { style: "long", type: "conjunction" }).format(items);
  } catch {
    return items.join(t("word.list_sep"));
  }
}

/** The key `prefix.variant` if the catalogue has it, else `prefix.fallback`. */
function variant(prefix, name, fallback) {
  return name !== null && name !== undefined && hasKey(`${prefix}.${name}`) ? `${prefix}.${name}` : `${prefix}.${fallback}`;
}

/**
 * One sentence telling what happened. `names` has seat(i) and team(i) (display names) and
 * `players` (2 or 4); with `pair` set, a team's name is two people's ("Ana y Don Lucho"), and the
 * sentences whose subject is a team take their plural form (`page.pair.<key>`) where there is one.
 * With `you` (a seat; the page's reader when they gave no name, issue 25) the sentences whose subject is
 * that seat, or its team at 2, are in the second person (`page.you.<key>`: "Juegas A♠", "Ganas la chica"),
 * those whose victim it is say "tu" (`page.you.victim.<key>`), and a team's points go "para ti"
 * (`teamObject(i)`, the team's name after "para"). Without it, the sentences of Python's describe_event.
 */
export function describeEvent(e, names) {
  const seat = (i) => names.seat(i);
  const team = (i) => names.team(i);
  const forTeam = (i) => (names.teamObject ? names.teamObject(i) : team(i)); // a team after "para"
  const you = names.you ?? null;
  const isYou = (s) => you !== null && s === you;
  const yourTeam = (tm) => you !== null && tm === you % 2;
  // the reader's own key where the catalogue has one: `page.you.` (subject) or `page.you.victim.`
  const own = (key, subject, victim = false) => {
    if (subject && hasKey(`page.you.${key}`)) return `page.you.${key}`;
    if (victim && hasKey(`page.you.victim.${key}`)) return `page.you.victim.${key}`;
    return key;
  };
  const tp = (key, params) => t(names.pair && hasKey(`page.pair.${key}`) ? `page.pair.${key}` : key, params);
  /** A sentence whose subject is a team: the reader's own at 2 ("Ganas la chica"), else by its name. */
  const byTeam = (key, tm, params) => (!names.pair && yourTeam(tm) && hasKey(`page.you.${key}`) ? t(`page.you.${key}`, params) : tp(key, params));
  const sep = t("word.list_sep");
  switch (e.kind) {
    case "dealer_draw": {
      const rounds = (e.draws || []).map((round) =>
        round.map(([s, c]) => t(own("ev.dealer_draw.card", isYou(s)), { seat: seat(s), card: cardText(c) })).join(sep),
      );
      return t(own("ev.dealer_draw", isYou(e.dealer)), { draws: rounds.join(t("ev.dealer_draw.again")), dealer: seat(e.dealer) });
    }
    case "deal":
      return t(own("ev.deal", isYou(e.dealer)), {
        hand: e.hand + 1,
        deal: e.deal + 1,
        deals: e.deals,
        dealer: seat(e.dealer),
      });
    case "ronda":
      return t(own("ev.ronda", isYou(e.seat)), {
        seat: seat(e.seat),
        rank: rankPlural(e.rank),
        points: awardText(e.points, forTeam(e.team), e.note),
      });
    case "four_of_a_kind":
      if (e.wins_chica) {
        const key = isYou(e.seat) ? (names.pair ? "page.you.pair.ev.four_of_a_kind.wins" : "page.you.ev.four_of_a_kind.wins") : null;
        const params = { seat: seat(e.seat), rank: rankPlural(e.rank), team: team(e.team) };
        return key && hasKey(key) ? t(key, params) : tp("ev.four_of_a_kind.wins", params);
      }
      return t(own("ev.four_of_a_kind.points", isYou(e.seat)), {
        seat: seat(e.seat),
        rank: rankPlural(e.rank),
        points: awardText(e.points, forTeam(e.team), e.note),
      });
    case "play": {
      // the card played and what it took, as the server describes them (server/authority/eventview.py)
      const card = cardText(e.card);
      const mine = isYou(e.seat);
      if (!e.base.length) return t(own("ev.play.drop", mine), { seat: seat(e.seat), card });
      const base = e.base.map(cardText).join(" + ");
      if (!e.run.length) return t(own("ev.play.take", mine), { seat: seat(e.seat), card, base });
      return t(own("ev.play.take_run", mine), { seat: seat(e.seat), card, base, run: cardsText(e.run) });
    }
    case "caida":
    case "caida_limpia":
    case "caida_ronda":
      return t(own(e.kind === "caida_ronda" && e.limpia ? "ev.caida_ronda.limpia" : `ev.${e.kind}`, isYou(e.seat), isYou(e.victim)), {
        seat: seat(e.seat),
        card: cardText(e.card),
        victim: seat(e.victim),
        points: awardText(e.points, forTeam(e.team), e.note, true),
      });
    case "limpia":
    {
      const params = { seat: seat(e.seat), points: awardText(e.points, forTeam(e.team), e.note) };
      return isYou(e.seat) ? t("page.you.ev.limpia", params) : t("ev.limpia", params);
    }
    case "claim":
      return t(own("ev.claim", isYou(e.seat), isYou(e.victim)), {
        seat: seat(e.seat),
        cards: cardsText(e.cards || []),
        victim: seat(e.victim),
      });
    case "hand_end": {
      const piles = (e.pile_sizes || []).map((n, i) => t("ev.hand_end.pile", { team: team(i), cards: n })).join(sep);
      const leftovers =
        e.leftovers && e.leftovers.length
          ? t("ev.hand_end.leftovers", { cards: cardsText(e.leftovers) })
          : t("ev.hand_end.clean");
      return t("ev.hand_end", { piles, leftovers });
    }
    case "carton":
      return byTeam(variant("ev.carton", e.reason, "none"), e.team, {
        team: team(e.team),
        cards: e.cards,
        points: awardText(e.points, forTeam(e.team), e.note),
      });
    case "chica_won":
      return byTeam(variant("ev.chica_won", e.reason, "target"), e.team, {
        team: team(e.team),
        chica: e.chica + 1,
        won: e.scores[e.team],
        lost: e.scores[1 - e.team],
      });
    case "zapatero":
      return e.platillo
        ? byTeam("ev.zapatero.platillo", e.team, { team: team(e.team) })
        : byTeam("ev.zapatero", e.team, { team: team(e.team), points: e.points });
    case "mesa_won":
      return byTeam(variant("ev.mesa_won", e.reason, "chicas"), e.team, {
        team: team(e.team),
        won: e.chicas[e.team],
        lost: e.chicas[1 - e.team],
      });
    default:
      return t("ev.unknown", { kind: e.kind });
  }
}

// -- sayings (the server chooses them; see saying_keys in i18n.py) -------------------------------

function numberWord(n) {
  return hasKey(`number.${n}`) ? t(`number.${n}`) : String(n);
}

/** The saying itself, Spanish in every language (with the points in words where it names them). */
export function sayingWords(key, points = 2) {
  const number = `saying.number.${points}`; // the Spanish words of the sayings' numbers, in every language
  return t(`saying.${key}`, { n: hasKey(number) ? t(number) : String(points) });
}

/** What a saying means, in the page's language. */
export function sayingGloss(key, points = 2) {
  return t(`saying.${key}.gloss`, { n: numberWord(points) });
}

/** A saying as one line: its words, glossed in any language but Spanish (or when `gloss` is true). */
export function sayingLine(key, points = 2, gloss = null) {
  if (!hasKey(`saying.${key}`)) return null;
  const words = sayingWords(key, points);
  if (gloss === null ? getLang() === SAYINGS_LANG : !gloss) return words;
  return t("gloss.format", { words, gloss: sayingGloss(key, points) });
}

/** The points a saying of this event names (dos_por_guapo): its own points, else 2. */
export function sayingPoints(e) {
  return typeof e.points === "number" && e.points > 0 ? e.points : 2;
}
