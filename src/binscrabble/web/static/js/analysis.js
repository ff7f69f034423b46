// The analysis of a finished game: each turn's move, the computer's best, the points lost,
// and the board at that turn.

import { getJson, loadMeta } from "./api.js";
import { drawStaticBoard } from "./board.js";
import { el } from "./panels.js";
import { takeLinkToken } from "./store.js";
import { stepper } from "./stepper.js";

const gameId = decodeURIComponent(location.pathname.split("/")[2] || "");
const $ = (id) => document.getElementById(id);

async function main() {
  // A token in the address (an older link) moves to this tab's storage, where the game page
  // finds it again.
  takeLinkToken(gameId);
  $("back-to-game").href = `/games/${encodeURIComponent(gameId)}`;
  $("status").textContent = "The computer is looking at every turn…";
  let meta;
  let analysis;
  let view;
  try {
    [meta, analysis, view] = await Promise.all([
      loadMeta(),
      getJson(`/api/games/${encodeURIComponent(gameId)}/analysis`),
      getJson(`/api/games/${encodeURIComponent(gameId)}`),
    ]);
  } catch (error) {
    $("status").textContent = error.message;
    return;
  }
  const names = view.players.map((player) => player.name);
  const body = $("turns");
  const turns = analysis.turns;
  const controls = stepper({
    count: () => turns.length,
    rows: () => [...body.children],
    show: (index) => {
      const turn = turns[index];
      drawStaticBoard($("board"), meta, turn);
      $("position").textContent = `Turn ${index + 1} of ${turns.length}`;
      const best = turn.best ? `${turn.best.notation} for ${turn.best.score}` : "nothing better";
      const lost = turn.lost ? `, ${turn.lost} points below the best` : ", as good as the best";
      $("status").textContent =
        `Board before turn ${index + 1}. ${names[turn.seat]} played ${turn.played.notation} for ${turn.played.score}${lost}. ` +
        `The computer's best: ${best}.`;
    },
  });
  turns.forEach((turn, index) => {
    const row = el("tr", {},
      el("td", { text: String(index + 1) }), el("td", { text: names[turn.seat] || "" }),
      el("td", { class: "notation", text: `${turn.played.notation} (${turn.played.score})` }),
      el("td", { class: "notation", text: turn.best ? `${turn.best.notation} (${turn.best.score})` : "—" }),
      el("td", { text: String(turn.lost) }));
    row.addEventListener("click", () => controls.go(index));
    body.append(row);
  });
  if (!turns.length) {
    $("status").textContent = "This game has no turns to analyse.";
    return;
  }
  controls.go(0);
}

main();
