// A game page: a seat's (with ?token=) or a spectator's. It renders the server's view and
// sends intents; legality, scores and reasons always come from the server. The token of an
// invite link leaves the address bar at once and stays in this tab's storage for the game.

import { ApiError, getJson, liveUrl, loadMeta, postJson } from "./api.js";
import { BoardView, SIZE, faceAt, parseSquare, squareName } from "./board.js";
import { describeRun, drawBag, drawLog, drawResult, drawScores, el, endSentence, exchangedCount, exchangedFaces, hintTitle, moveSentence, points, thinking } from "./panels.js";
import { findGame, loadArrangement, rememberGame, rememberToken, saveArrangement, setTabToken, takeLinkToken } from "./store.js";
import { codeForKey, faceGlyph, faceName, pointsOf } from "./tiles.js";
import { startDrag } from "./drag.js";
import { noticeTurn } from "./turn-alert.js";
import { Clocks, EndButtons, waitingSentence } from "./clocks.js";
import { ltr } from "./bidi.js";
import { plain, sentence, t, tn } from "./i18n.js";

const gameId = decodeURIComponent(location.pathname.split("/")[2] || "");
const $ = (id) => document.getElementById(id);

const state = {
  meta: null,
  token: takeLinkToken(gameId),
  view: null,
  rack: [], // [{id, code}] in the order shown
  rackKey: "", // the rack and turn the local rack was built from
  rackSeat: null, // the seat whose rack it is
  pending: new Map(), // square -> {id, code, face, rotated}
  moveTyped: new Map(), // square -> {code, face, rotated}: the Move box's play, as read
  typed: [], // squares placed by typing, newest last (Backspace takes them back)
  selected: null, // id of the rack tile chosen for click placement
  exchanging: false,
  marked: new Set(), // ids marked for an exchange
  linkProblem: "", // why the link's token opened no seat (said while the page watches)
  cursor: null, // {square, across}
  blankNext: false,
  previewSeq: 0,
  previewTimer: null,
  socket: null,
  busy: false,
};

let boardView = null;
const clocks = new Clocks($("clocks"));
let endButtons = null;

function say(text, kind = "info") {
  const status = $("status");
  status.replaceChildren();
  status.dataset.kind = kind;
  if (typeof text === "string") status.textContent = text;
  else status.append(text);
  status.parentElement.scrollTop = 0;
}

// On a phone the status slot has a fixed height and scrolls what it cannot show (the
// overtime sentence and a long status): while it does, it takes the keyboard's focus, so
// its text can be scrolled to without a finger.
const statusSlot = $("status").parentElement;
const slotWatch = new ResizeObserver(() => {
  if (statusSlot.scrollHeight > statusSlot.clientHeight + 1) statusSlot.tabIndex = 0;
  else statusSlot.removeAttribute("tabindex");
});
for (const part of [statusSlot, ...statusSlot.children]) slotWatch.observe(part);

function isSeat() {
  return Boolean(state.token) && state.view && Number.isInteger(state.view.seat);
}

function myTurn() {
  return isSeat() && !state.view.over && state.view.to_move === state.view.seat;
}

// ---- the rack -------------------------------------------------------------------------

function rackTileById(id) {
  return state.rack.find((tile) => tile.id === id) || null;
}

function placedIds() {
  return new Set([...state.pending.values()].map((tile) => tile.id));
}

function syncRack() {
  const view = state.view;
  const key = `${view.turn}:${view.rack || ""}:${view.seat}`;
  if (key === state.rackKey) return;
  state.rackKey = key;
  // The same seat's tiles keep their places (and their buttons) from one turn to the next;
  // the tiles drawn since join at the end. A page just loaded takes the order it had.
  const saved = state.rackSeat === view.seat ? null : loadArrangement(gameId, view.seat);
  const kept = saved ? saved.order.map((code) => newTile(code)) : state.rackSeat === view.seat ? state.rack : [];
  state.rackSeat = view.seat;
  state.rack = arrangeRack(kept, view.rack || "");
  clearPlacement();
  if (saved && saved.turn === view.turn && saved.rack === view.rack) restorePlaced(saved, kept);
}

// The tiles placed but not played when the page was last left, back on their squares.
function restorePlaced(saved, tiles) {
  for (const { square, index, face, rotated } of saved.placed) {
    const tile = tiles[index];
    if (!tile || !state.rack.includes(tile) || typeof square !== "string" || occupiedOnBoard(square)) continue;
    state.pending.set(square, { id: tile.id, code: tile.code, face, rotated: Boolean(rotated) });
  }
}

