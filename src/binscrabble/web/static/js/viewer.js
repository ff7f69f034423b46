// A viewer for any game record file: the server reads it, the page steps through it.

import { ApiError, loadMeta, postJson } from "./api.js";
import { drawStaticBoard } from "./board.js";
import { el } from "./panels.js";
import { stepper } from "./stepper.js";

const $ = (id) => document.getElementById(id);
const EMPTY = Array.from({ length: 15 }, () => ".".repeat(15));
let record = null;

function names() {
  return (record.players || []).map((player) => (typeof player === "string" ? player : player.name));
}

function showScores(scores) {
  const body = $("scores");
  body.replaceChildren();
  names().forEach((name, seat) => {
    body.append(el("tr", {}, el("th", { scope: "row", text: name }),
      el("td", { class: "score", "aria-label": `score ${name}`, text: String(scores[seat] ?? 0) })));
  });
}

async function open(file, controls) {
  const text = await file.text();
  try {
    record = await postJson("/api/records/view", { record: text });
  } catch (error) {
    record = null;
    $("turns").replaceChildren();
    $("status").textContent = error instanceof ApiError ? error.message : String(error);
    return;
  }
  const body = $("turns");
  body.replaceChildren();
  const start = el("tr", {}, el("td", { text: "0" }), el("td", { text: "" }), el("td", { text: "start" }), el("td", { text: "" }));
  start.addEventListener("click", () => controls.go(0));
  body.append(start);
  record.turns.forEach((turn, index) => {
    const row = el("tr", {}, el("td", { text: String(index + 1) }), el("td", { text: names()[turn.seat] || "" }),
      el("td", { class: "notation", text: turn.notation }), el("td", { text: String(turn.score) }));
    row.addEventListener("click", () => controls.go(index + 1));
    body.append(row);
  });
  controls.go(record.turns.length);
}

async function main() {
  const meta = loadMeta();
  const controls = stepper({
    count: () => (record ? record.turns.length + 1 : 1),
    rows: () => [...$("turns").children],
    show: async (index) => {
      if (!record) return;
      const turn = index > 0 ? record.turns[index - 1] : null;
      drawStaticBoard($("board"), await meta, turn || { board: EMPTY, blanks: [], rotated: [] });
      showScores(turn ? turn.scores : names().map(() => 0));
      $("position").textContent = `Turn ${index} of ${record.turns.length}`;
      $("status").textContent = turn
        ? `${names()[turn.seat]} played ${turn.notation} for ${turn.score}.`
        : `${names().join(" vs ")}: the start of the game.`;
    },
  });
  // Listening before anything is awaited: a file chosen at once is not missed.
  $("file").addEventListener("change", (event) => {
    const file = event.target.files[0];
    if (file) open(file, controls);
  });
  try {
    drawStaticBoard($("board"), await meta, { board: EMPTY, blanks: [], rotated: [] });
  } catch (error) {
    $("status").textContent = error.message;
  }
}

main();
