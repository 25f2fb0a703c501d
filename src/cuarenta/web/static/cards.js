// Cards drawn as SVG by the project's own code: faces (rank, suit, pips or a figure) and backs.
// A card is written as in the engine: rank character + suit letter, e.g. "7h", "Js", "Ad".

export const RANKS = "A234567JQK";
export const SUITS = "hsdc"; // h ♥ corazón rojo, s ♠ corazón negro, d ♦ brillo, c ♣ trébol
export const SUIT_SYMBOLS = { h: "♥", s: "♠", d: "♦", c: "♣" };
const RED = "#c0182a";
const BLACK = "#1b1d22";

/** Parse "7h" into {rank: "7", suit: "h"}; null when the text is not a card. */
export function parseCard(code) {
  if (typeof code !== "string" || code.length !== 2) return null;
  const rank = code[0].toUpperCase();
  const suit = code[1].toLowerCase();
  if (!RANKS.includes(rank) || !SUITS.includes(suit)) return null;
  return { rank, suit };
}

export function isRed(suit) {
  return suit === "h" || suit === "d";
}

/** The card as text with its suit symbol: "7♥". */
export function cardText(code) {
  const c = parseCard(code);
  return c ? c.rank + SUIT_SYMBOLS[c.suit] : String(code);
}

// Suit shapes in a 100 x 100 box (our own paths, not font glyphs, so every browser draws them alike).
const SUIT_PATHS = {
  h: "M50 92C22 68 3 52 3 31 3 15 15 4 29 4c10 0 17 6 21 15 4-9 11-15 21-15 14 0 26 11 26 27 0 21-19 37-47 61z",
  d: "M50 2 88 50 50 98 12 50z",
  s: "M50 3C78 29 97 44 97 62c0 13-10 22-22 22-9 0-16-5-20-12 1 10 5 18 13 25H32c8-7 12-15 13-25-4 7-11 12-20 12C13 84 3 75 3 62 3 44 22 29 50 3z",
  c: "M50 6a21 21 0 0 1 18 32 21 21 0 1 1-10 32c1 11 5 19 12 26H30c7-7 11-15 12-26a21 21 0 1 1-10-32A21 21 0 0 1 50 6z",
};

/** An SVG path of a suit centred at (cx, cy) and `size` units across. */
export function suitShape(suit, cx, cy, size, extra = "") {
  const k = size / 100;
  const x = cx - size / 2;
  const y = cy - size / 2;
  const fill = isRed(suit) ? RED : BLACK;
  return `<path d="${SUIT_PATHS[suit]}" fill="${fill}" transform="translate(${x.toFixed(2)} ${y.toFixed(2)}) scale(${k.toFixed(4)})" ${extra}/>`;
}

// Pip positions (x, y, upside-down) for 2..7 on a 100 x 140 card, inside the frame of the corners.
const PIPS = {
  2: [[50, 36, 0], [50, 104, 1]],
  3: [[50, 34, 0], [50, 70, 0], [50, 106, 1]],
  4: [[34, 38, 0], [66, 38, 0], [34, 102, 1], [66, 102, 1]],
  5: [[34, 38, 0], [66, 38, 0], [50, 70, 0], [34, 102, 1], [66, 102, 1]],
  6: [[34, 36, 0], [66, 36, 0], [34, 70, 0], [66, 70, 0], [34, 104, 1], [66, 104, 1]],
  7: [[34, 34, 0], [66, 34, 0], [50, 52, 0], [34, 72, 0], [66, 72, 0], [34, 106, 1], [66, 106, 1]],
};

function pips(rank, suit) {
  return PIPS[Number(rank)]
    .map(([x, y, flip]) => {
      const shape = suitShape(suit, x, y, 20);
      return flip ? `<g transform="rotate(180 ${x} ${y})">${shape}</g>` : shape;
    })
    .join("");
}

// The figures: a simple emblem each, framed, with the suit (J a cap with a feather, Q a tiara, K a crown).
function figure(rank, suit) {
  const ink = isRed(suit) ? RED : BLACK;
  const gold = "#e9b935";
  const pale = isRed(suit) ? "#fdeced" : "#eceff5";
  const frame = `<rect x="24" y="30" width="52" height="80" rx="6" fill="${pale}" stroke="${ink}" stroke-width="1.6"/>`;
  let emblem = "";
  if (rank === "K") {
    emblem =
      `<path d="M31 70 29 47 40 58 50 42 60 58 71 47 69 70z" fill="${gold}" stroke="${ink}" stroke-width="2" stroke-linejoin="round"/>` +
      `<rect x="31" y="70" width="38" height="7" rx="2" fill="${gold}" stroke="${ink}" stroke-width="2"/>` +
      `<circle cx="29" cy="46" r="3" fill="${ink}"/><circle cx="50" cy="41" r="3.4" fill="${ink}"/><circle cx="71" cy="46" r="3" fill="${ink}"/>`;
  } else if (rank === "Q") {
    emblem =
      `<path d="M32 72C33 60 36 52 41 47c3 6 6 8 9 8s6-2 9-8c5 5 8 13 9 25z" fill="${gold}" stroke="${ink}" stroke-width="2" stroke-linejoin="round"/>` +
      `<circle cx="41" cy="45" r="3" fill="${ink}"/><circle cx="59" cy="45" r="3" fill="${ink}"/>` +
      `<circle cx="50" cy="50" r="4" fill="${pale}" stroke="${ink}" stroke-width="2"/>` +
      `<rect x="32" y="72" width="36" height="6" rx="3" fill="${gold}" stroke="${ink}" stroke-width="2"/>`;
  } else {
    emblem =
      `<path d="M32 74c0-12 8-20 18-20s18 8 18 20z" fill="${gold}" stroke="${ink}" stroke-width="2" stroke-linejoin="round"/>` +
      `<path d="M58 56c4-9 11-14 17-14-3 7-8 12-15 16" fill="${ink}"/>` +
      `<rect x="30" y="73" width="40" height="6" rx="3" fill="${gold}" stroke="${ink}" stroke-width="2"/>`;
  }
  return frame + emblem + suitShape(suit, 50, 95, 18);
}