// The rack's order and the tiles placed, kept for a reload of this tab.
function saveSeat() {
  const view = state.view;
  const index = new Map(state.rack.map((tile, at) => [tile.id, at]));
  const placed = [...state.pending].map(([square, tile]) => ({ square, index: index.get(tile.id), face: tile.face, rotated: tile.rotated }));
  saveArrangement(gameId, view.seat, { turn: view.turn, rack: view.rack, order: state.rack.map((tile) => tile.code), placed });
}

let tileCount = 0;

// The tiles of `codes` in the order of `previous` where they were there already.
function arrangeRack(previous, codes) {
  const left = [...codes];
  const rack = [];
  for (const tile of previous) {
    const at = left.indexOf(tile.code);
    if (at < 0) continue;
    left.splice(at, 1);
    rack.push(tile);
  }
  for (const code of left) rack.push(newTile(code));
  return rack;
}

function newTile(code) {
  tileCount += 1;
  return { id: `t${tileCount}`, code };
}

function clearPlacement() {
  state.pending.clear();
  state.moveTyped.clear();
  state.typed = [];
  state.selected = null;
  state.exchanging = false;
  state.marked.clear();
  state.blankNext = false;
}

// One button per tile of the rack, kept while the tile is: a redraw (a view arriving, a
// tile chosen) changes their text and attributes in place, never the elements, so a click
// whose press and release straddle a redraw still lands.
const rackButtons = new Map(); // tile id -> button

function rackButton(tile) {
  let button = rackButtons.get(tile.id);
  if (button) return button;
  button = el(
    "button",
    { type: "button", class: "tile", "data-tile": tile.id },
    el("span", { class: "glyph" }),
    el("span", { class: "points" }),
  );
  button.addEventListener("pointerdown", (event) => beginDrag(event, { id: tile.id, from: null }));
  button.addEventListener("click", () => clickRackTile(tile.id));
  rackButtons.set(tile.id, button);
  return button;
}

function drawRack() {
  const rack = $("rack");
  const focused = document.activeElement;
  const used = placedIds();
  const present = new Set(state.rack.map((tile) => tile.id));
  for (const [id, button] of rackButtons) {
    if (present.has(id)) continue;
    button.remove();
    rackButtons.delete(id);
  }
  state.rack.forEach((tile, index) => {
    const button = rackButton(tile);
    // Moved only when out of place: moving an element ends a click on it.
    if (rack.children[index] !== button) rack.insertBefore(button, rack.children[index] || null);
    const glyph = faceGlyph(tile.code);
    const pressed = state.exchanging ? state.marked.has(tile.id) : state.selected === tile.id;
    setAttribute(button, "aria-label", plain(t("rack {face}", { face: faceName(tile.code) })));
    setAttribute(button, "aria-pressed", String(pressed));
    button.hidden = used.has(tile.id);
    button.classList.toggle("blank", tile.code === "?");
    button.classList.toggle("selected", state.selected === tile.id);
    button.classList.toggle("marked", state.marked.has(tile.id));
    setText(button.firstChild, glyph);
    button.firstChild.classList.toggle("word", glyph.length > 1);
    setText(button.lastChild, String(pointsOf(state.meta, tile.code)));
  });
  // Keyboard users keep their place when a tile moved under their focus.
  if (focused && rack.contains(focused) && document.activeElement !== focused) focused.focus();
}

function setAttribute(node, name, value) {
  if (node.getAttribute(name) !== value) node.setAttribute(name, value);
}

function setText(node, text) {
  if (node.textContent !== text) node.textContent = text;
}

function clickRackTile(id) {
  if (dragJustEnded()) return;
  if (!myTurn()) return;
  if (state.exchanging) {
    if (state.marked.has(id)) state.marked.delete(id);
    else state.marked.add(id);
    const marked = tn("{count} tile marked", "{count} tiles marked", state.marked.size);
    say(t("{marked}: press Exchange to swap them with the bag, or Recall to stop.", { marked }));
  } else {
    state.selected = state.selected === id ? null : id;
  }
  drawSeat();
}

// ---- placing tiles ----------------------------------------------------------------------

function occupiedOnBoard(name) {
  const { column, row } = parseSquare(name);
  return faceAt(state.view, column, row) !== null;
}

const blankDialog = $("blank-dialog");

