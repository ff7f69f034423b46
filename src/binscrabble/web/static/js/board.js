// The board as a grid of buttons, drawn from a view (board rows, blanks, rotated squares)
// plus the tiles being placed. Every square is a button named as INTERFACES.md §6 says.

import { faceGlyph, faceName, pointsOf } from "./tiles.js";
import { plain, t } from "./i18n.js";

export const SIZE = 15;
export const COLUMNS = "ABCDEFGHIJKLMNO";

// The premium squares' short labels, as the board shows them (TW: triple word...).
const SHORT = {
  "triple word": t("TW"),
  "double word": t("DW"),
  "triple letter": t("TL"),
  "double letter": t("DL"),
};

// A premium square's name as people read it ("double letter": INTERFACES.md §6).
export function premiumName(premium) {
  const names = {
    "triple word": t("triple word"),
    "double word": t("double word"),
    "triple letter": t("triple letter"),
    "double letter": t("double letter"),
  };
  return Object.hasOwn(names, premium) ? names[premium] : premium;
}

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

// Each square keeps its button and the button its three spans (glyph, points, premium
// label) for the life of the board: drawing changes their text, attributes and classes in
// place, so a click whose press and release straddle a redraw still lands.
export class BoardView {
  constructor(container, meta, { onSquare = null } = {}) {
    this.meta = meta;
    this.container = container;
    this.buttons = new Map();
    container.classList.add("board");
    container.setAttribute("role", "grid");
    container.setAttribute("aria-label", plain(t("board")));
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
        for (const part of ["glyph", "points", "premium-label"]) {
          const span = document.createElement("span");
          span.className = part;
          button.append(span);
        }
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

  // state: {view, pending: Map(name -> {code, face, rotated}), last: [names],
  // cursor: {square, across}, typed: Map(name -> {code, face, rotated}) (a move being typed
  // in the Move box, drawn where the board and the placed tiles leave room)}
  render({ view, pending = new Map(), last = [], cursor = null, typed = new Map() }) {
    const blanks = new Set((view && view.blanks) || []);
    const rotated = new Set((view && view.rotated) || []);
    const lastSquares = new Set(last);
    for (const [name, button] of this.buttons) {
      const { column, row } = parseSquare(name);
      const onBoard = faceAt(view, column, row);
      const placed = pending.get(name) || (onBoard ? null : typed.get(name));
      const face = placed ? placed.face : onBoard;
      const tile = face
        ? {
            face,
            placed: Boolean(placed),
            typed: Boolean(placed) && !pending.has(name),
            blank: placed ? placed.code === "?" : blanks.has(name),
            rotated: placed ? Boolean(placed.rotated) : rotated.has(name),
            last: lastSquares.has(name),
          }
        : null;
      this.drawSquare(name, button, tile, cursor);
    }
  }

  // tile: null for an empty square, else {face, placed, typed, blank, rotated, last}.
  drawSquare(name, button, tile, cursor) {
    const premium = ((this.meta && this.meta.premiums) || {})[name] || null;
    const [glyph, points, label] = button.children;
    const classes = ["square"];
    if (premium) classes.push(`premium-${premium.replaceAll(" ", "-")}`);
    if (name === "H8") classes.push("centre");
    if (tile) {
      classes.push("has-tile");
      if (tile.placed) classes.push(tile.typed ? "typed" : "pending");
      if (tile.last) classes.push("last");
      if (tile.blank) classes.push("blank");
      const shown = faceGlyph(tile.face);
      setText(glyph, shown);
      setClass(glyph, `glyph${tile.rotated ? " rotated" : ""}${shown.length > 1 ? " word" : ""}`);
      setText(points, String(tile.blank ? 0 : pointsOf(this.meta, tile.face)));
      setText(label, "");
      const rotation = tile.rotated ? ` ${t("rotated")}` : "";
      const description = tile.blank ? t("blank {face}", { face: faceName(tile.face) }) : faceName(tile.face);
      const state = tile.typed ? ` ${t("typed")}` : tile.placed ? ` ${t("placed")}` : "";
      setAttribute(button, "aria-label", plain(`${name} ${description}${rotation}${state}`));
    } else {
      setText(glyph, "");
      setText(points, "");
      setText(label, name === "H8" ? "★" : SHORT[premium] || "");
      setAttribute(button, "aria-label", plain(premium ? `${name} ${premiumName(premium)}` : name));
    }
    if (cursor && cursor.square === name) classes.push("cursor", cursor.across ? "across" : "down");
    setClass(button, classes.join(" "));
    // Roving focus: one square takes Tab, the cursor's, else H8.
    const focusable = cursor ? cursor.square === name : name === "H8";
    const tabIndex = focusable ? 0 : -1;
    if (button.tabIndex !== tabIndex) button.tabIndex = tabIndex;
  }
}

function setText(node, text) {
  if (node.textContent !== text) node.textContent = text;
}

function setClass(node, value) {
  if (node.className !== value) node.className = value;
}

function setAttribute(node, name, value) {
  if (node.getAttribute(name) !== value) node.setAttribute(name, value);
}

// A plain board (analysis, viewer): rows, blanks and rotated squares only.
export function drawStaticBoard(container, meta, position) {
  container.replaceChildren();
  const view = new BoardView(container, meta);
  view.render({ view: position, last: position.last || [] });
  return view;
}