function ace(suit) {
  return suitShape(suit, 50, 70, 46);
}

/**
 * The face of a card as an SVG string (viewBox 0 0 100 140). It is decorative (aria-hidden):
 * the element that holds it carries the card's accessible name.
 */
export function cardFaceSVG(code) {
  const c = parseCard(code);
  if (!c) return cardBackSVG();
  const ink = isRed(c.suit) ? RED : BLACK;
  const corner =
    `<text x="5" y="27" font-size="27" font-weight="700" font-family="system-ui, 'DejaVu Sans', sans-serif" ` +
    `fill="${ink}">${c.rank}</text>` +
    suitShape(c.suit, 14, 38, 15);
  let centre;
  if (c.rank === "A") centre = ace(c.suit);
  else if ("JQK".includes(c.rank)) centre = figure(c.rank, c.suit);
  else centre = pips(c.rank, c.suit);
  return (
    `<svg class="card-svg" viewBox="0 0 100 140" aria-hidden="true" focusable="false" xmlns="http://www.w3.org/2000/svg">` +
    `<rect x="1" y="1" width="98" height="138" rx="9" fill="#fffdf8" stroke="#8a8377" stroke-width="2"/>` +
    corner +
    `<g transform="rotate(180 50 70)">${corner}</g>` +
    centre +
    `</svg>`
  );
}

let backLattice = null;

/** The back of a card: a lattice of small diamonds on deep red, with "40" in the middle. */
export function cardBackSVG() {
  if (backLattice === null) {
    const parts = [];
    for (let row = 0; row < 9; row += 1) {
      for (let col = 0; col < 6; col += 1) {
        const x = 14 + col * 14.4 + (row % 2 ? 7.2 : 0);
        const y = 14 + row * 14;
        if (x > 88) continue;
        parts.push(`M${x.toFixed(1)} ${y - 5}l5 5-5 5-5-5z`);
      }
    }
    backLattice = parts.join("");
  }
  return (
    `<svg class="card-svg" viewBox="0 0 100 140" aria-hidden="true" focusable="false" xmlns="http://www.w3.org/2000/svg">` +
    `<rect x="1" y="1" width="98" height="138" rx="9" fill="#7d1626" stroke="#4a0c16" stroke-width="2"/>` +
    `<rect x="7" y="7" width="86" height="126" rx="5" fill="none" stroke="#e9b935" stroke-width="1.5"/>` +
    `<path d="${backLattice}" fill="#a52a3c"/>` +
    `<circle cx="50" cy="70" r="17" fill="#7d1626" stroke="#e9b935" stroke-width="2"/>` +
    `<text x="50" y="78" text-anchor="middle" font-size="21" font-weight="700" ` +
    `font-family="system-ui, 'DejaVu Sans', sans-serif" fill="#e9b935">40</text>` +
    `</svg>`
  );
}

/** A tiny mark for the score: a tanto (2 points, face up) or a perro (10 points, face down). */
export function scoreMarkSVG(kind) {
  if (kind === "perro") {
    return (
      `<svg class="mark perro" viewBox="0 0 20 28" aria-hidden="true" focusable="false">` +
      `<rect x="1" y="1" width="18" height="26" rx="3" fill="#7d1626" stroke="#4a0c16"/>` +
      `<path d="M10 7l4 7-4 7-4-7z" fill="#e9b935"/></svg>`
    );
  }
  return (
    `<svg class="mark tanto" viewBox="0 0 20 28" aria-hidden="true" focusable="false">` +
    `<rect x="1" y="1" width="18" height="26" rx="3" fill="#fffdf8" stroke="#8a8377"/>` +
    `<path d="M10 9l4 5-4 5-4-5z" fill="${RED}"/></svg>`
  );
}

/** Create an element holding a card face or back; `tag` e.g. "div", "li" or "button". */
export function cardElement(code, { tag = "div", className = "card", faceDown = false } = {}) {
  const el = document.createElement(tag);
  el.className = className;
  if (code && !faceDown) el.dataset.card = code;
  el.innerHTML = faceDown || !code ? cardBackSVG() : cardFaceSVG(code);
  return el;
}