function chooseBlankFace() {
  const faces = $("blank-faces");
  faces.replaceChildren();
  return new Promise((resolve) => {
    const finish = (face) => {
      blankDialog.close();
      resolve(face);
    };
    const rules = state.view.rules || {};
    // The faces of this game's tile set: XOR only when the game has XOR tiles.
    const options = Object.keys(state.meta.tiles).filter((code) => code !== "?" && (code !== "^" || rules.xor_tiles > 0));
    if (rules.rotated_equals) options.push("#");
    for (const code of options) {
      const label = code === "#" ? t("rotated = (reads 11)") : faceName(code);
      const glyph = code === "#" ? "⦀" : faceGlyph(code);
      const button = el("button", { type: "button", class: "tile", "aria-label": plain(t("face {face}", { face: label })) },
        el("span", { class: `glyph${glyph.length > 1 ? " word" : ""}`, text: glyph }));
      button.addEventListener("click", () => finish(code));
      faces.append(button);
    }
    $("blank-cancel").onclick = () => finish(null);
    blankDialog.oncancel = (event) => {
      event.preventDefault();
      finish(null);
    };
    blankDialog.showModal();
  });
}

async function placeTile(id, name, face = null) {
  const tile = rackTileById(id);
  if (!tile || occupiedOnBoard(name)) return false;
  let chosen = face || tile.code;
  let rotated = false;
  if (tile.code === "?" && !face) {
    chosen = await chooseBlankFace();
    if (!chosen) return false;
  }
  if (chosen === "#") {
    chosen = "=";
    rotated = true;
  }
  for (const [square, placed] of state.pending) if (placed.id === id) state.pending.delete(square);
  state.pending.set(name, { id, code: tile.code, face: chosen, rotated });
  state.selected = null;
  return true;
}

function takeBack(name) {
  state.pending.delete(name);
  state.typed = state.typed.filter((square) => square !== name);
}

async function clickSquare(name) {
  if (dragJustEnded()) return;
  if (!myTurn() || state.exchanging) return setCursor(name, true);
  if (state.selected) {
    if (state.pending.has(name)) takeBack(name);
    await placeTile(state.selected, name);
    return changed();
  }
  if (state.pending.has(name)) {
    takeBack(name);
    return changed();
  }
  setCursor(name, true);
}

function setCursor(name, fromClick = false) {
  if (state.cursor && state.cursor.square === name && fromClick) state.cursor.across = !state.cursor.across;
  else state.cursor = { square: name, across: state.cursor ? state.cursor.across : true };
  drawBoard();
  boardView.button(name).focus();
  const words = state.cursor.across
    ? t("Typing goes across from {square}. Space turns the direction.", { square: name })
    : t("Typing goes down from {square}. Space turns the direction.", { square: name });
  if (myTurn()) say(words);
}

function step(name, across, delta) {
  const { column, row } = parseSquare(name);
  const nextColumn = column + (across ? delta : 0);
  const nextRow = row + (across ? 0 : delta);
  if (nextColumn < 0 || nextRow < 0 || nextColumn >= SIZE || nextRow >= SIZE) return null;
  return squareName(nextColumn, nextRow);
}

function freeSquareFrom(name, across) {
  let square = name;
  while (square && (occupiedOnBoard(square) || state.pending.has(square))) square = step(square, across, 1);
  return square;
}

async function typeCode(code) {
  if (!state.cursor) return say(t("Click a square first, then type the tiles."));
  const used = placedIds();
  const free = state.rack.filter((tile) => !used.has(tile.id));
  // "#" is an = turned to read 11 (house rule rotated_equals): an = tile or a blank.
  const wanted = code === "#" ? "=" : code;
  let tile = state.blankNext ? null : free.find((candidate) => candidate.code === wanted);
  if (!tile) tile = free.find((candidate) => candidate.code === "?");
  state.blankNext = false;
  if (!tile) return say(t("There is no {face} on your rack, nor a blank.", { face: faceName(wanted) }), "error");
  const square = freeSquareFrom(state.cursor.square, state.cursor.across);
  if (!square) return say(t("That runs off the board."), "error");
  await placeTile(tile.id, square, code);
  state.typed.push(square);
  const next = step(square, state.cursor.across, 1);
  state.cursor = { square: next ? freeSquareFrom(next, state.cursor.across) || square : square, across: state.cursor.across };
  changed();
  boardView.button(state.cursor.square).focus();
}

function backspace() {
  const square = state.typed.pop() || [...state.pending.keys()].pop();
  if (!square) return;
  state.pending.delete(square);
  state.cursor = { square, across: state.cursor ? state.cursor.across : true };
  changed();
  boardView.button(square).focus();
}

function moveCursor(key) {
  const start = state.cursor ? state.cursor.square : "H8";
  const { column, row } = parseSquare(start);
  const delta = { ArrowLeft: [-1, 0], ArrowRight: [1, 0], ArrowUp: [0, -1], ArrowDown: [0, 1] }[key];
  const nextColumn = Math.min(SIZE - 1, Math.max(0, column + delta[0]));
  const nextRow = Math.min(SIZE - 1, Math.max(0, row + delta[1]));
  state.cursor = { square: squareName(nextColumn, nextRow), across: state.cursor ? state.cursor.across : true };
  drawBoard();
  boardView.button(state.cursor.square).focus();
}

