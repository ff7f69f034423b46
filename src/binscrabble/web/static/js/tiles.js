// How tile codes are shown and named. Display only: the rules live on the server.

const WORDS = { "&": "AND", "|": "OR", "~": "NOT", "^": "XOR" };
const GLYPHS = { "-": "−", x: "×", "/": "÷", "&": "AND", "|": "OR", "~": "NOT", "^": "XOR" };

// The name a screen reader says for a face: words for the logic tiles, the code otherwise.
export function faceName(code) {
  if (code === "?") return "blank";
  return WORDS[code] || code;
}

// What is drawn on a tile.
export function faceGlyph(code) {
  if (code === "?") return "";
  return GLYPHS[code] || code;
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
