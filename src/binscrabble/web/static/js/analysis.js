// The analysis of a finished game: each turn's move, the computer's best, the points lost,
// the board of that turn with both moves marked, and a chart of the whole game. The server
// answers in parts as it analyses the turns ({"turns", "total", "complete"}): the page shows
// what is done, with a progress bar, and asks again until the analysis is complete. Moves
// are shown as the server writes them for people (`display`), with the tiles' faces.

import { ApiError, getJson, loadMeta } from "./api.js";
import { gameChart } from "./chart.js";
import { drawMarkedBoard, withTiles } from "./marks.js";
import { bestSentence, departureRow, departuresAmid, el, endSentence, moveCellElement, moveClause, points, winnersSentence } from "./panels.js";
import { takeLinkToken } from "./store.js";
import { stepper } from "./stepper.js";
import { t } from "./i18n.js";

const gameId = decodeURIComponent(location.pathname.split("/")[2] || "");
const $ = (id) => document.getElementById(id);
// Seconds between two requests while the analysis goes on, and after a 503 (busy).
const AGAIN_SECONDS = 2;
const BUSY_SECONDS = 5;
// Requests before the page gives up (about ten minutes).
const MAX_REQUESTS = 600;

const sleep = (seconds) => new Promise((resolve) => setTimeout(resolve, seconds * 1000));

// A move and its score in a cell: "8D 1+1=10 (6)", "passed (0)", "exchanged 3 tiles (0)".
function scoredCell(move) {
  const cell = moveCellElement(move);
  cell.append(` (${move.score})`);
  return cell;
}

function turnRow(turn, index, names, controls) {
  const lost = turn.analysed ? String(turn.lost) : `≥ ${turn.lost}`;
  const row = el("tr", {},
    el("td", { text: String(index + 1) }), el("td", { text: names[turn.seat] || "", title: names[turn.seat] || "" }),
    scoredCell(turn.played), scoredCell(turn.best),
    el("td", { text: lost }));
  if (!turn.analysed) {
    row.title = turn.reason;
    row.classList.add("not-analysed");
  }
  row.addEventListener("click", () => controls.go(index));
  return row;
}

function describe(turn, index, names) {
  const values = {
    turn: index + 1,
    event: moveClause(names[turn.seat], turn.played),
    lost: points(turn.lost),
  };
  const played = turn.lost
    ? t("Turn {turn}: {event}, {lost} below the best.", values)
    : t("Turn {turn}: {event}, as good as the best.", values);
  const text = `${played} ${bestSentence(turn.best)}`;
  return turn.analysed ? text : `${text} ${t("This turn was {reason}.", { reason: turn.reason })}`;
}

// What the chart needs of each turn.
function chartTurns(turns, names) {
  return turns.map((turn, index) => ({
    seat: turn.seat,
    scores: turn.scores,
    lost: turn.lost,
    analysed: turn.analysed,
    text: t("Turn {turn}: {event}", { turn: index + 1, event: moveClause(names[turn.seat], turn.played) }),
  }));
}

function showProgress(done, total, complete) {
  const bar = $("progress");
  bar.max = Math.max(total, 1);
  bar.value = done;
  bar.hidden = complete;
  $("progress-text").textContent = complete ? "" : t("Analysed {done} of {total} turns…", { done, total });
}

async function main() {
  // A token in the address (an older link) moves to this tab's storage, where the game page
  // finds it again.
  takeLinkToken(gameId);
  const path = `/api/games/${encodeURIComponent(gameId)}/analysis`;
  $("back-to-game").href = `/games/${encodeURIComponent(gameId)}`;
  $("status").textContent = t("The computer is looking at every turn…");
  let meta;
  let view;
  try {
    [meta, view] = await Promise.all([
      loadMeta(),
      getJson(`/api/games/${encodeURIComponent(gameId)}`),
    ]);
  } catch (error) {
    $("status").textContent = error.message;
    return;
  }
  const names = view.players.map((player) => player.name);
  // How the game ended (INTERFACES.md §7: played out, scoreless turns, resigned, time,
  // aborted), as the end screen says it.
  if (view.result) $("ending").textContent = `${winnersSentence(view)} ${endSentence(view)}`.trim();
  const body = $("turns");
  const amid = departuresAmid(view);
  const turns = [];
  let total = 0;
  const chart = gameChart($("chart"));
  const controls = stepper({
    count: () => turns.length,
    rows: () => [...body.children].filter((row) => !row.classList.contains("log-departure")),
    show: (index) => {
      const turn = turns[index];
      const marks = { played: turn.played.tiles, best: turn.best.tiles };
      drawMarkedBoard($("board"), meta, withTiles(turn, turn.played.tiles), marks);
      $("position").textContent = t("Turn {turn} of {total}", { turn: index + 1, total });
      $("status").textContent = describe(turn, index, names);
      // Once every turn is in, the lines end at the final scores (the end settled).
      const final = view.result && turns.length === total ? view.result.final : null;
      chart.update({ names, turns: chartTurns(turns, names), current: index + 1, onTurn: (number) => controls.go(number - 1), final });
    },
  });
  for (let asked = 0; asked < MAX_REQUESTS; asked += 1) {
    let analysis;
    try {
      analysis = await getJson(path);
    } catch (error) {
      $("progress-text").textContent = error.message;
      if (!(error instanceof ApiError) || ![429, 503].includes(error.status)) return;
      await sleep(BUSY_SECONDS);
      continue;
    }
    total = analysis.total;
    if (analysis.note) {
      $("note").textContent = analysis.note;
      $("note").hidden = false;
    }
    const first = turns.length === 0;
    for (const turn of analysis.turns.slice(turns.length)) {
      // A seat that left while the others played on is said at its place, before the
      // first turn after it (the one that ended the game is said under the title).
      body.append(...amid.filter((left) => left.turn === turns.length).map((left) => departureRow(view, left)));
      turns.push(turn);
      body.append(turnRow(turn, turns.length - 1, names, controls));
    }
    if (analysis.complete) {
      body.append(...amid.filter((left) => left.turn >= turns.length).map((left) => departureRow(view, left)));
    }
    showProgress(turns.length, total, analysis.complete);
    if (first && turns.length) controls.go(0);
    else if (turns.length) controls.go(controls.current());
    if (analysis.complete) {
      if (!turns.length) $("status").textContent = t("This game has no turns to analyse.");
      return;
    }
    await sleep(AGAIN_SECONDS);
  }
  $("progress-text").textContent = t("The analysis is taking too long: reload the page to see more.");
}

main();