function onKey(event) {
  const target = event.target;
  if (blankDialog.open || target.closest("input, textarea, select, dialog, a")) return;
  if (!target.closest("#board") && target !== document.body) return;
  if (event.ctrlKey || event.metaKey || event.altKey) return;
  const key = event.key;
  if (key.startsWith("Arrow")) {
    event.preventDefault();
    return moveCursor(key);
  }
  if (!myTurn()) return;
  if (key === " ") {
    event.preventDefault();
    if (state.cursor) setCursor(state.cursor.square, true);
    return;
  }
  if (key === "Backspace" || key === "Delete") {
    event.preventDefault();
    return backspace();
  }
  if (key === "Enter") {
    event.preventDefault();
    return play();
  }
  if (key === "Escape") return recall();
  if (key === "?") {
    state.blankNext = true;
    return say(t("The next face you type goes on a blank."));
  }
  if (key === "#" && state.view.rules && state.view.rules.rotated_equals) {
    event.preventDefault();
    return typeCode("#");
  }
  const code = codeForKey(key);
  if (code) {
    event.preventDefault();
    typeCode(code);
  }
}

// ---- drag and drop (Pointer Events: mouse, pen and touch alike) ------------------------

// A drop is a button's release, which the browser may follow with a click (on what both
// the press and the release were on): that click is the drop's, not a choice. It comes in
// the same task as the release, so the mark lasts until the next task, and no longer: a
// click soon after a drop, or in the page's first moments, is a click.
let dropping = false;

function dragJustEnded() {
  return dropping;
}

function beginDrag(event, source) {
  if (!myTurn() || state.exchanging) return;
  const tile = rackTileById(source.id);
  if (!tile) return;
  // A blank from the rack is drawn as the rack draws it: an empty tile of the blank's colour
  // (the ghost is a .tile, so .tile.blank colours it).
  $("drag-ghost").classList.toggle("blank", !source.from && tile.code === "?");
  startDrag(event, {
    ghost: $("drag-ghost"),
    glyph: faceGlyph(source.from ? state.pending.get(source.from).face : tile.code),
    onDrop: async (target) => {
      dropping = true;
      setTimeout(() => {
        dropping = false;
      }, 0);
      if (!target) return;
      const square = target.closest("[data-square]");
      if (square) {
        const name = square.dataset.square;
        if (name === source.from || occupiedOnBoard(name)) return;
        const keepFace = source.from ? state.pending.get(source.from) : null;
        if (state.pending.has(name)) takeBack(name);
        if (source.from) takeBack(source.from);
        const face = keepFace ? (keepFace.rotated ? "#" : keepFace.face) : null;
        await placeTile(source.id, name, face);
        return changed();
      }
      const rackTarget = target.closest("#rack");
      if (rackTarget) {
        if (source.from) takeBack(source.from);
        const before = target.closest("[data-tile]");
        reorderRack(source.id, before ? before.dataset.tile : null);
        return changed();
      }
    },
  });
}

function reorderRack(id, beforeId) {
  const moving = rackTileById(id);
  if (!moving || id === beforeId) return;
  const rest = state.rack.filter((tile) => tile.id !== id);
  const at = beforeId ? rest.findIndex((tile) => tile.id === beforeId) : rest.length;
  rest.splice(at < 0 ? rest.length : at, 0, moving);
  state.rack = rest;
}

// ---- preview and submitting -----------------------------------------------------------

function changed() {
  drawSeat();
  schedulePreview();
}

// The tiles being placed, as the server takes them: it judges them and writes the notation.
function placedTiles() {
  return [...state.pending.entries()].map(([square, tile]) => ({
    square,
    face: tile.face,
    blank: tile.code === "?",
    rotated: Boolean(tile.rotated),
  }));
}

// A move typed in the Move box is previewed as it is typed, like placed tiles.
function previewTyped() {
  clearTimeout(state.previewTimer);
  state.previewSeq += 1;
  const text = $("move").value.trim();
  if (!myTurn() || state.pending.size) return;
  if (!text) {
    showTyped([]);
    return say(statusText(state.view));
  }
  const seq = state.previewSeq;
  state.previewTimer = setTimeout(() => runPreview({ move: text }, seq), 200);
}

function schedulePreview() {
  clearTimeout(state.previewTimer);
  state.previewSeq += 1;
  if (!myTurn()) return;
  if (state.pending.size === 0) {
    say(statusText(state.view));
    return;
  }
  const seq = state.previewSeq;
  const tiles = placedTiles();
  state.previewTimer = setTimeout(() => runPreview({ tiles }, seq), 120);
}

