// Short sounds for caída, limpia, ronda and the end of a chica, synthesised by the Web Audio API when
// they play: no sound file to download, nothing to license. Loaded by settings.js only once sound is
// switched on. The settings panel's element counts what this module did (docs/web.md): the audio
// contexts made (`data-audio-contexts`), the sounds played (`data-sounds-played`; of each kind:
// `data-sound-caida`, `-limpia`, `-ronda`, `-chica`) and the last one (`data-last-sound`), so a test can
// see that a caída was heard, and that nothing plays when sound is off.

const VOLUME = 0.22;
const GAP = 0.28; // seconds between two sounds of the same moment

let box = null; // the element that counts
let ctx = null;
let master = null;

/** Where to count (the settings panel). */
export function init(element) {
  box = element ?? null;
}

function bump(name) {
  if (!box) return;
  box.dataset[name] = String(Number(box.dataset[name] || 0) + 1);
}

function audio() {
  if (ctx) return ctx;
  const Ctor = window.AudioContext || window.webkitAudioContext;
  if (!Ctor) return null;
  try {
    ctx = new Ctor();
  } catch {
    return null;
  }
  master = ctx.createGain();
  master.gain.value = VOLUME;
  master.connect(ctx.destination);
  bump("audioContexts");
  return ctx;
}

/** Make the audio ready (after a click or a key: browsers start audio only after a gesture). */
export function unlock() {
  const c = audio();
  if (c && c.state === "suspended") c.resume().catch(() => {});
}

/** A note: `type` wave at `freq` Hz from `at` for `length` s, with a quick attack and a decay. */
function note(c, at, freq, length, type = "triangle", level = 1) {
  const osc = c.createOscillator();
  const gain = c.createGain();
  osc.type = type;
  osc.frequency.setValueAtTime(freq, at);
  gain.gain.setValueAtTime(0.0001, at);
  gain.gain.exponentialRampToValueAtTime(level, at + 0.012);
  gain.gain.exponentialRampToValueAtTime(0.0001, at + length);
  osc.connect(gain).connect(master);
  osc.start(at);
  osc.stop(at + length + 0.02);
}

/** A sweep of noise through a band-pass filter rising from `from` to `to` Hz: a brush over the felt. */
function sweep(c, at, length, from, to) {
  const frames = Math.ceil(c.sampleRate * length);
  const buffer = c.createBuffer(1, frames, c.sampleRate);
  const data = buffer.getChannelData(0);
  for (let i = 0; i < frames; i += 1) data[i] = Math.random() * 2 - 1;
  const src = c.createBufferSource();
  src.buffer = buffer;
  const filter = c.createBiquadFilter();
  filter.type = "bandpass";
  filter.Q.value = 1.2;
  filter.frequency.setValueAtTime(from, at);
  filter.frequency.exponentialRampToValueAtTime(to, at + length);
  const gain = c.createGain();
  gain.gain.setValueAtTime(0.0001, at);
  gain.gain.exponentialRampToValueAtTime(0.9, at + length * 0.3);
  gain.gain.exponentialRampToValueAtTime(0.0001, at + length);
  src.connect(filter).connect(gain).connect(master);
  src.start(at);
  src.stop(at + length + 0.02);
}

/** Each sound: a function of (context, start time) that schedules its notes; returns its length. */
const SOUNDS = {
  // a card falls on the other: a knock and a bright note above it
  caida(c, at) {
    note(c, at, 196, 0.09, "square", 0.5);
    note(c, at + 0.07, 659.3, 0.22);
    note(c, at + 0.07, 1318.5, 0.18, "sine", 0.35);
    return 0.3;
  },
  // the table swept clean
  limpia(c, at) {
    sweep(c, at, 0.34, 500, 5000);
    note(c, at + 0.26, 1046.5, 0.2, "sine", 0.5);
    return 0.46;
  },
  // three (or four) of a kind: three quick equal notes
  ronda(c, at) {
    for (let i = 0; i < 3; i += 1) note(c, at + i * 0.1, 880, 0.09, "sine", 0.8);
    return 0.32;
  },
  // your turn at a table with friends, while the page is hidden (presence.js): two soft notes
  turn(c, at) {
    note(c, at, 659.3, 0.16, "sine", 0.7);
    note(c, at + 0.18, 987.8, 0.24, "sine", 0.7);
    return 0.45;
  },
  // a chica won: a short rising fanfare
  chica(c, at) {
    [523.3, 659.3, 784, 1046.5].forEach((freq, i) => note(c, at + i * 0.11, freq, i === 3 ? 0.5 : 0.14));
    return 0.85;
  },
};

/** The sounds of an update's events, in order, each at most once. */
export function soundsOf(events) {
  const out = [];
  const add = (name) => out.includes(name) || out.push(name);
  for (const e of events) {
    if (!e || typeof e.kind !== "string") continue;
    if (e.kind === "caida" || e.kind === "caida_ronda" || e.kind === "caida_limpia") add("caida");
    if (e.kind === "limpia" || e.kind === "caida_limpia" || (e.kind === "caida_ronda" && e.limpia)) add("limpia");
    if (e.kind === "ronda" || e.kind === "four_of_a_kind") add("ronda");
    if (e.kind === "chica_won") add("chica");
  }
  return out;
}

/** Play the sounds of these events, one after the other. */
export function onEvents(events) {
  play(soundsOf(events));
}

/** "Your turn" (a table with friends, the page hidden, the "tell me" switch on). */
export function turn() {
  play(["turn"]);
}

function play(names) {
  if (!names.length) return;
  const c = audio();
  if (!c) return;
  if (c.state === "suspended") c.resume().catch(() => {});
  let at = c.currentTime + 0.02;
  for (const name of names) {
    at += SOUNDS[name](c, at) + GAP;
    bump("soundsPlayed");
    bump(`sound${name[0].toUpperCase()}${name.slice(1)}`);
    if (box) box.dataset.lastSound = name;
  }
}
