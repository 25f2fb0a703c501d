// What the page's state (store.js) tells: the seat's view, my seat, the number of players, the names of
// seats and teams, levels and presets, where each seat sits around the felt, whose turn it is. Nothing
// here is a rule: each answer reads what the server sent.

import * as I from "./i18n.js";
import { app } from "./store.js";

const { t, pick } = I;

export { app };

export function view() {
  return app.msg?.view;
}
export function mySeat() {
  return app.msg?.seat ?? app.msg?.view?.seat ?? app.session?.seat ?? 0;
}
export function players() {
  return view()?.players ?? 2;
}
export function seatInfo(seat) {
  return (app.msg?.seats || []).find((s) => s.seat === seat) ?? null;
}
/** Whether this page only watches a table (spectator.js): no seat is "you". */
export function watching() {
  return Boolean(app.session?.watch);
}

export function seatName(seat) {
  const info = seatInfo(seat);
  const n = players();
  if (info && info.name && (info.kind === "person" || info.left)) return info.name;
  if (watching()) return info?.kind === "person" ? t("name.seat", { n: seat + 1 }) : t("page.computer");
  if (info && info.kind === "person" && seat === mySeat()) return t("page.name_placeholder");
  if (seat === mySeat()) return t("page.you");
  if (info && info.kind === "person") return t("name.seat", { n: seat + 1 });
  if (n === 2) return t("page.computer");
  const rel = (seat - mySeat() + 4) % 4;
  return t(["page.you", "page.rival_right", "page.partner", "page.rival_left"][rel]);
}

export function teamName(team) {
  if (players() === 2) return seatName(team);
  if (watching()) return `${seatName(team)} · ${seatName(team + 2)}`;
  return team === mySeat() % 2 ? t("page.team_yours") : t("page.team_rivals");
}

export function names() {
  return { seat: seatName, team: teamName, players: players() };
}
export function levelName(level) {
  return pick(app.options?.level_labels?.[level]?.label, String(level ?? ""));
}

export function position(seat) {
  const n = players();
  const rel = (seat - mySeat() + n) % n;
  if (n === 2) return rel === 0 ? "bottom" : "top";
  return ["bottom", "right", "top", "left"][rel];
}
/** The seat whose panel shows a team's pile: mine for my team, the next seat for the other. */
export function pileKeeper(team) {
  const me = mySeat();
  return team === me % 2 ? me : (me + 1) % players();
}
export function isMyTurn() {
  const msg = app.msg;
  return Boolean(msg && msg.status !== "finished" && msg.view.turn === mySeat() && (msg.legal || []).length);
}

/** A preset of `GET api/options` by its name, or null. */
export function presetOf(name) {
  return app.options?.presets?.find((p) => p.name === name) ?? null;
}