// body: {tiles: [...]} or {move: "notation"}, as the server's preview takes them.
async function runPreview(body, seq) {
  let answer;
  try {
    answer = await postJson(`/api/games/${encodeURIComponent(gameId)}/preview`, body, state.token);
  } catch (error) {
    if (seq === state.previewSeq) say(error.message, "error");
    return;
  }
  if (seq !== state.previewSeq) return;
  if (body.move !== undefined) showTyped(answer.tiles || []);
  const box = el("div", { class: "preview" });
  if (answer.legal) {
    box.append(el("p", { class: "verdict legal", text: t("{move} — legal, {points}", { move: answer.display, points: points(answer.score) }) }));
  } else {
    // A play still being laid or typed is not an error yet: what it lacks is said on its
    // own ("The first play needs at least 3 tiles ..."), never called "not legal", in the
    // page's plain ink; red and words of refusal are for a move the server refused (Play
    // pressed).
    box.append(el("p", { class: "verdict unfinished", text: sentence(answer.reason) }));
  }
  if (answer.runs && answer.runs.length) {
    const list = el("ul", { class: "runs" });
    for (const run of answer.runs) list.append(el("li", { text: describeRun(run) }));
    if (answer.bingo) list.append(el("li", { text: t("bingo, the whole rack played: +{bingo}", { bingo: answer.bingo }) }));
    box.append(list);
  }
  say(box, answer.legal ? "legal" : "unfinished");
}

// The tiles of the play typed in the Move box, as the server read them, drawn on the board.
function showTyped(tiles) {
  state.moveTyped = new Map(tiles.map((tile) => [tile.square, { code: tile.blank ? "?" : tile.face, face: tile.face, rotated: tile.rotated }]));
  drawBoard();
}

// body: {move: "notation"} or {tiles: [...]}; the turn it is meant for is added here.
async function submit(body) {
  if (state.busy) return say(t("Your move is still on its way to the server."));
  if (!myTurn()) return say(t("It is not your turn."), "error");
  const sentTurn = state.view.turn;
  state.busy = true;
  drawSeat(); // the action buttons wait while the move is on its way
  // A preview still on its way is about a move that is no longer being considered.
  clearTimeout(state.previewTimer);
  state.previewSeq += 1;
  try {
    const path = `/api/games/${encodeURIComponent(gameId)}/moves`;
    const answer = await postJson(path, { ...body, turn: sentTurn }, state.token);
    // The live feed may have brought the next turn already; its rack replaced these tiles.
    if (state.view.turn === sentTurn) clearPlacement();
    $("move").value = "";
    state.moveTyped.clear();
    $("hint-panel").hidden = true;
    state.busy = false;
    state.cursor = null; // the next move starts wherever the player chooses
    await refresh();
    // The move as the log now has it (the computer's answer too, if it came already).
    say(`${lastMoveSentence(state.view)}${statusText(state.view)}`);
  } catch (error) {
    state.busy = false;
    say(error instanceof ApiError ? error.message : String(error), "error");
    if (error instanceof ApiError && error.status === 409) await refresh();
  } finally {
    state.busy = false;
    drawSeat();
  }
}

function play() {
  if (state.exchanging) return exchange(); // Enter in exchange mode confirms the exchange
  if (state.pending.size) return submit({ tiles: placedTiles() });
  const typed = $("move").value.trim();
  if (typed) return submit({ move: typed });
  say(t("Place tiles on the board, or type a move in the Move box, then press Play."), "error");
}

function recall() {
  clearPlacement();
  changed();
}

function shuffle() {
  for (let index = state.rack.length - 1; index > 0; index -= 1) {
    const other = Math.floor(Math.random() * (index + 1));
    [state.rack[index], state.rack[other]] = [state.rack[other], state.rack[index]];
  }
  drawRack();
  saveSeat();
}

function exchange() {
  if (!myTurn()) return;
  if (!state.exchanging) {
    clearPlacement();
    state.exchanging = true;
    drawSeat();
    say(t("Choose the tiles to exchange on your rack, then press Exchange again (Recall cancels)."));
    return;
  }
  const codes = state.rack.filter((tile) => state.marked.has(tile.id)).map((tile) => tile.code).join("");
  if (!codes) return say(t("Mark at least one tile on your rack to exchange, or press Recall."), "error");
  submit({ move: `exchange ${codes}` });
}

async function hint() {
  const panel = $("hint-panel");
  try {
    const answer = await postJson(`/api/games/${encodeURIComponent(gameId)}/hint`, {}, state.token);
    panel.replaceChildren(...hintParts(answer));
    panel.hidden = false;
    bringIntoView(panel);
  } catch (error) {
    say(error.message, "error");
  }
}

