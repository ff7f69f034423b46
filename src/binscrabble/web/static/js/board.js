// The board as a grid of buttons, drawn from a view (board rows, blanks, rotated squares)
// plus the tiles being placed. Every square is a button named as INTERFACES.md §6 says.

import { faceGlyph, faceName, pointsOf } from "./tiles.js";

export const SIZE = 15;
export const COLUMNS = "ABCDEFGHIJKLMNO";

const SHORT = {
  "triple word": "TW",
  "double word": "DW",
  "triple letter": "TL",
  "double letter": "DL",
};

export function squareName(column, row) {
  return `${COLUMNS[column]}${row + 1}`;
}

export function parseSquare(name) {
  return { column: COLUMNS.indexOf(name[0]), row: Number(name.slice(1)) - 1 };
}

// The face on a square of a view's board, or null.
export function faceAt(view, column, row) {
  const line = view && view.board ? view.board[row] : null;
  const face = line ? line[column] : ".";
  return face && face !== "." ? face : null;
}

export class BoardView {
  constructor(container, meta, { onSquare = null } = {}) {
    this.meta = meta;
    this.container = container;
    this.buttons = new Map();
    container.classList.add("board");
    container.setAttribute("role", "grid");
    container.setAttribute("aria-label", "board");
    for (let row = 0; row < SIZE; row += 1) {
      const line = document.createElement("div");
      line.setAttribute("role", "row");
      line.className = "board-row";
      for (let column = 0; column < SIZE; column += 1) {
        const name = squareName(column, row);
        const cell = document.createElement("div");
        cell.setAttribute("role", "gridcell");
        cell.className = "cell";
        const button = document.createElement("button");
        button.type = "button";
        button.className = "square";
        button.dataset.square = name;
        button.tabIndex = -1;
        if (onSquare) button.addEventListener("click", (event) => onSquare(name, event));
        cell.append(button);
        line.append(cell);
        this.buttons.set(name, button);
      }
      container.append(line);
    }
  }

  button(name) {
    return this.buttons.get(name);
  }

  // state: {view, pending: Map(name -> {code, face}), last: [names], cursor: {square, across}}
  render({ view, pending = new Map(), last = [], cursor = null }) {
    const premiums = (this.meta && this.meta.premiums) || {};
    const blanks = new Set((view && view.blanks) || []);
    const rotated = new Set((view && view.rotated) || []);
    const lastSquares = new Set(last);
    for (const [name, button] of this.buttons) {
      const { column, row } = parseSquare(name);
      const placed = pending.get(name);
      const face = placed ? placed.face : faceAt(view, column, row);
      const isBlank = placed ? placed.code === "?" : blanks.has(name);
      const isRotated = placed ? Boolean(placed.rotated) : rotated.has(name);
      const premium = premiums[name] || null;
      button.className = "square";
      if (premium) button.classList.add(`premium-${premium.replaceAll(" ", "-")}`);
      if (name === "H8") button.classList.add("centre");
      button.replaceChildren();
      if (face) {
        button.classList.add("has-tile");
        if (placed) button.classList.add("pending");
        if (lastSquares.has(name)) button.classList.add("last");
        if (isBlank) button.classList.add("blank");
        const glyph = document.createElement("span");
        glyph.className = `glyph${isRotated ? " rotated" : ""}`;
        glyph.textContent = faceGlyph(face);
        if (faceGlyph(face).length > 1) glyph.classList.add("word");
        const points = document.createElement("span");
        points.className = "points";
        points.textContent = String(isBlank ? 0 : pointsOf(this.meta, face));
        button.append(glyph, points);
        const rotation = isRotated ? " rotated" : "";
        const description = isBlank ? `blank ${faceName(face)}` : faceName(face);
        button.setAttribute("aria-label", `${name} ${description}${rotation}${placed ? " placed" : ""}`);
      } else {
        const label = document.createElement("span");
        label.className = "premium-label";
        label.textContent = name === "H8" ? "★" : SHORT[premium] || "";
        button.append(label);
        button.setAttribute("aria-label", premium ? `${name} ${premium}` : name);
      }
      if (cursor && cursor.square === name) {
        button.classList.add("cursor", cursor.across ? "across" : "down");
        button.tabIndex = 0;
      } else {
        // Roving focus: one square takes Tab, H8 when there is no cursor yet.
        button.tabIndex = !cursor && name === "H8" ? 0 : -1;
      }
    }
  }
}

// A plain board (analysis, viewer): rows, blanks and rotated squares only.
export function drawStaticBoard(container, meta, position) {
  container.replaceChildren();
  const view = new BoardView(container, meta);
  view.render({ view: position, last: position.last || [] });
  return view;
}
