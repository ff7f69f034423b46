// How tile codes are shown and named. Display only: the rules live on the server.

import { t } from "./i18n.js";

const GLYPHS = { "-": "−", x: "×", "/": "÷", "&": "AND", "|": "OR", "~": "NOT", "^": "XOR" };

// The name a screen reader says for a face (INTERFACES.md §6): the face as the tile shows
// it (1, =, −, ×, ÷, AND, OR, NOT, XOR), never its input code; "blank" for a blank. Rack
// tiles, board squares, unseen tiles and the blank's chooser all name faces with it.
export function faceName(code) {
  if (code === "?") return t("blank");
  return GLYPHS[code] || code;
}

// What is drawn on a tile.
export function faceGlyph(code) {
  if (code === "?") return "";
  return GLYPHS[code] || code;
}

// A small tile of a list (the unseen tiles), its name said by the list item: its face, or
// for a blank an empty tile of the blank's colour, as the rack shows one (a blank has no
// face until it is played).
export function miniTile(code) {
  const tile = document.createElement("span");
  tile.className = code === "?" ? "mini-tile blank" : "mini-tile";
  tile.setAttribute("aria-hidden", "true");
  tile.textContent = faceGlyph(code);
  return tile;
}

// Keys a person may type for each code (the notation's own aliases, for the keyboard).
const KEYS = {
  0: "0", 1: "1", "=": "=", "+": "+", "-": "-", x: "x", X: "x", "*": "x", "/": "/", ":": "/",
  "&": "&", "|": "|", "~": "~", "!": "~", "^": "^",
};

export function codeForKey(key) {
  return Object.hasOwn(KEYS, key) ? KEYS[key] : null;
}

export function pointsOf(meta, code) {
  const tile = meta && meta.tiles && meta.tiles[code];
  return tile ? tile.points : 0;
}

// "0×3 1×2 =" style summary of a string of codes, in the order of the tile set.
export function countCodes(codes, order) {
  const counts = new Map();
  for (const code of codes) counts.set(code, (counts.get(code) || 0) + 1);
  const keys = order ? order.filter((code) => counts.has(code)) : [...counts.keys()];
  return keys.map((code) => ({ code, count: counts.get(code) }));
}