// The hint where the eye is: on a phone its panel is far below the buttons, so the page
// scrolls to its top when the panel does not begin inside the screen, and the panel takes
// the focus (a screen reader reads it); on a wide screen it is already in view and nothing
// moves.
function bringIntoView(panel) {
  const box = panel.getBoundingClientRect();
  if (box.top < 0 || box.top > window.innerHeight - 48) panel.scrollIntoView({ block: "start" });
  panel.focus({ preventScroll: true });
}

// A hint, one part a line (docs/web.md, "Hints"): what the play is, each equation it makes
// with the steps that make it true (an operation read left to right in every language),
// the score as a sum (the whole rack's bonus included), and what the play keeps.
function hintParts(answer) {
  const parts = [el("h2", { text: hintTitle(answer) })];
  if (answer.about) parts.push(el("p", { class: "hint-about", text: answer.about }));
  const runs = el("ul", { class: "hint-runs" });
  for (const run of answer.runs || []) {
    const steps = el("ul", { class: "hint-steps" });
    for (const step of run.steps || []) {
      steps.append(step.arithmetic ? el("li", { class: "hint-math" }, ltr(step.text)) : el("li", { text: step.text }));
    }
    runs.append(el("li", {}, el("p", { class: "hint-run", text: describeRun(run) }), steps));
  }
  if (runs.childElementCount) parts.push(runs);
  if (answer.total) parts.push(el("p", { class: "hint-total", text: answer.total }));
  parts.push(el("p", { class: "hint-keeps", text: answer.explanation || "" }));
  return parts;
}

// ---- drawing the page --------------------------------------------------------------------

function drawBoard() {
  const last = state.view.last_move ? state.view.last_move.squares || [] : [];
  const typed = state.pending.size ? new Map() : state.moveTyped;
  boardView.render({ view: state.view, pending: state.pending, last, cursor: state.cursor, typed });
}

function drawSeat() {
  drawBoard();
  // After the game the result takes the place of the empty rack and its idle buttons.
  const seat = isSeat() && !state.view.over;
  $("seat-area").hidden = !seat;
  if (!seat) return;
  drawRack();
  saveSeat();
  const turn = myTurn() && !state.busy;
  for (const id of ["play", "pass", "exchange", "recall", "shuffle"]) $(id).disabled = !turn && id !== "shuffle";
  // While tiles are chosen for an exchange, Exchange is the button that does it: Play waits
  // (pressed, it answered "place tiles ... then press Play", the marked tiles unsaid).
  if (state.exchanging) $("play").disabled = true;
  $("move").disabled = !turn;
  $("exchange").classList.toggle("active", state.exchanging);
  // Hints come with the learning preset only: elsewhere the button stays in its place,
  // disabled, and a line says why (docs/web.md, "Hints").
  const learning = isLearning();
  $("hint").disabled = !learning;
  $("hint-note").hidden = learning;
}

function isLearning() {
  if (state.view.preset) return state.view.preset === "learning";
  const rules = state.view.rules || {};
  if (rules.preset) return rules.preset === "learning";
  const learning = (state.meta.presets || {}).learning;
  return Boolean(learning) && Object.entries(learning).every(([name, value]) => rules[name] === value);
}

function turnText(view) {
  if (view.over) return t("Game over");
  const mover = view.players[view.to_move];
  if (!mover) return "";
  if (isSeat() && view.to_move === view.seat) return t("Your turn");
  if (mover.computer) return thinking(mover);
  return t("{name}'s turn", { name: mover.name });
}

function drawResultPanel() {
  const view = state.view;
  const box = $("result");
  box.hidden = !view.over;
  if (!view.over) return;
  drawResult($("result-body"), view);
  const id = encodeURIComponent(gameId);
  $("download").href = `/api/games/${id}/record`;
  $("download").setAttribute("download", `binscrabble-${gameId}.bsr`);
  $("analysis").href = `/games/${id}/analysis`;
  // A game ended before any move (aborted, or lost on time at once) has nothing to analyse.
  $("analysis").hidden = !view.moves.length;
  // An aborted game is not played again as it was (a player may never have come): it
  // offers a new game from the lobby instead of a rematch.
  const aborted = Boolean(view.end && view.end.reason === "aborted");
  $("new-game").hidden = !aborted;
  $("rematch").hidden = !isSeat() || Boolean(view.rematch) || aborted;
  const follow = $("rematch-link");
  follow.hidden = !view.rematch;
  if (view.rematch) {
    const suffix = state.token ? `?token=${encodeURIComponent(state.token)}` : "";
    follow.querySelector("a").href = `/games/${encodeURIComponent(view.rematch)}${suffix}`;
  }
}

