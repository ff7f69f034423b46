// A replayed board with marks (analysis, record viewer): the tiles of the move played, each
// with a solid frame, and where the computer's best would have gone, each square with a
// dashed frame (on an empty square, the best's tile in italics). The squares keep their
// names (INTERFACES.md §6); a mark is said as the square's description.

import { drawStaticBoard, parseSquare } from "./board.js";
import { faceGlyph, faceName } from "./tiles.js";
import { t } from "./i18n.js";

// The position with `tiles` ([{square, face, blank, rotated}]) put on its board.
export function withTiles(position, tiles) {
  const board = position.board.map((line) => [...line]);
  const blanks = [...(position.blanks || [])];
  const rotated = [...(position.rotated || [])];
  for (const tile of tiles) {
    const { column, row } = parseSquare(tile.square);
    board[row][column] = tile.face;
    if (tile.blank) blanks.push(tile.square);
    if (tile.rotated) rotated.push(tile.square);
  }
  return { board: board.map((line) => line.join("")), blanks, rotated };
}

function describe(button, words) {
  const old = button.getAttribute("aria-description");
  button.setAttribute("aria-description", old ? `${old}, ${words}` : words);
}

function tileWords(tile) {
  const face = faceName(tile.face);
  return tile.blank ? t("blank {face}", { face }) : face;
}

// Draw `position` and mark the tiles of `played` and of `best` (lists of tiles).
export function drawMarkedBoard(container, meta, position, { played = [], best = [] } = {}) {
  const view = drawStaticBoard(container, meta, position);
  for (const tile of played) {
    const button = view.button(tile.square);
    button.classList.add("mark-played");
    describe(button, t("move played"));
  }
  for (const tile of best) {
    const button = view.button(tile.square);
    button.classList.add("mark-best");
    describe(button, t("computer's best: {tile}", { tile: tileWords(tile) }));
    if (!button.classList.contains("has-tile")) {
      const face = document.createElement("span");
      face.className = "best-face";
      face.setAttribute("aria-hidden", "true");
      const shown = tile.rotated ? "11" : faceGlyph(tile.face);
      face.textContent = tile.blank ? `[${shown}]` : shown;
      if (shown.length > 1) face.classList.add("word");
      button.classList.add("best-empty");
      button.append(face);
    }
  }
  return view;
}
