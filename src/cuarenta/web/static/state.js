// What the page's state (store.js) tells: the seat's view, my seat, the number of players, the names of
// seats and teams, levels and presets, where each seat sits around the felt, whose turn it is. Nothing
// here is a rule: each answer reads what the server sent.

import * as I from "./i18n.js";
import { app } from "./store.js";
import { own } from "./wire.js";

const { t, pick } = I;

export { app, own };

/** The move the computer advised for the state shown (advice.js), or null. */
export function advisedMove() {
  const a = app.advice;
  return a && a.move && a.version === app.msg?.version ? a.move : null;
}

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

/** The reader's own seat when the page speaks to them as "tú" (issue 25): a person who gave no name (a
 * game against the computer); null otherwise (a name is the same for everyone, a spectator is nobody). */
export function youSeat() {
  if (watching()) return null;
  const me = mySeat();
  const info = seatInfo(me);
  return info?.kind === "person" && !info.name ? me : null;
}

/** A seat's name, the same for every reader and spectator: the person's, or the computer's (the server
 * names every computer seat: docs/protocol.md `seats`). Where it is from is `seatRelation`'s. */
export function seatName(seat) {
  const info = seatInfo(seat);
  if (info?.name) return info.name;
  if (info?.kind === "person") {
    // a person who gave no name (a game against the computer): "Tú" to themselves (their own events are
    // told in the second person: i18n.js `describeEvent`), else by number
    return seat === youSeat() ? t("page.you") : t("name.seat", { n: seat + 1 });
  }
  return t("page.names.computer_n", { n: seat + 1 }); // a computer seat with no name (an older server)
}

/** Where a seat is from the reader's side, as secondary text: "tú", "tu compañero", "rival izquierdo",
 * "rival derecho", "rival" (a game of two); for a spectator, the seat's pair ("pareja 1"/"pareja 2") at 4
 * and nothing at 2 — a spectator is nobody's partner. */
export function seatRelation(seat) {
  const n = players();
  if (watching()) return n === 4 ? t("page.seat_rel.pair", { n: (seat % 2) + 1 }) : "";
  const rel = (seat - mySeat() + n) % n;
  if (rel === 0) return t("page.seat_rel.you");
  if (n === 2) return t("page.seat_rel.rival");
  return t(["page.seat_rel.you", "page.seat_rel.rival_right", "page.seat_rel.partner", "page.seat_rel.rival_left"][rel]);
}

/** A team's name, the same for everyone: the player's name at 2, the two names at 4 ("Ana y Don Lucho");
 * a reader with no name: "Tú", or "Don Lucho y tú". */
export function teamName(team) {
  if (players() === 2) return seatName(team);
  const you = youSeat();
  if (you !== null && team === you % 2) return t("page.you.pair", { other: seatName((you + 2) % 4) });
  return t("page.names.pair", { a: seatName(team), b: seatName(team + 2) });
}

/** A team's name after "para"/"for" ("+2 para Ana"): the reader with no name is "ti", "Don Lucho y para
 * ti" ("you", "you and Don Lucho"); anyone else as `teamName`. */
export function teamObject(team) {
  const you = youSeat();
  if (you === null || team !== you % 2) return teamName(team);
  return players() === 2 ? t("page.you.object") : t("page.you.pair_object", { other: seatName((you + 2) % 4) });
}

/** A team from the reader's side: "tu equipo" / "rivales"; for a spectator, "pareja 1"/"pareja 2". */
export function teamRelation(team) {
  if (watching()) return t("page.seat_rel.pair", { n: team + 1 });
  return team === mySeat() % 2 ? t("page.seat_rel.team_yours") : t("page.seat_rel.team_rivals");
}

/** "Ana 1 – Don Lucho 0": each team's name and number, the winner's (or the leader's) first; `first` the
 * team to put first, else the higher number's (a tie: team 0 first). The same for every reader. */
export function scoreLine(numbers, first = null) {
  const lead = first ?? ((numbers[1] ?? 0) > (numbers[0] ?? 0) ? 1 : 0);
  return [lead, 1 - lead].map((team) => t("page.names.score", { name: teamName(team), n: numbers[team] ?? 0 })).join(" – ");
}

export function names() {
  return { seat: seatName, team: teamName, teamObject, players: players(), pair: players() === 4, you: youSeat() };
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
  return Boolean(msg && msg.status !== "finished" && msg.view.turn === mySeat() && own(msg).legal.length);
}

/** A preset of `GET api/options` by its name, or null. */
export function presetOf(name) {
  return app.options?.presets?.find((p) => p.name === name) ?? null;
}