function render() {
  const view = state.view;
  noticeTurn(view); // the tab's title, and the chime when the turn becomes this seat's
  setTurnInfo(turnText(view));
  drawScores($("scores"), view);
  drawBag($("bag"), $("unseen"), view, Object.keys(state.meta.tiles));
  drawLog($("log-head"), $("log"), view);
  drawResultPanel();
  clocks.show(view);
  endButtons.show(view, isSeat());
  if (isSeat()) syncRack();
  drawSeat();
  if (state.pending.size) schedulePreview();
  else if (!state.exchanging) say(statusLine(view));
  // A move typed before the page had the game (the box takes keys while it loads) is read
  // now: its tiles are drawn and its preview replaces the status line.
  if (!state.pending.size && !state.exchanging && $("move").value.trim()) previewTyped();
  handover();
}

// The status line: the last move and what comes next; a game that a seat ended (resigned,
// ran out of time, aborted) says that instead of its last move.
function statusLine(view) {
  if (view.over && view.end && Number.isInteger(view.end.seat)) return t("The game is over: {reason}", { reason: endSentence(view) });
  return `${lastMoveSentence(view)}${statusText(view)}`;
}

function lastMoveSentence(view) {
  const last = view.moves[view.moves.length - 1];
  if (!last) return "";
  const mine = isSeat() && last.seat === view.seat;
  const name = view.players[last.seat].name;
  // The server writes each move for people (display, in the page's language); the kind of
  // move is read from its notation.
  // Your own exchange names its tiles (you know them); another seat's says how many.
  if (mine && last.notation === "pass") return `${t("You passed.")} `;
  const faces = mine ? exchangedFaces(last.notation) : null;
  if (faces !== null) return `${t("You exchanged {tiles}.", { tiles: faces })} `;
  if (mine && exchangedCount(last.notation) === null) {
    return `${t("You played {move} for {points}.", { move: last.display, points: points(last.score) })} `;
  }
  return `${moveSentence(name, last)} `;
}

function statusText(view) {
  if (view.over) return t("The game is over.");
  // Until every person has opened the game, whom it waits for is what comes next (the
  // header's turn still says whose turn it is).
  const waiting = waitingSentence(view);
  if (waiting) return waiting;
  if (!isSeat()) {
    // A link whose token opened no seat keeps saying so while its reader watches: the live
    // views that follow would otherwise replace the sentence at once.
    const watching = t("You are watching: {turn}.", { turn: turnText(view) });
    return state.linkProblem ? `${state.linkProblem} ${watching}` : watching;
  }
  if (myTurn()) return t("Your turn: place tiles, or type a move in the Move box.");
  // "Bo is thinking…" ends with its ellipsis, in every language: no full stop after it.
  const turn = turnText(view);
  return turn.endsWith("…") ? turn : t("{turn}.", { turn });
}

function applyView(view) {
  const previous = state.view;
  if (previous && view.turn < previous.turn) return; // an older message arriving late
  // The same view again (the live socket's first message repeats the page's GET) changes
  // nothing on the page: it is not drawn again, nor is the preview asked again. Its clock's
  // times are as of when it was built, so they differ anyway: the clocks take them.
  clocks.show(view);
  // (A clock that stops waiting for a seat changes the status line: that is drawn again.)
  const drawn = (shown) => JSON.stringify({ ...shown, clock: waitingSentence(shown) });
  if (previous && drawn(view) === drawn(previous)) return;
  state.view = view;
  render();
}

// ---- hot-seat: several seats' tokens on one device ---------------------------------------

function handover() {
  const overlay = $("handover");
  const entry = findGame(gameId);
  const view = state.view;
  const tokens = (entry && entry.tokens) || {};
  const next = view.to_move;
  const needed = entry && entry.kind === "hotseat" && !view.over && next !== view.seat && tokens[next];
  overlay.hidden = !needed;
  document.body.classList.toggle("handing-over", Boolean(needed));
  if (!needed) return;
  const name = view.players[next].name;
  $("handover-text").textContent = t("Pass the device to {name}.", { name });
  $("handover-ready").textContent = t("I am {name}: show my tiles", { name });
  $("handover-ready").onclick = () => switchSeat(tokens[next]);
}

async function switchSeat(token) {
  state.token = token;
  state.rackKey = "";
  state.cursor = null;
  setTabToken(gameId, token);
  connect();
  await refresh();
}

// ---- staying up to date -------------------------------------------------------------------

async function refresh() {
  try {
    applyView(await getJson(`/api/games/${encodeURIComponent(gameId)}`, state.token));
  } catch (error) {
    say(error.message, "error");
  }
}

let reconnectDelay = 500;

