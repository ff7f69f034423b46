// A viewer for any game record file: the server reads it, the page steps through it. Each
// turn's tiles are marked on the board; a chart shows every score through the game. Moves
// are shown as the server writes them for people (`display`), with the tiles' faces.

import { ApiError, loadMeta, postJson } from "./api.js";
import { named } from "./bidi.js";
import { drawStaticBoard } from "./board.js";
import { gameChart } from "./chart.js";
import { drawMarkedBoard } from "./marks.js";
import { el, moveCellElement, moveClause, moveSentence } from "./panels.js";
import { stepper } from "./stepper.js";
import { plain, t } from "./i18n.js";

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
      el("td", { class: "score", "aria-label": plain(t("score {name}", { name })), text: String(scores[seat] ?? 0) })));
  });
}

// How the recorded game ended, in a sentence or two: the winner(s), the final scores and
// why it ended (played out, six scoreless turns, a resignation, a player's time, an abort).
function outcomeText() {
  const who = names();
  const result = record.result;
  if (!result) return t("The record stops before the end of the game ({count} turns).", { count: record.turns.length });
  const end = record.end || {};
  const leaver = Number.isInteger(end.seat) ? who[end.seat] : "";
  const winners = result.winners.map((seat) => who[seat]);
  const together = winners.length > 1 ? winners.reduce((first, second) => t("{first} and {second}", { first, second })) : "";
  const won = winners.length === 0 ? t("Nobody wins.")
    : winners.length === 1 ? t("{name} wins.", { name: winners[0] }) : t("A draw between {names}.", { names: together });
  const finals = who.map((name, seat) => `${name} ${result.final[seat]}`).join(", ");
  const outBy = result.adjustments.findIndex((points) => points > 0);
  const how = {
    out: outBy >= 0
      ? t("The game was played out: {name} went out with the bag empty.", { name: who[outBy] })
      : t("The game was played out: a player went out with the bag empty."),
    scoreless: t("Six scoreless turns in a row ended the game."),
    resigned: t("{name} resigned.", { name: leaver }),
    time: t("{name} ran out of time.", { name: leaver }),
    aborted: t("{name} aborted the game.", { name: leaver }),
  }[result.reason] || "";
  return `${won} ${t("Final scores: {scores}.", { scores: finals })} ${how}`;
}

function chartTurns() {
  return record.turns.map((turn, index) => ({
    seat: turn.seat,
    scores: turn.scores,
    lost: null,
    analysed: true,
    text: t("Turn {turn}: {event}", { turn: index + 1, event: moveClause(names()[turn.seat], turn) }),
  }));
}

async function open(file, controls) {
  try {
    const text = await file.text();
    record = await postJson("/api/records/view", { record: text });
  } catch (error) {
    record = null;
    $("outcome").hidden = true;
    $("turns").replaceChildren();
    $("chart").closest("section").hidden = true;
    $("status").textContent = error instanceof ApiError ? error.message : String(error);
    return;
  }
  const body = $("turns");
  body.replaceChildren();
  const start = el("tr", {}, el("td", { text: "0" }), el("td", { text: "" }), el("td", { text: t("start") }), el("td", { text: "" }));
  start.addEventListener("click", () => controls.go(0));
  body.append(start);
  record.turns.forEach((turn, index) => {
    const row = el("tr", {}, el("td", { text: String(index + 1) }), el("td", { text: names()[turn.seat] || "", title: names()[turn.seat] || "" }),
      moveCellElement(turn), el("td", { text: String(turn.score) }));
    row.addEventListener("click", () => controls.go(index + 1));
    body.append(row);
  });
  $("chart").closest("section").hidden = false;
  $("outcome").textContent = outcomeText();
  $("outcome").hidden = false;
  // The viewer opens at the first turn, as the analysis does: Forward replays the game in
  // order, Last goes to the final board; the outcome above says how it ended (docs/web.md).
  controls.go(Math.min(1, record.turns.length));
}

async function main() {
  const meta = loadMeta();
  const chart = gameChart($("chart"));
  const controls = stepper({
    count: () => (record ? record.turns.length + 1 : 1),
    rows: () => [...$("turns").children],
    show: async (index) => {
      if (!record) return;
      const turn = index > 0 ? record.turns[index - 1] : null;
      const position = turn || { board: EMPTY, blanks: [], rotated: [] };
      drawMarkedBoard($("board"), await meta, position, { played: turn ? turn.tiles : [] });
      showScores(turn ? turn.scores : names().map(() => 0));
      $("position").textContent = t("Turn {turn} of {total}", { turn: index, total: record.turns.length });
      const players = names().reduce((first, second) => t("{first} vs {second}", { first, second }));
      $("status").textContent = turn
        ? moveSentence(names()[turn.seat], turn)
        : t("{players}: the start of the game.", { players });
      const final = record.result ? record.result.final : null; // the end settled
      chart.update({ names: names(), turns: chartTurns(), current: index, onTurn: (number) => controls.go(number), final });
    },
  });
  // Listening before anything is awaited: a file chosen at once is not missed. The page's
  // own button, in its language, opens the file input, which the browser would label in
  // its own ("Choose File"): the input stays hidden.
  $("choose-file").addEventListener("click", () => $("file").click());
  $("file").addEventListener("change", (event) => {
    const file = event.target.files[0];
    if (!file) return;
    $("file-name").replaceChildren(named(file.name));
    open(file, controls);
  });
  try {
    drawStaticBoard($("board"), await meta, { board: EMPTY, blanks: [], rotated: [] });
  } catch (error) {
    $("status").textContent = error.message;
  }
}

main();
