// Writing the tiles being placed as notation (docs/notation.md), so the server can judge
// them. This only spells a placement; whether it is legal is the server's answer.

import { COLUMNS, SIZE, faceAt, parseSquare } from "./board.js";

function symbolFor(tile) {
  const face = tile.rotated ? "#" : tile.face;
  return tile.code === "?" ? `?${face}` : face;
}

function boardSymbol(view, column, row) {
  const face = faceAt(view, column, row);
  const name = `${COLUMNS[column]}${row + 1}`;
  return (view.rotated || []).includes(name) ? "#" : face;
}

// Whether a single tile at (column,row) joins a run across: a tile beside it left or right.
function hasSideNeighbour(view, column, row) {
  return (
    (column > 0 && faceAt(view, column - 1, row) !== null) ||
    (column < SIZE - 1 && faceAt(view, column + 1, row) !== null)
  );
}

// pending: Map(name -> {code, face, rotated}). Returns {notation} or {problem: "a sentence"}.
export function placementNotation(view, pending) {
  if (pending.size === 0) return { problem: "Place tiles on the board, or type a move in the Move box." };
  const spots = [...pending.entries()].map(([name, tile]) => ({ ...parseSquare(name), tile }));
  const rows = new Set(spots.map((spot) => spot.row));
  const columns = new Set(spots.map((spot) => spot.column));
  let across;
  if (spots.length === 1) across = hasSideNeighbour(view, spots[0].column, spots[0].row);
  else if (rows.size === 1) across = true;
  else if (columns.size === 1) across = false;
  else return { problem: "The tiles of one play go in one row or one column." };
  const fixed = across ? spots[0].row : spots[0].column;
  const positions = spots.map((spot) => (across ? spot.column : spot.row)).sort((a, b) => a - b);
  const at = (index) => (across ? [index, fixed] : [fixed, index]);
  const lookup = new Map(spots.map((spot) => [across ? spot.column : spot.row, spot.tile]));
  // Stretch to the whole line the play makes with the tiles already beside it.
  let first = positions[0];
  while (first > 0 && faceAt(view, ...at(first - 1)) !== null) first -= 1;
  let last = positions[positions.length - 1];
  while (last < SIZE - 1 && faceAt(view, ...at(last + 1)) !== null) last += 1;
  let text = "";
  let through = "";
  for (let index = first; index <= last; index += 1) {
    const tile = lookup.get(index);
    if (tile) {
      if (through) text += `(${through})`;
      through = "";
      text += symbolFor(tile);
      continue;
    }
    const [column, row] = at(index);
    const symbol = boardSymbol(view, column, row);
    if (symbol === null) {
      return { problem: "The tiles of one play form one unbroken line: fill the gap between them." };
    }
    through += symbol;
  }
  if (through) text += `(${through})`;
  const [startColumn, startRow] = at(first);
  const coordinate = across ? `${startRow + 1}${COLUMNS[startColumn]}` : `${COLUMNS[startColumn]}${startRow + 1}`;
  return { notation: `${coordinate} ${text}` };
}