function connect() {
  if (state.socket) {
    state.socket.onclose = null;
    state.socket.onmessage = null;
    state.socket.close();
  }
  const socket = new WebSocket(liveUrl(gameId, state.token));
  state.socket = socket;
  socket.onmessage = (event) => {
    reconnectDelay = 500;
    try {
      applyView(JSON.parse(event.data));
    } catch {
      // A message that is not a view is not for this page.
    }
  };
  socket.onclose = (event) => {
    if (state.socket !== socket) return;
    if (event.code < 4000) setTurnInfo(t("Connection lost: reconnecting…"));
    // 4000 + an HTTP status: the server refused this link or token; retrying cannot help.
    if (event.code >= 4000 && event.code < 5000) {
      say(event.reason || t("The server refused to follow this game: check the link."), "error");
      return;
    }
    setTimeout(() => {
      if (state.socket === socket) connect();
    }, reconnectDelay);
    reconnectDelay = Math.min(reconnectDelay * 2, 8000);
  };
}

async function main() {
  document.addEventListener("keydown", onKey);
  window.addEventListener("resize", fitTitle);
  $("play").addEventListener("click", play);
  $("recall").addEventListener("click", recall);
  $("shuffle").addEventListener("click", shuffle);
  $("exchange").addEventListener("click", exchange);
  $("pass").addEventListener("click", () => submit({ move: "pass" }));
  $("hint").addEventListener("click", hint);
  $("move").addEventListener("input", previewTyped);
  $("move-form").addEventListener("submit", (event) => {
    event.preventDefault();
    const text = $("move").value.trim();
    if (text) submit({ move: text });
  });
  $("rematch").addEventListener("click", rematch);
  endButtons = new EndButtons({ gameId, token: () => state.token, onView: applyView, say });
  try {
    state.meta = await loadMeta();
  } catch (error) {
    say(error.message, "error");
    return;
  }
  boardView = new BoardView($("board"), state.meta, { onSquare: clickSquare });
  boardView.container.addEventListener("pointerdown", (event) => {
    const square = event.target.closest("[data-square]");
    if (square && state.pending.has(square.dataset.square)) {
      beginDrag(event, { id: state.pending.get(square.dataset.square).id, from: square.dataset.square });
    }
  });
  try {
    state.view = await getJson(`/api/games/${encodeURIComponent(gameId)}`, state.token);
  } catch (error) {
    if (!(error instanceof ApiError && error.status === 401)) return showLoadError(error);
    // A link whose token opens no seat still shows the game, as a spectator sees it.
    state.token = null;
    state.linkProblem = error.message;
    setTabToken(gameId, null);
    try {
      state.view = await getJson(`/api/games/${encodeURIComponent(gameId)}`, null);
    } catch (again) {
      return showLoadError(again);
    }
    render();
    connect();
    say(t("{problem} You are watching the game instead.", { problem: error.message }), "error");
    return;
  }
  if (isSeat()) {
    const players = state.view.players;
    const kind = players.some((player) => player.computer) ? "computer" : "online";
    rememberToken(gameId, state.view.seat, state.token, players.map((player) => player.name), kind);
  }
  render();
  connect();
}

// The header's turn, and the site's title beside it whole or not at all: on a phone a long
// turn ("Partie terminée", "Computer is thinking…") left the title as "Scrabble …" or "B…".
// A title that does not fit is left to screen readers (the page's h1 stays).
function setTurnInfo(text) {
  $("turn-info").textContent = text;
  fitTitle();
}

function fitTitle() {
  const title = document.querySelector(".site-title");
  const header = title && title.closest(".top");
  if (!header) return;
  header.classList.remove("title-left-out");
  if (title.scrollWidth > title.clientWidth + 1) header.classList.add("title-left-out");
}

function showLoadError(error) {
  $("seat-area").hidden = true;
  setTurnInfo(error.message);
  say(error.message, "error");
}

async function rematch() {
  try {
    const created = await postJson(`/api/games/${encodeURIComponent(gameId)}/rematch`, {}, state.token);
    // Each player keeps their token in the rematch, one seat earlier (the next player
    // starts): every token this browser holds still works, at its player's new seat.
    const old = findGame(gameId);
    const held = old ? old.tokens : { [state.view.seat]: state.token };
    const names = created.seats.map((seat) => seat.name);
    const tokens = {};
    for (const [seat, token] of Object.entries(held)) {
      tokens[names.indexOf(state.view.players[seat].name)] = token;
    }
    rememberGame({ id: created.id, kind: old ? old.kind : "online", names, tokens, created: Date.now() });
    setTabToken(created.id, state.token);
    location.assign(`/games/${encodeURIComponent(created.id)}`);
  } catch (error) {
    say(error.message, "error");
  }
}

main();
